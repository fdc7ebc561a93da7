//! The dialects: draft-04, -06, -07, 2019-09 and 2020-12.
//!
//! What a dialect changes is data: which keywords it has is a column of the keyword table, and how
//! it spells what draft 2020-12 says another way is its row of [`Spellings`]. [`read`] is the one
//! step that puts a schema document of any dialect into 2020-12's spelling, keeping the
//! [`Spelling`] that maps every place of the result back to the original, so that whatever reads
//! the result never asks which dialect it was written in. The next dialect is a column, a row and,
//! if it spells something new, a case in [`read`].

use crate::{Keyword, Kind, Shape, pointer};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The dialects the workspace reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// Draft 4 (`http://json-schema.org/draft-04/schema#`).
    Draft4,
    /// Draft 6 (`http://json-schema.org/draft-06/schema#`).
    Draft6,
    /// Draft 7 (`http://json-schema.org/draft-07/schema#`).
    Draft7,
    /// Draft 2019-09 (`https://json-schema.org/draft/2019-09/schema`).
    Draft201909,
    /// Draft 2020-12 (`https://json-schema.org/draft/2020-12/schema`): the spelling [`read`]
    /// writes every dialect in.
    Draft202012,
}

/// Draft 2020-12, what the specification reads a schema without `$schema` as.
impl Default for Dialect {
    fn default() -> Self {
        Dialect::Draft202012
    }
}

/// How a dialect spells what draft 2020-12 says another way: one row per dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spellings {
    /// The keyword that identifies a schema resource: `id` in draft-04, `$id` after.
    pub id: Keyword,
    /// A fragment in that identifier names its subschema, as `$anchor` does later
    /// (`"$id": "#item"`).
    pub fragment_ids: bool,
    /// Beside `$ref`, every other keyword is ignored.
    pub ref_overrides_siblings: bool,
    /// `exclusiveMaximum` and `exclusiveMinimum` are booleans that make `maximum` and `minimum`
    /// exclusive.
    pub boolean_exclusive_bounds: bool,
    /// `items` may be an array of schemas (2020-12's `prefixItems`); `additionalItems` is then
    /// what the rest must be (2020-12's `items`), and otherwise it is ignored.
    pub array_items: bool,
    /// `dependencies` holds both what 2020-12 calls `dependentRequired` (an entry that is an
    /// array of names) and `dependentSchemas` (an entry that is a schema).
    pub dependencies: bool,
    /// `definitions` holds the schemas 2020-12's `$defs` holds.
    pub definitions: bool,
    /// `$recursiveRef` and `$recursiveAnchor`, which 2020-12 says with `$dynamicRef` and
    /// `$dynamicAnchor`.
    pub recursive_refs: bool,
}

impl Dialect {
    /// Every dialect, oldest first.
    pub const ALL: [Dialect; 5] = [
        Dialect::Draft4,
        Dialect::Draft6,
        Dialect::Draft7,
        Dialect::Draft201909,
        Dialect::Draft202012,
    ];

