//! Where the subschemas of a schema document are, by JSON pointer, and reading and writing at a
//! pointer.

use prp_vocabulary::{Keyword, Shape, pointer};
use serde_json::Value;

pub use prp_vocabulary::pointer::{child, escape};

/// The pointers of every subschema of `root` (objects and booleans), `""` first, parents before
/// their children: under every keyword some dialect reads schemas in (`$defs` and
/// `definitions`, `items` as a schema or an array of them), so that a source of any dialect
/// offers all its places to edit.
pub fn subschemas(root: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(root, String::new(), &mut out);
    out
}

fn walk(node: &Value, at: String, out: &mut Vec<String>) {
    if !node.is_object() && !node.is_boolean() {
        return;
    }
    out.push(at.clone());
    let Some(o) = node.as_object() else { return };
    for (k, v) in o {
        let Some(kw) = Keyword::from_name(k) else {
            continue;
        };
        let here = child(&at, k);
        match (kw.shape(), v) {
            (Shape::Map, Value::Object(m)) => {
                for (name, s) in m {
                    walk(s, child(&here, name), out);
                }
            }
            (Shape::Array | Shape::One, Value::Array(a)) => {
                for (i, s) in a.iter().enumerate() {
                    walk(s, child(&here, &i.to_string()), out);
                }
            }
            (Shape::One, _) => walk(v, here, out),
            _ => {}
        }
    }
}

/// The pointer's parent and last token (unescaped); `None` for the root.
pub fn split(pointer: &str) -> Option<(&str, String)> {
    let (parent, last) = pointer::split_last(pointer)?;
    Some((parent, last.into_owned()))
}

/// Whether the subschema at `pointer` is a member schema (`properties/NAME`) and of which name.
pub fn member_name(pointer: &str) -> Option<String> {
    let (parent, name) = split(pointer)?;
    parent.ends_with("/properties").then_some(name)
}

/// Whether `pointer` lies under a conditional, negation or definition of a member (where a
/// keyword is not a plain constraint of the instance the enclosing object describes).
pub fn in_keyword(pointer: &str, keyword: &str) -> bool {
    pointer.split('/').any(|t| t == keyword)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn subschemas_are_listed_by_pointer() {
        let s = json!({
            "properties": {"a/b": {"type": "string"}, "c": true},
            "allOf": [{"if": {"required": ["x"]}, "then": false}],
            "enum": [{"properties": {}}],
            "$defs": {"d": {"items": {}}},
            "definitions": {"e": {"items": [true], "additionalItems": false}}
        });
        assert_eq!(
            subschemas(&s),
            [
                "",
                "/properties/a~1b",
                "/properties/c",
                "/allOf/0",
                "/allOf/0/if",
                "/allOf/0/then",
                "/$defs/d",
                "/$defs/d/items",
                "/definitions/e",
                "/definitions/e/items/0",
                "/definitions/e/additionalItems"
            ]
        );
        assert_eq!(member_name("/properties/a~1b").as_deref(), Some("a/b"));
        assert_eq!(member_name("/allOf/0"), None);
    }
}
