//! A schema's meaning as one canonical text: `$ref`s inlined, annotations dropped, keys sorted, and
//! the spellings that say the same thing made one (`const` and a one-value `enum`, `type: [X,
//! "null"]` and a `oneOf` with `null`, a redundant `type: object` in `if`/`then`/`allOf` members, an
//! `allOf` nested in an `allOf`). Two schemas with the same text accept the same documents, so
//! `compat` searches for a witness only where the texts differ.

use prp_codegen::{Options, SchemaSet};
use prp_vocabulary::{Dialect, Shape, canonical, pointer, uri};
use prp_vocabulary::{Keyword, Schema};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// `name` as a keyword of draft 2020-12, the dialect compat reads; other names are unknown
/// keywords, compared as written.
pub(crate) fn keyword(name: &str) -> Option<Keyword> {
    Keyword::from_name(name).filter(|k| k.in_dialect(Dialect::Draft202012))
}

/// Whether compat ignores the keyword `k`: identifiers and annotations say nothing about whether
/// an instance is valid (`$defs` entries matter where a `$ref` leads to them). `format` is kept
/// here; its meaning counts only where the options assert it.
pub(crate) fn ignored(k: Keyword) -> bool {
    k.asserts_nothing() && k != Keyword::Format
}

/// How deep `$ref`s are inlined; below, a reference stays as the canonical URI it names.
const DEPTH: usize = 24;

/// What a walk carries: the references being inlined (a recursive schema stops there), and the
/// options saying which formats are asserted.
struct Walk<'a> {
    active: BTreeSet<String>,
    options: &'a Options,
}

/// The canonical text of the schema at `uri` (a canonical URI of `set`), `format` asserted as
/// `options` say.
pub fn meaning(set: &SchemaSet, options: &Options, uri: &str) -> String {
    let mut active = Walk {
        active: BTreeSet::new(),
        options,
    };
    let v = match set.node_at(uri) {
        Some((canon, node)) => normal(set, &canon, node, false, 0, &mut active),
        None => Value::Null,
    };
    canonical::to_string(&v)
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
    active: &mut Walk,
) -> Value {
    let Some(o) = node.as_object() else {
        return node.clone();
    };
    // Known to be an object: said here, or by a schema applying to the same instance.
    let object = in_object || o.keyword(Keyword::Type) == Some(&json!("object"));
    let mut out = Map::new();
    let mut all_of: Vec<Value> = Vec::new();
    for (k, v) in o {
        let here = uri::child(at, k);
        let sub = |v: &Value, token: &str, member: bool, active: &mut Walk| {
            normal(
                set,
                &format!("{here}{token}"),
                v,
                member && object,
                depth,
                active,
            )
        };
        let Some(kw) = keyword(k) else {
            out.insert(k.clone(), v.clone());
            continue;
        };
        match kw {
            kw if ignored(kw) => {}
            // An annotation unless asserted.
            Keyword::Format if !v.as_str().is_some_and(|f| active.options.asserts_format(f)) => {}
            Keyword::Ref => {
                let target = v
                    .as_str()
                    .and_then(|r| set.resolve_from(at, r))
                    .unwrap_or_default();
                match inlined(set, &target, object, depth, active) {
                    Some(n) => all_of.push(n),
                    None => {
                        out.insert(k.clone(), json!(target));
                    }
                }
            }
            // Its target depends on the dynamic scope: every schema it may land on stands for it
            // (see `dynamic_targets`), kept under its own name, so that a change in any of them
            // is a change here.
            Keyword::DynamicRef => {
                let targets = v.as_str().map(|r| dynamic_targets(set, at, r));
                let mut ns: Vec<Value> = targets
                    .into_iter()
                    .flatten()
                    .map(|t| inlined(set, &t, object, depth, active).unwrap_or(json!(t)))
                    .collect();
                ns.sort_by_key(canonical::to_string);
                out.insert(k.clone(), Value::Array(ns));
            }
            Keyword::Type if in_object && v == "object" => {}
            Keyword::Type | Keyword::Const | Keyword::Enum | Keyword::Required => {
                let (name, value) = spelled(kw, v);
                out.insert(name.into(), value);
            }
            Keyword::AllOf => {
                for (i, m) in v.as_array().into_iter().flatten().enumerate() {
                    all_of.push(sub(m, &format!("/{i}"), true, active));
                }
            }
            // Schemas for the same instance, so one known to be an object.
            Keyword::If | Keyword::Then | Keyword::Else | Keyword::Not => {
                out.insert(k.clone(), sub(v, "", true, active));
            }
            _ => {
                let same = matches!(
                    kw,
                    Keyword::DependentSchemas | Keyword::AnyOf | Keyword::OneOf
                );
                let n = match (kw.shape(), v) {
                    (Shape::Map, Value::Object(m)) => Value::Object(
                        m.iter()
                            .map(|(name, s)| {
                                let token = uri::child("", name);
                                (name.clone(), sub(s, &token, same, active))
                            })
                            .collect(),
                    ),
                    (Shape::Array, Value::Array(a)) => Value::Array(
                        a.iter()
                            .enumerate()
                            .map(|(i, s)| sub(s, &format!("/{i}"), same, active))
                            .collect(),
                    ),
                    (Shape::One, _) => sub(v, "", false, active),
                    _ => v.clone(),
                };
                out.insert(k.clone(), n);
            }
        }
    }
    nullable_one_of(&mut out);
    merge_all_of(out, all_of)
}

