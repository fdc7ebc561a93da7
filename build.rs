//! Generates the PRP types from schemas/ into OUT_DIR. Cargo reruns this only when a file under
//! schemas/ (or this script) changes. `PRP_SCHEMA_DIR` names another directory to generate from
//! (the schema-edit tests build prp-types from edited copies of schemas/ with it).

use std::path::Path;

include!("prp-types/codegen_options.rs");

fn main() {
    println!("cargo:rerun-if-env-changed=PRP_SCHEMA_DIR");
    let schemas = match std::env::var_os("PRP_SCHEMA_DIR") {
        Some(dir) => std::path::PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas"),
    };
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=prp-types/codegen_options.rs");
    println!("cargo:rerun-if-changed={}", schemas.display());
    let options = prp_options();
    let output = match prp_codegen::generate_dir(&schemas, &options) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("prp-codegen failed: {e}");
            std::process::exit(1);
        }
    };
    for f in &output.schemas.files {
        println!("cargo:rerun-if-changed={}", schemas.join(&f.path).display());
    }
    let out =
        Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("prp_types.rs");
    // Write only on change so that dependents are not rebuilt for nothing.
    if std::fs::read_to_string(&out).ok().as_deref() != Some(output.code.as_str())
        && let Err(e) = std::fs::write(&out, output.code)
    {
        eprintln!("cannot write {}: {e}", out.display());
        std::process::exit(1);
    }
}
