//! A new version of a document: a copy of a file under a new `$id`, its union member's constant
//! (`paperclip.x.v1`) moved on, and a `$ref` to it added wherever a union refers to the old one.
//! A document union over the member (PRP's `Document`) takes it in by itself.

use super::{Cx, Op};
use crate::source::File;
use serde_json::{Value, json};

pub(super) fn ops() -> Vec<Op> {
    vec![Op {
        name: "new-version",
        applies: versioned,
        apply: new_version,
    }]
}

fn versioned(v: &Value) -> bool {
    v.get("$id").is_some_and(Value::is_string)
        && v.pointer("/properties/schema/const")
            .is_some_and(Value::is_string)
}

fn new_version(cx: &mut Cx, file: usize, at: &str) -> Option<String> {
    let member = cx.union_member?;
    if !at.is_empty() {
        return None;
    }
    let old = cx.files[file].clone();
    let old_id = old.value.get("$id")?.as_str()?.to_owned();
    let tag_at = format!("/properties/{member}/const");
    let tag = old.value.pointer(&tag_at)?.as_str()?.to_owned();
    let n = cx.fresh_name("");
    let new_id = match old_id.rsplit_once("/v") {
        Some((head, tail)) if tail.contains('/') => {
            let rest = &tail[tail.find('/')?..];
            format!("{head}/v{}{rest}", 10 + n.parse::<usize>().ok()?)
        }
        _ => format!("{old_id}-next{n}"),
    };
    let new_tag = match tag.rsplit_once(".v") {
        Some((head, v)) if v.parse::<u32>().is_ok() => {
            format!("{head}.v{}", 10 + n.parse::<u32>().ok()?)
        }
        _ => format!("{tag}.next{n}"),
    };
    let mut value = old.value.clone();
    value["$id"] = json!(new_id);
    *value.pointer_mut(&tag_at)? = json!(new_tag);
    let path = format!("next{n}-{}", old.path.replace('/', "-"));
    cx.files.push(File {
        path: path.clone(),
        value,
    });
    cx.added.push(cx.files.len() - 1);
    let joined = join_unions(cx, &old_id, &new_id);
    Some(format!(
        "{path} ({new_id}, {member} {new_tag}); joined {joined} union(s)"
    ))
}

/// Adds `{"$ref": new}` beside every `{"$ref": old}` alternative of a `oneOf` / `anyOf`.
fn join_unions(cx: &mut Cx, old: &str, new: &str) -> usize {
    let mut joined = 0;
    for f in 0..cx.files.len() {
        joined += join(&mut cx.files[f].value, old, new);
    }
    joined
}

fn join(v: &mut Value, old: &str, new: &str) -> usize {
    let mut n = 0;
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                if matches!(k.as_str(), "oneOf" | "anyOf")
                    && let Value::Array(alts) = x
                    && alts
                        .iter()
                        .any(|a| a.get("$ref").and_then(Value::as_str) == Some(old))
                {
                    alts.push(json!({ "$ref": new }));
                    n += 1;
                } else if !matches!(k.as_str(), "const" | "enum") {
                    n += join(x, old, new);
                }
            }
        }
        Value::Array(a) => n += a.iter_mut().map(|x| join(x, old, new)).sum::<usize>(),
        _ => {}
    }
    n
}
