//! `prp compat`'s recall on mutation pairs: each mutant against its source and the other way
//! round (see `prp_mutants::recall`). `PRP_RECALL_SEED` (default 1) and `PRP_RECALL_COUNT`
//! (default 60) choose the mutants, `PRP_MUTANTS_SOURCES` the sources as for the mutants test,
//! `PRP_RECALL_DOCUMENTS` (96) the oracle's documents per schema and side. Prints recall overall,
//! per direction and per edit operator (a pair counts for each operator among its edits), every
//! miss with the seed that replays it, and exits non-zero on an unsound witness, a panic, a
//! directory not silent against itself, or recall under `PRP_RECALL_MIN` (percent, default 99).
//! `PRP_RECALL_SHOW` prints the edited files of the mutants with a miss.

use prp_compat::Direction;
use prp_mutants::recall::{Pair, pairs};
use prp_mutants::setup::{env_or, suite_dir};
use prp_mutants::source::Source;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let seed: u64 = env_or("PRP_RECALL_SEED", 1);
    let count: u64 = env_or("PRP_RECALL_COUNT", 60);
    let budget: usize = env_or("PRP_RECALL_DOCUMENTS", 96);
    let min: f64 = env_or("PRP_RECALL_MIN", 99.0);
    let sources = sources(&root);
    println!("compat recall: seed {seed}, {count} mutants and their inverses");
    let start = Instant::now();
    let all = run(&sources, seed, count, budget);
    let t = Totals::of(&all);
    t.print(&all);
    if std::env::var_os("PRP_RECALL_SHOW").is_some() {
        show(&sources, &all);
    }
    println!(
        "compat recall: seed {seed}: {} pairs, {} compared, {} refused, {} known breaks, {} found, recall {:.2}%, {} suspected with a break, {} unsound, {} errors, {:.1}s",
        all.len(),
        t.compared,
        t.refused,
        t.known,
        t.found,
        t.recall(),
        t.suspected_missed,
        t.unsound,
        t.errors.len(),
        start.elapsed().as_secs_f64()
    );
    if t.unsound > 0 || !t.errors.is_empty() || t.recall() < min {
        std::process::exit(1);
    }
}

/// The pairs of `count` seeds from `seed`, on both cores.
fn run(sources: &[Source], seed: u64, count: u64, budget: usize) -> Vec<Pair> {
    let seeds: Vec<u64> = (seed..seed + count).collect();
    let halves: Vec<&[u64]> = seeds.chunks(seeds.len().div_ceil(2).max(1)).collect();
    let mut out: Vec<Pair> = std::thread::scope(|s| {
        let handles: Vec<_> = halves
            .into_iter()
            .map(|part| {
                std::thread::Builder::new()
                    .stack_size(256 << 20)
                    .spawn_scoped(s, move || {
                        part.iter()
                            .flat_map(|&k| pairs(sources, k, budget))
                            .collect::<Vec<Pair>>()
                    })
                    .expect("a thread")
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("the pairs are measured"))
            .collect()
    });
    out.sort_by_key(|p| (p.seed, p.inverse));
    out
}

#[derive(Default)]
struct Totals {
    compared: usize,
    refused: usize,
    known: usize,
    found: usize,
    suspected_missed: usize,
    unsound: usize,
    errors: Vec<String>,
    /// Known and found, by direction and by operator.
    by: BTreeMap<String, (usize, usize)>,
}

impl Totals {
    fn of(all: &[Pair]) -> Totals {
        let mut t = Totals::default();
        for p in all {
            let m = match &p.outcome {
                Ok(m) => m,
                Err(e) if e.starts_with("compat") => {
                    t.errors.push(format!("seed {}: {e}", p.seed));
                    continue;
                }
                Err(_) => {
                    t.refused += 1;
                    continue;
                }
            };
            t.compared += 1;
            t.unsound += m.unsound.len();
            for key in m.known.keys() {
                let hit = usize::from(m.found.contains(key));
                t.known += 1;
                t.found += hit;
                t.suspected_missed += usize::from(hit == 0 && m.suspected.contains(key));
                let direction = match key.1 {
                    Direction::Backward => "direction backward",
                    Direction::Forward => "direction forward",
                };
                let inverse = if p.inverse { "inverse" } else { "as made" };
                let ops = p.operators().into_iter().map(|o| format!("edit {o}"));
                for label in ops.chain([direction.into(), format!("pair {inverse}")]) {
                    let e = t.by.entry(label).or_default();
                    e.0 += 1;
                    e.1 += hit;
                }
            }
        }
        t
    }

    fn recall(&self) -> f64 {
        if self.known == 0 {
            return 100.0;
        }
        100.0 * self.found as f64 / self.known as f64
    }

    fn print(&self, all: &[Pair]) {
        for (label, (known, found)) in &self.by {
            let r = 100.0 * *found as f64 / (*known).max(1) as f64;
            println!("  {label:<36} {found:>6} / {known:<6} {r:6.2}%");
        }
        for p in all {
            let Ok(m) = &p.outcome else { continue };
            for u in &m.unsound {
                println!("UNSOUND seed {} (inverse {}): {u}", p.seed, p.inverse);
            }
            for ((uri, direction), doc) in m.missed() {
                let how = if m.suspected.contains(&(uri.clone(), *direction)) {
                    "suspected"
                } else {
                    "silent"
                };
                println!(
                    "MISSED seed {} inverse {} {} {uri} ({how}): {doc}",
                    p.seed,
                    p.inverse,
                    direction.as_str()
                );
                for e in &p.edits {
                    println!("    edit: {e}");
                }
            }
        }
        for e in &self.errors {
            println!("ERROR {e}");
        }
    }
}

/// With `PRP_RECALL_SHOW` set: each file an edit of a pair with a miss was made in, as its
/// source has it and as the mutant has it.
fn show(sources: &[Source], all: &[Pair]) {
    for p in all.iter().filter(|p| !p.inverse) {
        let Ok(m) = &p.outcome else { continue };
        if m.missed().next().is_none() {
            continue;
        }
        let mutant = prp_mutants::mutate(sources, p.seed);
        let source = &sources[mutant.source];
        for f in &mutant.files {
            if p.edits.iter().any(|e| e.contains(&format!(" {}#", f.path))) {
                let was = source.files.iter().find(|o| o.path == f.path);
                if let Some(was) = was {
                    println!(
                        "seed {} {} ({}) was: {}",
                        p.seed, f.path, source.name, was.value
                    );
                }
                println!("seed {} {}: {}", p.seed, f.path, f.value);
            }
        }
    }
}

fn sources(root: &Path) -> Vec<Source> {
    let which = std::env::var("PRP_MUTANTS_SOURCES").unwrap_or_else(|_| "all".into());
    let mut out = Vec::new();
    if which != "suite" {
        let corpus = root.join("fixtures/documents");
        out.push(Source::prp(&root.join("schemas"), Some(&corpus)).expect("PRP's schemas load"));
    }
    if which != "prp"
        && let Some(dir) = suite_dir()
    {
        // Compat's recall is measured on the suite's 2020-12 groups, as it was.
        out.extend(
            Source::suite(&dir, prp_codegen::Dialect::Draft202012).expect("the suite loads"),
        );
    }
    out
}
