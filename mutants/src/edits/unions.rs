//! Alternatives: `oneOf` / `anyOf` alternatives added (inline, `null`, a `$ref`, a variant of a
//! sibling) or removed, a schema made one alternative of a new union, `oneOf` and `anyOf` swapped.

use super::{Cx, Op, fresh, is_object};
use serde_json::{Value, json};

pub(super) fn ops() -> Vec<Op> {
    vec![
        Op {
            name: "alternative-add",
            applies: has_union,
            apply: add,
        },
        Op {
            name: "alternative-remove",
            applies: has_union,
            apply: remove,
        },
        Op {
            name: "union-wrap",
            applies: is_object,
            apply: wrap,
        },
        Op {
            name: "union-swap",
            applies: has_union,
            apply: swap,
        },
        Op {
            name: "new-variant",
            applies: has_tagged_alternatives,
            apply: new_variant,
        },
    ]
}

fn has_union(v: &Value) -> bool {
    union_key(v).is_some()
}

fn union_key(v: &Value) -> Option<&'static str> {
    ["oneOf", "anyOf"]
        .into_iter()
        .find(|k| v.get(*k).is_some_and(Value::is_array))
}

/// An alternative added: a new schema, `null`, a `$ref` to a definition or another file, or a
/// sibling alternative with one of its constants changed.
fn add(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let node = cx.node(file, at)?.clone();
    let key = union_key(&node)?;
    let alts = node[key].as_array()?;
    let roll = cx.rng.below(4);
    let alt = match roll {
        0 => json!({"type": "null"}),
        1 => reference(cx, file)?,
        2 if !alts.is_empty() => {
            let i = cx.rng.below(alts.len());
            variant(cx, i, alts)
        }
        _ => fresh::schema(cx, 2),
    };
    cx.object(file, at)?
        .get_mut(key)?
        .as_array_mut()?
        .push(alt.clone());
    Some(format!("{key} alternative {alt}"))
}

/// A `$ref` to one of the file's definitions or to another file.
fn reference(cx: &mut Cx, file: usize) -> Option<Value> {
    let mut targets: Vec<String> = cx.files[file]
        .value
        .get("$defs")
        .and_then(Value::as_object)
        .map(|d| {
            d.keys()
                .map(|k| prp_vocabulary::uri::definition("", k))
                .collect()
        })
        .unwrap_or_default();
    targets.extend(
        cx.ids()
            .into_iter()
            .filter(|(i, _)| *i != file)
            .map(|(_, id)| id),
    );
    (!targets.is_empty()).then(|| json!({"$ref": cx.rng.pick(&targets).clone()}))
}

/// Alternative `i` with the first constant found in it changed: a new tag value of a tagged union.
fn variant(cx: &mut Cx, i: usize, alts: &[Value]) -> Value {
    let mut alt = alts[i].clone();
    if let Some(c) = first_const(&mut alt) {
        let next = fresh::another(cx.rng, c, std::slice::from_ref(c));
        *c = next;
    }
    alt
}

fn first_const(v: &mut Value) -> Option<&mut Value> {
    let o = v.as_object_mut()?;
    if o.contains_key("const") {
        return o.get_mut("const");
    }
    o.get_mut("properties")?
        .as_object_mut()?
        .values_mut()
        .find_map(|p| p.as_object_mut()?.get_mut("const"))
}

/// An alternative removed; the union is dropped with its last alternative gone.
fn remove(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let key = union_key(cx.node(file, at)?)?;
    let n = cx.node(file, at)?[key].as_array()?.len();
    if n == 0 {
        return None;
    }
    let i = cx.rng.below(n);
    let o = cx.object(file, at)?;
    let list = o.get_mut(key)?.as_array_mut()?;
    let gone = list.remove(i);
    if list.is_empty() {
        o.remove(key);
    }
    Some(format!("{key} alternative {i} removed: {gone}"))
}

