//! The documents tried for a change: bases (plausible instances and corpus documents), routed to
//! the change, with the values around its rules set at its place.

use super::Local;
use super::diff::{Change, Frame};
use super::shrink::removed;
use crate::{Checker, Side, sample, witness};
use prp_codegen::SchemaSet;
use prp_vocabulary::{Keyword, Schema, pointer, uri};
use serde_json::{Value, json};

/// Instances to set candidate values into: a plausible instance of each side's schema, and the
/// corpus documents either side accepts; with how many are built (the corpus's come after).
pub(super) fn bases(
    old: &Side,
    new: &Side,
    o: (&str, &Value),
    n: (&str, &Value),
    oc: &Checker,
    nc: &Checker,
    corpus: &[Value],
) -> (Vec<Value>, usize) {
    let mut out = vec![
        sample::instance(old.set, o.0, o.1, 0),
        sample::instance(new.set, n.0, n.1, 0),
    ];
    out.extend(sample::conditional_instances(old.set, o.0, o.1));
    out.extend(sample::conditional_instances(new.set, n.0, n.1));
    let built = out.len();
    let mut accepted: Vec<&Value> = corpus
        .iter()
        .filter(|d| oc.verdict(d).0.valid || nc.verdict(d).0.valid)
        .collect();
    // Smaller documents first: a witness is the smallest found.
    accepted.sort_by_key(|d| d.to_string().len());
    out.extend(accepted.into_iter().take(64).cloned());
    (out, built)
}

