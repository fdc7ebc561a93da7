//! Shrinking a failing mutant to the smallest directory that still fails the same way, and
//! keeping it as a feature case of prp-codegen's snapshot suite.
//!
//! Each round lists the directory's one-step reductions (a file dropped, a subschema made
//! `true`, a keyword, member, definition or list element dropped), smallest result first, and
//! puts them through the steps a chunk at a time; the smallest reduction that fails with the
//! failure's class becomes the directory, until no reduction fails or the time is up. A
//! compile error needs only `cargo check`; a document's failure is tried with that document.

use crate::edits::Mutant;
use crate::evaluate::{Candidate, Env, Failure, Outcome, evaluate};
use crate::source::{File, Source};
use crate::tree;
use prp_vocabulary::Dialect;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Reductions put through the steps per build.
const CHUNK: usize = 32;

/// Shrinks `m`, which fails with `failure`, for at most `budget`, and writes it as a feature
/// case under `dir` (prp-codegen's `tests/features`), listed in `dir/list.rs`.
pub fn shrink_and_keep(
    env: &Env,
    m: &Mutant,
    failure: &Failure,
    dir: &Path,
    budget: Duration,
) -> Option<PathBuf> {
    let (files, failure) = shrink(env, m, failure, budget);
    match keep(&env.sources[m.source], m.seed, &files, &failure, dir) {
        Ok(path) => Some(path),
        Err(e) => {
            eprintln!("cannot write the shrunk case of mutant {}: {e}", m.seed);
            None
        }
    }
}

/// The smallest directory found that fails as `failure` does, and its failure.
pub fn shrink(env: &Env, m: &Mutant, failure: &Failure, budget: Duration) -> (Vec<File>, Failure) {
    let deadline = Instant::now() + budget;
    let extra: Vec<(String, Value)> = match (&failure.uri, &failure.document) {
        (Some(u), Some(d)) => vec![(u.clone(), d.clone())],
        _ => Vec::new(),
    };
    // Splices are drawn at random among the documents: those failures need them all.
    let needs_documents =
        failure.class.starts_with("build-") || failure.class == "crash" || extra.is_empty();
    let env = Env {
        sources: env.sources,
        work: env.work.join("shrink"),
        crates: env.crates,
        documents: if needs_documents { env.documents } else { 0 },
        splices: if needs_documents { env.splices } else { 0 },
        check_only: failure.class == "compile",
    };
    let fails = |dirs: &[Vec<File>]| -> Vec<Option<Failure>> {
        let candidates: Vec<Candidate> = dirs
            .iter()
            .map(|files| Candidate {
                source: m.source,
                files: files.clone(),
                seed: m.seed,
                extra: extra.clone(),
            })
            .collect();
        evaluate(&env, &candidates)
            .into_iter()
            .map(|o| match o {
                Outcome::Failed(fs) => fs.into_iter().find(|f| f.class == failure.class),
                _ => None,
            })
            .collect()
    };
    let mut current = (m.files.clone(), failure.clone());
    let editable = &env.sources[m.source].editable;
    // First the boldest cut: only the files edits are made in.
    if editable.len() < current.0.len() && editable.len() == 1 {
        let only = vec![current.0[editable[0]].clone()];
        if let Some(f) = fails(std::slice::from_ref(&only)).pop().flatten() {
            current = (only, f);
        }
    }
    'rounds: while Instant::now() < deadline {
        let reductions = reductions(&current.0, env.sources[m.source].dialect());
        for chunk in reductions.chunks(CHUNK) {
            if Instant::now() >= deadline {
                break 'rounds;
            }
            let dirs: Vec<Vec<File>> = chunk
                .iter()
                .map(|r| apply(&current.0, std::slice::from_ref(r)))
                .collect();
            let failing: Vec<(usize, Failure)> = fails(&dirs)
                .into_iter()
                .enumerate()
                .filter_map(|(i, f)| Some((i, f?)))
                .collect();
            if failing.is_empty() {
                continue;
            }
            // Reductions that fail alone are tried together: most are independent.
            let together: Vec<Reduction> = compatible(failing.iter().map(|(i, _)| &chunk[*i]));
            if together.len() > 1 {
                let dir = apply(&current.0, &together);
                if let Some(f) = fails(std::slice::from_ref(&dir)).pop().flatten() {
                    current = (dir, f);
                    continue 'rounds;
                }
            }
            let (i, f) = failing
                .into_iter()
                .min_by_key(|(i, _)| size(&dirs[*i]))
                .expect("one fails");
            current = (dirs[i].clone(), f);
            continue 'rounds;
        }
        break;
    }
    if !needs_documents {
        current.1 = shrink_document(&env, m, &current.0, current.1, deadline);
    }
    current
}

