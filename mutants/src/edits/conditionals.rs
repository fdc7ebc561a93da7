//! Conditionals: an `allOf` member whose `if` tests one member (a constant, some values, its
//! presence) and whose `then` / `else` constrain another (required, a constant, `null`, a bound,
//! refused); an `else` added to a conditional; a conditional removed.

use super::{Cx, Op, describes_objects, fresh, member_names};
use serde_json::{Map, Value, json};

pub(super) fn ops() -> Vec<Op> {
    vec![
        Op {
            name: "conditional-add",
            applies: describes_objects,
            apply: add,
        },
        Op {
            name: "conditional-else",
            applies: has_if_then,
            apply: add_else,
        },
        Op {
            name: "conditional-remove",
            applies: has_all_of_if,
            apply: remove,
        },
    ]
}

fn has_if_then(v: &Value) -> bool {
    v.get("if").is_some() && v.get("then").is_some()
}

fn has_all_of_if(v: &Value) -> bool {
    v.get("allOf")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|m| m.get("if").is_some()))
}

/// A conditional added to the object schema's `allOf`.
fn add(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let node = cx.node(file, at)?.clone();
    let mut names = member_names(&node);
    if names.is_empty() {
        names.push(cx.fresh_name("c"));
    }
    let tested = cx.rng.pick(&names).clone();
    let constrained = cx.rng.pick(&names).clone();
    let tested_schema = node.pointer(&format!("/properties/{}", crate::tree::escape(&tested)));
    let condition = condition(cx, &tested, tested_schema.cloned().unwrap_or(json!({})));
    let mut rule = json!({ "if": condition, "then": constraint(cx, &constrained, &node) });
    if cx.rng.chance(25) {
        rule["else"] = constraint(cx, &constrained, &node);
    }
    if cx.rng.chance(20) {
        rule["if"]["type"] = json!("object");
        rule["then"]["type"] = json!("object");
    }
    let o = cx.object(file, at)?;
    let all_of = o.entry("allOf").or_insert_with(|| json!([]));
    all_of.as_array_mut()?.push(rule.clone());
    Some(format!("conditional {rule}"))
}

/// The `if` of a new conditional: `member` equal to a constant, in a set of values, or present.
fn condition(cx: &mut Cx, member: &str, schema: Value) -> Value {
    let mut test = Map::new();
    match cx.rng.below(3) {
        0 => {
            test.insert("const".into(), fresh::sample(cx.rng, &schema));
        }
        1 => {
            let a = fresh::sample(cx.rng, &schema);
            let b = fresh::sample(cx.rng, &schema);
            let values = if a == b { vec![a] } else { vec![a, b] };
            test.insert("enum".into(), Value::Array(values));
        }
        _ => {}
    }
    let mut cond = json!({ "properties": { member: test } });
    if test_is_empty(&cond, member) || cx.rng.chance(70) {
        cond["required"] = json!([member]);
    }
    cond
}

fn test_is_empty(cond: &Value, member: &str) -> bool {
    cond["properties"][member]
        .as_object()
        .is_some_and(Map::is_empty)
}

/// A `then` or `else`: `member` required, held to a constant or to `null`, bounded, or refused.
fn constraint(cx: &mut Cx, member: &str, object: &Value) -> Value {
    let schema = object
        .pointer(&format!("/properties/{}", crate::tree::escape(member)))
        .cloned()
        .unwrap_or(json!({}));
    let rule = match cx.rng.below(7) {
        0 => return json!({ "required": [member] }),
        1 => json!({ "const": fresh::sample(cx.rng, &schema) }),
        2 => json!({ "const": null }),
        3 => json!({ "maxLength": cx.rng.between(0, 8) }),
        4 => json!({ "minimum": cx.rng.between(0, 5) }),
        5 => json!({ "maxItems": cx.rng.between(0, 2) }),
        _ => json!(false),
    };
    let mut then = json!({ "properties": { member: rule } });
    if cx.rng.chance(40) {
        then["required"] = json!([member]);
    }
    then
}

/// An `else` for a conditional that had none, or a new one for one that had.
fn add_else(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let node = cx.node(file, at)?.clone();
    let names: Vec<String> = node["then"]
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .filter(|n: &Vec<String>| !n.is_empty())
        .unwrap_or_else(|| vec!["e".into()]);
    let member = cx.rng.pick(&names).clone();
    let rule = constraint(cx, &member, &node["then"]);
    cx.object(file, at)?.insert("else".into(), rule.clone());
    Some(format!("else {rule}"))
}

/// One of the `allOf`'s conditionals removed.
fn remove(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let all_of = cx.node(file, at)?.get("allOf")?.as_array()?.clone();
    let ifs: Vec<usize> = (0..all_of.len())
        .filter(|&i| all_of[i].get("if").is_some())
        .collect();
    let i = *cx.rng.pick(&ifs);
    let o = cx.object(file, at)?;
    let list = o.get_mut("allOf")?.as_array_mut()?;
    list.remove(i);
    if list.is_empty() {
        o.remove("allOf");
    }
    Some(format!("conditional allOf/{i} removed"))
}