/// The documents tried for `change`: each value around its rules on either side, set at its path
/// in each base; each base without the member at the path; the values themselves at the root.
pub(super) fn candidates<'a>(
    os: &'a SchemaSet,
    ns: &'a SchemaSet,
    change: &'a Change,
    bases: &'a [Value],
    built: usize,
    local: &Local,
) -> impl Iterator<Item = Value> + 'a {
    let parts: Vec<(&SchemaSet, String, Value)> = [(os, &change.old), (ns, &change.new)]
        .into_iter()
        .flat_map(|(set, (at, node))| {
            sample::parts(set, at, node)
                .into_iter()
                .map(move |(a, n)| (set, a, n))
        })
        .collect();
    let mut values = Vec::new();
    for (set, at, node) in &parts {
        values.extend(witness::values(set, at, node));
        values.extend(sample::around(set, at, node));
    }
    let nodes: Vec<&Value> = parts.iter().map(|p| &p.2).collect();
    values.extend(sample::at_lengths(&values, &nodes));
    // What the route's schemas declare of the same member: a host's `enum` of it, beside the
    // alternative that changed its rule, has the values that tell the two apart.
    for f in &change.route {
        let rest = change.path.get(f.depth..).unwrap_or_default();
        for (set, at) in [(os, &f.old), (ns, &f.new)] {
            if let Some((at, node)) = member_schema(set, at, rest) {
                values.extend(witness::values(set, &at, node));
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    let (mut unique, rest): (Vec<Value>, Vec<Value>) = values
        .into_iter()
        .filter(|v| seen.insert(v.to_string()))
        .partition(|v| local.separates(v));
    unique.extend(rest);
    let path = &change.path;
    let also = &change.also;
    let firsts = bases.iter().flat_map(move |b| {
        let edited = value_at(b, path).map(edits).unwrap_or_default();
        let edited = edited.into_iter().filter_map(move |v| with(b, path, v));
        std::iter::once(b.clone())
            .chain(removed(b, path))
            .chain(edited)
    });
    // Then the values, a block at a time over every base, so that each base meets the first
    // values before the budget runs out. At the root a value replaces the base: once is enough.
    // The built bases take every value before the corpus's documents take any.
    let (built, corpus) = bases.split_at(built);
    let placed = [built, corpus].into_iter().flat_map(move |group| {
        let unique = unique.clone();
        let blocks = (0..unique.len()).step_by(BLOCK);
        blocks.flat_map(move |start| {
            let block: Vec<Value> = unique.iter().skip(start).take(BLOCK).cloned().collect();
            group.iter().enumerate().flat_map(move |(i, b)| {
                // At the root a value replaces the base: once is enough.
                let replace = !path.is_empty() || (i == 0 && group.as_ptr() == bases.as_ptr());
                let block = block.clone();
                block
                    .into_iter()
                    .flat_map(move |v| placed(b, path, also, v, replace))
            })
        })
    });
    firsts.chain(placed)
}

/// How many values are tried over every base before the next ones.
const BLOCK: usize = 48;

/// `v` at `path` in `b` (with `replace`); for an object, also its members set over what `b` has
/// there (a document right in all but the members a change is about).
fn placed(b: &Value, path: &[String], also: &[Vec<String>], v: Value, replace: bool) -> Vec<Value> {
    let mut out = Vec::new();
    if let (Some(Value::Object(here)), Value::Object(m)) = (value_at(b, path), &v) {
        let mut merged = here.clone();
        merged.extend(m.clone());
        out.extend(with(b, path, Value::Object(merged)));
    }
    // For an array, its items after what `b` has there: the items a change is about beside
    // those that make the rest of the document right.
    if let (Some(Value::Array(here)), Value::Array(items)) = (value_at(b, path), &v)
        && !here.is_empty()
        && !items.is_empty()
    {
        let joined = here.iter().chain(items).cloned().collect();
        out.extend(with(b, path, Value::Array(joined)));
    }
    if replace {
        out.extend(with(b, path, v.clone()));
    }
    // The same value everywhere else the changed schema applies, where the base has a value.
    if !also.is_empty() {
        let everywhere: Vec<Value> = out
            .iter()
            .map(|d| {
                also.iter()
                    .fold(d.clone(), |acc, p| match value_at(&acc, p) {
                        Some(_) => with(&acc, p, v.clone()).unwrap_or(acc),
                        None => acc,
                    })
            })
            .collect();
        out.extend(everywhere);
    }
    out
}

/// The value a base has at a change, edited the ways a change of counts, uniqueness or required
/// members shows on a document otherwise right: each member removed; the first item repeated,
/// the last removed.
fn edits(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    match v {
        Value::Object(o) => {
            for name in o.keys() {
                let mut less = o.clone();
                less.shift_remove(name);
                out.push(Value::Object(less));
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let mut more = a.clone();
            more.push(a[0].clone());
            out.push(Value::Array(more));
            out.push(Value::Array(a[..a.len() - 1].to_vec()));
        }
        _ => {}
    }
    out
}

/// `base` with `v` at `path`, the objects on the way made as needed (also in place of `null`);
/// `None` where the path crosses another value that is not an object or array.
fn with(base: &Value, path: &[String], v: Value) -> Option<Value> {
    let Some((first, rest)) = path.split_first() else {
        return Some(v);
    };
    // Nothing there yet (`null`): an object to hold the member.
    let mut out = match base {
        Value::Null => json!({}),
        b => b.clone(),
    };
    match &mut out {
        Value::Object(o) => {
            let inner = o.get(first).cloned().unwrap_or(json!({}));
            o.insert(first.clone(), with(&inner, rest, v)?);
        }
        Value::Array(a) => {
            let i: usize = first.parse().ok()?;
            if a.len() <= i {
                a.resize(i + 1, Value::Null);
            }
            a[i] = with(&a[i], rest, v)?;
        }
        _ => return None,
    }
    Some(out)
}

/// The value at `path` in `v`.
fn value_at<'v>(v: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(v, |v, token| match v {
        Value::Object(o) => o.get(token),
        Value::Array(a) => a.get(token.parse::<usize>().ok()?),
        _ => None,
    })
}

/// Which side's schemas a routed base is built from.
#[derive(Clone, Copy)]
pub(super) enum Which {
    Old,
    New,
}

/// `base` made to reach `change` along its route on one side: where the route's instance is
/// missing, an instance of the schema there; where the route went into a `then`, its `if`'s
/// constants set and what the `then` asks added; where it went into an `anyOf`/`oneOf`
/// alternative, that alternative's instance, set over what is there and in its place. The
/// documents that differ from `base`.
pub(super) fn routed(set: &SchemaSet, side: Which, base: &Value, change: &Change) -> Vec<Value> {
    let mut docs = vec![base.clone()];
    for f in &change.route {
        let at = match side {
            Which::Old => &f.old,
            Which::New => &f.new,
        };
        let Some((canon, node)) = set.node_at(at) else {
            return Vec::new();
        };
        let Some(prefix) = change.path.get(..f.depth) else {
            return Vec::new();
        };
        let mut next = Vec::new();
        for doc in docs {
            for v in step(set, (&canon, node), f, value_at(&doc, prefix)) {
                next.extend(with(&doc, prefix, v));
            }
            if next.is_empty() {
                next.push(doc);
            }
        }
        next.truncate(ROUTES);
        docs = next;
    }
    docs.retain(|d| d != base);
    docs
}

