//! Schema mutants through the generator: `PRP_MUTANTS_SEED` (default 1) and `PRP_MUTANTS_COUNT`
//! (default 200) choose the mutants, `PRP_MUTANTS_SOURCES` the sources (`prp`, `suite` — the
//! suite's groups of every dialect it has — or `all`, the default). Prints the seed, a line per batch, each failure with the seed that
//! replays it (`PRP_MUTANTS_SEED=<seed> PRP_MUTANTS_COUNT=1`), and a last summary line; exits
//! non-zero when any mutant failed. The first failure of each kind is shrunk and written under
//! `codegen/tests/features` (not under `CI=true`, nor with `PRP_MUTANTS_NO_SHRINK` set).
//! `PRP_MUTANTS_DOCUMENTS` (48) sets the documents per schema, `PRP_MUTANTS_BATCH` (40) the
//! mutants per build, `PRP_MUTANTS_SHRINK_SECONDS` (600) the time one failure is shrunk for.

use prp_mutants::run::{Config, Report, run};
use prp_mutants::setup::{env_or, in_ci, suite_dir};
use prp_mutants::source::Source;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let seed: u64 = env_or("PRP_MUTANTS_SEED", 1);
    let count: usize = env_or("PRP_MUTANTS_COUNT", 200);
    let which = std::env::var("PRP_MUTANTS_SOURCES").unwrap_or_else(|_| "all".into());
    let mut sources = Vec::new();
    if which != "suite" {
        let corpus = root.join("fixtures/documents");
        sources
            .push(Source::prp(&root.join("schemas"), Some(&corpus)).expect("PRP's schemas load"));
    }
    if which != "prp" {
        match suite_dir() {
            Some(dir) => sources.extend(Source::suite_all(&dir).expect("the suite loads")),
            None if which == "suite" => return,
            None => {}
        }
    }
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mutants");
    let config = Config {
        seed,
        count,
        batch: env_or("PRP_MUTANTS_BATCH", 40),
        work,
        crates: 2,
        documents: env_or("PRP_MUTANTS_DOCUMENTS", 48),
        splices: 8,
        // CI's checkout is thrown away: it reports failures as they are, and a maintainer
        // replays them (shrinking and keeping them) from their seeds.
        cases: (std::env::var_os("PRP_MUTANTS_NO_SHRINK").is_none() && !in_ci())
            .then(|| root.join("codegen/tests/features")),
        shrink_budget: std::time::Duration::from_secs(env_or("PRP_MUTANTS_SHRINK_SECONDS", 600)),
    };
    println!(
        "prp-mutants: seed {seed}, {count} mutants, sources {which} ({} directories)",
        sources.len()
    );
    let report = run(&config, &sources, |r| {
        println!(
            "  {} mutants, {} compiled, {} failed, {:.0}s",
            r.tried,
            r.compiled,
            r.failed.len(),
            r.seconds
        );
    });
    for f in &report.failed {
        println!(
            "FAILED mutant seed {} ({}):",
            f.mutant.seed, sources[f.mutant.source].name
        );
        for e in &f.mutant.edits {
            println!("    edit: {e}");
        }
        for x in &f.failures {
            println!(
                "    {}: {}",
                x.class,
                x.detail
                    .lines()
                    .take(30)
                    .collect::<Vec<_>>()
                    .join("\n      ")
            );
            if let (Some(uri), Some(doc)) = (&x.uri, &x.document) {
                println!("      schema {uri}, document {doc} (valid: {:?})", x.valid);
            }
        }
        if let Some(case) = &f.case {
            println!("    kept as {}", case.display());
        }
        println!(
            "    replay: PRP_MUTANTS_SEED={} PRP_MUTANTS_COUNT=1",
            f.mutant.seed
        );
    }
    summary(seed, &report);
    if !report.failed.is_empty() {
        std::process::exit(1);
    }
}

fn summary(seed: u64, r: &Report) {
    for (why, n) in &r.reasons {
        println!("  refused {n}x: {why}");
    }
    let refused: Vec<String> = r.refused.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!(
        "mutants: seed {seed}: {} tried, {} generated, {} refused ({}), {} compiled, {} schemas, {} documents ({} valid), {} splices, {} failed, {:.1}s",
        r.tried,
        r.generated,
        r.refused.values().sum::<usize>(),
        refused.join(", "),
        r.compiled,
        r.tally.types,
        r.tally.documents,
        r.tally.valid,
        r.tally.splices,
        r.failed.len(),
        r.seconds
    );
}
