//! Arrays by position: an `items` schema split into a first position and the rest, written as the
//! source's dialect writes it (`items` as an array with `additionalItems` before 2020-12,
//! `prefixItems` with `items` in 2020-12).

use super::{Cx, Op};
use serde_json::{Value, json};

pub(super) fn ops() -> Vec<Op> {
    vec![Op {
        name: "positional-items",
        applies: has_item_schema,
        apply: positional,
    }]
}

/// An array schema whose `items` is one schema for every item.
fn has_item_schema(v: &Value) -> bool {
    v.get("items")
        .is_some_and(|i| i.is_object() || i.is_boolean())
        && v.get("prefixItems").is_none()
        && v.get("additionalItems").is_none()
}

/// `items: S` made positional: the first item must be `S` or something narrower, the rest `S`,
/// nothing, or anything.
fn positional(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let older = cx.dialect.spellings().array_items;
    let first = match cx.rng.below(3) {
        0 => json!({"type": "string"}),
        1 => json!({"type": "integer", "minimum": cx.rng.between(0, 3)}),
        _ => cx.node(file, at)?.get("items")?.clone(),
    };
    let rest_kind = cx.rng.below(3);
    let o = cx.object(file, at)?;
    let each = o.remove("items")?;
    let rest = match rest_kind {
        0 => each,
        1 => json!(false),
        _ => json!({}),
    };
    let (positions, after) = if older {
        ("items", "additionalItems")
    } else {
        ("prefixItems", "items")
    };
    o.insert(positions.into(), json!([first.clone()]));
    o.insert(after.into(), rest.clone());
    Some(format!("{positions}: [{first}], {after}: {rest}"))
}
