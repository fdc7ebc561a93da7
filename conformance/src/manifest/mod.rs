//! The conformance manifest of a protocol directory (PROTOCOL §7): every schema and fixture with its
//! SHA-256, each fixture's expectation and compatibility case, generated only when every check of
//! §7.4 passes, so that one `--check` proves the hashes, the schema catalog, every fixture
//! validation and every expected rejection at once.
//!
//! Decisions:
//! - Schemas are the `*.json` files directly in `schemas/`; subdirectories are not scanned. The
//!   project keeps the ACPX sidecar schema in `schemas/provider/`: its `$id` is outside the PRP
//!   prefix and the reference keeps provider schemas out of the manifest (§0.2), so it stays out.
//! - Fixtures are validated with the contract pipeline and the types generated at build time, not
//!   by interpreting the directory's schema files; the catalog therefore also requires every
//!   schema's `$id` to be one the types were generated from (`schema_compile_error` otherwise),
//!   along with every `pattern` compiling as an ECMAScript regex.
//! - Accepted replay fixtures must pass the whole pipeline (binding checks included), which is
//!   stricter than the reference's schema-only check and agrees with it on the corpus.
//! - Project extension: files under `fixtures/rejected/binding/` are expected rejections
//!   (`binding-mismatch`) that must pass stages 1–2 and fail the binding checks. The reference
//!   corpus has no such directory, so its manifest is unchanged.
//! - Question fixtures: the Open point of §7.4.3 is decided as schema, generic checks and the
//!   adapter's native method; the acpx `elicitation/create` projection is not ported.
//! - `generatedFrom` keeps the reference's labels (`protocol/schemas`, `protocol/fixtures`): they
//!   name the roles of the two directories, whatever the protocol directory is called.
//! - A directory is checked for one protocol range, the [`Contract`] every function here takes: its
//!   fixtures go through the pipeline of that range, and the manifest's `protocolVersion` is the
//!   range's maximum, the newest version the directory's contract speaks (2 for a v1/v2 directory
//!   checked with 1..2, exactly as before v3; 3 by default).

mod catalog;
mod fixtures;
mod questions;

use crate::digest::hex;
use crate::issue::{Code, Issue};
use prp_peer::contract::Contract;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::io;
use std::path::{Path, PathBuf};

/// The manifest's file name inside the protocol directory.
pub const FILE_NAME: &str = "manifest.json";

/// The manifest's `schema` value.
pub const MANIFEST_SCHEMA: &str = "paperclip.prp.contract_manifest.v1";

/// The dialect every schema must declare.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The prefix of every PRP schema `$id`.
pub const ID_PREFIX: &str = "https://paperclip.dev/schemas/prp/";

/// A failed check: an [`Issue`] whose message names the file (its pointer is empty: the manifest
/// checks files, not members), printed `<code>: <message>`.
pub(crate) fn problem(code: Code, detail: impl Into<String>) -> Issue {
    Issue::new(code, "", detail)
}

/// Why no manifest could be produced.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// At least one check failed; every failure is listed.
    #[error("{} check(s) failed:\n{}", .0.len(), lines(.0))]
    Invalid(Vec<Issue>),
}

fn lines(problems: &[Issue]) -> String {
    problems
        .iter()
        .map(|p| format!("  {}: {}", p.code, p.message))
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn io_error(path: &Path, source: io::Error) -> Error {
    Error::Io {
        path: path.to_owned(),
        source,
    }
}

/// A generated manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// The manifest document, keys in the order of §7.1.
    pub value: Value,
}

impl Manifest {
    /// The file's exact text: pretty JSON with a trailing newline.
    pub fn to_pretty(&self) -> String {
        crate::json::pretty(&self.value)
    }
}

/// The outcome of `--check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// The file equals the regenerated manifest byte for byte.
    Fresh,
    /// The file differs; each line names one stale part.
    Stale(Vec<String>),
}

