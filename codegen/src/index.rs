//! The second stage: the loaded files become a [`SchemaSet`], whose [`Index`] records where every
//! identifier points: each schema resource by its absolute URI (a file's `$id` and every embedded
//! `$id`, resolved against its parent's base), each `$anchor` and `$dynamicAnchor` by `uri#name`,
//! and the base URI of every subschema. Only subschemas are walked: an `$id` inside `enum`,
//! `const` or an unknown keyword identifies nothing. Later stages resolve `$ref`s through the set.

use crate::error::Code;
use crate::error::{Error, Result};
use crate::load::{self, Loc, SchemaFile};
use prp_vocabulary::{Dialect, uri};
use prp_vocabulary::{Keyword, Schema};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The identifiers of a schema set.
#[derive(Debug, Default)]
pub struct Index {
    resources: BTreeMap<String, Loc>,
    anchors: BTreeMap<String, Loc>,
    /// Per resource root: its `$dynamicAnchor`s.
    dynamic: BTreeMap<Loc, BTreeMap<String, Loc>>,
    /// Base URI and resource root of every walked subschema.
    bases: HashMap<Loc, (String, Loc)>,
}

impl Index {
    /// Walks every file's subschemas.
    pub fn build(files: &[SchemaFile]) -> Result<Index> {
        let mut index = Index::default();
        for (i, f) in files.iter().enumerate() {
            let loc = Loc {
                file: i,
                pointer: String::new(),
            };
            index.walk(files, &f.root, loc.clone(), &f.id, &loc)?;
        }
        // A file is also found where it is, unless an `$id` claims that URI.
        for (i, f) in files.iter().enumerate() {
            index.resources.entry(f.location.clone()).or_insert(Loc {
                file: i,
                pointer: String::new(),
            });
        }
        Ok(index)
    }

    /// Records the base URI, resource and identifiers of `node` at `loc`, then walks its subschemas.
    fn walk(
        &mut self,
        files: &[SchemaFile],
        node: &Value,
        loc: Loc,
        base: &str,
        resource: &Loc,
    ) -> Result<()> {
        let Value::Object(obj) = node else {
            self.bases.insert(loc, (base.to_owned(), resource.clone()));
            return Ok(());
        };
        let (base, resource) = match obj.keyword(Keyword::Id) {
            Some(Value::String(id)) if !loc.pointer.is_empty() => {
                let abs = uri::resolve(base, id);
                let abs = abs.strip_suffix('#').unwrap_or(&abs).to_owned();
                if abs.contains('#') {
                    return Err(fail(
                        files,
                        Code::InvalidSchemaId,
                        &loc.at(Keyword::Id),
                        format!("`$id` {id} has a fragment; use `$anchor` to name a subschema"),
                    ));
                }
                (abs, loc.clone())
            }
            Some(Value::String(_)) | None => (base.to_owned(), resource.clone()),
            Some(other) => {
                return Err(fail(
                    files,
                    Code::InvalidSchemaId,
                    &loc.at(Keyword::Id),
                    format!("`$id` must be a string, found {other}"),
                ));
            }
        };
        if resource == loc
            && let Some(prev) = self.resources.insert(base.clone(), loc.clone())
            && prev != loc
        {
            return Err(fail(
                files,
                Code::DuplicateSchemaId,
                &loc,
                format!(
                    "`$id` {base} is also the identifier of {}",
                    uri::at(&files[prev.file].path, &prev.pointer)
                ),
            ));
        }
        self.record_anchors(files, obj, &loc, &base, &resource)?;
        self.bases
            .insert(loc.clone(), (base.clone(), resource.clone()));
        let mut children = Vec::new();
        prp_vocabulary::subschemas(node, Dialect::Draft202012, |k, place, v| {
            let at = loc.child(k.name());
            children.push((place.map_or(at.clone(), |p| at.child(&p.token())), v));
        });
        for (at, v) in children {
            self.walk(files, v, at, &base, &resource)?;
        }
        Ok(())
    }