/// The schema made one alternative of a new `oneOf` or `anyOf` beside a new one.
fn wrap(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    if at.is_empty() || cx.node(file, at)?.get("$id").is_some() {
        return None;
    }
    let key = *cx.rng.pick(&["oneOf", "anyOf"]);
    let other = fresh::schema(cx, 1);
    let node = cx.node(file, at)?;
    let inner = node.take();
    *node = json!({ key: [inner, other.clone()] });
    Some(format!("wrapped in {key} beside {other}"))
}

/// `oneOf` as `anyOf`, or the other way.
fn swap(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let o = cx.object(file, at)?;
    let (from, to) = if o.contains_key("oneOf") {
        ("oneOf", "anyOf")
    } else {
        ("anyOf", "oneOf")
    };
    if o.contains_key(to) {
        return None;
    }
    let v = o.remove(from)?;
    o.insert(to.into(), v);
    Some(format!("{from} as {to}"))
}

/// Where an object's alternatives are told apart by constant members: its own `oneOf`/`anyOf`,
/// or one in an `allOf` member (PRP's provider descriptor).
fn tagged_alternatives(v: &Value) -> Option<String> {
    let tagged = |alts: &Value| {
        alts.as_array().is_some_and(|a| {
            !a.is_empty()
                && a.iter().all(|alt| {
                    alt.get("properties")
                        .and_then(Value::as_object)
                        .is_some_and(|p| p.values().any(|s| s.get("const").is_some()))
                })
        })
    };
    for key in ["oneOf", "anyOf"] {
        if v.get(key).is_some_and(tagged) {
            return Some(format!("/{key}"));
        }
        let all_of = v
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        for (i, m) in all_of.enumerate() {
            if m.get(key).is_some_and(tagged) {
                return Some(format!("/allOf/{i}/{key}"));
            }
        }
    }
    None
}

fn has_tagged_alternatives(v: &Value) -> bool {
    tagged_alternatives(v).is_some()
}

/// A new kind of the thing the alternatives describe, as a protocol adds a provider: a copy of
/// one alternative with new constants, each new value added to its member's `enum`, and now and
/// then a conditional on the new tag that requires another member or holds one to `null`.
fn new_variant(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let node = cx.node(file, at)?.clone();
    let alts_at = tagged_alternatives(&node)?;
    let alts = node.pointer(&alts_at)?.as_array()?.clone();
    let mut alt = alts[cx.rng.below(alts.len())].clone();
    let mut tags = Vec::new();
    for (member, s) in alt.get_mut("properties")?.as_object_mut()?.iter_mut() {
        let Some(c) = s.get("const").cloned() else {
            continue;
        };
        let place = format!("/properties/{}/const", crate::tree::escape(member));
        let taken: Vec<Value> = alts
            .iter()
            .filter_map(|a| a.pointer(&place).cloned())
            .collect();
        let next = fresh::another(cx.rng, &c, &taken);
        s["const"] = next.clone();
        tags.push((member.clone(), next));
    }
    let (tag, value) = tags.first()?.clone();
    let names = super::member_names(&node);
    let other = (!names.is_empty() && cx.rng.chance(60)).then(|| cx.rng.pick(&names).clone());
    let then = if cx.rng.chance(50) {
        other.as_ref().map(|o| json!({ "required": [o] }))
    } else {
        other
            .as_ref()
            .map(|o| json!({ "properties": { o: { "const": null } } }))
    };
    let node = cx.node(file, at)?;
    for (member, value) in &tags {
        let place = format!("/properties/{}/enum", crate::tree::escape(member));
        if let Some(e) = node.pointer_mut(&place).and_then(Value::as_array_mut) {
            e.push(value.clone());
        }
    }
    node.pointer_mut(&alts_at)?.as_array_mut()?.push(alt);
    if let Some(then) = &then {
        let cond = json!({ "properties": { &tag: { "const": value } }, "required": [&tag] });
        let all_of = node
            .as_object_mut()?
            .entry("allOf")
            .or_insert_with(|| json!([]));
        all_of
            .as_array_mut()?
            .push(json!({ "if": cond, "then": then }));
    }
    Some(format!(
        "new alternative at {alts_at} tagged {tags:?}, then {then:?}"
    ))
}
