//! The first stage: read every schema file of a directory and parse each, put it into draft
//! 2020-12's spelling whatever its dialect (`prp_vocabulary::dialect::read`, the one step that
//! knows dialects), and check its `$id` and its `title`. What comes out is a list of
//! [`SchemaFile`]s; the `index` stage makes them a [`SchemaSet`](crate::set::SchemaSet) whose
//! `$ref`s resolve. No later stage asks which dialect a file was written in.

use crate::error::Code;
use crate::error::{Error, Result};
use prp_vocabulary::Dialect;
use prp_vocabulary::dialect::{self, RefusalKind, Spelling};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// One parsed schema file.
#[derive(Debug, Clone)]
pub struct SchemaFile {
    /// Path relative to the schema directory, `/`-separated.
    pub path: String,
    /// The schema's `$id`.
    pub id: String,
    /// The URI the file is found at: the base URI joined with `path`. A `$ref` to it finds the
    /// file even when its `$id` says otherwise.
    pub location: String,
    /// The schema's `title`.
    pub title: String,
    /// The file's text with CRLF normalised to LF.
    pub text: String,
    /// SHA-256 of `text`, lowercase hex.
    pub sha256: String,
    /// The parsed schema in draft 2020-12's spelling (the file itself if it is 2020-12).
    pub root: Value,
    /// The dialect the file is written in: its `$schema`, or the default it was read with.
    pub dialect: Dialect,
    /// Where the members `root` renames are in the file: pointers into `root` map back to the
    /// file's own, and a `$ref` written against the file finds its place in `root`.
    pub spelling: Spelling,
}

/// A location inside the schema set: a file and a JSON pointer in it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    /// Index of the file in its [`SchemaSet`](crate::set::SchemaSet).
    pub file: usize,
    /// JSON pointer of the node inside the file.
    pub pointer: String,
}

impl Loc {
    /// The location of member or item `token` below this one.
    pub fn child(&self, token: &str) -> Loc {
        Loc {
            file: self.file,
            pointer: prp_vocabulary::pointer::child(&self.pointer, token),
        }
    }

    /// The location of keyword `k`'s value under this one.
    pub fn at(&self, k: prp_vocabulary::Keyword) -> Loc {
        self.child(k.name())
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Error::new(
            Code::Io,
            dir.display().to_string(),
            "",
            format!("cannot read the directory: {e}"),
        )
    })?;
    for entry in entries {
        let path = entry
            .map_err(|e| {
                Error::new(
                    Code::Io,
                    dir.display().to_string(),
                    "",
                    format!("cannot list the directory: {e}"),
                )
            })?
            .path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}

/// Reads and parses every `*.json` file under `dir`, recursively, sorted by path; a file without
/// `$id` is known as `base` joined with its path relative to `dir`, and one without `$schema` is
/// read as `dialect`.
pub fn read_dir(dir: &Path, base: &str, dialect: Dialect) -> Result<Vec<SchemaFile>> {
    let mut paths = Vec::new();
    collect(dir, &mut paths)?;
    let mut files = Vec::new();
    for path in paths {
        let rel = path
            .strip_prefix(dir)
            .unwrap_or(&path)
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let raw = std::fs::read_to_string(&path).map_err(|e| {
            Error::new(
                Code::Io,
                rel.clone(),
                "",
                format!("cannot read the file: {e}"),
            )
        })?;
        files.push(parse(rel, &raw, base, dialect)?);
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// Parses one schema file's text; without `$id` it is known as `base` joined with `path`, and
/// without `$schema` it is read as `dialect`.
pub fn parse(path: String, raw: &str, base: &str, dialect: Dialect) -> Result<SchemaFile> {
    let text = raw.replace("\r\n", "\n");
    let root: Value = serde_json::from_str(&text).map_err(|e| {
        Error::new(
            Code::InvalidJson,
            path.clone(),
            "",
            format!("the file is not JSON: {e}"),
        )
    })?;
    if !(root.is_object() || root.is_boolean()) {
        return Err(Error::new(
            Code::InvalidSchema,
            path,
            "",
            "a schema file must hold a JSON object or a boolean",
        ));
    }
    let read = dialect::read(&root, dialect).map_err(|r| {
        let code = match r.kind {
            RefusalKind::Dialect => Code::UnsupportedSchemaDialect,
            RefusalKind::Keyword => Code::UnsupportedKeyword,
        };
        Error::new(code, path.clone(), r.pointer, r.message)
    })?;
    let empty = serde_json::Map::new();
    let obj = read.schema.as_object().unwrap_or(&empty);
    // Without `$id`, a file is known by a URI made from its path; an `$id` is any absolute
    // URI (`https://…`, `urn:…`), an empty trailing fragment allowed.
    let location = prp_vocabulary::uri::resolve(base, &path);
    let id = match obj.get("$id") {
        None => location.clone(),
        Some(Value::String(id)) if is_absolute_uri(id.strip_suffix('#').unwrap_or(id)) => {
            id.strip_suffix('#').unwrap_or(id).to_owned()
        }
        Some(other) => {
            return Err(Error::new(
                Code::InvalidSchemaId,
                path,
                read.spelling.to_original("/$id"),
                format!("`$id` must be an absolute URI without a fragment, found {other}"),
            ));
        }
    };
    let title = title(obj, &path)?;
    let sha256 = hex(&Sha256::digest(text.as_bytes()));
    Ok(SchemaFile {
        path,
        id,
        location,
        title,
        text,
        sha256,
        root: read.schema,
        dialect: read.dialect,
        spelling: read.spelling,
    })
}

/// The file's `title`; without one, the file's name stands in (types are named after the file
/// anyway).
fn title(obj: &serde_json::Map<String, Value>, path: &str) -> Result<String> {
    match obj.get("title") {
        None => Ok(path
            .rsplit('/')
            .next()
            .unwrap_or(path)
            .trim_end_matches(".json")
            .trim_end_matches(".schema")
            .to_owned()),
        Some(Value::String(t)) if !t.trim().is_empty() => Ok(t.to_owned()),
        Some(_) => Err(Error::new(
            Code::MissingSchemaTitle,
            path,
            "/title",
            "`title` must be a non-empty string",
        )),
    }
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `s` is an absolute URI without a fragment: a scheme (`[A-Za-z][A-Za-z0-9+.-]*:`) and more.
fn is_absolute_uri(s: &str) -> bool {
    prp_vocabulary::uri::is_absolute(s) && !s.contains('#')
}
