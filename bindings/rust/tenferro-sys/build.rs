//! Finds libtenferro: `TENFERRO_LIB_DIR` first, then `pkg-config --libs tenferro`.
//!
//! The directory goes to the linker search path and, as an rpath, into this package's own test
//! binaries; it is also published as `DEP_TENFERRO_LIB_DIR` (this package `links = "tenferro"`)
//! so that dependents can add the same rpath to theirs.

use std::env;
use std::path::PathBuf;
use std::process::Command;

fn from_pkg_config() -> Option<PathBuf> {
    let output = Command::new("pkg-config")
        .args(["--libs-only-L", "tenferro"])
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let from_flags = text
        .split_whitespace()
        .find_map(|flag| flag.strip_prefix("-L"))
        .map(PathBuf::from);
    if from_flags.is_some() {
        return from_flags;
    }
    // No -L (the library is on the default search path): use the libdir variable for the rpath.
    let output = Command::new("pkg-config")
        .args(["--variable=libdir", "tenferro"])
        .output()
        .ok()?;
    let dir = String::from_utf8(output.stdout).ok()?;
    let dir = dir.trim();
    (!dir.is_empty()).then(|| PathBuf::from(dir))
}

fn main() {
    println!("cargo:rerun-if-env-changed=TENFERRO_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-changed=build.rs");

    let dir = match env::var_os("TENFERRO_LIB_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => from_pkg_config().unwrap_or_else(|| {
            panic!(
                "libtenferro not found: set TENFERRO_LIB_DIR to the directory holding \
                 libtenferro.so (a build tree or an installed lib dir), or make \
                 `pkg-config --libs tenferro` work (PKG_CONFIG_PATH=<prefix>/lib/pkgconfig)"
            )
        }),
    };
    let dir = dir.canonicalize().unwrap_or(dir);
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=dylib=tenferro");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    println!("cargo:lib_dir={}", dir.display());
}
