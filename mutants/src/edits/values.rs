//! Enum values and constants added, removed or changed, wherever they are: a member's values, an
//! `if`'s test, a `then`'s requirement.

use super::{Cx, Op, fresh};
use serde_json::{Value, json};

pub(super) fn ops() -> Vec<Op> {
    vec![
        Op {
            name: "enum-add",
            applies: has_enum,
            apply: enum_add,
        },
        Op {
            name: "enum-remove",
            applies: has_long_enum,
            apply: enum_remove,
        },
        Op {
            name: "const-change",
            applies: has_const,
            apply: const_change,
        },
        Op {
            name: "const-enum-swap",
            applies: has_const_or_enum,
            apply: const_enum_swap,
        },
    ]
}

fn has_enum(v: &Value) -> bool {
    v.get("enum").is_some_and(Value::is_array)
}

fn has_long_enum(v: &Value) -> bool {
    v.get("enum")
        .and_then(Value::as_array)
        .is_some_and(|e| e.len() > 1)
}

fn has_const(v: &Value) -> bool {
    v.get("const").is_some()
}

fn has_const_or_enum(v: &Value) -> bool {
    has_const(v) || has_enum(v)
}

/// A value added to an `enum`, like its others.
fn enum_add(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let values = cx.node(file, at)?.get("enum")?.as_array()?.clone();
    let like = values.first().cloned().unwrap_or_else(|| json!("a"));
    let v = if cx.rng.chance(85) {
        fresh::another(cx.rng, &like, &values)
    } else {
        fresh::value(cx.rng)
    };
    let list = cx.object(file, at)?.get_mut("enum")?.as_array_mut()?;
    if list.contains(&v) {
        return None;
    }
    list.push(v.clone());
    Some(format!("enum value {v} added"))
}

/// A value removed from an `enum`.
fn enum_remove(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let n = cx.node(file, at)?.get("enum")?.as_array()?.len();
    let i = cx.rng.below(n);
    let list = cx.object(file, at)?.get_mut("enum")?.as_array_mut()?;
    let v = list.remove(i);
    Some(format!("enum value {v} removed"))
}

/// A `const` changed to another value of its type, or to `null`.
fn const_change(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let c = cx.node(file, at)?.get("const")?.clone();
    let v = if cx.rng.chance(20) {
        Value::Null
    } else {
        fresh::another(cx.rng, &c, std::slice::from_ref(&c))
    };
    cx.object(file, at)?.insert("const".into(), v.clone());
    Some(format!("const {c} -> {v}"))
}

/// A `const` written as an `enum` (of it and maybe another value), or an `enum` as its first
/// value's `const`.
fn const_enum_swap(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let widen = cx.rng.chance(50);
    let node = cx.node(file, at)?.clone();
    if let Some(c) = node.get("const") {
        let mut values = vec![c.clone()];
        if widen {
            values.push(fresh::another(cx.rng, c, &values));
        }
        let o = cx.object(file, at)?;
        o.remove("const");
        o.insert("enum".into(), Value::Array(values.clone()));
        return Some(format!("const as enum {}", Value::Array(values)));
    }
    let first = node.get("enum")?.as_array()?.first()?.clone();
    let o = cx.object(file, at)?;
    o.remove("enum");
    o.insert("const".into(), first.clone());
    Some(format!("enum as const {first}"))
}