    /// The dialect's metaschema URI, as `$schema` names it.
    pub fn uri(self) -> &'static str {
        match self {
            Dialect::Draft4 => "http://json-schema.org/draft-04/schema#",
            Dialect::Draft6 => "http://json-schema.org/draft-06/schema#",
            Dialect::Draft7 => "http://json-schema.org/draft-07/schema#",
            Dialect::Draft201909 => "https://json-schema.org/draft/2019-09/schema",
            Dialect::Draft202012 => "https://json-schema.org/draft/2020-12/schema",
        }
    }

    /// The dialect's short name (`draft-07`, `2019-09`), as messages and options spell it.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Draft4 => "draft-04",
            Dialect::Draft6 => "draft-06",
            Dialect::Draft7 => "draft-07",
            Dialect::Draft201909 => "2019-09",
            Dialect::Draft202012 => "2020-12",
        }
    }

    /// The dialect a `$schema` value names: its metaschema URI, over `http` or `https`, with or
    /// without the empty fragment.
    pub fn from_uri(uri: &str) -> Option<Dialect> {
        let path = metaschema_path(uri)?;
        Dialect::ALL
            .into_iter()
            .find(|d| metaschema_path(d.uri()) == Some(path))
    }

    /// The name of a retired dialect a `$schema` value names (`draft-03` and older), which no
    /// stage reads: its `type` unions, `extends` and boolean `required` mean nothing later.
    pub fn retired(uri: &str) -> Option<&'static str> {
        match metaschema_path(uri)? {
            "json-schema.org/draft-03/schema" => Some("draft-03"),
            "json-schema.org/draft-02/schema" => Some("draft-02"),
            "json-schema.org/draft-01/schema" => Some("draft-01"),
            "json-schema.org/draft-00/schema" => Some("draft-00"),
            _ => None,
        }
    }

    /// How the dialect spells what 2020-12 says another way.
    pub fn spellings(self) -> Spellings {
        let old = self <= Dialect::Draft7;
        Spellings {
            id: if self == Dialect::Draft4 {
                Keyword::LegacyId
            } else {
                Keyword::Id
            },
            fragment_ids: old,
            ref_overrides_siblings: old,
            boolean_exclusive_bounds: self == Dialect::Draft4,
            array_items: self <= Dialect::Draft201909,
            dependencies: old,
            definitions: old,
            recursive_refs: self == Dialect::Draft201909,
        }
    }
}

/// A metaschema URI without its scheme and empty fragment.
fn metaschema_path(uri: &str) -> Option<&str> {
    let uri = uri.strip_suffix('#').unwrap_or(uri);
    uri.strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A dialect by its short name (`draft-07`, `draft7`, `7`, `2019-09`) or its metaschema URI.
impl std::str::FromStr for Dialect {
    type Err = String;

    fn from_str(s: &str) -> Result<Dialect, String> {
        if let Some(d) = Dialect::from_uri(s) {
            return Ok(d);
        }
        let bare = s.strip_prefix("draft").unwrap_or(s).trim_start_matches('-');
        match bare {
            "4" | "04" => Ok(Dialect::Draft4),
            "6" | "06" => Ok(Dialect::Draft6),
            "7" | "07" => Ok(Dialect::Draft7),
            "2019-09" => Ok(Dialect::Draft201909),
            "2020-12" => Ok(Dialect::Draft202012),
            _ => Err(format!(
                "`{s}` is not a dialect this workspace reads: draft-04, draft-06, draft-07, 2019-09 or 2020-12"
            )),
        }
    }
}

/// The `$dynamicAnchor` a 2019-09 `$recursiveAnchor: true` becomes: one name for all of them,
/// since 2019-09's recursion has one anchor per resource.
pub const RECURSIVE_ANCHOR: &str = "recursiveAnchor.2019-09";

/// A schema document in draft 2020-12's spelling, and how its places map to the original's.
#[derive(Debug, Clone)]
pub struct Read {
    /// The document as 2020-12 spells it.
    pub schema: Value,
    /// The document's dialect (its root's `$schema`, or the default it was read with).
    pub dialect: Dialect,
    /// Where each renamed member of the original is in `schema`, and back.
    pub spelling: Spelling,
}

/// Why a document cannot be put into 2020-12's spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What kind of refusal.
    pub kind: RefusalKind,
    /// JSON pointer of the offending member in the original document.
    pub pointer: String,
    /// What is wrong, in a sentence that names the keyword and the dialect.
    pub message: String,
}

/// What a [`Refusal`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// A `$schema` that names no dialect read here (a retired draft, a custom metaschema).
    Dialect,
    /// A keyword used in a way 2020-12 has no spelling for.
    Keyword,
}

/// The renames [`read`] made, by place: each member that moved, under the parent it is in. A
/// member not listed kept its name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spelling {
    /// (parent in the result, original name) -> name in the result.
    forward: HashMap<(String, String), String>,
    /// (parent in the result, name in the result) -> original name.
    back: HashMap<(String, String), String>,
}

