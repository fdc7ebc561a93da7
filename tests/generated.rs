//! The module the package ships (`prp-types/src/generated/prp_types.rs`) is exactly what the
//! generator makes of `schemas/` today, and `schemas.sha256` beside it records those schemas: a
//! dependent of the package, which compiles the shipped module without the generator, gets the
//! same types as a build of this repository. `UPDATE_GENERATED=1` rewrites both files instead of
//! failing (rust-analyzer's way with its generated sources).

use std::path::{Path, PathBuf};

include!("../prp-types/codegen_options.rs");
include!("../prp-types/schema_inputs.rs");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compares `path` with `fresh`, or writes it under `UPDATE_GENERATED=1`; the name of a stale
/// file otherwise.
fn compare_or_update(path: &Path, fresh: &str) -> Option<String> {
    let current = std::fs::read_to_string(path).unwrap_or_default();
    if current == fresh {
        return None;
    }
    if std::env::var_os("UPDATE_GENERATED").is_some_and(|v| v == "1") {
        std::fs::write(path, fresh).unwrap();
        eprintln!("updated {}", path.display());
        return None;
    }
    Some(path.display().to_string())
}

#[test]
fn the_shipped_module_is_what_the_schemas_generate() {
    let root = root();
    let schemas = root.join("schemas");
    let output = prp_codegen::generate_dir(&schemas, &prp_options()).unwrap();
    let inputs = schema_inputs(&schemas).unwrap();
    let stale: Vec<String> = [
        compare_or_update(&root.join(SHIPPED_MODULE), &output.code),
        compare_or_update(&root.join(SHIPPED_INPUTS), &inputs),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert!(
        stale.is_empty(),
        "stale: {stale:?}; refresh with `{REFRESH}`"
    );
}

/// The record lists every schema file the generator read, and nothing else.
#[test]
fn the_record_names_every_schema_the_generator_reads() {
    let schemas = root().join("schemas");
    let output = prp_codegen::generate_dir(&schemas, &prp_options()).unwrap();
    let recorded: Vec<String> = schema_inputs(&schemas)
        .unwrap()
        .lines()
        .map(|l| l.split_once("  ").unwrap().1.to_owned())
        .collect();
    let mut read: Vec<String> = output
        .schemas
        .files
        .iter()
        .map(|f| f.path.clone())
        .collect();
    read.sort();
    assert_eq!(recorded, read);
}