/// The failure's document made smaller while the failure stays: each round tries every
/// one-step reduction of it at once, in one candidate, smallest first, and keeps the first that
/// fails the same way (a candidate reports the first failure of each class).
fn shrink_document(
    env: &Env,
    m: &Mutant,
    files: &[File],
    mut failure: Failure,
    deadline: Instant,
) -> Failure {
    while Instant::now() < deadline {
        let (Some(uri), Some(doc)) = (failure.uri.clone(), failure.document.clone()) else {
            break;
        };
        let mut smaller = document_reductions(&doc);
        smaller.sort_by_cached_key(|d| d.to_string().len());
        let extra = smaller.into_iter().map(|d| (uri.clone(), d)).collect();
        let candidate = Candidate {
            source: m.source,
            files: files.to_vec(),
            seed: m.seed,
            extra,
        };
        let found = evaluate(env, &[candidate])
            .into_iter()
            .find_map(|o| match o {
                Outcome::Failed(fs) => fs.into_iter().find(|f| f.class == failure.class),
                _ => None,
            });
        let shorter = |f: &Failure| {
            f.document
                .as_ref()
                .is_some_and(|d| d.to_string().len() < doc.to_string().len())
        };
        match found {
            Some(f) if shorter(&f) => failure = f,
            _ => break,
        }
    }
    failure
}

/// `doc` one step smaller each way: a member or item dropped, a value made `null`, `0`, `""`,
/// `{}` or `[]`.
fn document_reductions(doc: &Value) -> Vec<Value> {
    let mut paths = Vec::new();
    value_paths(doc, String::new(), &mut paths);
    let mut out = Vec::new();
    for at in paths.iter().filter(|p| !p.is_empty()) {
        let (parent, last) = tree::split(at).expect("not the root");
        let mut dropped = doc.clone();
        match dropped.pointer_mut(parent) {
            Some(Value::Object(o)) => {
                o.shift_remove(&last);
            }
            Some(Value::Array(a)) => {
                a.remove(last.parse::<usize>().expect("an index"));
            }
            _ => continue,
        }
        out.push(dropped);
    }
    for at in &paths {
        for simpler in [Value::Null, json!(0), json!(""), json!({}), json!([])] {
            let mut d = doc.clone();
            let node = d.pointer_mut(at).expect("a path of the document");
            if *node != simpler && node.to_string().len() > simpler.to_string().len() {
                *node = simpler;
                out.push(d);
            }
        }
    }
    out
}

fn value_paths(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(o) => o
            .iter()
            .for_each(|(k, x)| value_paths(x, tree::child(&at, k), out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| value_paths(x, format!("{at}/{i}"), out)),
        _ => {}
    }
}

/// The directory's size: the length of its files' JSON.
fn size(files: &[File]) -> usize {
    files.iter().map(|f| f.value.to_string().len()).sum()
}

/// One step smaller: a file dropped (`at` is `None`), or the subschema at `at` replaced.
#[derive(Debug, Clone)]
struct Reduction {
    file: usize,
    at: Option<String>,
    node: Value,
    /// How much smaller the directory gets.
    saves: usize,
}

/// `files` with `reductions` made (none of them inside another).
fn apply(files: &[File], reductions: &[Reduction]) -> Vec<File> {
    let mut out = files.to_vec();
    for r in reductions {
        if let Some(at) = &r.at
            && let Some(node) = out[r.file].value.pointer_mut(at)
        {
            *node = r.node.clone();
        }
    }
    let dropped: BTreeSet<usize> = reductions
        .iter()
        .filter(|r| r.at.is_none())
        .map(|r| r.file)
        .collect();
    out.into_iter()
        .enumerate()
        .filter(|(i, _)| !dropped.contains(i))
        .map(|(_, f)| f)
        .collect()
}

