//! Members and their presence: required or optional, added or removed, nullable or not (in both
//! spellings), the object opened or closed, a member's type changed.

use super::{Cx, Op, describes_objects, fresh, is_object, member_names};
use serde_json::{Value, json};

pub(super) fn ops() -> Vec<Op> {
    vec![
        Op {
            name: "require",
            applies: has_optional_member,
            apply: require,
        },
        Op {
            name: "unrequire",
            applies: has_required,
            apply: unrequire,
        },
        Op {
            name: "add-member",
            applies: describes_objects,
            apply: add_member,
        },
        Op {
            name: "remove-member",
            applies: has_members,
            apply: remove_member,
        },
        Op {
            name: "additional-properties",
            applies: describes_objects,
            apply: additional,
        },
        Op {
            name: "nullable-type",
            applies: has_type,
            apply: nullable_type,
        },
        Op {
            name: "nullable-one-of",
            applies: is_object,
            apply: nullable_one_of,
        },
        Op {
            name: "change-type",
            applies: has_type,
            apply: change_type,
        },
    ]
}

fn has_members(v: &Value) -> bool {
    !member_names(v).is_empty()
}

fn has_required(v: &Value) -> bool {
    v.get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty())
}

fn required_names(v: &Value) -> Vec<String> {
    v.get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|n| n.as_str().map(str::to_owned))
        .collect()
}

fn has_optional_member(v: &Value) -> bool {
    let required = required_names(v);
    member_names(v).iter().any(|m| !required.contains(m))
}

fn has_type(v: &Value) -> bool {
    v.get("type").is_some()
}

/// A declared member made required.
fn require(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let node = cx.node(file, at)?;
    let required = required_names(node);
    let optional: Vec<String> = member_names(node)
        .into_iter()
        .filter(|m| !required.contains(m))
        .collect();
    let name = cx.rng.pick(&optional).clone();
    let o = cx.object(file, at)?;
    let list = o.entry("required").or_insert_with(|| json!([]));
    list.as_array_mut()?.push(json!(name));
    Some(format!("`{name}` required"))
}

/// A required member made optional.
fn unrequire(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let names = required_names(cx.node(file, at)?);
    let i = cx.rng.below(names.len());
    let o = cx.object(file, at)?;
    let list = o.get_mut("required")?.as_array_mut()?;
    list.retain(|n| n.as_str() != Some(&names[i]));
    if list.is_empty() {
        o.remove("required");
    }
    Some(format!("`{}` optional", names[i]))
}

/// A new member, required now and then.
fn add_member(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let name = cx.fresh_name("added");
    let schema = fresh::schema(cx, 2);
    let required = cx.rng.chance(35);
    let o = cx.object(file, at)?;
    let props = o.entry("properties").or_insert_with(|| json!({}));
    props.as_object_mut()?.insert(name.clone(), schema.clone());
    if required {
        let list = o.entry("required").or_insert_with(|| json!([]));
        list.as_array_mut()?.push(json!(name));
    }
    Some(format!("member `{name}` {schema} (required: {required})"))
}

/// A declared member removed, with its place in `required`.
fn remove_member(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let names = member_names(cx.node(file, at)?);
    let name = cx.rng.pick(&names).clone();
    let o = cx.object(file, at)?;
    o.get_mut("properties")?.as_object_mut()?.remove(&name);
    if let Some(list) = o.get_mut("required").and_then(Value::as_array_mut) {
        list.retain(|n| n.as_str() != Some(&name));
        if list.is_empty() {
            o.remove("required");
        }
    }
    Some(format!("member `{name}` removed"))
}

/// `additionalProperties` closed, opened, dropped, or given a schema.
fn additional(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let now = cx.node(file, at)?.get("additionalProperties").cloned();
    let next = match (now, cx.rng.below(4)) {
        (Some(Value::Bool(false)), 0) => None,
        (Some(Value::Bool(false)), _) => Some(json!(true)),
        (_, 0) => Some(fresh::schema(cx, 1)),
        (Some(_), 1) => None,
        _ => Some(json!(false)),
    };
    let o = cx.object(file, at)?;
    match &next {
        Some(v) => o.insert("additionalProperties".into(), v.clone()),
        None => o.remove("additionalProperties"),
    };
    Some(format!(
        "additionalProperties {}",
        next.map_or("dropped".into(), |v| v.to_string())
    ))
}

/// `null` let in (`type: [X, "null"]`) or kept out (its `null` dropped from a type list).
fn nullable_type(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let o = cx.object(file, at)?;
    let t = o.get("type")?.clone();
    let next = match t {
        Value::String(s) if s != "null" => json!([s, "null"]),
        Value::Array(a) if a.iter().any(|x| x == "null") && a.len() > 1 => {
            let rest: Vec<Value> = a.into_iter().filter(|x| x != "null").collect();
            if rest.len() == 1 {
                rest[0].clone()
            } else {
                Value::Array(rest)
            }
        }
        Value::Array(mut a) if !a.is_empty() => {
            a.push(json!("null"));
            Value::Array(a)
        }
        _ => return None,
    };
    o.insert("type".into(), next.clone());
    Some(format!("type {next}"))
}

/// `null` let in the other way (`oneOf: [{type: null}, S]`), or such a `oneOf` unwrapped.
fn nullable_one_of(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    if at.is_empty() {
        return None;
    }
    let null_first = cx.rng.chance(50);
    let node = cx.node(file, at)?;
    let alts = node.get("oneOf").and_then(Value::as_array);
    if let Some(alts) =
        alts.filter(|a| a.len() == 2 && node.as_object().is_some_and(|o| o.len() == 1))
        && let Some(other) = alts.iter().find(|a| **a != json!({"type": "null"}))
        && alts.contains(&json!({"type": "null"}))
    {
        *node = other.clone();
        return Some("nullable oneOf unwrapped".into());
    }
    if node.get("$id").is_some() {
        return None;
    }
    let inner = node.take();
    *node = if null_first {
        json!({"oneOf": [{"type": "null"}, inner]})
    } else {
        json!({"oneOf": [inner, {"type": "null"}]})
    };
    Some("wrapped in oneOf with null".into())
}

/// A member's type changed to another, or another type let in beside it.
fn change_type(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    const TYPES: &[&str] = &[
        "string", "integer", "number", "boolean", "object", "array", "null",
    ];
    let other = *cx.rng.pick(TYPES);
    let widen = cx.rng.chance(40);
    let o = cx.object(file, at)?;
    let t = o.get("type")?.clone();
    let next = match (t, widen) {
        (Value::String(s), true) if s != other => json!([s, other]),
        (Value::Array(mut a), true) if !a.iter().any(|x| x == other) => {
            a.push(json!(other));
            Value::Array(a)
        }
        _ => json!(other),
    };
    o.insert("type".into(), next.clone());
    Some(format!("type {next}"))
}
