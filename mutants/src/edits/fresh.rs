//! New schemas and values for edits that add something: a member's schema, an alternative, a
//! constant, a pattern.

use super::Cx;
use crate::rng::Rng;
use serde_json::{Value, json};

/// Patterns schema authors write: anchored classes, prefixes, lookaheads, a digest, escapes.
pub(crate) const PATTERNS: &[&str] = &[
    "^[a-z][a-z0-9_.-]*$",
    "^[A-Za-z0-9][A-Za-z0-9._:-]*$",
    "^(?!/)(?!.*(?:^|/)\\.\\.(?:/|$)).+$",
    "^sha256:[a-f0-9]{64}$",
    "^https?://",
    "\\d",
    "^.{2,5}$",
    "a+",
    "^[^\\s]*$",
    "\\u00e9|x",
];

/// A new schema, `depth` levels of nesting at most.
pub(crate) fn schema(cx: &mut Cx, depth: usize) -> Value {
    let roll = cx.rng.below(if depth == 0 { 9 } else { 13 });
    match roll {
        0 => {
            json!({"type": "string", "minLength": cx.rng.between(0, 2), "maxLength": cx.rng.between(3, 40)})
        }
        1 => json!({"type": "string", "pattern": *cx.rng.pick(PATTERNS)}),
        2 => json!({"type": "integer", "minimum": cx.rng.between(-3, 3)}),
        3 => json!({"type": ["integer", "null"], "maximum": cx.rng.between(0, 99)}),
        4 => json!({"enum": enum_values(cx.rng)}),
        5 => json!({"const": value(cx.rng)}),
        6 => json!({"type": *cx.rng.pick(&["boolean", "number", "null", "string"])}),
        7 => json!({"type": ["string", "null"], "maxLength": cx.rng.between(1, 9)}),
        8 => Value::Bool(cx.rng.chance(80)),
        9 => object(cx, depth - 1),
        10 => {
            json!({"type": "array", "items": schema(cx, depth - 1), "maxItems": cx.rng.between(1, 4)})
        }
        11 => json!({"oneOf": [{"type": "null"}, schema(cx, depth - 1)]}),
        _ => json!({"anyOf": [schema(cx, depth - 1), schema(cx, depth - 1)]}),
    }
}

/// A new object schema with one to three members.
pub(crate) fn object(cx: &mut Cx, depth: usize) -> Value {
    let mut properties = serde_json::Map::new();
    let mut required = Vec::new();
    for _ in 0..=cx.rng.below(3) {
        let name = cx.fresh_name("m");
        if cx.rng.chance(50) {
            required.push(json!(name));
        }
        properties.insert(name, schema(cx, depth));
    }
    let mut o = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        o["required"] = Value::Array(required);
    }
    if cx.rng.chance(50) {
        o["additionalProperties"] = json!(cx.rng.chance(50));
    }
    o
}

/// Two or three string or integer values for an `enum`.
fn enum_values(rng: &mut Rng) -> Vec<Value> {
    let n = 2 + rng.below(2);
    if rng.chance(70) {
        (0..n).map(|i| json!(format!("v{i}"))).collect()
    } else {
        (0..n as i64).map(|i| json!(i)).collect()
    }
}

/// A scalar value.
pub(crate) fn value(rng: &mut Rng) -> Value {
    match rng.below(6) {
        0 => json!(format!("k{}", rng.below(4))),
        1 => json!(rng.between(-1, 3)),
        2 => json!(rng.chance(50)),
        3 => Value::Null,
        4 => json!(""),
        _ => json!("x"),
    }
}

/// A value unlike `like` but of its JSON type (for a constant changed or an enum value added),
/// different from every value in `taken`.
pub(crate) fn another(rng: &mut Rng, like: &Value, taken: &[Value]) -> Value {
    for n in 0..64 {
        let v = match like {
            Value::String(s) => json!(format!("{s}_{}", rng.below(4) + n)),
            Value::Number(x) if x.is_i64() || x.is_u64() => {
                json!(
                    x.as_i64()
                        .unwrap_or(0)
                        .saturating_add(1 + rng.below(3) as i64 + n as i64)
                )
            }
            Value::Number(x) => json!(x.as_f64().unwrap_or(0.0) + 0.5),
            Value::Bool(b) => json!(!b),
            Value::Null => value(rng),
            _ => value(rng),
        };
        if !taken.contains(&v) {
            return v;
        }
    }
    json!(format!("fresh-{}", rng.next_u64()))
}

/// A value the schema `s` plausibly takes: its constant, an enum value, or one of its type.
pub(crate) fn sample(rng: &mut Rng, s: &Value) -> Value {
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    if let Some(e) = s
        .get("enum")
        .and_then(Value::as_array)
        .filter(|e| !e.is_empty())
    {
        return rng.pick(e).clone();
    }
    let first = match s.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) if !ts.is_empty() => rng.pick(ts).as_str().unwrap_or("string"),
        _ => "string",
    };
    match first {
        "integer" | "number" => json!(rng.between(0, 3)),
        "boolean" => json!(rng.chance(50)),
        "null" => Value::Null,
        "object" => json!({}),
        "array" => json!([]),
        _ => json!(*rng.pick(&["a", "x", "k1", ""])),
    }
}
