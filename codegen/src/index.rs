//! The second stage: the loaded files get an [`Index`] that records where every identifier points: each schema resource by its absolute URI (a file's `$id` and every embedded
//! `$id`, resolved against its parent's base), each `$anchor` and `$dynamicAnchor` by `uri#name`,
//! and the base URI of every subschema. Only subschemas are walked: an `$id` inside `enum`,
//! `const` or an unknown keyword identifies nothing. A `$ref` resolves through it
//! ([`Index::resolve`]); the [`SchemaSet`](crate::set::SchemaSet) holds the files and their index.

use crate::error::Code;
use crate::error::{Error, Result};
use crate::load::{Loc, SchemaFile};
use prp_vocabulary::{Dialect, uri};
use prp_vocabulary::{Keyword, Schema};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

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

    /// Resolves a `$ref` found at `from` against that node's base URI: a JSON pointer into a
    /// resource (in the spelling of the file it points into), or an anchor.
    pub(crate) fn resolve(&self, files: &[SchemaFile], from: &Loc, reference: &str) -> Result<Loc> {
        let (base, _) = self.base_of(from);
        let target = uri::resolve(base, reference);
        self.lookup(&target, Some(files), |l| node(files, l).is_some())
            .ok_or_else(|| {
                fail(
                    files,
                    Code::UnresolvedReference,
                    from,
                    format!(
                        "`$ref` {reference} (from base {base}: {target}) names no schema, anchor or node of the directory"
                    ),
                )
            })
    }
}

/// The schema node at `loc` among `files`.
pub(crate) fn node<'f>(files: &'f [SchemaFile], loc: &Loc) -> Option<&'f Value> {
    files.get(loc.file)?.root.pointer(&loc.pointer)
}

/// A located error at `at`, located in its file's own spelling.
pub(crate) fn fail(files: &[SchemaFile], code: Code, at: &Loc, msg: impl Into<String>) -> Error {
    match files.get(at.file) {
        Some(f) => Error::new(
            code,
            f.path.clone(),
            f.spelling.to_original(&at.pointer),
            msg,
        ),
        None => Error::new(code, "", at.pointer.clone(), msg),
    }
}

/// The URI of the node at `loc` as its file spells it: `<the file's $id>#<pointer>`.
pub(crate) fn spelled_uri(files: &[SchemaFile], loc: &Loc) -> String {
    let f = &files[loc.file];
    uri::at(&f.id, &f.spelling.to_original(&loc.pointer))
}

fn is_anchor(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}
