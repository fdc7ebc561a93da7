//! Where the subschemas of a schema document are, by JSON pointer, and reading and writing at a
//! pointer.

use serde_json::Value;

/// Keywords whose value is one subschema.
const ONE: &[&str] = &[
    "additionalProperties",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
];
/// Keywords whose value maps names to subschemas.
const MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "dependentSchemas",
];
/// Keywords whose value is an array of subschemas.
const ARRAY: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// A pointer token escaped (`~` as `~0`, `/` as `~1`).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// `pointer` with `token` appended.
pub fn child(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", escape(token))
}

/// The pointers of every subschema of `root` (objects and booleans), `""` first, parents before
/// their children.
pub fn subschemas(root: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(root, String::new(), &mut out);
    out
}

fn walk(node: &Value, at: String, out: &mut Vec<String>) {
    let Some(o) = node.as_object() else {
        if node.is_boolean() {
            out.push(at);
        }
        return;
    };
    out.push(at.clone());
    for (k, v) in o {
        let k = k.as_str();
        if ONE.contains(&k) {
            walk(v, child(&at, k), out);
        } else if MAP.contains(&k) {
            for (name, s) in v.as_object().into_iter().flatten() {
                walk(s, child(&child(&at, k), name), out);
            }
        } else if ARRAY.contains(&k) {
            for (i, s) in v.as_array().into_iter().flatten().enumerate() {
                walk(s, format!("{at}/{k}/{i}"), out);
            }
        }
    }
}

/// The pointer's parent and last token (unescaped); `None` for the root.
pub fn split(pointer: &str) -> Option<(&str, String)> {
    let (parent, last) = pointer.rsplit_once('/')?;
    Some((parent, last.replace("~1", "/").replace("~0", "~")))
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
            "$defs": {"d": {"items": {}}}
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
                "/$defs/d/items"
            ]
        );
        assert_eq!(member_name("/properties/a~1b").as_deref(), Some("a/b"));
        assert_eq!(member_name("/allOf/0"), None);
    }
}
