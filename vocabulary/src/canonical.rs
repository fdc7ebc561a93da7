//! Canonical JSON: one text per JSON value, so that equal values (under JSON Schema's equality:
//! member order ignored, `1.0` equal to `1`) have equal texts. Members are written in code point
//! order of their names (UTF-8 byte order), integral numbers without a fraction (`-0.0` as `0`),
//! strings as serde_json escapes them, no whitespace.
//!
//! PRP's digests (PROTOCOL §0.3) are of JavaScript's `JSON.stringify` with keys sorted by
//! `Array.prototype.sort`, which compares UTF-16 code units: that order is [`Order::Utf16`], for
//! that use and named for it; it differs from code point order only where a name holds a
//! character above U+FFFF beside one between U+E000 and U+FFFF.

use serde_json::{Map, Value};
use std::cmp::Ordering;

/// An order of object member names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Code point order (UTF-8 byte order): the canonical text's.
    CodePoint,
    /// UTF-16 code unit order: JavaScript's default sort, which PRP's digests use.
    Utf16,
}

impl Order {
    /// Compares two member names.
    pub fn cmp(self, a: &str, b: &str) -> Ordering {
        match self {
            Order::CodePoint => a.cmp(b),
            Order::Utf16 => a.encode_utf16().cmp(b.encode_utf16()),
        }
    }
}

/// The members of `map` in `order`.
pub fn members(map: &Map<String, Value>, order: Order) -> Vec<(&String, &Value)> {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_by(|a, b| order.cmp(a.0, b.0));
    entries
}

/// `v` with every object's members in `order`, at every depth; arrays keep theirs.
pub fn sorted(v: &Value, order: Order) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            members(m, order)
                .into_iter()
                .map(|(k, x)| (k.clone(), sorted(x, order)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| sorted(x, order)).collect()),
        other => other.clone(),
    }
}

/// The canonical text of `v`.
pub fn to_string(v: &Value) -> String {
    let mut out = String::new();
    write(v, &mut out);
    out
}

/// Writes the canonical text of `v` to `out`.
pub fn write(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            out.push('{');
            for (n, (k, x)) in members(m, Order::CodePoint).into_iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write(x, out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (n, x) in a.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                write(x, out);
            }
            out.push(']');
        }
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 1e21 => {
                out.push_str(&format!("{:.0}", f + 0.0))
            }
            _ => out.push_str(&n.to_string()),
        },
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_values_have_one_text() {
        let a = json!({"b": [1.0, {"y": 2, "x": -0.0}], "a": "é"});
        let b = json!({"a": "é", "b": [1, {"x": 0, "y": 2.0}]});
        assert_eq!(to_string(&a), to_string(&b));
        assert_eq!(to_string(&a), r#"{"a":"é","b":[1,{"x":0,"y":2}]}"#);
        assert_eq!(to_string(&json!(1.5)), "1.5");
    }

    #[test]
    fn the_two_orders_part_only_above_the_bmp() {
        // U+FF61 is one UTF-16 unit (0xFF61); U+1F600 is two (0xD83D 0xDE00).
        let (bmp, astral) = ("\u{FF61}", "\u{1F600}");
        assert_eq!(Order::CodePoint.cmp(bmp, astral), Ordering::Less);
        assert_eq!(Order::Utf16.cmp(bmp, astral), Ordering::Greater);
        assert_eq!(Order::Utf16.cmp("a", "b"), Ordering::Less);
        let v = json!({"b": 1, "a": {"d": 1, "c": 2}});
        assert_eq!(
            sorted(&v, Order::Utf16).to_string(),
            r#"{"a":{"c":2,"d":1},"b":1}"#
        );
    }
}
