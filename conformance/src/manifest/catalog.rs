//! §7.4.1: the schema catalog — dialect, `$id`, uniqueness, title, every `$ref` resolved — and
//! the schema entries of the manifest.

use super::{DIALECT, Error, ID_PREFIX, Source, io_error, problem, read_source};
use crate::issue::{Code, Issue};
use prp_codegen::{SchemaFile, SchemaSet};
use prp_vocabulary::{Dialect, Keyword, Schema, pointer, uri};
use serde_json::{Value, json};
use std::collections::HashSet;
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
    /// The file as the generator reads it, when it reads it.
    file: Option<SchemaFile>,
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
        let declared = value.keyword(Keyword::Id).and_then(Value::as_str);
        let repeated = declared.is_some_and(|id| seen.contains(id));
        let id = check_document(&rel, &value, &mut seen, problems);
        out.push(json!({"path": rel, "id": id.clone().unwrap_or_default(), "sha256": sha256}));
        // A second document with one `$id` is already a problem; the first one is resolved.
        let file = if repeated {
            None
        } else {
            read_file(&rel, &text, problems)
        };
        docs.push(Doc {
            rel,
            id,
            value,
            file,
        });
    }
    let files = docs.iter().filter_map(|d| d.file.clone()).collect();
    match SchemaSet::from_files(files) {
        Ok(set) => docs.iter().for_each(|doc| check_refs(doc, &set, problems)),
        Err(e) => problems.push(problem(
            Code::SchemaCompileError,
            format!("the schemas do not load together: {e}"),
        )),
    }
    for doc in &docs {
        check_compiles(doc, problems);
    }
    Ok(out)
}

/// The document as the generator reads it. When it cannot, that is said with the generator's
/// located reason, because the document's `$ref`s then go unchecked; the manifest's own checks
/// may already have named the cause (a dialect, a title), but not that the references were skipped.
fn read_file(rel: &str, text: &str, problems: &mut Vec<Issue>) -> Option<SchemaFile> {
    SchemaSet::parse(rel.to_owned(), text)
        .map_err(|e| {
            let at = pointer::shown(&e.pointer);
            problems.push(problem(
                Code::SchemaCompileError,
                format!(
                    "{rel} at {at}: the generator cannot read it ({}), so its `$ref`s are not checked",
                    e.message
                ),
            ));
        })
        .ok()
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
                    format!(
                        "{rel}: `$id` {id} is declared by another schema (its `$ref`s are not checked)"
                    ),
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

/// Every `$ref` resolves as the generator resolves it, through its index of the set: against the
/// base URI of the resource it is in (an embedded `$id` too), to a document, a JSON pointer or an
/// anchor. A reference whose document is unknown is `unresolved_schema_reference`; one whose
/// document is known and whose fragment names nothing there is `unresolved_schema_fragment`.
fn check_refs(doc: &Doc, set: &SchemaSet, problems: &mut Vec<Issue>) {
    let Some(file) = &doc.file else {
        return;
    };
    // The file as the generator reads it, in 2020-12's spelling: its places are the index's.
    walk_schemas(&file.root, |at, node| {
        let Some(reference) = node.keyword(Keyword::Ref) else {
            return;
        };
        let from = uri::at(&file.id, at);
        let spelled = uri::split_fragment(&set.spelled(&from)).1;
        let at = pointer::shown(spelled.as_deref().unwrap_or(at));
        let (code, why) = match reference.as_str() {
            None => (
                Code::UnresolvedSchemaReference,
                "must be a string".to_owned(),
            ),
            Some(r) if set.resolve_from(&from, r).is_some() => return,
            Some(r) => {
                let document = r.split_once('#').map_or(r, |(d, _)| d);
                if set.resolve_from(&from, document).is_some() {
                    let why = format!("{r} has a fragment that names nothing in its document");
                    (Code::UnresolvedSchemaFragment, why)
                } else {
                    let why = format!("{r} names no known `$id`");
                    (Code::UnresolvedSchemaReference, why)
                }
            }
        };
        problems.push(problem(code, format!("{} at {at}: `$ref` {why}", doc.rel)));
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