impl Spelling {
    /// Whether nothing was renamed: every pointer is the same in both.
    pub fn is_identity(&self) -> bool {
        self.forward.is_empty() && self.back.is_empty()
    }

    /// The pointer in the result of the place `original` (a pointer in the original's spelling)
    /// names below the result's node `from` (`""` for the document): how a `$ref` written against
    /// the original finds its target.
    pub fn to_read(&self, from: &str, original: &str) -> String {
        let mut at = from.to_owned();
        for token in pointer::tokens(original) {
            let key = (at, token.into_owned());
            let next = self.forward.get(&key).unwrap_or(&key.1);
            at = pointer::child(&key.0, next);
        }
        at
    }

    /// The original's pointer of the result's place `read`: how an error found in the result
    /// names the place the author wrote.
    pub fn to_original(&self, read: &str) -> String {
        if self.back.is_empty() {
            return read.to_owned();
        }
        let mut at = String::new();
        let mut original = String::new();
        for token in pointer::tokens(read) {
            let key = (at, token.into_owned());
            pointer::push(&mut original, self.back.get(&key).unwrap_or(&key.1));
            at = pointer::child(&key.0, &key.1);
        }
        original
    }

    /// Records that member `original` of the result's node `parent` is `read` there; a member
    /// written under two names (`id` as `$id` and `$anchor`, `dependencies` split) is found
    /// under the first, unless `found` says this one is where a `$ref` finds it.
    fn rename(&mut self, parent: &str, original: &str, read: &str, found: bool) {
        let key = (parent.to_owned(), original.to_owned());
        if found || !self.forward.contains_key(&key) {
            self.forward.insert(key, read.to_owned());
        }
        self.back
            .insert((parent.to_owned(), read.to_owned()), original.to_owned());
    }
}

/// Puts `schema`, a document of `default` unless its root's `$schema` names another dialect, into
/// draft 2020-12's spelling. Every member of the original is in the result, under its own name or
/// a new one: a keyword the dialect spells differently under 2020-12's name, and a member the
/// dialect ignores (a `$ref`'s siblings before 2019-09, a later dialect's keyword) under a name
/// no dialect has, where it asserts nothing and a `$ref` still finds it. An embedded resource
/// with a `$schema` of its own is read in that dialect.
pub fn read(schema: &Value, default: Dialect) -> Result<Read, Refusal> {
    let mut reader = Reader::default();
    let at = Here {
        dialect: default,
        original: String::new(),
        read: String::new(),
        root: true,
        recursive: false,
    };
    let dialect = dialect_at(schema, &at)?;
    let schema = reader.schema(schema, at)?;
    Ok(Read {
        schema,
        dialect,
        spelling: reader.spelling,
    })
}

/// Where [`Reader::schema`] is: the dialect in force, the place in both spellings, whether this
/// is a document's root, and whether the enclosing resource is a 2019-09 `$recursiveAnchor`.
#[derive(Debug, Clone)]
struct Here {
    dialect: Dialect,
    original: String,
    read: String,
    root: bool,
    recursive: bool,
}

#[derive(Default)]
struct Reader {
    spelling: Spelling,
}