/// The largest-first subset of `reductions` in which none lies inside another (or in a file
/// another drops).
fn compatible<'r>(reductions: impl Iterator<Item = &'r Reduction>) -> Vec<Reduction> {
    let mut all: Vec<&Reduction> = reductions.collect();
    all.sort_by_key(|r| std::cmp::Reverse(r.saves));
    let mut out: Vec<Reduction> = Vec::new();
    for r in all {
        let clash = out.iter().any(|o| {
            o.file == r.file
                && match (&o.at, &r.at) {
                    (Some(a), Some(b)) => within(a, b) || within(b, a),
                    _ => true,
                }
        });
        if !clash {
            out.push(r.clone());
        }
    }
    out
}

/// Whether pointer `inner` is `outer` or below it.
fn within(inner: &str, outer: &str) -> bool {
    inner == outer || inner.starts_with(&format!("{outer}/"))
}

/// Every one-step reduction of `files`, the largest first.
fn reductions(files: &[File], dialect: Dialect) -> Vec<Reduction> {
    let mut out: Vec<Reduction> = Vec::new();
    if files.len() > 1 {
        for (i, f) in files.iter().enumerate() {
            out.push(Reduction {
                file: i,
                at: None,
                node: Value::Null,
                saves: f.value.to_string().len(),
            });
        }
    }
    for (i, f) in files.iter().enumerate() {
        for at in tree::subschemas(&f.value, dialect) {
            let before = f.value.pointer(&at).map_or(0, |n| n.to_string().len());
            for node in node_reductions(&f.value, &at) {
                let saves = before.saturating_sub(node.to_string().len());
                out.push(Reduction {
                    file: i,
                    at: Some(at.clone()),
                    node,
                    saves,
                });
            }
        }
    }
    out.sort_by_key(|r| std::cmp::Reverse(r.saves));
    out
}

/// The subschema at `at` of `root` reduced one step each possible way.
fn node_reductions(root: &Value, at: &str) -> Vec<Value> {
    let Some(Value::Object(o)) = root.pointer(at) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if !at.is_empty() && !o.contains_key("$id") {
        out.push(json!(true));
    }
    for key in o
        .keys()
        .filter(|k| !matches!(k.as_str(), "$id" | "$schema"))
    {
        let mut less = o.clone();
        less.remove(key);
        out.push(Value::Object(less));
    }
    for (key, v) in o {
        match v {
            Value::Object(entries)
                if matches!(
                    key.as_str(),
                    "properties"
                        | "$defs"
                        | "dependentRequired"
                        | "dependentSchemas"
                        | "patternProperties"
                ) =>
            {
                for name in entries.keys() {
                    let mut less = o.clone();
                    less[key].as_object_mut().expect("an object").remove(name);
                    if key == "properties"
                        && let Some(Value::Array(req)) = less.get_mut("required")
                    {
                        req.retain(|r| r.as_str() != Some(name));
                    }
                    out.push(Value::Object(less));
                }
            }
            Value::Array(items) if items.len() > 1 => {
                for i in 0..items.len() {
                    let mut less = o.clone();
                    less[key].as_array_mut().expect("an array").remove(i);
                    out.push(Value::Object(less));
                }
            }
            _ => {}
        }
    }
    out
}

