//! How much of what a schema edit breaks `prp compat` shows. A mutant and the source it was made
//! from are a pair of directories (OLD, NEW); the pair the other way round is the inverse edit.
//! For every schema and definition on both sides, documents from both sides' schemas (with the
//! random edits of [`documents`], and perturbations of their own) are judged by the independent validator (`jsonschema`) on each
//! side: a document one side accepts and the other refuses is a *known* break, shown by
//! construction. compat then compares the pair; a known break it shows no witness for (in that
//! direction, for that schema) is a miss, and a witness the independent validator judges
//! otherwise than compat said is unsound. A witness compat finds that the pool lacks is a known
//! break too (the validator checked it): the pool only adds what compat must find.

use crate::documents::documents;
use crate::edits::mutate;
use crate::oracle::Oracle;
use crate::rng::Rng;
use crate::source::{File, Source};
use crate::tree::escape;
use prp_codegen::SchemaSet;
use prp_compat::{Direction, Report, Side};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// A break one document shows: the schema (its URI) and the direction.
pub type Key = (String, Direction);

/// What one (OLD, NEW) pair came to.
#[derive(Debug, Default)]
pub struct Measured {
    /// The breaks known, with the smallest document showing each.
    pub known: BTreeMap<Key, Value>,
    /// The breaks compat showed with a witness.
    pub found: BTreeSet<Key>,
    /// The schemas compat reported as suspected, by direction.
    pub suspected: BTreeSet<Key>,
    /// Witnesses the independent validator judges otherwise than compat: what compat said.
    pub unsound: Vec<String>,
}

impl Measured {
    /// The known breaks compat did not show.
    pub fn missed(&self) -> impl Iterator<Item = (&Key, &Value)> {
        self.known.iter().filter(|(k, _)| !self.found.contains(*k))
    }
}

/// One pair of a run.
#[derive(Debug)]
pub struct Pair {
    /// The mutant's seed.
    pub seed: u64,
    /// The source's name.
    pub source: String,
    /// The edits, as the engine describes them.
    pub edits: Vec<String>,
    /// Compared the other way round: the mutant as OLD, its source as NEW.
    pub inverse: bool,
    /// What came of it, or why it could not be compared.
    pub outcome: Result<Measured, String>,
}

impl Pair {
    /// The operators of its edits, each once.
    pub fn operators(&self) -> BTreeSet<&str> {
        self.edits
            .iter()
            .filter_map(|e| e.split_whitespace().next())
            .collect()
    }
}

/// The pair of `seed` and its inverse, each with `budget` documents per schema and side.
pub fn pairs(sources: &[Source], seed: u64, budget: usize) -> [Pair; 2] {
    let m = mutate(sources, seed);
    let src = &sources[m.source];
    // OLD: the same files before the edits (a file an edit added has no OLD).
    let old: Vec<File> = m
        .files
        .iter()
        .filter_map(|f| src.files.iter().find(|s| s.path == f.path).cloned())
        .collect();
    let pair = |inverse: bool| {
        let (o, n) = if inverse {
            (&m.files, &old)
        } else {
            (&old, &m.files)
        };
        let mut rng = Rng::new(seed ^ 0x00c0_ffee);
        Pair {
            seed,
            source: src.name.clone(),
            edits: m.edits.clone(),
            inverse,
            outcome: measure(src, o, n, &mut rng, budget),
        }
    };
    [pair(false), pair(true)]
}

/// Measures one pair.
pub fn measure(
    src: &Source,
    old: &[File],
    new: &[File],
    rng: &mut Rng,
    budget: usize,
) -> Result<Measured, String> {
    let load = |files: &[File]| {
        src.schema_set(files)
            .map_err(|e| e.code.as_str().to_owned())
    };
    let (os, ns) = (load(old)?, load(new)?);
    let (oo, no) = (src.options(&os), src.options(&ns));
    let uris = common(&os, &ns);
    let oracles = (
        Oracle::new(src, &os, old, &oo, &uris),
        Oracle::new(src, &ns, new, &no, &uris),
    );
    // A directory the checker compiler refuses (a dangling `$ref`) is the generator's to refuse.
    if let Some(uri) = uris
        .iter()
        .find(|u| !oracles.0.knows(u) || !oracles.1.knows(u))
    {
        return Err(format!("refused: no checker for {uri}"));
    }
    let mut m = Measured::default();
    let names = member_names(old.iter().chain(new));
    for uri in &uris {
        let mut docs = documents(&os, uri, &src.documents, rng, budget);
        docs.extend(documents(&ns, uri, &src.documents, rng, budget));
        if docs.is_empty() {
            continue;
        }
        let perturbed: Vec<Value> = (0..budget)
            .filter_map(|_| {
                let d = rng.pick(&docs).clone();
                perturb(rng, d, &names)
            })
            .collect();
        docs.extend(perturbed);
        for d in docs {
            if let Some(direction) = judged(&oracles, uri, &d) {
                keep_smallest(&mut m.known, (uri.clone(), direction), d);
            }
        }
    }
    let report = compat(&Side::new(&os, &oo), &Side::new(&ns, &no), &src.documents)?;
    if !compat(&Side::new(&os, &oo), &Side::new(&os, &oo), &[])?
        .findings
        .is_empty()
    {
        m.unsound
            .push("OLD compared with itself is not silent".into());
    }
    tally(&mut m, &report, &oracles);
    Ok(m)
}

