//! A schema directory as the generator holds it: its files, addressable by `$id`, and the
//! [`Index`] their `$ref`s resolve through; made only once no schema applies itself to its own
//! instance without end (the `loops` check).

use crate::error::{Code, Error, Result};
use crate::index::{self, Index};
use crate::load::{self, Loc, SchemaFile};
use prp_vocabulary::{Dialect, uri};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

/// Every schema of a directory, addressable by `$id`, with the index of every resource, anchor and
/// base URI that its `$ref`s resolve through.
#[derive(Debug)]
pub struct SchemaSet {
    /// The schemas, sorted by path when read from a directory.
    pub files: Vec<SchemaFile>,
    by_id: BTreeMap<String, usize>,
    /// Every resource, anchor and base URI.
    pub(crate) index: Index,
}

impl SchemaSet {
    /// Loads every `*.json` file under `dir`, recursively, in sorted path order; a file without
    /// `$id` is known as `file:///` and its relative path, one without `$schema` is draft 2020-12.
    pub fn load(dir: &Path) -> Result<SchemaSet> {
        Self::load_with_base(dir, "file:///")
    }

    /// As [`SchemaSet::load`], a file without `$id` known as `base` joined with its relative path
    /// (`http://localhost:1234/` makes `nested/a.json` `http://localhost:1234/nested/a.json`).
    pub fn load_with_base(dir: &Path, base: &str) -> Result<SchemaSet> {
        Self::from_files(load::read_dir(dir, base, Dialect::Draft202012)?)
    }

    /// As [`SchemaSet::load`], with the base URI and the default dialect `options` name
    /// ([`Options::base_uri`](crate::Options::base_uri),
    /// [`Options::default_dialect`](crate::Options::default_dialect)).
    pub fn load_with(dir: &Path, options: &crate::Options) -> Result<SchemaSet> {
        Self::from_files(load::read_dir(
            dir,
            options.base(),
            options.default_dialect,
        )?)
    }

    /// Parses one schema file's text; without `$id` it is known as `file:///PATH`, without
    /// `$schema` it is draft 2020-12.
    pub fn parse(path: String, raw: &str) -> Result<SchemaFile> {
        load::parse(path, raw, "file:///", Dialect::Draft202012)
    }

    /// Parses one schema file's text; without `$id` it is known as `base` joined with `path`.
    pub fn parse_with_base(path: String, raw: &str, base: &str) -> Result<SchemaFile> {
        load::parse(path, raw, base, Dialect::Draft202012)
    }

    /// Parses one schema file's text with the base URI and default dialect `options` name.
    pub fn parse_with(path: String, raw: &str, options: &crate::Options) -> Result<SchemaFile> {
        load::parse(path, raw, options.base(), options.default_dialect)
    }

    /// A set from already loaded files; two files with one `$id` are an error.
    pub fn from_files(files: Vec<SchemaFile>) -> Result<SchemaSet> {
        let mut by_id = BTreeMap::new();
        for (i, f) in files.iter().enumerate() {
            if let Some(prev) = by_id.insert(f.id.clone(), i) {
                return Err(Error::new(
                    Code::DuplicateSchemaId,
                    f.path.clone(),
                    "/$id",
                    format!("`$id` {} is also declared by {}", f.id, files[prev].path),
                ));
            }
        }
        let index = Index::build(&files)?;
        crate::loops::check(&files, &index)?;
        Ok(SchemaSet {
            files,
            by_id,
            index,
        })
    }

    /// The schema node an absolute URI names (a resource's `$id` or location with an optional
    /// fragment: a JSON pointer or an anchor), with the URI that names it canonically:
    /// `<the file's $id>#<pointer>`. For tools that walk a schema set by URI (`prp compat`).
    /// Canonical URIs and the nodes are in draft 2020-12's spelling, which every file is read
    /// into: a pointer into a draft-07 file's `definitions` is `#/$defs/…` here, and
    /// [`SchemaSet::spelled`] gives the file's own.
    pub fn node_at(&self, uri: &str) -> Option<(String, &Value)> {
        let loc = self.index.lookup(uri, None, |l| self.node(l).is_some())?;
        let node = self.node(&loc)?;
        Some((self.canonical(&loc), node))
    }

    /// The canonical URI of the node a `$ref` written in the node at `from` (a canonical URI)
    /// names, resolved against that node's base URI.
    pub fn resolve_from(&self, from: &str, reference: &str) -> Option<String> {
        let loc = self.index.lookup(from, None, |l| self.node(l).is_some())?;
        self.resolve(&loc, reference)
            .ok()
            .map(|l| self.canonical(&l))
    }

    fn canonical(&self, loc: &Loc) -> String {
        uri::at(&self.files[loc.file].id, &loc.pointer)
    }

    /// A canonical URI (see [`SchemaSet::node_at`]) as its file spells it: the same URI for a
    /// 2020-12 file, `…#/definitions/item` for a draft-07 file's `…#/$defs/item`. What a report
    /// shows its reader, and what [`compile_checker`](crate::compile_checker) takes.
    pub fn spelled(&self, canonical: &str) -> String {
        if !canonical.contains('#') {
            return canonical.to_owned();
        }
        match uri::split_fragment(canonical) {
            (id, Some(pointer)) if self.by_id.contains_key(id) => self.spelled_uri(&Loc {
                file: self.by_id[id],
                pointer,
            }),
            _ => canonical.to_owned(),
        }
    }

    /// The schema node at `loc`.
    pub(crate) fn node(&self, loc: &Loc) -> Option<&Value> {
        index::node(&self.files, loc)
    }

    /// Resolves a `$ref` found at `from` against that node's base URI: a JSON pointer into a
    /// resource, or an `$anchor`.
    pub(crate) fn resolve(&self, from: &Loc, reference: &str) -> Result<Loc> {
        self.index.resolve(&self.files, from, reference)
    }

    /// A located error at `at`, located in the file's own spelling.
    pub(crate) fn error(&self, at: &Loc, code: Code, message: impl Into<String>) -> Error {
        index::fail(&self.files, code, at, message)
    }

    /// The URI of the node at `loc` as its file spells it: `<the file's $id>#<pointer>`.
    pub(crate) fn spelled_uri(&self, loc: &Loc) -> String {
        index::spelled_uri(&self.files, loc)
    }

    /// SHA-256 over the sorted `$id`s and the files' LF-normalised bytes: the inputs' digest.
    pub fn digest(&self) -> String {
        let mut h = Sha256::new();
        for (id, &i) in &self.by_id {
            h.update(id.as_bytes());
            h.update([0]);
            h.update(self.files[i].text.as_bytes());
            h.update([0]);
        }
        load::hex(&h.finalize())
    }
}
