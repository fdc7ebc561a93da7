//! Names and text as schema authors write them, not as Rust would like them: members, enum
//! values, definitions and titles named like keywords, like the generated code's own locals and
//! fields, like each other in another case or spelling, or not like identifiers at all; and
//! descriptions holding what doc comments must escape.

use super::{Cx, Op, describes_objects, fresh, member_names};
use serde_json::{Value, json};

/// Names that are Rust keywords or prelude items, the generated code's own names (locals of its
/// decoders, fields, methods), near-twins of each other, and names no identifier can be.
pub(crate) const NAMES: &[&str] = &[
    "type",
    "self",
    "Self",
    "crate",
    "super",
    "fn",
    "match",
    "async",
    "dyn",
    "union",
    "_",
    "__",
    "extra",
    "__order",
    "value",
    "map",
    "key",
    "pre",
    "refine",
    "builder",
    "check",
    "field",
    "order",
    "member_order",
    "new",
    "default",
    "kind",
    "tag",
    "schema",
    "x_null",
    "__m_x",
    "None",
    "Some",
    "Ok",
    "Err",
    "Option",
    "Result",
    "String",
    "Vec",
    "Box",
    "rt",
    "serde",
    "std",
    "a-b",
    "a_b",
    "aB",
    "a.b",
    "A",
    "a",
    "1st",
    "0",
    "",
    " ",
    "é",
    "a b",
    "$ref",
    "r#x",
    "x~y",
    "x/y",
    "build",
    "\"",
    "\\",
    "a\nb",
    "NaN",
    "item",
    "item_builder",
    "document",
    "Document",
    "\u{2028}",
];

/// Texts for descriptions and titles: comment terminators, doc attributes, markdown, escapes.
const TEXTS: &[&str] = &[
    "*/ not the end",
    "#[doc = \"x\"]",
    "a `code` span and a [link]",
    "line one\nline two\r\nline three",
    "quote \" backslash \\ tab \t",
    "/// nested doc",
    "",
    "ünïcödé ✓",
];

pub(super) fn ops() -> Vec<Op> {
    vec![
        Op {
            name: "member-rename",
            applies: has_members,
            apply: member_rename,
        },
        Op {
            name: "member-add-named",
            applies: describes_objects,
            apply: member_add_named,
        },
        Op {
            name: "enum-add-named",
            applies: has_string_enum,
            apply: enum_add_named,
        },
        Op {
            name: "def-rename",
            applies: has_defs,
            apply: def_rename,
        },
        Op {
            name: "title",
            applies: super::is_object,
            apply: title,
        },
        Op {
            name: "description",
            applies: super::is_object,
            apply: description,
        },
    ]
}

fn has_members(v: &Value) -> bool {
    !member_names(v).is_empty()
}

fn has_string_enum(v: &Value) -> bool {
    v.get("enum")
        .and_then(Value::as_array)
        .is_some_and(|e| e.iter().any(Value::is_string))
}

fn has_defs(v: &Value) -> bool {
    v.get("$defs")
        .and_then(Value::as_object)
        .is_some_and(|d| !d.is_empty())
}

/// A name from [`NAMES`] the object does not declare yet.
fn new_name(cx: &mut Cx, taken: &[String]) -> Option<String> {
    (0..8)
        .map(|_| (*cx.rng.pick(NAMES)).to_owned())
        .find(|n| !taken.contains(n))
}

/// A member renamed, wherever the object names it (`required`, `dependentRequired`).
fn member_rename(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let names = member_names(cx.node(file, at)?);
    let old = cx.rng.pick(&names).clone();
    let new = new_name(cx, &names)?;
    let o = cx.object(file, at)?;
    let props = o.get_mut("properties")?.as_object_mut()?;
    let schema = props.shift_remove(&old)?;
    props.insert(new.clone(), schema);
    for list in o
        .get_mut("required")
        .and_then(Value::as_array_mut)
        .into_iter()
    {
        for n in list.iter_mut().filter(|n| n.as_str() == Some(&old)) {
            *n = json!(new);
        }
    }
    if let Some(deps) = o
        .get_mut("dependentRequired")
        .and_then(Value::as_object_mut)
        && let Some(d) = deps.shift_remove(&old)
    {
        deps.insert(new.clone(), d);
    }
    Some(format!("member {old:?} renamed {new:?}"))
}

/// A member added under one of [`NAMES`].
fn member_add_named(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let names = member_names(cx.node(file, at)?);
    let name = new_name(cx, &names)?;
    let schema = fresh::schema(cx, 1);
    let required = cx.rng.chance(40);
    let o = cx.object(file, at)?;
    let props = o.entry("properties").or_insert_with(|| json!({}));
    props.as_object_mut()?.insert(name.clone(), schema.clone());
    if required {
        o.entry("required")
            .or_insert_with(|| json!([]))
            .as_array_mut()?
            .push(json!(name));
    }
    Some(format!("member {name:?} {schema} (required: {required})"))
}

/// A string enum value from [`NAMES`] added.
fn enum_add_named(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let values = cx.node(file, at)?.get("enum")?.as_array()?.clone();
    let taken: Vec<String> = values
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    let v = new_name(cx, &taken)?;
    cx.object(file, at)?
        .get_mut("enum")?
        .as_array_mut()?
        .push(json!(v));
    Some(format!("enum value {v:?} added"))
}

/// A definition renamed, and the file's `$ref`s to it with it.
fn def_rename(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    if !at.is_empty() {
        return None;
    }
    let defs: Vec<String> = cx
        .node(file, at)?
        .get("$defs")?
        .as_object()?
        .keys()
        .cloned()
        .collect();
    let old = cx.rng.pick(&defs).clone();
    let new = new_name(cx, &defs).filter(|n| !n.is_empty())?;
    let root = &mut cx.files[file].value;
    let d = root.get_mut("$defs")?.as_object_mut()?;
    let schema = d.shift_remove(&old)?;
    d.insert(new.clone(), schema);
    let (from, to) = (
        prp_vocabulary::uri::definition("", &old),
        prp_vocabulary::uri::definition("", &new),
    );
    rewrite_refs(root, &from, &to);
    Some(format!("$defs/{old:?} renamed {new:?}"))
}

/// Every local `$ref` equal to `from` (or below it) made to say `to` instead.
fn rewrite_refs(v: &mut Value, from: &str, to: &str) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                match (k.as_str(), &mut *x) {
                    ("$ref", Value::String(r))
                        if r == from || r.starts_with(&format!("{from}/")) =>
                    {
                        *r = format!("{to}{}", &r[from.len()..]);
                    }
                    ("const" | "enum", _) => {}
                    _ => rewrite_refs(x, from, to),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rewrite_refs(x, from, to)),
        _ => {}
    }
}

/// A title set: one of [`NAMES`] (type names from it), or another schema's title.
fn title(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let t = if cx.rng.chance(30) {
        let other = cx.rng.below(cx.files.len());
        cx.files[other]
            .value
            .get("title")
            .cloned()
            .unwrap_or(json!("Root"))
    } else {
        json!(*cx.rng.pick(NAMES))
    };
    cx.object(file, at)?.insert("title".into(), t.clone());
    Some(format!("title {t}"))
}

/// A description set to text doc comments must carry whole.
fn description(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let t = *cx.rng.pick(TEXTS);
    cx.object(file, at)?.insert("description".into(), json!(t));
    Some(format!("description {t:?}"))
}