/// Where the manifest of `dir` lives.
pub fn manifest_path(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

/// A file read for the manifest: its path relative to the protocol directory, text and hash.
pub(crate) struct Source {
    pub rel: String,
    pub text: String,
    pub sha256: String,
}

/// Reads a file as UTF-8 text with CRLF turned into LF, and hashes that text.
pub(crate) fn read_source(dir: &Path, rel: String) -> Result<Source, Error> {
    let path = dir.join(&rel);
    let bytes = std::fs::read(&path).map_err(|e| io_error(&path, e))?;
    let text = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
    let sha256 = hex(&Sha256::digest(text.as_bytes()));
    Ok(Source { rel, text, sha256 })
}

/// Sorts relative paths as the reference does: by UTF-16 code units of the whole path.
pub(crate) fn sort_paths(paths: &mut [String]) {
    paths.sort_by(|a, b| crate::json::utf16_cmp(a, b));
}

/// Runs every check of §7.4 on `dir` (which holds `schemas/` and `fixtures/`) for the protocol
/// range of `contract` and builds the manifest; nothing is written.
pub fn generate(dir: &Path, contract: Contract) -> Result<Manifest, Error> {
    let mut problems = Vec::new();
    let schemas = catalog::entries(dir, &mut problems)?;
    let fixtures = fixtures::entries(dir, contract, &mut problems)?;
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    let mut value = Map::new();
    value.insert("schema".into(), json!(MANIFEST_SCHEMA));
    value.insert("protocolVersion".into(), json!(contract.protocol().max()));
    value.insert("fixtureVersion".into(), json!(1));
    value.insert(
        "generatedFrom".into(),
        json!(["protocol/schemas", "protocol/fixtures"]),
    );
    value.insert("schemas".into(), Value::Array(schemas));
    value.insert("fixtures".into(), Value::Array(fixtures));
    Ok(Manifest {
        value: Value::Object(value),
    })
}

/// Generates the manifest and writes it to `dir/manifest.json`.
pub fn write(dir: &Path, contract: Contract) -> Result<Manifest, Error> {
    let manifest = generate(dir, contract)?;
    let path = manifest_path(dir);
    std::fs::write(&path, manifest.to_pretty()).map_err(|e| io_error(&path, e))?;
    Ok(manifest)
}

/// Regenerates the manifest in memory (running every check) and compares it with the file exactly;
/// a missing file counts as empty.
pub fn check(dir: &Path, contract: Contract) -> Result<Check, Error> {
    let manifest = generate(dir, contract)?;
    let path = manifest_path(dir);
    let current = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(io_error(&path, e)),
    };
    let fresh = manifest.to_pretty();
    if current == fresh.as_bytes() {
        Ok(Check::Fresh)
    } else {
        Ok(Check::Stale(stale_parts(&current, &manifest.value)))
    }
}

/// Names what differs between the file on disk and the regenerated manifest.
fn stale_parts(current: &[u8], fresh: &Value) -> Vec<String> {
    if current.is_empty() {
        return vec![format!("{FILE_NAME} is missing or empty")];
    }
    let old: Value = match serde_json::from_slice(current) {
        Ok(v) => v,
        Err(e) => return vec![format!("{FILE_NAME} is not valid JSON: {e}")],
    };
    let mut out = Vec::new();
    for key in [
        "schema",
        "protocolVersion",
        "fixtureVersion",
        "generatedFrom",
    ] {
        if old.get(key) != fresh.get(key) {
            out.push(format!("`{key}` differs"));
        }
    }
    for list in ["schemas", "fixtures"] {
        list_differences(old.get(list), fresh.get(list), list, &mut out);
    }
    if out.is_empty() {
        if old != *fresh {
            out.push("the members are not in the generated order".into());
        } else {
            out.push("the text is not the generated pretty JSON".into());
        }
    }
    out
}

fn list_differences(old: Option<&Value>, new: Option<&Value>, list: &str, out: &mut Vec<String>) {
    let entries = |v: Option<&Value>| -> Vec<(String, Value)> {
        v.and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .map(|e| {
                        let path = e.get("path").and_then(Value::as_str).unwrap_or("?");
                        (path.to_owned(), e.clone())
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let (old, new) = (entries(old), entries(new));
    for (path, entry) in &new {
        match old.iter().find(|(p, _)| p == path) {
            None => out.push(format!("{path}: not listed")),
            Some((_, was)) => {
                if let Some(fields) = entry.as_object() {
                    for (field, v) in fields {
                        if was.get(field) != Some(v) {
                            out.push(format!("{path}: `{field}` changed"));
                        }
                    }
                }
            }
        }
    }
    for (path, _) in &old {
        if !new.iter().any(|(p, _)| p == path) {
            out.push(format!("{path}: listed but no longer among the {list}"));
        }
    }
    let order = |v: &[(String, Value)]| -> Vec<String> {
        v.iter()
            .filter(|(p, _)| old.iter().any(|(o, _)| o == p) && new.iter().any(|(n, _)| n == p))
            .map(|(p, _)| p.clone())
            .collect()
    };
    if order(&old) != order(&new) {
        out.push(format!("`{list}` are not in sorted order"));
    }
}
