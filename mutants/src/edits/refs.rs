//! Where a schema is written: moved to `$defs` behind a `$ref`, a `$ref` replaced by what it
//! names, a schema wrapped in (or split across) an `allOf`, a keyword written beside a `$ref`.

use super::{Cx, Op, is_object};
use serde_json::{Map, Value, json};

pub(super) fn ops() -> Vec<Op> {
    vec![
        Op {
            name: "move-to-defs",
            applies: movable,
            apply: to_defs,
        },
        Op {
            name: "inline-ref",
            applies: is_local_ref,
            apply: inline,
        },
        Op {
            name: "wrap-all-of",
            applies: is_object,
            apply: wrap_all_of,
        },
        Op {
            name: "ref-sibling",
            applies: is_ref,
            apply: ref_sibling,
        },
    ]
}

/// A subschema that can live elsewhere: no resource or anchor of its own.
fn movable(v: &Value) -> bool {
    v.is_object()
        && !contains_any(
            v,
            &[
                "$id",
                "id",
                "$anchor",
                "$dynamicAnchor",
                "$recursiveAnchor",
                "$schema",
            ],
        )
}

fn contains_any(v: &Value, keys: &[&str]) -> bool {
    match v {
        Value::Object(o) => o
            .iter()
            .any(|(k, x)| keys.contains(&k.as_str()) || contains_any(x, keys)),
        Value::Array(a) => a.iter().any(|x| contains_any(x, keys)),
        _ => false,
    }
}

/// Whether `at` lies inside a resource embedded in `root` (a subschema with its own `$id`), where
/// `#/...` names that resource rather than the file.
fn inside_resource(root: &Value, at: &str) -> bool {
    let mut prefix = String::new();
    for token in at.split('/').skip(1) {
        prefix.push('/');
        prefix.push_str(token);
        if prefix != at
            && root.pointer(&prefix).is_some_and(|n| {
                n.get("$id")
                    .or_else(|| n.get("id"))
                    .is_some_and(Value::is_string)
            })
        {
            return true;
        }
    }
    false
}

fn is_ref(v: &Value) -> bool {
    v.get("$ref").is_some_and(Value::is_string)
}

fn is_local_ref(v: &Value) -> bool {
    v.get("$ref")
        .and_then(Value::as_str)
        .is_some_and(|r| r.starts_with("#/$defs/") || r.starts_with("#/definitions/"))
}

/// The subschema moved to the file's `$defs` under a new name, a `$ref` in its place. A schema
/// with relative references or its own resources stays where it is: moved, they would mean
/// something else.
fn to_defs(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let defs = cx.defs_keyword();
    let root = &cx.files[file].value;
    let is_def = at.starts_with(&format!("/{defs}/")) && at.matches('/').count() == 2;
    if at.is_empty() || is_def || inside_resource(root, at) {
        return None;
    }
    let name = cx.fresh_name("moved");
    let node = cx.node(file, at)?;
    let moved = std::mem::replace(node, json!({ "$ref": format!("#/{defs}/{name}") }));
    let root = cx.files[file].value.as_object_mut()?;
    let entries = root.entry(defs).or_insert_with(|| json!({}));
    entries.as_object_mut()?.insert(name.clone(), moved);
    Some(format!("moved to {defs}/{name}"))
}

/// A `$ref` to a definition of the file replaced by a copy of the definition (the other
/// keywords beside the `$ref` kept).
fn inline(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    if inside_resource(&cx.files[file].value, at) {
        return None;
    }
    let node = cx.node(file, at)?.clone();
    let target = node.get("$ref")?.as_str()?.to_owned();
    let def = cx.files[file].value.pointer(&target[1..])?.clone();
    if !movable(&def) {
        return None;
    }
    let mut inlined = node.as_object()?.clone();
    inlined.remove("$ref");
    let replacement = match def {
        Value::Object(d) if !d.keys().any(|k| inlined.contains_key(k)) => {
            let mut merged = d;
            merged.extend(inlined);
            Value::Object(merged)
        }
        other if inlined.is_empty() => other,
        other => {
            inlined.insert("allOf".into(), json!([other]));
            Value::Object(inlined)
        }
    };
    *cx.node(file, at)? = replacement;
    Some(format!("{target} inlined"))
}

/// The schema wrapped in an `allOf` of itself, or its keywords split between two `allOf`
/// members.
fn wrap_all_of(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let split = cx.rng.chance(50);
    let o = cx.node(file, at)?.as_object()?.clone();
    // A resource's identity and definitions stay on the outer schema.
    let (keep, rest): (Map<String, Value>, Map<String, Value>) =
        o.into_iter().partition(|(k, _)| {
            matches!(
                k.as_str(),
                "$id"
                    | "id"
                    | "$schema"
                    | "$defs"
                    | "definitions"
                    | "$anchor"
                    | "$dynamicAnchor"
                    | "$recursiveAnchor"
                    | "title"
            )
        });
    if rest.is_empty() {
        return None;
    }
    let members = if split && rest.len() > 1 {
        let keys: Vec<String> = rest.keys().cloned().collect();
        let cut = 1 + cx.rng.below(keys.len() - 1);
        let (a, b): (Map<String, Value>, Map<String, Value>) =
            rest.into_iter().partition(|(k, _)| keys[..cut].contains(k));
        vec![Value::Object(a), Value::Object(b)]
    } else {
        vec![Value::Object(rest)]
    };
    let n = members.len();
    let mut out = keep;
    out.insert("allOf".into(), Value::Array(members));
    *cx.node(file, at)? = Value::Object(out);
    Some(format!("wrapped in an allOf of {n}"))
}

/// A keyword written beside a `$ref`: a description, or a narrowing bound.
fn ref_sibling(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let (k, v) = match cx.rng.below(4) {
        0 => ("description", json!("beside a reference")),
        1 => ("maxLength", json!(cx.rng.between(1, 30))),
        2 => ("minimum", json!(cx.rng.between(0, 3))),
        _ => (
            "type",
            json!(*cx.rng.pick(&["object", "string", "integer"])),
        ),
    };
    let o = cx.object(file, at)?;
    if o.contains_key(k) {
        return None;
    }
    o.insert(k.into(), v.clone());
    Some(format!("{k}: {v} beside $ref"))
}
