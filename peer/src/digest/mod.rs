//! Digests, redaction and inspection (PROTOCOL §4.11): how receipts refer to tool content without
//! carrying it. `digest(v)` is `sha256:` and the lowercase hex SHA-256 of the canonical JSON
//! (§0.3) of `redact(v)`, byte for byte what the TypeScript control plane computes.
//!
//! Decisions on the Open points of §4.11:
//! - An object with more than 512 keys keeps the first 512 in UTF-16 code-unit order (the
//!   reference's locale collation is not reproducible across platforms; code-unit order is what
//!   canonical JSON uses anyway).
//! - A string cut at 200,000 UTF-16 units is cut at the last whole character at or below the
//!   limit: a Rust `String` cannot hold half a surrogate pair. It differs from the reference only
//!   when unit 200,000 is the first half of a pair.

mod patterns;

pub use crate::json::canonical as canonical_json;
pub use patterns::{is_sensitive_key, looks_secret, redact_secrets};

use prp_vocabulary::canonical;
use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

/// The deepest nesting walked; deeper values become [`TRUNCATED`].
pub const MAX_DEPTH: usize = 16;
/// The most values walked in one call; later ones become [`TRUNCATED`].
pub const MAX_NODES: usize = 10_000;
/// The most array items kept.
pub const MAX_ITEMS: usize = 512;
/// The most object keys kept.
pub const MAX_KEYS: usize = 512;
/// The longest string kept, in UTF-16 code units.
pub const MAX_STRING_UNITS: usize = 200_000;

/// What replaces a sensitive value or a secret inside a string.
pub const REDACTED: &str = "[REDACTED]";
/// What marks a value, an array tail or a string tail left out by a limit.
pub const TRUNCATED: &str = "[TRUNCATED]";
/// The key added to an object whose keys were cut at [`MAX_KEYS`].
pub const TRUNCATED_KEY: &str = "__paperclip_truncated__";

/// `sha256:` and the hex SHA-256 of the canonical JSON of the redacted value.
pub fn digest(value: &Value) -> String {
    unredacted(&redact(value))
}

/// `sha256:` and the hex SHA-256 of the canonical JSON of the value as it is, not redacted: what
/// a PRP v3 runner compares an operation's digest with (PROTOCOL-V3 §3).
pub fn unredacted(value: &Value) -> String {
    let text = canonical_json(value);
    format!("sha256:{}", hex(&Sha256::digest(text.as_bytes())))
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    out
}

/// The value with sensitive members replaced, secrets inside strings replaced, and everything past
/// the limits cut, as §4.11 walks it (one node counter for the whole walk).
pub fn redact(value: &Value) -> Value {
    let mut nodes = 0;
    redact_at(value, "", 0, &mut nodes)
}

