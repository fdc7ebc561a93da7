//! The edit operators and the engine that chains them: a mutant is a source directory after a
//! few random edits, each a kind of edit schema authors make, at a random subschema of a file
//! the source lets be edited. A mutant is a pure function of its seed (and the sources), so a
//! seed printed by a failing run names the same directory again.

mod bounds;
mod conditionals;
mod fresh;
mod items;
mod members;
mod names;
mod refs;
mod unions;
mod values;
mod versions;

use crate::rng::Rng;
use crate::source::{File, Source};
use crate::tree;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// A mutated directory.
#[derive(Debug, Clone)]
pub struct Mutant {
    /// The seed it was made from.
    pub seed: u64,
    /// The source it was made from (an index into the sources it was made with).
    pub source: usize,
    /// What was done, in order: `OPERATOR FILE#POINTER: what`.
    pub edits: Vec<String>,
    /// The directory to generate: the edited files and the files they refer to.
    pub files: Vec<File>,
}

/// An edit operator: where it applies (a predicate on a subschema) and what it does there.
pub(crate) struct Op {
    pub name: &'static str,
    pub applies: fn(&Value) -> bool,
    /// Makes the edit at `at` in file `file`, or declines; returns what it did.
    pub apply: fn(&mut Cx, usize, &str) -> Option<String>,
}

/// What an operator works with.
pub(crate) struct Cx<'r> {
    pub rng: &'r mut Rng,
    pub files: Vec<File>,
    /// The member a document union is keyed by (`schema` for PRP).
    pub union_member: Option<&'static str>,
    /// The dialect the source is written in: edits are written as its authors write them
    /// (`definitions` before 2019-09, `items` as an array before 2020-12).
    pub dialect: prp_codegen::Dialect,
    /// Files added by edits (new versions), which later edits may edit too.
    pub added: Vec<usize>,
    fresh: usize,
}

impl Cx<'_> {
    /// The subschema at `at` of file `file`.
    pub fn node(&mut self, file: usize, at: &str) -> Option<&mut Value> {
        self.files[file].value.pointer_mut(at)
    }

    /// The subschema at `at` as an object.
    pub fn object(&mut self, file: usize, at: &str) -> Option<&mut Map<String, Value>> {
        self.node(file, at)?.as_object_mut()
    }

    /// A name no schema of the mutant has used yet.
    pub fn fresh_name(&mut self, stem: &str) -> String {
        self.fresh += 1;
        format!("{stem}{}", self.fresh)
    }

    /// The keyword definitions are kept under in the source's dialect.
    pub fn defs_keyword(&self) -> &'static str {
        if self.dialect.spellings().definitions {
            "definitions"
        } else {
            "$defs"
        }
    }

    /// The `$id`s of the files, with their index.
    pub fn ids(&self) -> Vec<(usize, String)> {
        self.files
            .iter()
            .enumerate()
            .filter_map(|(i, f)| Some((i, f.value.get("$id")?.as_str()?.to_owned())))
            .collect()
    }
}

/// Every operator, each as likely as the others.
fn ops() -> Vec<Op> {
    let mut all = Vec::new();
    all.extend(members::ops());
    all.extend(names::ops());
    all.extend(values::ops());
    all.extend(conditionals::ops());
    all.extend(unions::ops());
    all.extend(refs::ops());
    all.extend(items::ops());
    all.extend(bounds::ops());
    all.extend(versions::ops());
    all
}

/// The names of every operator, for reports.
pub fn operator_names() -> Vec<&'static str> {
    ops().iter().map(|o| o.name).collect()
}

/// At most this many edits are chained in one mutant.
const MAX_EDITS: usize = 5;

/// The mutant of `seed`: a source picked from `sources`, then one to five edits, the later ones
/// often in the file of the one before, so that edits combine in one schema.
pub fn mutate(sources: &[Source], seed: u64) -> Mutant {
    let mut rng = Rng::new(seed);
    let source = pick_source(sources, &mut rng);
    let src = &sources[source];
    let ops = ops();
    let want = 1 + (0..MAX_EDITS - 1).take_while(|_| rng.chance(45)).count();
    let mut cx = Cx {
        rng: &mut rng,
        files: src.files.clone(),
        union_member: src.union_member(),
        dialect: src.dialect(),
        added: Vec::new(),
        fresh: 0,
    };
    let mut edits = Vec::new();
    let mut touched = BTreeSet::new();
    let mut last: Option<(usize, String)> = None;
    for _ in 0..want * 20 {
        if edits.len() == want {
            break;
        }
        let editable: Vec<usize> = src.editable.iter().chain(&cx.added).copied().collect();
        let (file, near) = match &last {
            Some((f, at)) if cx.rng.chance(60) => {
                (*f, cx.rng.chance(60).then(|| neighbourhood(at)))
            }
            _ => (*cx.rng.pick(&editable), None),
        };
        let op = &ops[cx.rng.below(ops.len())];
        let places: Vec<String> = tree::subschemas(&cx.files[file].value, cx.dialect)
            .into_iter()
            .filter(|at| near.as_ref().is_none_or(|n| at.starts_with(n.as_str())))
            .filter(|at| cx.files[file].value.pointer(at).is_some_and(op.applies))
            .collect();
        if places.is_empty() {
            continue;
        }
        let at = cx.rng.pick(&places).clone();
        if let Some(what) = (op.apply)(&mut cx, file, &at) {
            edits.push(format!("{} {}#{at}: {what}", op.name, cx.files[file].path));
            touched.insert(file);
            touched.extend(cx.added.iter().copied());
            last = Some((file, at));
        }
    }
    let files = closure(src, &cx.files, &touched, cx.rng);
    Mutant {
        seed,
        source,
        edits,
        files,
    }
}