/// What becomes of one member of a schema object.
enum Respelled {
    /// Kept as it is.
    Same,
    /// Under 2020-12's name for it, its value as it is.
    Renamed(&'static str),
    /// Under a name and with a value 2020-12 says it with.
    Rewritten(&'static str, Value),
    /// Ignored by the dialect here: under a name no dialect has.
    Ignored,
    /// An identifier with a fragment: `$id` (without it, if any) and `$anchor`.
    Identifier(Option<String>, String),
    /// `dependencies`, split into `dependentRequired` and `dependentSchemas`.
    Dependencies,
}

/// The dialect of the schema object at `at`: the one its `$schema` names where it opens a
/// resource, else the one in force.
fn dialect_at(node: &Value, at: &Here) -> Result<Dialect, Refusal> {
    let Some(obj) = node.as_object() else {
        return Ok(at.dialect);
    };
    if !opens_resource(obj, at) {
        return Ok(at.dialect);
    }
    match obj.get("$schema") {
        None => Ok(at.dialect),
        Some(Value::String(uri)) => Dialect::from_uri(uri).ok_or_else(|| Refusal {
            kind: RefusalKind::Dialect,
            pointer: pointer::child(&at.original, "$schema"),
            message: match Dialect::retired(uri) {
                Some(name) => format!(
                    "`$schema` names {name} ({uri}), a retired dialect this generator does not read; \
                     it reads draft-04, draft-06, draft-07, 2019-09 and 2020-12"
                ),
                None => format!(
                    "`$schema` names {uri}, which is not a dialect this generator reads \
                     (draft-04, draft-06, draft-07, 2019-09 or 2020-12); a custom metaschema is not read"
                ),
            },
        }),
        Some(other) => Err(Refusal {
            kind: RefusalKind::Dialect,
            pointer: pointer::child(&at.original, "$schema"),
            message: format!("`$schema` must be a metaschema URI, found {other}"),
        }),
    }
}

/// Whether the schema object at `at` is a document's root or an embedded resource: it has an
/// identifier with more than a fragment, not silenced by a `$ref` beside it.
fn opens_resource(obj: &Map<String, Value>, at: &Here) -> bool {
    let sp = at.dialect.spellings();
    if at.root {
        return true;
    }
    if sp.ref_overrides_siblings && obj.get("$ref").is_some_and(Value::is_string) {
        return false;
    }
    [sp.id, Keyword::Id, Keyword::LegacyId]
        .into_iter()
        .filter(|k| k.in_dialect(at.dialect) || obj.contains_key("$schema"))
        .filter_map(|k| obj.get(k.name())?.as_str())
        .any(|id| !id.starts_with('#'))
}

impl Reader {
    /// The schema `node` at `at`, in 2020-12's spelling.
    fn schema(&mut self, node: &Value, mut at: Here) -> Result<Value, Refusal> {
        let Value::Object(obj) = node else {
            return Ok(node.clone());
        };
        let opens = opens_resource(obj, &at);
        at.dialect = dialect_at(node, &at)?;
        if opens {
            at.recursive = at.dialect.spellings().recursive_refs
                && obj.get("$recursiveAnchor") == Some(&Value::Bool(true));
        }
        let mut out = Map::new();
        for (name, value) in obj {
            let respelled = self.respell(obj, name, value, &at, opens)?;
            self.put(&mut out, obj, name, value, respelled, &at)?;
        }
        Ok(Value::Object(out))
    }

    /// What becomes of member `name` of the schema object `obj` at `at`.
    fn respell(
        &self,
        obj: &Map<String, Value>,
        name: &str,
        value: &Value,
        at: &Here,
        opens: bool,
    ) -> Result<Respelled, Refusal> {
        let d = at.dialect;
        let sp = d.spellings();
        let Some(k) = Keyword::from_name(name) else {
            return Ok(Respelled::Same);
        };
        if unread(obj, k, at) {
            return Ok(Respelled::Ignored);
        }
        if !k.in_dialect(d) {
            return Ok(Respelled::Same);
        }
        Ok(match k {
            Keyword::Schema if opens => {
                Respelled::Rewritten("$schema", Value::from(Dialect::Draft202012.uri()))
            }
            Keyword::Schema => Respelled::Ignored,
            _ if k == sp.id && sp.fragment_ids => identifier(value),
            Keyword::LegacyId => Respelled::Renamed("$id"),
            Keyword::Definitions if sp.definitions => Respelled::Renamed("$defs"),
            Keyword::Items if sp.array_items && value.is_array() => {
                Respelled::Renamed("prefixItems")
            }
            Keyword::AdditionalItems if obj.get("items").is_some_and(Value::is_array) => {
                Respelled::Renamed("items")
            }
            Keyword::AdditionalItems => Respelled::Ignored,
            Keyword::Dependencies if sp.dependencies => Respelled::Dependencies,
            Keyword::ExclusiveMaximum | Keyword::ExclusiveMinimum
                if sp.boolean_exclusive_bounds =>
            {
                Respelled::Ignored
            }
            Keyword::Maximum | Keyword::Minimum if sp.boolean_exclusive_bounds => {
                let exclusive = if k == Keyword::Maximum {
                    Keyword::ExclusiveMaximum
                } else {
                    Keyword::ExclusiveMinimum
                };
                if obj.get(exclusive.name()) == Some(&Value::Bool(true)) {
                    Respelled::Renamed(exclusive.name())
                } else {
                    Respelled::Same
                }
            }
            Keyword::RecursiveAnchor if opens && value == &Value::Bool(true) => {
                Respelled::Rewritten("$dynamicAnchor", Value::from(RECURSIVE_ANCHOR))
            }
            Keyword::RecursiveAnchor => Respelled::Ignored,
            Keyword::RecursiveRef => recursive_ref(obj, value, at)?,
            _ => Respelled::Same,
        })
    }

    /// Writes member `name` into `out` as `respelled` says, reading its subschemas on.
    fn put(
        &mut self,
        out: &mut Map<String, Value>,
        obj: &Map<String, Value>,
        name: &str,
        value: &Value,
        respelled: Respelled,
        at: &Here,
    ) -> Result<(), Refusal> {
        let (to, value) = match respelled {
            Respelled::Same => (name.to_owned(), self.members(name, value, name, at)?),
            Respelled::Renamed(to) => (to.to_owned(), self.members(name, value, to, at)?),
            Respelled::Rewritten(to, v) => (to.to_owned(), v),
            Respelled::Ignored => {
                let to = unused_name(obj, name, at.dialect);
                (to.clone(), self.members(name, value, &to, at)?)
            }
            Respelled::Identifier(id, anchor) => {
                if let Some(id) = id {
                    self.insert(out, at, name, "$id", Value::from(id))?;
                }
                (Keyword::Anchor.name().to_owned(), Value::from(anchor))
            }
            Respelled::Dependencies => {
                let (required, schemas) = self.dependencies(value, at)?;
                if let Some(required) = required {
                    self.insert(out, at, name, "dependentRequired", required)?;
                }
                match schemas {
                    Some(s) => ("dependentSchemas".to_owned(), s),
                    None => return Ok(()),
                }
            }
        };
        self.insert(out, at, name, &to, value)
    }

    /// Puts `value` under `to` in `out`, recording the rename from `name`.
    fn insert(
        &mut self,
        out: &mut Map<String, Value>,
        at: &Here,
        name: &str,
        to: &str,
        value: Value,
    ) -> Result<(), Refusal> {
        if out.contains_key(to) {
            return Err(Refusal {
                kind: RefusalKind::Keyword,
                pointer: pointer::child(&at.original, name),
                message: format!(
                    "`{name}` means `{to}` in {}, which the schema also has",
                    at.dialect
                ),
            });
        }
        if to != name {
            // `dependencies` is found where its schemas are.
            self.spelling
                .rename(&at.read, name, to, to == "dependentSchemas");
        }
        out.insert(to.to_owned(), value);
        Ok(())
    }

    /// The value of keyword `name` (now under `to`), its subschemas read on.
    fn members(
        &mut self,
        name: &str,
        value: &Value,
        to: &str,
        at: &Here,
    ) -> Result<Value, Refusal> {
        let Some(k) = Keyword::from_name(name) else {
            return Ok(value.clone());
        };
        let here = |place: Option<&str>| {
            let mut h = at.clone();
            h.root = false;
            h.original = pointer::child(&at.original, name);
            h.read = pointer::child(&at.read, to);
            if let Some(p) = place {
                h.original = pointer::child(&h.original, p);
                h.read = pointer::child(&h.read, p);
            }
            h
        };
        let shape = match (k, value) {
            (Keyword::Items, Value::Array(_)) => Shape::Array,
            _ => k.shape(),
        };
        Ok(match (shape, value) {
            (Shape::One, _) => self.schema(value, here(None))?,
            (Shape::Map, Value::Object(m)) => {
                let mut o = Map::new();
                for (key, v) in m {
                    o.insert(key.clone(), self.schema(v, here(Some(key)))?);
                }
                Value::Object(o)
            }
            (Shape::Array, Value::Array(a)) => {
                let mut items = Vec::with_capacity(a.len());
                for (i, v) in a.iter().enumerate() {
                    items.push(self.schema(v, here(Some(&i.to_string())))?);
                }
                Value::Array(items)
            }
            _ => value.clone(),
        })
    }

    /// `dependencies` split: its name lists (`dependentRequired`) and its schemas
    /// (`dependentSchemas`), each `None` when it has none.
    fn dependencies(
        &mut self,
        value: &Value,
        at: &Here,
    ) -> Result<(Option<Value>, Option<Value>), Refusal> {
        let Value::Object(m) = value else {
            // Not an object: left where the checker refuses it, under `dependentSchemas`.
            return Ok((None, Some(value.clone())));
        };
        let mut required = Map::new();
        let mut schemas = Map::new();
        for (key, v) in m {
            if v.is_array() {
                required.insert(key.clone(), v.clone());
            } else {
                let here = Here {
                    root: false,
                    original: pointer::child(&pointer::child(&at.original, "dependencies"), key),
                    read: pointer::child(&pointer::child(&at.read, "dependentSchemas"), key),
                    ..at.clone()
                };
                schemas.insert(key.clone(), self.schema(v, here)?);
            }
        }
        let some = |m: Map<String, Value>| (!m.is_empty()).then_some(Value::Object(m));
        Ok((some(required), some(schemas)))
    }
}

/// Whether keyword `k` of the schema object `obj` at `at` is one the dialect does not read there:
/// a sibling of `$ref` before 2019-09 (but `definitions`, `$schema`, a document's identifier and
/// annotations, which say nothing of instances), or a later dialect's keyword that asserts, which
/// is an unknown keyword here.
fn unread(obj: &Map<String, Value>, k: Keyword, at: &Here) -> bool {
    let sp = at.dialect.spellings();
    let beside_ref = sp.ref_overrides_siblings
        && k != Keyword::Ref
        && obj.get("$ref").is_some_and(Value::is_string);
    let kept_beside_ref = k == Keyword::Definitions
        || k == Keyword::Schema
        || (k.kind() == Kind::Annotation && k != Keyword::Format)
        || (at.root && k == sp.id);
    let later = !k.in_dialect(at.dialect)
        && k.in_dialect(Dialect::Draft202012)
        && k.kind() != Kind::Annotation;
    (beside_ref && !kept_beside_ref) || later
}

/// An identifier of a dialect where its fragment names the subschema: `$id` for the part before
/// the fragment, `$anchor` for the fragment.
fn identifier(value: &Value) -> Respelled {
    let Some(id) = value.as_str() else {
        return Respelled::Renamed("$id");
    };
    match id.split_once('#') {
        None => Respelled::Renamed("$id"),
        Some(("", "")) => Respelled::Ignored,
        Some((base, "")) => Respelled::Rewritten("$id", Value::from(base)),
        // A pointer fragment identifies nothing a `$ref` could not reach by pointer anyway.
        Some((_, fragment)) if fragment.starts_with('/') => Respelled::Ignored,
        Some((base, fragment)) => Respelled::Identifier(
            (!base.is_empty()).then(|| base.to_owned()),
            fragment.to_owned(),
        ),
    }
}

/// 2019-09's `$recursiveRef` in 2020-12's words: `$dynamicRef` to the recursive anchor where its
/// resource declares `$recursiveAnchor: true`, a plain `$ref` where it does not.
fn recursive_ref(obj: &Map<String, Value>, value: &Value, at: &Here) -> Result<Respelled, Refusal> {
    let refuse = |message: String| Refusal {
        kind: RefusalKind::Keyword,
        pointer: pointer::child(&at.original, "$recursiveRef"),
        message,
    };
    if value.as_str() != Some("#") {
        return Err(refuse(format!(
            "`$recursiveRef` is {value}; 2019-09 defines it only as \"#\", the enclosing resource"
        )));
    }
    if obj.contains_key("$ref") {
        return Err(refuse(
            "`$recursiveRef` beside `$ref` in 2019-09 has no 2020-12 spelling this generator reads"
                .to_owned(),
        ));
    }
    Ok(if at.recursive {
        Respelled::Rewritten("$dynamicRef", Value::from(format!("#{RECURSIVE_ANCHOR}")))
    } else {
        Respelled::Rewritten("$ref", Value::from("#"))
    })
}

/// A member name for `name` that no dialect reads and `obj` does not use.
fn unused_name(obj: &Map<String, Value>, name: &str, dialect: Dialect) -> String {
    let mut to = format!("{name}@unread-in-{dialect}");
    while obj.contains_key(&to) {
        to.push('_');
    }
    to
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read7(v: Value) -> Read {
        read(&v, Dialect::Draft7).unwrap()
    }

    #[test]
    fn dialects_are_known_by_uri_and_name() {
        for d in Dialect::ALL {
            assert_eq!(Dialect::from_uri(d.uri()), Some(d));
            assert_eq!(d.name().parse::<Dialect>(), Ok(d));
        }
        assert_eq!(
            Dialect::from_uri("https://json-schema.org/draft-07/schema"),
            Some(Dialect::Draft7)
        );
        assert_eq!(
            Dialect::from_uri("https://json-schema.org/draft/2020-12/schema#"),
            Some(Dialect::Draft202012)
        );
        assert_eq!("draft4".parse(), Ok(Dialect::Draft4));
        assert_eq!(
            Dialect::retired("http://json-schema.org/draft-03/schema#"),
            Some("draft-03")
        );
        assert!("draft-03".parse::<Dialect>().is_err());
    }

    #[test]
    fn a_2020_12_document_reads_as_itself() {
        let s =
            json!({"$defs": {"a": {"items": {"$ref": "#/$defs/a"}, "x-y": 1}}, "dependencies": {}});
        let r = read(&s, Dialect::Draft202012).unwrap();
        assert_eq!(r.schema, s);
        assert!(r.spelling.is_identity());
    }

    #[test]
    fn definitions_and_array_items_take_2020_12_names_and_places_map_both_ways() {
        let r = read7(json!({
            "definitions": {"a": {"items": [{"type": "string"}], "additionalItems": false}},
            "items": {"type": "integer"},
            "additionalItems": {"type": "string"}
        }));
        assert_eq!(
            r.schema,
            json!({
                "$defs": {"a": {"prefixItems": [{"type": "string"}], "items": false}},
                "items": {"type": "integer"},
                "additionalItems@unread-in-draft-07": {"type": "string"}
            })
        );
        let sp = &r.spelling;
        assert_eq!(
            sp.to_read("", "/definitions/a/items/0"),
            "/$defs/a/prefixItems/0"
        );
        assert_eq!(
            sp.to_original("/$defs/a/prefixItems/0/type"),
            "/definitions/a/items/0/type"
        );
        assert_eq!(
            sp.to_original("/$defs/a/items"),
            "/definitions/a/additionalItems"
        );
        assert_eq!(
            sp.to_original("/additionalItems@unread-in-draft-07"),
            "/additionalItems"
        );
    }

    #[test]
    fn ref_siblings_are_ignored_before_2019_09_but_stay_reachable() {
        let r = read7(json!({
            "$id": "http://x/root.json",
            "$ref": "#/definitions/a",
            "definitions": {"a": {"$ref": "#/definitions/b", "maxLength": 2, "$id": "http://x/b", "description": "kept"}},
            "properties": {"p": {}}
        }));
        let a = &r.schema["$defs"]["a"];
        assert_eq!(a["description"], "kept");
        assert!(a.get("maxLength").is_none() && a.get("$id").is_none());
        assert_eq!(a["maxLength@unread-in-draft-07"], 2);
        assert_eq!(r.schema["$id"], "http://x/root.json");
        assert_eq!(
            r.spelling.to_read("", "/properties/p"),
            "/properties@unread-in-draft-07/p"
        );
        // 2019-09 applies them.
        let s = json!({"$ref": "#/$defs/a", "maxLength": 2, "$defs": {"a": {}}});
        assert_eq!(read(&s, Dialect::Draft201909).unwrap().schema, s);
    }

    #[test]
    fn draft_04_ids_bounds_and_dependencies() {
        let r = read(
            &json!({
                "id": "http://x/s.json#",
                "properties": {"a": {"id": "#a", "maximum": 3, "exclusiveMaximum": true, "minimum": 1, "exclusiveMinimum": false}},
                "dependencies": {"a": ["b"], "c": {"required": ["d"]}},
                "const": 1
            }),
            Dialect::Draft4,
        )
        .unwrap();
        assert_eq!(
            r.schema,
            json!({
                "$id": "http://x/s.json",
                "properties": {"a": {
                    "$anchor": "a",
                    "exclusiveMaximum": 3,
                    "exclusiveMaximum@unread-in-draft-04": true,
                    "minimum": 1,
                    "exclusiveMinimum@unread-in-draft-04": false
                }},
                "dependentRequired": {"a": ["b"]},
                "dependentSchemas": {"c": {"required": ["d"]}},
                "const@unread-in-draft-04": 1
            })
        );
        assert_eq!(
            r.spelling.to_original("/properties/a/exclusiveMaximum"),
            "/properties/a/maximum"
        );
        assert_eq!(
            r.spelling.to_original("/dependentRequired/a"),
            "/dependencies/a"
        );
        assert_eq!(
            r.spelling.to_read("", "/dependencies/c"),
            "/dependentSchemas/c"
        );
        assert_eq!(r.dialect, Dialect::Draft4);
    }

    #[test]
    fn recursive_refs_become_dynamic_where_the_resource_is_recursive() {
        let r = read(
            &json!({
                "$schema": "https://json-schema.org/draft/2019-09/schema",
                "$recursiveAnchor": true,
                "properties": {"a": {"$recursiveRef": "#"}},
                "$defs": {"b": {"$id": "b.json", "items": {"$recursiveRef": "#"}}}
            }),
            Dialect::Draft202012,
        )
        .unwrap();
        assert_eq!(r.schema["$dynamicAnchor"], RECURSIVE_ANCHOR);
        assert_eq!(
            r.schema["properties"]["a"],
            json!({"$dynamicRef": format!("#{RECURSIVE_ANCHOR}")})
        );
        assert_eq!(r.schema["$defs"]["b"]["items"], json!({"$ref": "#"}));
        assert_eq!(r.dialect, Dialect::Draft201909);
        let e = read(&json!({"$recursiveRef": "#/x"}), Dialect::Draft201909).unwrap_err();
        assert_eq!(e.pointer, "/$recursiveRef");
    }

    #[test]
    fn embedded_resources_read_in_their_own_dialect_and_unknown_ones_are_refused() {
        let r = read(
            &json!({"$defs": {"old": {"$id": "http://x/old.json", "$schema": "http://json-schema.org/draft-07/schema#",
                "definitions": {}, "$ref": "#/definitions/x", "type": "string"}}}),
            Dialect::Draft202012,
        )
        .unwrap();
        let old = &r.schema["$defs"]["old"];
        assert!(old.get("$defs").is_some() && old.get("type").is_none());
        let e = read(
            &json!({"$schema": "http://json-schema.org/draft-03/schema#"}),
            Dialect::Draft7,
        )
        .unwrap_err();
        assert_eq!(
            (e.kind, e.pointer.as_str()),
            (RefusalKind::Dialect, "/$schema")
        );
        assert!(e.message.contains("draft-03"), "{}", e.message);
    }
}
