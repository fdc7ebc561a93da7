//! prp-vocabulary: what JSON Schema's words mean, in one place, for every crate of the workspace
//! that reads schemas (the generator, its runtime's checker, `prp compat`, prp-types' manifest).
//!
//! - [`Keyword`]: every keyword of the dialects the workspace knows, with its [`Kind`] (what it
//!   does to an instance) and its [`Shape`] (where its subschemas are). A keyword added here is an
//!   arm every `match` over [`Keyword`] must then handle: the compiler lists the places.
//! - [`pointer`](mod@pointer): JSON pointer (RFC 6901) tokens, escaped and unescaped.
//! - [`dialect`]: the dialects (draft-04 to 2020-12), how each spells what 2020-12 says another
//!   way, and [`dialect::read`], which puts a document of any of them into 2020-12's spelling.
//! - [`uri`]: URI references resolved against a base (RFC 3986), as `$id` and `$ref` need.
//! - [`canonical`]: one canonical JSON text (members in code point order), and the UTF-16 key
//!   order PRP's digests ask for, under that name.
//! - [`subschemas`]: the subschemas of a schema, by the keywords' shapes; [`Schema`]: a schema
//!   object's keywords read by [`Keyword`].

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod canonical;
pub mod dialect;
mod keyword;
pub mod pointer;
pub mod uri;

pub use dialect::Dialect;
pub use keyword::{InstanceType, Keyword, Kind, Shape};

use serde_json::{Map, Value};

/// A schema object's keywords read by [`Keyword`] rather than by spelling.
pub trait Schema {
    /// The value of keyword `k`, if the schema has it.
    fn keyword(&self, k: Keyword) -> Option<&Value>;

    /// Whether the schema has keyword `k`.
    fn has(&self, k: Keyword) -> bool {
        self.keyword(k).is_some()
    }
}

impl Schema for Map<String, Value> {
    fn keyword(&self, k: Keyword) -> Option<&Value> {
        self.get(k.name())
    }
}

impl Schema for Value {
    fn keyword(&self, k: Keyword) -> Option<&Value> {
        self.as_object()?.keyword(k)
    }
}

/// Calls `f` with each subschema directly under the schema object `node` (in `dialect`): the
/// keyword it is under, and the name (a map entry's key) or index (an array's) when the keyword
/// holds several. Values of keywords the dialect does not have, and of `const`, `enum` and the
/// annotations, are not schemas and are not visited.
pub fn subschemas<'v>(
    node: &'v Value,
    dialect: Dialect,
    mut f: impl FnMut(Keyword, Option<Place<'v>>, &'v Value),
) {
    let Some(o) = node.as_object() else { return };
    for (k, v) in o {
        let Some(kw) = Keyword::from_name(k).filter(|k| k.in_dialect(dialect)) else {
            continue;
        };
        match (kw.shape(), v) {
            // Before 2020-12, `items` may be an array of schemas, one per position.
            (Shape::One, Value::Array(a))
                if kw == Keyword::Items && dialect != Dialect::Draft202012 =>
            {
                for (i, s) in a.iter().enumerate() {
                    f(kw, Some(Place::Index(i)), s);
                }
            }
            (Shape::One, _) => f(kw, None, v),
            (Shape::Map, Value::Object(m)) => {
                for (name, s) in m {
                    f(kw, Some(Place::Name(name)), s);
                }
            }
            (Shape::Array, Value::Array(a)) => {
                for (i, s) in a.iter().enumerate() {
                    f(kw, Some(Place::Index(i)), s);
                }
            }
            _ => {}
        }
    }
}

/// Calls `visit` with the pointer and value of every schema of the document `root` (in
/// `dialect`): objects and booleans, `root` first, each before the schemas under it. The one walk
/// of a whole schema document; [`subschemas`] is its single step.
pub fn walk(root: &Value, dialect: Dialect, mut visit: impl FnMut(&str, &Value)) {
    fn go(node: &Value, at: &mut String, dialect: Dialect, visit: &mut dyn FnMut(&str, &Value)) {
        if !node.is_object() && !node.is_boolean() {
            return;
        }
        visit(at, node);
        subschemas(node, dialect, |k, place, sub| {
            let len = at.len();
            pointer::push(at, k.name());
            if let Some(place) = place {
                pointer::push(at, &place.token());
            }
            go(sub, at, dialect, visit);
            at.truncate(len);
        });
    }
    go(root, &mut String::new(), dialect, &mut visit);
}

/// The pointer of a subschema [`subschemas`] visits under the schema at `at`: the keyword, then
/// the place when the keyword holds several.
pub fn subschema_pointer(at: &str, k: Keyword, place: Option<Place<'_>>) -> String {
    let here = pointer::child(at, k.name());
    match place {
        Some(p) => pointer::child(&here, &p.token()),
        None => here,
    }
}

/// Where a subschema is under a keyword that holds several.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place<'v> {
    /// A map entry's key (`properties/NAME`).
    Name(&'v str),
    /// An array's index (`allOf/0`).
    Index(usize),
}

impl Place<'_> {
    /// The place as a JSON pointer token (unescaped).
    pub fn token(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Place::Name(n) => std::borrow::Cow::Borrowed(n),
            Place::Index(i) => std::borrow::Cow::Owned(i.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_walk_visits_every_schema_of_the_dialect_parents_first() {
        let s = json!({
            "properties": {"a/b": {"type": "string"}, "c": true},
            "allOf": [{"if": {"required": ["x"]}, "then": false}],
            "enum": [{"properties": {}}],
            "$defs": {"d": {"items": {}}},
            "definitions": {"e": {"items": [true], "additionalItems": false}},
            "items": [{"minimum": 1}, 3]
        });
        let seen = |dialect| {
            let mut out = Vec::new();
            walk(&s, dialect, |at, _| out.push(at.to_owned()));
            out
        };
        assert_eq!(
            seen(Dialect::Draft202012),
            [
                "",
                "/properties/a~1b",
                "/properties/c",
                "/allOf/0",
                "/allOf/0/if",
                "/allOf/0/then",
                "/$defs/d",
                "/$defs/d/items",
            ]
        );
        assert_eq!(
            seen(Dialect::Draft7),
            [
                "",
                "/properties/a~1b",
                "/properties/c",
                "/allOf/0",
                "/allOf/0/if",
                "/allOf/0/then",
                "/definitions/e",
                "/definitions/e/items/0",
                "/definitions/e/additionalItems",
                "/items/0",
            ]
        );
    }

    #[test]
    fn subschemas_follow_each_keywords_shape() {
        let s = json!({
            "properties": {"a": {"type": "string"}},
            "allOf": [true, {"not": {}}],
            "items": false,
            "enum": [{"properties": {}}],
            "x-custom": {"type": "string"},
            "required": ["a"],
            "definitions": {"d": {}}
        });
        let mut seen = Vec::new();
        let mut pointers = Vec::new();
        subschemas(&s, Dialect::Draft202012, |k, place, v| {
            seen.push((k.name(), place.map(|p| p.token().into_owned()), v.clone()));
            pointers.push(subschema_pointer("/x", k, place));
        });
        assert_eq!(
            pointers,
            ["/x/properties/a", "/x/allOf/0", "/x/allOf/1", "/x/items"]
        );
        assert_eq!(
            seen,
            [
                (
                    "properties",
                    Some("a".to_owned()),
                    json!({"type": "string"})
                ),
                ("allOf", Some("0".to_owned()), json!(true)),
                ("allOf", Some("1".to_owned()), json!({"not": {}})),
                ("items", None, json!(false)),
            ]
        );
    }
}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