/// The schema at canonical URI `target` normalized, in place of a reference to it; `None` when
/// it is not in the directory, too deep, or being inlined already (a recursive schema).
fn inlined(
    set: &SchemaSet,
    target: &str,
    object: bool,
    depth: usize,
    active: &mut Walk,
) -> Option<Value> {
    let (canon, t) = set.node_at(target)?;
    if depth >= DEPTH || !active.active.insert(canon.clone()) {
        return None;
    }
    let n = normal(set, &canon, t, object, depth + 1, active);
    active.active.remove(&canon);
    Some(n)
}

/// A keyword whose value is not a schema, in one spelling: `const` as a one-value `enum`, `enum`
/// and `required` sorted without repeats, `type` as [`types`] writes it.
fn spelled(kw: Keyword, v: &Value) -> (&'static str, Value) {
    let sorted = |mut vs: Vec<Value>| {
        vs.sort_by_key(|x| x.to_string());
        vs.dedup();
        Value::Array(vs)
    };
    match kw {
        Keyword::Const => (Keyword::Enum.name(), json!([v])),
        Keyword::Enum => (kw.name(), sorted(v.as_array().cloned().unwrap_or_default())),
        Keyword::Required => {
            let names = v.as_array().into_iter().flatten().filter(|s| s.is_string());
            (kw.name(), sorted(names.cloned().collect()))
        }
        _ => (kw.name(), types(v)),
    }
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
    let Some(Value::Array(alts)) = out.keyword(Keyword::OneOf) else {
        return;
    };
    if alts.len() != 2 || out.has(Keyword::Type) {
        return;
    }
    let is_null = |v: &Value| v == &json!({ "type": "null" });
    let Some(b) = alts.iter().find(|a| !is_null(a)) else {
        return;
    };
    let applies_to_null = [
        Keyword::AllOf,
        Keyword::AnyOf,
        Keyword::OneOf,
        Keyword::Not,
        Keyword::If,
        Keyword::Enum,
        Keyword::Ref,
    ];
    let Some(bo) = b.as_object() else { return };
    let Some(Value::String(t)) = bo.keyword(Keyword::Type) else {
        return;
    };
    if !alts.iter().any(is_null) || applies_to_null.iter().any(|&k| bo.has(k)) {
        return;
    }
    let mut merged = bo.clone();
    merged.insert(Keyword::Type.name().into(), types(&json!([t, "null"])));
    out.remove(Keyword::OneOf.name());
    out.extend(merged);
}

/// `out` with the `allOf` members: one member and nothing else is that member; nested `allOf`s
/// flatten; the members are in one order.
fn merge_all_of(out: Map<String, Value>, members: Vec<Value>) -> Value {
    let mut flat: Vec<Value> = Vec::new();
    for m in members {
        match m.as_object() {
            Some(o) if o.len() == 1 && o.has(Keyword::AllOf) => {
                flat.extend(
                    o[Keyword::AllOf.name()]
                        .as_array()
                        .cloned()
                        .unwrap_or_default(),
                );
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
    flat.sort_by_key(canonical::to_string);
    let mut out = out;
    out.insert(Keyword::AllOf.name().into(), Value::Array(flat));
    Value::Object(out)
}

/// The schemas a `$dynamicRef` `reference` (written at `at`) may land on, by canonical URI: the
/// one it resolves to statically and, when its fragment names a dynamic anchor, every schema of
/// the directory with that `$dynamicAnchor` (the dynamic scope picks among them).
pub(crate) fn dynamic_targets(set: &SchemaSet, at: &str, reference: &str) -> Vec<String> {
    let mut out: Vec<String> = set.resolve_from(at, reference).into_iter().collect();
    let name = reference.rsplit_once('#').map_or("", |(_, f)| f);
    if name.is_empty() || name.starts_with('/') {
        return out;
    }
    for f in &set.files {
        let mut found = Vec::new();
        anchors(&f.root, String::new(), name, &mut found);
        for pointer in found {
            if let Some((canon, _)) = set.node_at(&uri::at(&f.id, &pointer))
                && !out.contains(&canon)
            {
                out.push(canon);
            }
        }
    }
    out
}

/// The pointers below `v` (at `at`) of the schemas whose `$dynamicAnchor` is `name`.
fn anchors(v: &Value, at: String, name: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if o.keyword(Keyword::DynamicAnchor).and_then(Value::as_str) == Some(name) {
                out.push(at.clone());
            }
            for (k, x) in o {
                anchors(x, pointer::child(&at, k), name, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                anchors(x, format!("{at}/{i}"), name, out);
            }
        }
        _ => {}
    }
}