/// How many documents a route keeps at most (each alternative on the way doubles them).
const ROUTES: usize = 8;

/// The values to set where the frame `f` (the schema `node`) applies, given what is there.
fn step(
    set: &SchemaSet,
    (canon, node): (&str, &Value),
    f: &Frame,
    here: Option<&Value>,
) -> Vec<Value> {
    if let Some(docs) = triggered(canon, here) {
        return docs;
    }
    if f.via_then {
        if let Some(items) = contained(set, (canon, node), here) {
            return vec![items];
        }
        let mut members = match here {
            Some(Value::Object(m)) => m.clone(),
            _ => match sample::instance(set, canon, node, 1) {
                Value::Object(m) => m,
                _ => return Vec::new(),
            },
        };
        sample::meet(set, canon, node, &mut members);
        return vec![Value::Object(members)];
    }
    let missing = here.is_none_or(Value::is_null);
    if f.alternative && !missing {
        let alt = sample::instance(set, canon, node, 1);
        let mut out = vec![alt.clone()];
        if let (Some(Value::Object(h)), Value::Object(a)) = (here, &alt) {
            let mut m = h.clone();
            m.extend(a.clone());
            out.push(Value::Object(m));
        }
        return out;
    }
    if missing {
        return vec![sample::instance(set, canon, node, 1)];
    }
    Vec::new()
}

/// For a `then` whose `if` asks for an item (`contains`): the array there (or, where nothing is,
/// an instance of the schema) with an instance of that item added.
fn contained(
    set: &SchemaSet,
    (canon, node): (&str, &Value),
    here: Option<&Value>,
) -> Option<Value> {
    let cond = node.as_object()?.keyword(Keyword::If)?;
    let item = cond.as_object()?.keyword(Keyword::Contains)?;
    let mut items = match here {
        Some(Value::Array(a)) => a.clone(),
        // An object or scalar there: `contains` does not apply, the other routes do.
        Some(v) if !v.is_null() => return None,
        _ => match sample::instance(set, canon, node, 1) {
            Value::Array(a) => a,
            _ => Vec::new(),
        },
    };
    let at = uri::child(
        &uri::child(canon, Keyword::If.name()),
        Keyword::Contains.name(),
    );
    items.push(sample::instance(set, &at, item, 1));
    Some(Value::Array(items))
}

/// For a `dependentSchemas` entry: the object there with its trigger member added (as each JSON
/// type, since what the entry asks may be of the trigger itself); nothing when it has it already.
fn triggered(canon: &str, here: Option<&Value>) -> Option<Vec<Value>> {
    // The last token of a URI's fragment: percent-decoded, then unescaped (RFC 6901 §6).
    let (parent, last) = canon.rsplit_once('/')?;
    let trigger = pointer::unescape(&uri::percent_decode(last)?).into_owned();
    if !parent.ends_with(&format!("/{}", Keyword::DependentSchemas.name())) {
        return None;
    }
    let members = match here {
        Some(Value::Object(m)) if m.contains_key(&trigger) => return Some(Vec::new()),
        Some(Value::Object(m)) => m.clone(),
        _ => Default::default(),
    };
    let docs = witness::each_type().into_iter().map(|t| {
        let mut m = members.clone();
        m.insert(trigger.clone(), t);
        Value::Object(m)
    });
    Some(docs.collect())
}

/// The schema that `properties`, step by step, declares at `rest` below the node at `at`.
fn member_schema<'s>(set: &'s SchemaSet, at: &str, rest: &[String]) -> Option<(String, &'s Value)> {
    if rest.is_empty() {
        return None;
    }
    let (mut at, mut node) = set.node_at(at)?;
    for token in rest {
        node = node
            .as_object()?
            .keyword(Keyword::Properties)?
            .as_object()?
            .get(token)?;
        at = uri::child(&uri::child(&at, Keyword::Properties.name()), token);
    }
    Some((at, node))
}
