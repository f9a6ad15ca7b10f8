//! Adds an rpath to libtenferro for this crate's tests and examples, so that `cargo test` and
//! `cargo run --example` work without LD_LIBRARY_PATH. The directory comes from tenferro-sys's
//! build script (`DEP_TENFERRO_LIB_DIR`); cargo does not forward a dependency's link arguments.

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_TENFERRO_LIB_DIR");
    if let Ok(dir) = std::env::var("DEP_TENFERRO_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