    /// Records the `$anchor` and `$dynamicAnchor` of the subschema `obj` at `loc`.
    fn record_anchors(
        &mut self,
        files: &[SchemaFile],
        obj: &serde_json::Map<String, Value>,
        loc: &Loc,
        base: &str,
        resource: &Loc,
    ) -> Result<()> {
        for key in ["$anchor", "$dynamicAnchor"] {
            match obj.get(key) {
                None => {}
                Some(Value::String(name)) if is_anchor(name) => {
                    let full = uri::at(base, name);
                    if let Some(prev) = self.anchors.insert(full.clone(), loc.clone())
                        && prev != *loc
                    {
                        return Err(fail(
                            files,
                            Code::DuplicateAnchor,
                            &loc.child(key),
                            format!("the anchor {full} names two subschemas"),
                        ));
                    }
                    if key == "$dynamicAnchor" {
                        self.dynamic
                            .entry(resource.clone())
                            .or_default()
                            .insert(name.clone(), loc.clone());
                    }
                }
                Some(other) => {
                    return Err(fail(
                        files,
                        Code::InvalidSchema,
                        &loc.child(key),
                        format!(
                            "`{key}` must be a name (a letter or `_`, then letters, digits, `-`, `.`, `_`), found {other}"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The base URI of the node at `loc` and the root of its resource: those of the nearest walked
    /// ancestor (a node inside an unknown keyword has its parent's base).
    pub fn base_of(&self, loc: &Loc) -> (&str, &Loc) {
        let mut pointer = loc.pointer.as_str();
        loop {
            let probe = Loc {
                file: loc.file,
                pointer: pointer.to_owned(),
            };
            if let Some((b, r)) = self.bases.get(&probe) {
                return (b, r);
            }
            match pointer.rfind('/') {
                Some(i) => pointer = &pointer[..i],
                None => {
                    let root = Loc {
                        file: loc.file,
                        pointer: String::new(),
                    };
                    let (b, r) = &self.bases[&root];
                    return (b, r);
                }
            }
        }
    }

    /// The node a URI (with an optional JSON-pointer or anchor fragment) names, if any. A
    /// pointer is in the spelling of the file it points into when `spelled_in` gives the files
    /// (as a `$ref` writes it), else in 2020-12's (as [`SchemaSet::node_at`] returns them).
    pub fn lookup(
        &self,
        uri: &str,
        spelled_in: Option<&[SchemaFile]>,
        node: impl Fn(&Loc) -> bool,
    ) -> Option<Loc> {
        let (abs, fragment) = uri::split_fragment(uri);
        let fragment = fragment?;
        if fragment.is_empty() || fragment.starts_with('/') {
            let root = self.resources.get(abs)?;
            let spelling = spelled_in.and_then(|files| Some(&files.get(root.file)?.spelling));
            let pointer = match spelling {
                Some(s) if !s.is_identity() => s.to_read(&root.pointer, &fragment),
                _ => format!("{}{fragment}", root.pointer),
            };
            let loc = Loc {
                file: root.file,
                pointer,
            };
            node(&loc).then_some(loc)
        } else {
            self.anchors.get(&uri::at(abs, &fragment)).cloned()
        }
    }

    /// The `$dynamicAnchor`s of the resource rooted at `resource`.
    pub fn dynamic_anchors(&self, resource: &Loc) -> Option<&BTreeMap<String, Loc>> {
        self.dynamic.get(resource)
    }
}

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
        let set = SchemaSet {
            files,
            by_id,
            index,
        };
        crate::loops::check(&set)?;
        Ok(set)
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
        self.files.get(loc.file)?.root.pointer(&loc.pointer)
    }

    /// Resolves a `$ref` found at `from` against that node's base URI: a JSON pointer into a
    /// resource, or an `$anchor`.
    pub(crate) fn resolve(&self, from: &Loc, reference: &str) -> Result<Loc> {
        let (base, _) = self.index.base_of(from);
        let target = uri::resolve(base, reference);
        self.index
            .lookup(&target, Some(&self.files), |l| self.node(l).is_some())
            .ok_or_else(|| {
                self.error(
                    from,
                    Code::UnresolvedReference,
                    format!(
                        "`$ref` {reference} (from base {base}: {target}) names no schema, anchor or node of the directory"
                    ),
                )
            })
    }

    /// A located error at `at`, located in the file's own spelling.
    pub(crate) fn error(&self, at: &Loc, code: Code, message: impl Into<String>) -> Error {
        match self.files.get(at.file) {
            Some(f) => Error::new(
                code,
                f.path.clone(),
                f.spelling.to_original(&at.pointer),
                message,
            ),
            None => Error::new(code, "", at.pointer.clone(), message),
        }
    }

    /// The URI of the node at `loc` as its file spells it: `<the file's $id>#<pointer>`.
    pub(crate) fn spelled_uri(&self, loc: &Loc) -> String {
        let f = &self.files[loc.file];
        uri::at(&f.id, &f.spelling.to_original(&loc.pointer))
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

/// A located error at `at` (in the file's own spelling), found while indexing `files`.
fn fail(files: &[SchemaFile], code: Code, at: &Loc, msg: String) -> Error {
    let f = &files[at.file];
    Error::new(
        code,
        f.path.clone(),
        f.spelling.to_original(&at.pointer),
        msg,
    )
}

fn is_anchor(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}