/// Writes the case: its schema files under `schemas/`, `options.json`, `documents.json` (a
/// document's failure), `expected.rs` as the generator gives it now, and its name in
/// `list.rs`.
fn keep(
    source: &Source,
    seed: u64,
    files: &[File],
    failure: &Failure,
    dir: &Path,
) -> std::io::Result<PathBuf> {
    let name = format!("found_{}_{seed}", failure.class.replace('-', "_"));
    let case = dir.join(&name);
    let _ = std::fs::remove_dir_all(&case);
    for f in files {
        let path = case.join("schemas").join(&f.path);
        std::fs::create_dir_all(path.parent().expect("a file in the case"))?;
        std::fs::write(path, pretty(&f.value))?;
    }
    let set = source.schema_set(files).ok();
    let options = set
        .as_ref()
        .map(|s| source.options_json(s))
        .unwrap_or(json!({}));
    std::fs::write(case.join("options.json"), pretty(&options))?;
    if let (Some(uri), Some(doc), Some(valid)) = (&failure.uri, &failure.document, failure.valid) {
        let key = prp_vocabulary::pointer::unescape(uri);
        let docs = json!([{ "schema": key, "valid": valid, "document": doc }]);
        std::fs::write(case.join("documents.json"), pretty(&docs))?;
    }
    // Generated from the files as written, so that the header's digest is the test's.
    let code = set
        .and_then(|s| {
            let options = source.options(&s).base_uri(source.base_uri());
            let dir = case.join("schemas");
            std::panic::catch_unwind(|| prp_codegen::generate_dir(&dir, &options))
                .ok()?
                .ok()
        })
        .map(|o| o.code)
        .unwrap_or_else(|| format!("// prp-codegen fails on this case: {}\n", failure.class));
    std::fs::write(case.join("expected.rs"), code)?;
    let list = dir.join("list.rs");
    let text = std::fs::read_to_string(&list)?;
    // A document read through the document union names the union, for the test to read it by.
    let entry = match options["document_union"][0].as_str() {
        Some(union) if failure.uri.as_deref() == Some("#document") => format!("{name}({union})"),
        _ => name.clone(),
    };
    if !text.contains(&format!("    {name},\n")) && !text.contains(&format!("    {name}(")) {
        let at = text.rfind('}').expect("list.rs ends with `}`");
        std::fs::write(
            &list,
            format!("{}    {entry},\n{}", &text[..at], &text[at..]),
        )?;
    }
    Ok(case)
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("JSON");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(v: Value) -> File {
        File {
            path: "a.json".into(),
            value: v,
        }
    }

    #[test]
    fn reductions_make_one_step_smaller_and_combine_when_apart() {
        let files = vec![file(json!({
            "type": "object",
            "properties": {"a": {"type": "string", "maxLength": 3}, "b": {"enum": [1, 2]}},
            "required": ["a", "b"]
        }))];
        let all = reductions(&files, Dialect::Draft202012);
        assert!(
            all.windows(2).all(|w| w[0].saves >= w[1].saves),
            "largest first"
        );
        let shown: Vec<String> = all
            .iter()
            .map(|r| apply(&files, std::slice::from_ref(r))[0].value.to_string())
            .collect();
        // A member dropped takes its place in `required` with it.
        assert!(shown.contains(&json!({"type": "object", "properties": {"b": {"enum": [1, 2]}}, "required": ["b"]}).to_string()));
        assert!(shown.contains(&json!({"type": "object", "properties": {"a": true, "b": {"enum": [1, 2]}}, "required": ["a", "b"]}).to_string()));
        assert!(shown.iter().any(|s| s.contains("\"enum\":[2]")));
        // Two reductions in different members combine; one inside the other does not.
        let at = |p: &str| {
            all.iter()
                .find(|r| r.at.as_deref() == Some(p) && r.node == json!(true))
                .unwrap()
        };
        let (a, b) = (at("/properties/a"), at("/properties/b"));
        assert_eq!(compatible([a, b].into_iter()).len(), 2);
        let inside = all
            .iter()
            .find(|r| r.at.as_deref() == Some("/properties/a") && r.node.get("type").is_some())
            .unwrap();
        assert_eq!(compatible([a, inside].into_iter()).len(), 1);
        let both = apply(&files, &compatible([a, b].into_iter()));
        assert_eq!(both[0].value["properties"], json!({"a": true, "b": true}));
    }

    #[test]
    fn documents_shrink_by_members_items_and_simpler_values() {
        let doc = json!({"a": [1, {"b": "long text"}], "c": true});
        let all: Vec<String> = document_reductions(&doc)
            .iter()
            .map(Value::to_string)
            .collect();
        for expected in [
            json!({"c": true}),
            json!({"a": [{"b": "long text"}], "c": true}),
            json!({"a": [1, {}], "c": true}),
            json!({"a": [1, {"b": ""}], "c": true}),
            json!(null),
        ] {
            assert!(all.contains(&expected.to_string()), "{expected}");
        }
        assert!(!all.contains(&doc.to_string()));
    }
}
