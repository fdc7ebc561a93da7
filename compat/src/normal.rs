//! A schema's meaning as one canonical text: `$ref`s inlined, annotations dropped, keys sorted, and
//! the spellings that say the same thing made one (`const` and a one-value `enum`, `type: [X,
//! "null"]` and a `oneOf` with `null`, a redundant `type: object` in `if`/`then`/`allOf` members, an
//! `allOf` nested in an `allOf`). Two schemas with the same text accept the same documents, so
//! `compat` searches for a witness only where the texts differ.

use prp_codegen::SchemaSet;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// Keywords that assert nothing about the instance here: annotations, identifiers, and `$defs`,
/// whose entries matter where a `$ref` leads to them.
pub(crate) const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$anchor",
    "$defs",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// How deep `$ref`s are inlined; below, a reference stays as the canonical URI it names.
const DEPTH: usize = 24;

/// The canonical text of the schema at `uri` (a canonical URI of `set`).
pub fn meaning(set: &SchemaSet, uri: &str) -> String {
    let mut active = BTreeSet::new();
    let v = match set.node_at(uri) {
        Some((canon, node)) => normal(set, &canon, node, false, 0, &mut active),
        None => Value::Null,
    };
    sorted(&v).to_string()
}

/// `node` (at canonical URI `at`) normalized; `in_object`: it applies to an instance another
/// schema on the way already requires to be an object (through `allOf`, `if`/`then`/`else`,
/// `oneOf`, `not`, `$ref`), where `type: object` says nothing more.
fn normal(
    set: &SchemaSet,
    at: &str,
    node: &Value,
    in_object: bool,
    depth: usize,
    active: &mut BTreeSet<String>,
) -> Value {
    let Some(o) = node.as_object() else {
        return node.clone();
    };
    // Known to be an object: said here, or by a schema applying to the same instance.
    let object = in_object || o.get("type") == Some(&json!("object"));
    let mut out = Map::new();
    let mut all_of: Vec<Value> = Vec::new();
    for (k, v) in o {
        let here = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
        let sub = |v: &Value, token: &str, member: bool, active: &mut BTreeSet<String>| {
            normal(
                set,
                &format!("{here}{token}"),
                v,
                member && object,
                depth,
                active,
            )
        };
        match k.as_str() {
            k if ANNOTATIONS.contains(&k) => {}
            "$ref" => {
                let target = v
                    .as_str()
                    .and_then(|r| set.resolve_from(at, r))
                    .unwrap_or_default();
                match set.node_at(&target) {
                    Some((canon, t)) if depth < DEPTH && active.insert(canon.clone()) => {
                        all_of.push(normal(set, &canon, t, object, depth + 1, active));
                        active.remove(&canon);
                    }
                    _ => {
                        out.insert("$ref".into(), json!(target));
                    }
                }
            }
            "type" if in_object && v == "object" => {}
            "type" => {
                out.insert("type".into(), types(v));
            }
            "const" => {
                out.insert("enum".into(), json!([v]));
            }
            "enum" => {
                let mut vs: Vec<Value> = v.as_array().cloned().unwrap_or_default();
                vs.sort_by_key(|x| x.to_string());
                vs.dedup();
                out.insert("enum".into(), Value::Array(vs));
            }
            "required" => {
                let mut r: Vec<String> = v
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|s| s.as_str().map(str::to_owned))
                    .collect();
                r.sort();
                r.dedup();
                out.insert("required".into(), json!(r));
            }
            "allOf" => {
                for (i, m) in v.as_array().into_iter().flatten().enumerate() {
                    all_of.push(sub(m, &format!("/{i}"), true, active));
                }
            }
            "if" | "then" | "else" | "not" => {
                out.insert(k.to_owned(), sub(v, "", true, active));
            }
            "properties" | "patternProperties" | "dependentSchemas" => {
                let m: Map<String, Value> = v
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, s)| {
                        let token = format!("/{}", name.replace('~', "~0").replace('/', "~1"));
                        (
                            name.clone(),
                            sub(s, &token, k == "dependentSchemas", active),
                        )
                    })
                    .collect();
                out.insert(k.to_owned(), Value::Object(m));
            }
            "anyOf" | "oneOf" | "prefixItems" => {
                let same = k != "prefixItems";
                let list: Vec<Value> = v
                    .as_array()
                    .into_iter()
                    .flatten()
                    .enumerate()
                    .map(|(i, s)| sub(s, &format!("/{i}"), same, active))
                    .collect();
                out.insert(k.to_owned(), Value::Array(list));
            }
            "items"
            | "additionalProperties"
            | "propertyNames"
            | "contains"
            | "unevaluatedItems"
            | "unevaluatedProperties" => {
                out.insert(k.to_owned(), sub(v, "", false, active));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    nullable_one_of(&mut out);
    merge_all_of(out, all_of)
}

/// `type` as a sorted list of names, or one name.
fn types(v: &Value) -> Value {
    match v {
        Value::Array(ts) => {
            let mut names: Vec<String> = ts
                .iter()
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect();
            names.sort();
            names.dedup();
            match names.as_slice() {
                [one] => json!(one),
                _ => json!(names),
            }
        }
        other => other.clone(),
    }
}

/// `{"oneOf": [B, {"type": "null"}]}` as B with `null` among its types, when B says nothing
/// that would apply to `null` (no applicator).
fn nullable_one_of(out: &mut Map<String, Value>) {
    let Some(Value::Array(alts)) = out.get("oneOf") else {
        return;
    };
    if alts.len() != 2 || out.contains_key("type") {
        return;
    }
    let is_null = |v: &Value| v == &json!({ "type": "null" });
    let Some(b) = alts.iter().find(|a| !is_null(a)) else {
        return;
    };
    let applies_to_null = ["allOf", "anyOf", "oneOf", "not", "if", "enum", "$ref"];
    let Some(bo) = b.as_object() else { return };
    let Some(Value::String(t)) = bo.get("type") else {
        return;
    };
    if !alts.iter().any(is_null) || bo.keys().any(|k| applies_to_null.contains(&k.as_str())) {
        return;
    }
    let mut merged = bo.clone();
    merged.insert("type".into(), types(&json!([t, "null"])));
    out.remove("oneOf");
    out.extend(merged);
}

/// `out` with the `allOf` members: one member and nothing else is that member; nested `allOf`s
/// flatten; the members are in one order.
fn merge_all_of(out: Map<String, Value>, members: Vec<Value>) -> Value {
    let mut flat: Vec<Value> = Vec::new();
    for m in members {
        match m.as_object() {
            Some(o) if o.len() == 1 && o.contains_key("allOf") => {
                flat.extend(o["allOf"].as_array().cloned().unwrap_or_default());
            }
            Some(o) if o.is_empty() => {}
            _ => flat.push(m),
        }
    }
    if flat.is_empty() {
        return Value::Object(out);
    }
    if out.is_empty() && flat.len() == 1 {
        return flat.remove(0);
    }
    flat.sort_by_key(|m| sorted(m).to_string());
    let mut out = out;
    out.insert("allOf".into(), Value::Array(flat));
    Value::Object(out)
}

/// `v` with every object's keys in sorted order.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&o[k])))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}
