//! Rules on a value tightened or loosened: numeric bounds, string lengths and patterns, item
//! counts and uniqueness, member counts and dependencies, `not`.

use super::{Cx, Op, describes_objects, fresh, is_object, member_names, type_has};
use serde_json::{Value, json};

pub(super) fn ops() -> Vec<Op> {
    vec![
        Op {
            name: "number-bound",
            applies: numeric,
            apply: number_bound,
        },
        Op {
            name: "length-bound",
            applies: stringy,
            apply: length_bound,
        },
        Op {
            name: "pattern",
            applies: stringy,
            apply: pattern,
        },
        Op {
            name: "item-bound",
            applies: arrayish,
            apply: item_bound,
        },
        Op {
            name: "unique-items",
            applies: arrayish,
            apply: unique_items,
        },
        Op {
            name: "items",
            applies: arrayish,
            apply: items,
        },
        Op {
            name: "member-count",
            applies: describes_objects,
            apply: member_count,
        },
        Op {
            name: "dependent-required",
            applies: two_members,
            apply: dependent_required,
        },
        Op {
            name: "not",
            applies: is_object,
            apply: not,
        },
    ]
}

fn typed(v: &Value, names: &[&str], keywords: &[&str]) -> bool {
    v.get("type")
        .is_some_and(|t| names.iter().any(|n| type_has(t, n)))
        || keywords.iter().any(|k| v.get(*k).is_some())
}

fn numeric(v: &Value) -> bool {
    typed(
        v,
        &["integer", "number"],
        &["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
    )
}

fn stringy(v: &Value) -> bool {
    typed(v, &["string"], &["minLength", "maxLength", "pattern"])
}

fn arrayish(v: &Value) -> bool {
    typed(
        v,
        &["array"],
        &["items", "minItems", "maxItems", "uniqueItems"],
    )
}

fn two_members(v: &Value) -> bool {
    member_names(v).len() >= 2
}

/// Sets, moves or drops the numeric keyword `key`: up to `span` around its current value (or
/// around `around` when it has none); a third of the time it is dropped.
fn bound(cx: &mut Cx, file: usize, at: &str, key: &str, around: i64, span: i64) -> Option<String> {
    let now = cx.node(file, at)?.get(key).and_then(Value::as_i64);
    let drop = now.is_some() && cx.rng.chance(33);
    let next = now.unwrap_or(around) + cx.rng.between(-span, span);
    let o = cx.object(file, at)?;
    if drop {
        o.remove(key);
        return Some(format!("{key} dropped"));
    }
    o.insert(key.into(), json!(next));
    Some(format!("{key} {now:?} -> {next}"))
}

fn number_bound(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let key = *cx.rng.pick(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]);
    if key == "multipleOf" {
        let m = cx
            .rng
            .pick(&[json!(2), json!(3), json!(0.5), json!(0.1)])
            .clone();
        cx.object(file, at)?.insert(key.into(), m.clone());
        return Some(format!("multipleOf {m}"));
    }
    bound(cx, file, at, key, 1, 3)
}

fn length_bound(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let key = *cx.rng.pick(&["minLength", "maxLength"]);
    let r = bound(cx, file, at, key, 2, 3)?;
    clamp_non_negative(cx, file, at, key);
    Some(r)
}

/// Counting keywords take no negative value: one that went below 0 is set to 0.
fn clamp_non_negative(cx: &mut Cx, file: usize, at: &str, key: &str) {
    if let Some(o) = cx.object(file, at)
        && o.get(key).and_then(Value::as_i64).is_some_and(|n| n < 0)
    {
        o.insert(key.into(), json!(0));
    }
}

fn pattern(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let has = cx.node(file, at)?.get("pattern").is_some();
    if has && cx.rng.chance(40) {
        cx.object(file, at)?.remove("pattern");
        return Some("pattern dropped".into());
    }
    let p = *cx.rng.pick(fresh::PATTERNS);
    cx.object(file, at)?.insert("pattern".into(), json!(p));
    Some(format!("pattern {p}"))
}

fn item_bound(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let key = *cx.rng.pick(&["minItems", "maxItems"]);
    let r = bound(cx, file, at, key, 1, 2)?;
    clamp_non_negative(cx, file, at, key);
    Some(r)
}

fn unique_items(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let o = cx.object(file, at)?;
    let now = o
        .get("uniqueItems")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    o.insert("uniqueItems".into(), json!(!now));
    Some(format!("uniqueItems {}", !now))
}

/// The items' schema replaced, or `contains` added.
fn items(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let key = if cx.rng.chance(70) {
        "items"
    } else {
        "contains"
    };
    let s = fresh::schema(cx, 2);
    cx.object(file, at)?.insert(key.into(), s.clone());
    Some(format!("{key} {s}"))
}

fn member_count(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let key = *cx.rng.pick(&["minProperties", "maxProperties"]);
    let r = bound(cx, file, at, key, 1, 2)?;
    clamp_non_negative(cx, file, at, key);
    Some(r)
}

/// One member's presence made to require another's, or such a dependency dropped.
fn dependent_required(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let names = member_names(cx.node(file, at)?);
    let a = cx.rng.pick(&names).clone();
    let b = cx.rng.pick(&names).clone();
    let o = cx.object(file, at)?;
    if o.contains_key("dependentRequired") && a == b {
        o.remove("dependentRequired");
        return Some("dependentRequired dropped".into());
    }
    let deps = o.entry("dependentRequired").or_insert_with(|| json!({}));
    deps.as_object_mut()?.insert(a.clone(), json!([b]));
    Some(format!("dependentRequired {a} -> {b}"))
}

/// A `not` added (a member refused, a value, a type) or dropped.
fn not(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let node = cx.node(file, at)?.clone();
    if node.get("not").is_some() && cx.rng.chance(40) {
        cx.object(file, at)?.remove("not");
        return Some("not dropped".into());
    }
    let names = member_names(&node);
    let negated = match cx.rng.below(3) {
        0 if !names.is_empty() => json!({"required": [cx.rng.pick(&names)]}),
        1 => json!({"const": fresh::sample(cx.rng, &node)}),
        _ => json!({"type": *cx.rng.pick(&["null", "string", "integer", "object"])}),
    };
    cx.object(file, at)?.insert("not".into(), negated.clone());
    Some(format!("not {negated}"))
}