/// compat's comparison, a panic being an error like any other.
fn compat(old: &Side, new: &Side, corpus: &[Value]) -> Result<Report, String> {
    let run = std::panic::AssertUnwindSafe(|| prp_compat::compare(old, new, corpus));
    match std::panic::catch_unwind(run) {
        Ok(r) => r.map_err(|e| format!("compat: {e}")),
        Err(_) => Err("compat panicked".into()),
    }
}

/// The findings of `report` against the independent validator: each witness's verdicts checked,
/// and each break shown counted found (and known).
fn tally(m: &mut Measured, report: &Report, oracles: &(Oracle, Oracle)) {
    for f in &report.findings {
        let uri = match &f.defs {
            Some(d) => prp_vocabulary::uri::definition(&f.id, d),
            None => f.id.clone(),
        };
        let key = (uri.clone(), f.direction);
        let Some(w) = &f.witness else {
            m.suspected.insert(key);
            continue;
        };
        let said = (f.old.valid, f.new.valid);
        let independent = (
            oracles.0.verdicts(&uri, w).and_then(|v| v.independent),
            oracles.1.verdicts(&uri, w).and_then(|v| v.independent),
        );
        match independent {
            (Some(o), Some(n)) if (o, n) != said => m.unsound.push(format!(
                "{uri} {}: witness {w}: compat says old {} new {}, jsonschema old {o} new {n}",
                f.direction.as_str(),
                said.0,
                said.1
            )),
            _ => {
                keep_smallest(&mut m.known, key.clone(), w.clone());
                m.found.insert(key);
            }
        }
    }
}

/// The direction of the break `d` shows for the schema `uri`, by the independent validator.
fn judged(oracles: &(Oracle, Oracle), uri: &str, d: &Value) -> Option<Direction> {
    let o = oracles.0.verdicts(uri, d)?.independent?;
    let n = oracles.1.verdicts(uri, d)?.independent?;
    match (o, n) {
        (true, false) => Some(Direction::Backward),
        (false, true) => Some(Direction::Forward),
        _ => None,
    }
}

fn keep_smallest(known: &mut BTreeMap<Key, Value>, key: Key, d: Value) {
    let size = |v: &Value| v.to_string().len();
    match known.get(&key) {
        Some(have) if size(have) <= size(&d) => {}
        _ => {
            known.insert(key, d);
        }
    }
}

/// The URIs of the schemas and definitions both sides have.
fn common(os: &SchemaSet, ns: &SchemaSet) -> Vec<String> {
    let uris = |set: &SchemaSet| -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for f in &set.files {
            out.insert(f.id.clone());
            let defs = f.root.get("$defs").and_then(Value::as_object);
            for name in defs.into_iter().flatten().map(|(k, _)| k) {
                out.insert(prp_vocabulary::uri::definition(&f.id, name));
            }
        }
        out
    };
    uris(os).intersection(&uris(ns)).cloned().collect()
}

/// The member names the schemas declare (and one none does): what a perturbation adds.
fn member_names<'a>(files: impl Iterator<Item = &'a File>) -> Vec<String> {
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(o) => {
                if let Some(Value::Object(p)) = o.get("properties") {
                    out.extend(p.keys().cloned());
                }
                o.values().for_each(|x| walk(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::from(["undeclared".to_owned()]);
    files.for_each(|f| walk(&f.value, &mut out));
    out.into_iter().collect()
}

/// `doc` after one to three random edits of its own kind, made apart from compat's sampling so
/// that the known breaks do not only hold what compat would build: a string emptied, grown or
/// changed; a number moved by one, by a half, doubled or negated; an item repeated, dropped or
/// all cleared; a member removed, added (a declared name or one none declares) or set to
/// another type.
fn perturb(rng: &mut Rng, mut doc: Value, names: &[String]) -> Option<Value> {
    for _ in 0..=rng.below(3) {
        let mut paths = Vec::new();
        paths_of(&doc, String::new(), &mut paths);
        let at = rng.pick(&paths).clone();
        let kinds = [
            json!(null),
            json!(true),
            json!(0),
            json!("a"),
            json!([]),
            json!({}),
        ];
        let other = rng.pick(&kinds).clone();
        let name = rng.pick(names).clone();
        let roll = rng.below(4);
        let target = doc.pointer_mut(&at)?;
        *target = match (roll, target.take()) {
            (0, _) => other,
            (_, Value::String(s)) => json!(match rng.below(4) {
                0 => String::new(),
                1 => format!("{s}!"),
                2 => s.repeat(2),
                _ => "a".repeat(s.chars().count() + 1),
            }),
            (_, Value::Number(n)) => {
                let x = n.as_f64().unwrap_or(0.0);
                let y = [x + 1.0, x - 1.0, x + 0.5, 2.0 * x, -x][rng.below(5)];
                match y.fract() == 0.0 && y.abs() < 9.0e15 {
                    true => json!(y as i64),
                    false => json!(y),
                }
            }
            (_, Value::Array(mut a)) => {
                match (rng.below(3), a.first().cloned()) {
                    (0, Some(first)) => a.push(first),
                    (1, Some(_)) => {
                        a.pop();
                    }
                    _ => a.clear(),
                }
                Value::Array(a)
            }
            (_, Value::Object(mut o)) => {
                match (rng.below(2), o.keys().next().cloned()) {
                    (0, Some(k)) => {
                        o.shift_remove(&k);
                    }
                    _ => {
                        o.insert(name, other);
                    }
                }
                Value::Object(o)
            }
            (_, v) => v,
        };
    }
    Some(doc)
}

fn paths_of(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(o) => o
            .iter()
            .for_each(|(k, x)| paths_of(x, format!("{at}/{}", escape(k)), out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| paths_of(x, format!("{at}/{i}"), out)),
        _ => {}
    }
}
