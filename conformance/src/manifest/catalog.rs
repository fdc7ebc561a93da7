//! §7.4.1: the schema catalog — dialect, `$id`, uniqueness, title, every `$ref` resolved — and
//! the schema entries of the manifest.

use super::{DIALECT, Error, ID_PREFIX, Source, io_error, problem, read_source};
use crate::issue::{Code, Issue};
use prp_vocabulary::{Dialect, Keyword, Schema, pointer, uri};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// The `*.json` files directly inside `dir/schemas`, as relative paths in manifest order.
fn schema_paths(dir: &Path) -> Result<Vec<String>, Error> {
    let schemas = dir.join("schemas");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&schemas).map_err(|e| io_error(&schemas, e))? {
        let entry = entry.map_err(|e| io_error(&schemas, e))?;
        let path = entry.path();
        if path.is_file() && path.extension().is_some_and(|x| x == "json") {
            let name = entry.file_name();
            let name = name.to_str().ok_or_else(|| {
                io_error(
                    &path,
                    std::io::Error::new(std::io::ErrorKind::InvalidData, "file name is not UTF-8"),
                )
            })?;
            out.push(format!("schemas/{name}"));
        }
    }
    super::sort_paths(&mut out);
    Ok(out)
}

struct Doc {
    rel: String,
    id: Option<String>,
    value: Value,
}

/// Checks the catalog and returns the manifest's `schemas` entries.
pub(super) fn entries(dir: &Path, problems: &mut Vec<Issue>) -> Result<Vec<Value>, Error> {
    let mut docs = Vec::new();
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for rel in schema_paths(dir)? {
        let Source { rel, text, sha256 } = read_source(dir, rel)?;
        let value: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                let issue = crate::decode::classify(&e, String::new(), text.as_bytes());
                problems.push(problem(issue.code, format!("{rel}: {}", issue.message)));
                out.push(json!({"path": rel, "id": "", "sha256": sha256}));
                continue;
            }
        };
        let id = check_document(&rel, &value, &mut seen, problems);
        out.push(json!({"path": rel, "id": id.clone().unwrap_or_default(), "sha256": sha256}));
        docs.push(Doc { rel, id, value });
    }
    let by_id: BTreeMap<&str, &Value> = docs
        .iter()
        .filter_map(|d| Some((d.id.as_deref()?, &d.value)))
        .collect();
    for doc in &docs {
        check_refs(doc, &by_id, problems);
        check_compiles(doc, problems);
    }
    Ok(out)
}

/// Dialect, `$id` and title of one document; returns its `$id` when it is a string.
fn check_document(
    rel: &str,
    value: &Value,
    seen: &mut HashSet<String>,
    problems: &mut Vec<Issue>,
) -> Option<String> {
    if value.keyword(Keyword::Schema).and_then(Value::as_str) != Some(DIALECT) {
        problems.push(problem(
            Code::UnsupportedSchemaDialect,
            format!("{rel}: `$schema` must be {DIALECT}"),
        ));
    }
    let id = value
        .keyword(Keyword::Id)
        .and_then(Value::as_str)
        .map(str::to_owned);
    match &id {
        Some(id) if id.starts_with(ID_PREFIX) => {
            if !seen.insert(id.clone()) {
                problems.push(problem(
                    Code::DuplicateSchemaId,
                    format!("{rel}: `$id` {id} is declared by another schema"),
                ));
            }
        }
        _ => problems.push(problem(
            Code::InvalidSchemaId,
            format!("{rel}: `$id` must be a string under {ID_PREFIX}"),
        )),
    }
    if value
        .keyword(Keyword::Title)
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        problems.push(problem(
            Code::MissingSchemaTitle,
            format!("{rel}: `title` must be a non-empty string"),
        ));
    }
    id
}

/// Calls `visit` with the pointer and value of every schema node, root first (PRP's schemas are
/// draft 2020-12).
fn walk_schemas(schema: &Value, visit: impl FnMut(&str, &Value)) {
    prp_vocabulary::walk(schema, Dialect::Draft202012, visit);
}

/// Every `$ref` names a known document (or this one) and a fragment that resolves as a pointer.
fn check_refs(doc: &Doc, by_id: &BTreeMap<&str, &Value>, problems: &mut Vec<Issue>) {
    walk_schemas(&doc.value, |at, node| {
        let Some(reference) = node.keyword(Keyword::Ref) else {
            return;
        };
        let at = pointer::shown(at);
        let Some(reference) = reference.as_str() else {
            problems.push(problem(
                Code::UnresolvedSchemaReference,
                format!("{} at {at}: `$ref` must be a string", doc.rel),
            ));
            return;
        };
        let (uri, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let target = if uri.is_empty() {
            Some(&doc.value)
        } else {
            let absolute = match &doc.id {
                Some(base) => uri::resolve(base, uri),
                None => uri.to_owned(),
            };
            by_id.get(absolute.as_str()).copied()
        };
        let Some(target) = target else {
            problems.push(problem(
                Code::UnresolvedSchemaReference,
                format!(
                    "{} at {at}: `$ref` {reference} names no known `$id`",
                    doc.rel
                ),
            ));
            return;
        };
        let resolved = uri::percent_decode(fragment).and_then(|pointer| {
            if pointer.is_empty() || pointer.starts_with('/') {
                target.pointer(&pointer)
            } else {
                None
            }
        });
        if resolved.is_none() {
            problems.push(problem(
                Code::UnresolvedSchemaFragment,
                format!(
                    "{} at {at}: `$ref` {reference} has a fragment that is not a JSON pointer into its document",
                    doc.rel
                ),
            ));
        }
    });
}

/// What "all schemas compile together" means for a build whose validators are generated: the
/// document is one the types were generated from, and every `pattern` is an ECMAScript regex.
fn check_compiles(doc: &Doc, problems: &mut Vec<Issue>) {
    if let Some(id) = &doc.id
        && !crate::SCHEMAS.iter().any(|s| s.id == id)
    {
        problems.push(problem(
            Code::SchemaCompileError,
            format!(
                "{}: `$id` {id} is not among the schemas prp-types was generated from",
                doc.rel
            ),
        ));
    }
    walk_schemas(&doc.value, |at, node| {
        if let Some(Value::String(pattern)) = node.keyword(Keyword::Pattern)
            && let Err(e) = regress::Regex::new(pattern)
        {
            let at = pointer::shown(at);
            problems.push(problem(
                Code::SchemaCompileError,
                format!(
                    "{} at {at}: pattern {pattern:?} is not an ECMAScript regex: {e}",
                    doc.rel
                ),
            ));
        }
    });
}
