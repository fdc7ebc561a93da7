//! Where the subschemas of a schema document are, by JSON pointer, and reading and writing at a
//! pointer.

use prp_vocabulary::{Dialect, pointer};
use serde_json::Value;

pub use prp_vocabulary::pointer::{child, escape};

/// The pointers of every subschema of `root` (objects and booleans), `""` first, parents before
/// their children, as the dialect its `$schema` names reads them (`default` when it names none):
/// `definitions` and array-form `items` in a draft-07 file, `$defs` in a 2020-12 one.
pub fn subschemas(root: &Value, default: Dialect) -> Vec<String> {
    let dialect = root
        .get("$schema")
        .and_then(Value::as_str)
        .and_then(Dialect::from_uri)
        .unwrap_or(default);
    let mut out = Vec::new();
    prp_vocabulary::walk(root, dialect, |at, _| out.push(at.to_owned()));
    out
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
    fn subschemas_are_listed_by_pointer_in_the_file_s_dialect() {
        let s = json!({
            "properties": {"a/b": {"type": "string"}, "c": true},
            "allOf": [{"if": {"required": ["x"]}, "then": false}],
            "enum": [{"properties": {}}],
            "$defs": {"d": {"items": {}}},
            "definitions": {"e": {"items": [true], "additionalItems": false}}
        });
        let common = [
            "",
            "/properties/a~1b",
            "/properties/c",
            "/allOf/0",
            "/allOf/0/if",
            "/allOf/0/then",
        ];
        let mut modern = common.to_vec();
        modern.extend(["/$defs/d", "/$defs/d/items"]);
        assert_eq!(subschemas(&s, Dialect::Draft202012), modern);
        let mut draft7 = common.to_vec();
        draft7.extend([
            "/definitions/e",
            "/definitions/e/items/0",
            "/definitions/e/additionalItems",
        ]);
        assert_eq!(subschemas(&s, Dialect::Draft7), draft7);
        let mut named = s.clone();
        named["$schema"] = json!("http://json-schema.org/draft-07/schema#");
        assert_eq!(subschemas(&named, Dialect::Draft202012), draft7);
        assert_eq!(member_name("/properties/a~1b").as_deref(), Some("a/b"));
        assert_eq!(member_name("/allOf/0"), None);
    }
}