fn redact_at(value: &Value, key: &str, depth: usize, nodes: &mut usize) -> Value {
    *nodes += 1;
    if *nodes > MAX_NODES || depth > MAX_DEPTH {
        return Value::from(TRUNCATED);
    }
    if is_sensitive_key(key) {
        return Value::from(REDACTED);
    }
    match value {
        Value::String(s) => {
            let s = redact_secrets(s).unwrap_or_else(|| s.clone());
            Value::String(truncate_units(s))
        }
        Value::Array(items) => {
            let mut out: Vec<Value> = items
                .iter()
                .take(MAX_ITEMS)
                .map(|v| redact_at(v, "", depth + 1, nodes))
                .collect();
            if items.len() > MAX_ITEMS {
                out.push(Value::from(TRUNCATED));
            }
            Value::Array(out)
        }
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in canonical::members(map, canonical::Order::Utf16)
                .into_iter()
                .take(MAX_KEYS)
            {
                let r = redact_at(v, k, depth + 1, nodes);
                out.insert(k.clone(), r);
            }
            if map.len() > MAX_KEYS {
                out.insert(TRUNCATED_KEY.to_owned(), Value::from(TRUNCATED));
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// Length in UTF-16 code units.
fn units(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The string cut after [`MAX_STRING_UNITS`] units (at a whole character), marked when cut.
fn truncate_units(mut s: String) -> String {
    // Fewer bytes than the limit: fewer units too (a unit takes at least one byte).
    if s.len() <= MAX_STRING_UNITS {
        return s;
    }
    let mut count = 0;
    for (i, c) in s.char_indices() {
        count += c.len_utf16();
        if count > MAX_STRING_UNITS {
            s.truncate(i);
            s.push_str(TRUNCATED);
            return s;
        }
    }
    s
}

/// What [`inspect`] finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Inspection {
    /// A sensitive key or a secret-looking string was seen.
    pub contains_protected_data: bool,
    /// Nothing exceeded a limit: nodes, depth, string length, item or key count.
    pub within_bounds: bool,
}

/// Walks the value as [`redact`] does (same counter and depth limit, at most 512 items and keys
/// visited) and says whether it holds protected data and whether it is within every limit.
pub fn inspect(value: &Value) -> Inspection {
    let mut found = Inspection {
        contains_protected_data: false,
        within_bounds: true,
    };
    let mut nodes = 0;
    inspect_at(value, "", 0, &mut nodes, &mut found);
    found
}

fn inspect_at(value: &Value, key: &str, depth: usize, nodes: &mut usize, found: &mut Inspection) {
    *nodes += 1;
    if *nodes > MAX_NODES || depth > MAX_DEPTH {
        found.within_bounds = false;
        return;
    }
    if is_sensitive_key(key) {
        found.contains_protected_data = true;
        return;
    }
    match value {
        Value::String(s) => {
            if units(s) > MAX_STRING_UNITS {
                found.within_bounds = false;
            }
            if looks_secret(s) {
                found.contains_protected_data = true;
            }
        }
        Value::Array(items) => {
            if items.len() > MAX_ITEMS {
                found.within_bounds = false;
            }
            for v in items.iter().take(MAX_ITEMS) {
                inspect_at(v, "", depth + 1, nodes, found);
            }
        }
        Value::Object(map) => {
            if map.len() > MAX_KEYS {
                found.within_bounds = false;
            }
            for (k, v) in canonical::members(map, canonical::Order::Utf16)
                .into_iter()
                .take(MAX_KEYS)
            {
                inspect_at(v, k, depth + 1, nodes, found);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sensitive_members_and_secrets_are_redacted() {
        let v = json!({
            "headers": {"Authorization": "Bearer abcdefghijkl", "accept": "json"},
            "note": "call with sk_test_abcdefgh please",
            "url": "https://x.test/?token=abc&page=2",
            "list": [{"password": 1}, "plain"]
        });
        assert_eq!(
            redact(&v),
            json!({
                "headers": {"Authorization": "[REDACTED]", "accept": "json"},
                "list": [{"password": "[REDACTED]"}, "plain"],
                "note": "call with [REDACTED] please",
                "url": "https://x.test/?token=[REDACTED]&page=2"
            })
        );
        assert_eq!(
            inspect(&v),
            Inspection {
                contains_protected_data: true,
                within_bounds: true
            }
        );
        assert_eq!(
            inspect(&json!({"a": [1, "b"]})),
            Inspection {
                contains_protected_data: false,
                within_bounds: true
            }
        );
    }

    #[test]
    fn limits_cut_and_mark() {
        // Depth: the value at depth 17 is cut.
        let mut deep = json!("leaf");
        for _ in 0..17 {
            deep = json!([deep]);
        }
        let mut r = redact(&deep);
        for _ in 0..16 {
            r = r[0].clone();
        }
        assert_eq!(r, json!(["[TRUNCATED]"]));
        assert!(!inspect(&deep).within_bounds);
        // Items and keys.
        let long: Vec<u32> = (0..600).collect();
        let r = redact(&json!(long));
        assert_eq!(r.as_array().unwrap().len(), MAX_ITEMS + 1);
        assert_eq!(r[MAX_ITEMS], json!(TRUNCATED));
        let wide: Map<String, Value> = (0..600).map(|i| (format!("k{i:03}"), json!(i))).collect();
        let r = redact(&Value::Object(wide.clone()));
        let m = r.as_object().unwrap();
        assert_eq!(m.len(), MAX_KEYS + 1);
        assert_eq!(m[TRUNCATED_KEY], json!(TRUNCATED));
        assert!(
            m.contains_key("k511") && !m.contains_key("k512"),
            "code-unit order"
        );
        assert!(!inspect(&Value::Object(wide)).within_bounds);
        // Nodes: one counter for the whole walk.
        let many: Vec<Vec<u32>> = (0..40).map(|_| (0..300).collect()).collect();
        let r = redact(&json!(many));
        let cut = r
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|a| a.as_array().cloned().unwrap_or_else(|| vec![a.clone()]))
            .filter(|v| *v == json!(TRUNCATED))
            .count();
        assert!(cut > 0);
        assert!(!inspect(&json!(many)).within_bounds);
    }

    #[test]
    fn a_string_is_cut_at_a_whole_character() {
        let s = format!("{}😀tail", "a".repeat(MAX_STRING_UNITS - 1));
        let r = redact(&json!(s));
        let r = r.as_str().unwrap();
        assert_eq!(
            r,
            format!("{}{TRUNCATED}", "a".repeat(MAX_STRING_UNITS - 1))
        );
        let exact = "é".repeat(MAX_STRING_UNITS);
        assert_eq!(
            redact(&json!(exact)),
            json!(exact),
            "exactly at the limit: kept"
        );
        assert!(inspect(&json!(exact)).within_bounds);
        assert!(!inspect(&json!(format!("{exact}x"))).within_bounds);
    }

    #[test]
    fn digests_are_sha256_of_the_canonical_redacted_text() {
        // printf '{"a":1,"b":[true,null,"x"]}' | sha256sum
        assert_eq!(
            digest(&json!({"b": [true, null, "x"], "a": 1.0})),
            "sha256:eca8cfb31ab74533e1eb2f4c74d2d55dfe3c79ac704787e54be8647ea7777eb1"
        );
    }
}
