//! The documents a mutant's types are tried with: samples from the schema (a plausible
//! instance, one per conditional, the values around each rule, set at their place in those
//! instances), the source's known documents, and random edits of all of these. Whether each is
//! valid is for the oracles to say; most runs hold both kinds.

use crate::rng::Rng;
use crate::tree::escape;
use prp_codegen::SchemaSet;
use prp_compat::sample;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// How deep below the schema's own instance rules are looked for.
const DEPTH: usize = 3;

/// At most `budget` documents for the schema `uri` of `set`, the source's `known` documents
/// among them.
pub fn documents(
    set: &SchemaSet,
    uri: &str,
    known: &[Value],
    rng: &mut Rng,
    budget: usize,
) -> Vec<Value> {
    let Some((canon, node)) = set.node_at(uri) else {
        return Vec::new();
    };
    let mut bases = vec![sample::instance(set, &canon, node, 0)];
    bases.extend(sample::conditional_instances(set, &canon, node));
    let mut places = Vec::new();
    rule_places(set, &canon, node, &mut Vec::new(), 0, &mut places);
    let mut pool: Vec<Value> = Vec::new();
    let mut docs: Vec<Value> = bases.clone();
    for (path, at, n) in &places {
        for v in sample::around(set, at, n) {
            for base in &bases {
                if let Some(d) = with(base, path, v.clone()) {
                    docs.push(d);
                }
            }
            pool.push(v);
        }
    }
    docs.extend(known.iter().cloned());
    let edited: Vec<Value> = (0..docs.len().min(budget))
        .filter_map(|_| {
            let d = rng.pick(&docs).clone();
            edit(rng, d, &pool)
        })
        .collect();
    docs.extend(edited);
    pick(rng, docs, budget)
}

/// The places below `node` (at instance path `path`) where rules are: the schema itself and,
/// through its `$ref`s and `allOf`s, its members' and items' schemas, `DEPTH` levels down.
fn rule_places(
    set: &SchemaSet,
    at: &str,
    node: &Value,
    path: &mut Vec<String>,
    depth: usize,
    out: &mut Vec<(Vec<String>, String, Value)>,
) {
    if out.len() > 200 {
        return;
    }
    out.push((path.clone(), at.to_owned(), node.clone()));
    if depth == DEPTH {
        return;
    }
    for (part_at, part) in sample::parts(set, at, node) {
        let props = part.get("properties").and_then(Value::as_object);
        for (name, s) in props.into_iter().flatten() {
            path.push(name.clone());
            let here = format!("{part_at}/properties/{}", escape(name));
            rule_places(set, &here, s, path, depth + 1, out);
            path.pop();
        }
        if let Some(items) = part.get("items").filter(|i| i.is_object()) {
            path.push("0".into());
            rule_places(
                set,
                &format!("{part_at}/items"),
                items,
                path,
                depth + 1,
                out,
            );
            path.pop();
        }
    }
}

/// `base` with `v` at `path`, the objects and first items on the way made where missing.
fn with(base: &Value, path: &[String], v: Value) -> Option<Value> {
    let Some((first, rest)) = path.split_first() else {
        return Some(v);
    };
    let mut out = base.clone();
    match &mut out {
        Value::Object(o) => {
            let inner = o.get(first).cloned().unwrap_or(json!({}));
            o.insert(first.clone(), with(&inner, rest, v)?);
        }
        Value::Array(a) if first == "0" => {
            let inner = a.first().cloned().unwrap_or(json!({}));
            let item = with(&inner, rest, v)?;
            if a.is_empty() {
                a.push(item);
            } else {
                a[0] = item;
            }
        }
        _ => return None,
    }
    Some(out)
}

/// One random edit of `doc`: a value somewhere in it removed, replaced by one of `pool`, set to
/// `null`, an item repeated, or an undeclared member added.
fn edit(rng: &mut Rng, mut doc: Value, pool: &[Value]) -> Option<Value> {
    let mut paths = Vec::new();
    collect_paths(&doc, String::new(), &mut paths);
    let at = rng.pick(&paths).clone();
    let replacement = match rng.below(5) {
        0 if !pool.is_empty() => rng.pick(pool).clone(),
        1 => Value::Null,
        _ => Value::Bool(false),
    };
    let roll = rng.below(4);
    let target = doc.pointer_mut(&at)?;
    match (roll, target) {
        (0, Value::Object(o)) if !o.is_empty() => {
            let key = o.keys().nth(rng.below(o.len()))?.clone();
            o.remove(&key);
        }
        (1, Value::Object(o)) => {
            o.insert(format!("undeclared{}", rng.below(2)), json!(1));
        }
        (1, Value::Array(a)) if !a.is_empty() => {
            let first = a[0].clone();
            a.push(first);
        }
        (2, Value::Array(a)) => a.clear(),
        (_, t) => *t = replacement,
    }
    Some(doc)
}

fn collect_paths(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(o) => o
            .iter()
            .for_each(|(k, x)| collect_paths(x, format!("{at}/{}", escape(k)), out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| collect_paths(x, format!("{at}/{i}"), out)),
        _ => {}
    }
}

/// Up to `budget` distinct documents, the first (the schema's own instance) always among them.
fn pick(rng: &mut Rng, docs: Vec<Value>, budget: usize) -> Vec<Value> {
    let mut seen = BTreeSet::new();
    let mut unique: Vec<Value> = docs
        .into_iter()
        .filter(|d| seen.insert(d.to_string()))
        .collect();
    if unique.len() <= budget {
        return unique;
    }
    let first = unique.remove(0);
    let mut out = vec![first];
    while out.len() < budget {
        let i = rng.below(unique.len());
        out.push(unique.swap_remove(i));
    }
    out
}
