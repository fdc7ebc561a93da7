//! Generates the PRP types from schemas/ into OUT_DIR. Cargo reruns this only when a file under
//! schemas/ (or this script) changes.

use std::path::Path;

/// The `date-time` format as the PRP contract asserts it (PROTOCOL §1).
const PRP_DATE_TIME: &str =
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{3})?Z$";

fn main() {
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", schemas.display());
    // The session-goal `$defs` keys (`capability`, `snapshot`) are too generic for crate-level names.
    let goal = "https://paperclip.dev/schemas/prp/v2/session-goal.schema.json#/$defs/";
    let options = prp_codegen::Options::new()
        .document_union("Document", "schema")
        .name(format!("{goal}capability"), "GoalCapability")
        .name(format!("{goal}snapshot"), "GoalSnapshot")
        // The contract's `date-time` profile: UTC, whole seconds, optional milliseconds.
        .format(
            "date-time",
            prp_codegen::Format::Pattern(PRP_DATE_TIME.to_owned()),
        );
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