/// Where an edit near the one at `at` goes: the object two schema levels up (its member's
/// object, or a conditional's host), and everything below it; edits combine there.
fn neighbourhood(at: &str) -> String {
    let tokens: Vec<&str> = at.split('/').collect();
    let keep = tokens.len().saturating_sub(4).max(1);
    tokens[..keep].join("/")
}

/// PRP (when among the sources) half the time, else one of the others.
fn pick_source(sources: &[Source], rng: &mut Rng) -> usize {
    let prp = sources.iter().position(|s| s.name == "prp");
    match prp {
        Some(p) if sources.len() == 1 || rng.chance(50) => p,
        Some(p) => {
            let i = rng.below(sources.len() - 1);
            if i >= p { i + 1 } else { i }
        }
        None => rng.below(sources.len()),
    }
}

/// The files to generate: those edited, the files they refer to (transitively) and, now and
/// then, a file that refers to one of them, so that a type reached through `$ref` is generated
/// from its user's side too. A source of a single editable file keeps all its files.
fn closure(src: &Source, files: &[File], touched: &BTreeSet<usize>, rng: &mut Rng) -> Vec<File> {
    if src.editable.len() == 1 {
        return files.to_vec();
    }
    let by_id: BTreeMap<&str, usize> = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| Some((f.value.get("$id")?.as_str()?, i)))
        .collect();
    let refs_of = |i: usize| -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        collect_refs(&files[i].value, &mut |r| {
            let (doc, _) = r.split_once('#').unwrap_or((r, ""));
            if let Some(&j) = by_id.get(doc) {
                out.insert(j);
            }
        });
        out
    };
    let mut keep: BTreeSet<usize> = touched.clone();
    if keep.is_empty() {
        keep.insert(rng.below(files.len()));
    }
    if rng.chance(20) {
        let users: Vec<usize> = (0..files.len())
            .filter(|&i| !keep.contains(&i) && !refs_of(i).is_disjoint(&keep))
            .collect();
        if !users.is_empty() {
            keep.insert(*rng.pick(&users));
        }
    }
    let mut todo: Vec<usize> = keep.iter().copied().collect();
    while let Some(i) = todo.pop() {
        for j in refs_of(i) {
            if keep.insert(j) {
                todo.push(j);
            }
        }
    }
    keep.into_iter().map(|i| files[i].clone()).collect()
}

/// Calls `f` with every `$ref` string in `v`.
fn collect_refs(v: &Value, f: &mut impl FnMut(&str)) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                match (k.as_str(), x) {
                    ("$ref", Value::String(r)) => f(r),
                    ("const" | "enum" | "examples" | "default", _) => {}
                    _ => collect_refs(x, f),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, f)),
        _ => {}
    }
}

/// Whether `v` is an object schema: a JSON object (booleans are schemas too, but take no edits).
pub(crate) fn is_object(v: &Value) -> bool {
    v.is_object()
}

/// Whether `v` says it describes objects (`type: object`, or members declared).
pub(crate) fn describes_objects(v: &Value) -> bool {
    v.get("properties").is_some_and(Value::is_object)
        || v.get("type").is_some_and(|t| type_has(t, "object"))
}

/// Whether a `type` value (a name or a list of names) includes `name`.
pub(crate) fn type_has(t: &Value, name: &str) -> bool {
    match t {
        Value::String(s) => s == name,
        Value::Array(a) => a.iter().any(|x| x == name),
        _ => false,
    }
}

/// The names `properties` declares.
pub(crate) fn member_names(v: &Value) -> Vec<String> {
    v.get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn prp() -> Source {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
        Source::prp(&dir, None).unwrap()
    }

    /// A seed names one mutant, and over a few hundred seeds every operator gets its turn and
    /// leaves every file a schema (an object or a boolean).
    #[test]
    fn mutants_are_reproducible_and_every_operator_applies() {
        let sources = [prp()];
        let mut used: BTreeMap<String, usize> = BTreeMap::new();
        // Enough seeds for the rarest operator (`new-variant`, on the few tagged unions among
        // PRP's 29 files) to apply.
        for seed in 0..1000 {
            let m = mutate(&sources, seed);
            let again = mutate(&sources, seed);
            assert_eq!(
                (&m.edits, &m.files),
                (&again.edits, &again.files),
                "seed {seed}"
            );
            assert!(!m.edits.is_empty(), "seed {seed} made no edit");
            assert!(
                m.files
                    .iter()
                    .all(|f| f.value.is_object() || f.value.is_boolean())
            );
            for e in &m.edits {
                *used
                    .entry(e.split_whitespace().next().unwrap().to_owned())
                    .or_default() += 1;
            }
        }
        let unused: Vec<&str> = operator_names()
            .into_iter()
            .filter(|n| !used.contains_key(*n))
            .collect();
        assert!(unused.is_empty(), "operators never applied: {unused:?}");
    }

    /// The directory holds what an edited file refers to, so that it generates on its own.
    #[test]
    fn a_mutant_holds_the_files_its_edits_refer_to() {
        let sources = [prp()];
        for seed in 0..100 {
            let m = mutate(&sources, seed);
            let ids: Vec<&str> = m
                .files
                .iter()
                .filter_map(|f| f.value.get("$id")?.as_str())
                .collect();
            for f in &m.files {
                collect_refs(&f.value, &mut |r| {
                    let doc = r.split('#').next().unwrap();
                    assert!(
                        doc.is_empty() || ids.contains(&doc),
                        "seed {seed}: {} refers to {r}",
                        f.path
                    );
                });
            }
        }
    }
}
