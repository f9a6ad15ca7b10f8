//! Every C function of the generated bindings is used by the safe crate.
//!
//! Reads tenferro-sys/src/bindings.rs, collects the `pub fn tfe_*` names and checks that each
//! appears as a whole identifier in the safe crate's sources (called directly, or named in the
//! op tables of `ops.rs`). Creates no library object.

use std::fs;
use std::path::Path;

#[test]
fn every_exported_function_is_wrapped() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bindings = fs::read_to_string(crate_dir.join("../tenferro-sys/src/bindings.rs"))
        .expect("read bindings.rs");
    let functions: Vec<&str> = bindings
        .split("pub fn ")
        .skip(1)
        .filter_map(|rest| rest.split('(').next())
        .map(str::trim)
        .filter(|name| name.starts_with("tfe_"))
        .collect();
    assert!(
        functions.len() > 150,
        "found only {} functions",
        functions.len()
    );

    let mut sources = String::new();
    for entry in fs::read_dir(crate_dir.join("src")).expect("read src") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            sources += &fs::read_to_string(&path).expect("read source");
        }
    }
    // Handle kinds the safe crate never shares: results are taken apart at once, and each call
    // builds its own linear algebra options object.
    let excluded = ["tfe_results_retain", "tfe_linalg_options_retain"];
    let missing: Vec<&&str> = functions
        .iter()
        .filter(|name| !excluded.contains(name) && !mentions(&sources, name))
        .collect();
    assert!(missing.is_empty(), "not wrapped: {missing:?}");
}

/// Whether `name` occurs in `text` as a whole identifier (not as a prefix of a longer one, as
/// `tfe_add` inside `tfe_address`).
fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back().is_some_and(ident);
        let after = text[i + name.len()..].chars().next().is_some_and(ident);
        !before && !after
    })
}
