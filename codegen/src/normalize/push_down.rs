//! Conditionals stated one level down, before anything is typed.
//!
//! `if: {properties: {A: …, B: P}}, then: {properties: {B: T}}` (B's own members tested beside
//! another member's value, and `then` saying something of B only) is the same rule as
//! `if: {properties: {A: …}}, then: {properties: {B: {if: P, then: T}}}`: when B is absent both
//! hold, and when it is present both say "A's test and P imply T". Stated the second way, A
//! selects B's type and P, inside it, selects the type of B's own member; so PRP v3's
//! `external_provider.operation`, whose `input` its `action` chooses, comes out typed.
//!
//! Only what cannot change a reference's target is moved: the part of `if` taken down holds no
//! `$` keyword, the `then` schema that goes one level deeper declares no `$id` or anchor, and no
//! `$ref` in the set names a place inside it.

use crate::set::SchemaSet;
use prp_vocabulary::{Dialect, pointer, subschema_pointer, subschemas, uri};
use serde_json::{Map, Value, json};

/// Rewrites every conditional of the set that the rule above applies to.
pub(crate) fn run(set: &mut SchemaSet) {
    let refs = all_refs(set);
    for file in &mut set.files {
        let mut holders = Vec::new();
        schema_objects(&file.root, "", &mut holders);
        for at in holders {
            let Some(node) = file.root.pointer_mut(&at) else {
                continue;
            };
            if let Some(rewritten) = pushed_down(node, &at, &refs) {
                *node = rewritten;
            }
        }
    }
}

/// The pointer of every schema object under `node` (at `at`), `node` included.
fn schema_objects(node: &Value, at: &str, out: &mut Vec<String>) {
    if !node.is_object() {
        return;
    }
    out.push(at.to_owned());
    subschemas(node, Dialect::Draft202012, |k, place, sub| {
        schema_objects(sub, &subschema_pointer(at, k, place), out);
    });
}

/// Every `$ref` string of the set.
fn all_refs(set: &SchemaSet) -> Vec<String> {
    fn collect(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    match (k.as_str(), x) {
                        ("$ref" | "$dynamicRef", Value::String(s)) => out.push(s.clone()),
                        _ => collect(x, out),
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    set.files.iter().for_each(|f| collect(&f.root, &mut out));
    out
}

/// The schema object `node` (at `at`) with its conditional pushed down, when the rule applies.
fn pushed_down(node: &Value, at: &str, refs: &[String]) -> Option<Value> {
    let o = node.as_object()?;
    if o.contains_key("else") {
        return None;
    }
    let cond = o.get("if")?.as_object()?;
    let then = o.get("then")?.as_object()?;
    if !only(cond, &["properties", "type", "description", "$comment"])
        || !only(then, &["properties", "type", "description", "$comment"])
        || [cond, then]
            .iter()
            .any(|s| s.get("type").is_some_and(|t| t != "object"))
    {
        return None;
    }
    let tested = cond.get("properties")?.as_object()?;
    let (member, inner) = then.get("properties")?.as_object().and_then(single)?;
    let inner_test = tested.get(member)?;
    if tested.len() < 2 || !member_test(inner_test) {
        return None;
    }
    let moved = pointer::child(
        &pointer::child(&pointer::child(at, "then"), "properties"),
        member,
    );
    if declares_place(inner) || refs.iter().any(|r| names_inside(r, &moved)) {
        return None;
    }
    let mut outer_test = tested.clone();
    outer_test.remove(member);
    let mut new_if = cond.clone();
    new_if.insert("properties".into(), Value::Object(outer_test));
    let mut new_then = then.clone();
    new_then.insert(
        "properties".into(),
        json!({ member: { "if": inner_test, "then": inner } }),
    );
    let mut out = o.clone();
    out.insert("if".into(), Value::Object(new_if));
    out.insert("then".into(), Value::Object(new_then));
    Some(Value::Object(out))
}

/// Whether every key of `o` is one of `keys`.
fn only(o: &Map<String, Value>, keys: &[&str]) -> bool {
    o.keys().all(|k| keys.contains(&k.as_str()))
}

/// The one entry of `o`.
fn single(o: &Map<String, Value>) -> Option<(&String, &Value)> {
    let mut it = o.iter();
    let first = it.next()?;
    it.next().is_none().then_some(first)
}

/// Whether `test` tests an object's members (and nothing that names a place).
fn member_test(test: &Value) -> bool {
    let Some(o) = test.as_object() else {
        return false;
    };
    only(
        o,
        &["properties", "type", "required", "description", "$comment"],
    ) && o.get("type").is_none_or(|t| t == "object")
        && o.get("properties").is_some_and(Value::is_object)
        && !has_dollar_key(test)
}

fn has_dollar_key(v: &Value) -> bool {
    match v {
        Value::Object(o) => o
            .iter()
            .any(|(k, x)| k.starts_with('$') || has_dollar_key(x)),
        Value::Array(a) => a.iter().any(has_dollar_key),
        _ => false,
    }
}

/// Whether `v` declares a resource or an anchor anywhere: moving it would move a place others
/// may name.
fn declares_place(v: &Value) -> bool {
    match v {
        Value::Object(o) => o.iter().any(|(k, x)| {
            matches!(
                k.as_str(),
                "$id" | "$anchor" | "$dynamicAnchor" | "$recursiveAnchor" | "$schema"
            ) || declares_place(x)
        }),
        Value::Array(a) => a.iter().any(declares_place),
        _ => false,
    }
}

/// Whether the reference `r` names a place at or below the pointer `inside` (of any file: a
/// false alarm only leaves a conditional as it is).
fn names_inside(r: &str, inside: &str) -> bool {
    let fragment = uri::split_fragment(r).1.unwrap_or_default();
    fragment == inside || fragment.starts_with(&format!("{inside}/"))
}
