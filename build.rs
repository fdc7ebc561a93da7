//! prp-types' generated module, one of two ways:
//!
//! - Under `--cfg prp_regenerate` (this repository's `.cargo/config.toml` sets it) the generator
//!   runs over `schemas/` (or `$PRP_SCHEMA_DIR`) into OUT_DIR, and the crate includes that: a
//!   schema edit changes the types on the next build.
//! - Otherwise (a dependent of the published package) the crate includes the module the package
//!   ships, `prp-types/src/generated/prp_types.rs`, after checking that the packaged schemas are
//!   the ones it was generated from (`schemas.sha256` beside it); no generator is compiled.
//!
//! Paths come from the environment at run time, never from `env!` at compile time: one compiled
//! build script serves every checkout that shares a target directory, and each must see its own
//! schemas.

use std::path::{Path, PathBuf};

#[cfg(prp_regenerate)]
include!("prp-types/codegen_options.rs");
include!("prp-types/schema_inputs.rs");

fn main() {
    println!("cargo:rerun-if-env-changed=PRP_SCHEMA_DIR");
    println!("cargo:rerun-if-changed=build.rs");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let schema_dir = std::env::var_os("PRP_SCHEMA_DIR").map(PathBuf::from);
    if let Err(message) = build(&root, schema_dir) {
        eprintln!("error: {message}");
        std::process::exit(1);
    }
}

#[cfg(prp_regenerate)]
fn build(root: &Path, schema_dir: Option<PathBuf>) -> Result<(), String> {
    let edited = schema_dir.is_some();
    let schemas = schema_dir.unwrap_or_else(|| root.join("schemas"));
    println!(
        "cargo:rerun-if-changed={}",
        root.join("prp-types/codegen_options.rs").display()
    );
    println!("cargo:rerun-if-changed={}", schemas.display());
    let output = prp_codegen::generate_dir(&schemas, &prp_options())
        .map_err(|e| format!("prp-codegen failed: {e}"))?;
    for f in &output.schemas.files {
        println!("cargo:rerun-if-changed={}", schemas.join(&f.path).display());
    }
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let out = out_dir.join("prp_types.rs");
    // Write only on change so that dependents are not rebuilt for nothing.
    if std::fs::read_to_string(&out).ok().as_deref() != Some(output.code.as_str()) {
        std::fs::write(&out, &output.code).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    println!("cargo:rustc-cfg=prp_types_in_out_dir");
    let shipped = root.join(SHIPPED_MODULE);
    println!("cargo:rerun-if-changed={}", shipped.display());
    if !edited && std::fs::read_to_string(&shipped).ok().as_deref() != Some(output.code.as_str()) {
        println!(
            "cargo:warning=the shipped module {SHIPPED_MODULE} is not what schemas/ generate now; \
             refresh it with `{REFRESH}`"
        );
    }
    Ok(())
}

#[cfg(not(prp_regenerate))]
fn build(root: &Path, schema_dir: Option<PathBuf>) -> Result<(), String> {
    if let Some(dir) = schema_dir {
        return Err(format!(
            "PRP_SCHEMA_DIR={} asks for types generated from other schemas, which needs the \
             generator: build with RUSTFLAGS='--cfg prp_regenerate'",
            dir.display()
        ));
    }
    let schemas = root.join("schemas");
    let record = root.join(SHIPPED_INPUTS);
    println!("cargo:rerun-if-changed={}", schemas.display());
    println!("cargo:rerun-if-changed={}", record.display());
    let now = schema_inputs(&schemas).map_err(|e| format!("{}: {e}", schemas.display()))?;
    let then =
        std::fs::read_to_string(&record).map_err(|e| format!("{}: {e}", record.display()))?;
    if now != then {
        return Err(format!(
            "the schemas under {} are not the ones {SHIPPED_MODULE} was generated from \
             (see {SHIPPED_INPUTS}); regenerate with RUSTFLAGS='--cfg prp_regenerate', or refresh \
             the shipped module with `{REFRESH}`",
            schemas.display()
        ));
    }
    Ok(())
}
