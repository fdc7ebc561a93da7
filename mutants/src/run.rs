//! A run: mutants from consecutive seeds, put through the steps a batch at a time, tallied, and
//! each failure shrunk and kept as a feature case.

use crate::edits::{Mutant, mutate};
use crate::evaluate::{Candidate, Env, Failure, Outcome, Tally, evaluate};
use crate::source::Source;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

/// How a run goes.
pub struct Config {
    /// The first mutant's seed; mutant `k` has seed `seed + k`.
    pub seed: u64,
    /// How many mutants.
    pub count: usize,
    /// Mutants per build.
    pub batch: usize,
    /// Where scratch files go.
    pub work: PathBuf,
    /// Checker crates per build.
    pub crates: usize,
    /// Documents per schema.
    pub documents: usize,
    /// Splices per schema.
    pub splices: usize,
    /// Where shrunk failures are written as feature cases (none: not shrunk).
    pub cases: Option<PathBuf>,
    /// How long one failure is shrunk at most.
    pub shrink_budget: std::time::Duration,
}

/// A mutant that failed.
#[derive(Debug, Clone)]
pub struct Failed {
    /// The mutant.
    pub mutant: Mutant,
    /// How it failed.
    pub failures: Vec<Failure>,
    /// The feature case its shrunk form was written to.
    pub case: Option<PathBuf>,
}

/// What a run found.
#[derive(Debug, Default)]
pub struct Report {
    /// Mutants tried.
    pub tried: usize,
    /// Mutants the generator refused, by error code.
    pub refused: BTreeMap<String, usize>,
    /// The same by reason: the code and the message without its place.
    pub reasons: BTreeMap<String, usize>,
    /// Mutants generated (compiled or not).
    pub generated: usize,
    /// Mutants that compiled.
    pub compiled: usize,
    /// What was checked.
    pub tally: Tally,
    /// Edits made, by operator.
    pub edits: BTreeMap<String, usize>,
    /// The mutants that failed.
    pub failed: Vec<Failed>,
    /// Seconds the run took.
    pub seconds: f64,
}

/// Runs `config` over `sources`, calling `progress` after each batch.
pub fn run(config: &Config, sources: &[Source], mut progress: impl FnMut(&Report)) -> Report {
    let start = Instant::now();
    let env = Env {
        sources,
        work: config.work.clone(),
        crates: config.crates,
        documents: config.documents,
        splices: config.splices,
        check_only: false,
    };
    let mut report = Report::default();
    let seeds: Vec<u64> = (0..config.count as u64)
        .map(|k| config.seed.wrapping_add(k))
        .collect();
    for chunk in seeds.chunks(config.batch.max(1)) {
        let mutants: Vec<Mutant> = chunk.iter().map(|&s| mutate(sources, s)).collect();
        let candidates: Vec<Candidate> = mutants
            .iter()
            .map(|m| Candidate {
                source: m.source,
                files: m.files.clone(),
                seed: m.seed,
                extra: Vec::new(),
            })
            .collect();
        let outcomes = evaluate(&env, &candidates);
        for (m, o) in mutants.into_iter().zip(outcomes) {
            record(&mut report, config, &env, m, o);
        }
        report.seconds = start.elapsed().as_secs_f64();
        progress(&report);
    }
    report
}

fn record(report: &mut Report, config: &Config, env: &Env, m: Mutant, o: Outcome) {
    report.tried += 1;
    for e in &m.edits {
        let op = e.split_whitespace().next().unwrap_or_default().to_owned();
        *report.edits.entry(op).or_default() += 1;
    }
    match o {
        Outcome::Refused { code, message } => {
            // `code: FILE#POINTER: message`: the reason is the code and the message.
            let why = message.splitn(3, ": ").nth(2).unwrap_or(&message);
            *report.reasons.entry(format!("{code}: {why}")).or_default() += 1;
            *report.refused.entry(code).or_default() += 1;
        }
        Outcome::Checked(t) => {
            report.generated += 1;
            report.compiled += 1;
            report.tally.add(&t);
        }
        Outcome::Failed(failures) => {
            let generated = !failures
                .iter()
                .any(|f| f.class == "panic" || f.class == "internal");
            report.generated += usize::from(generated);
            report.compiled +=
                usize::from(generated && !failures.iter().any(|f| f.class == "compile"));
            // The first failure of each class is shrunk; the others are listed as they are.
            let class = &failures[0].class;
            let new = !report.failed.iter().any(|f| f.failures[0].class == *class);
            let case = config.cases.as_ref().filter(|_| new).and_then(|dir| {
                crate::shrink::shrink_and_keep(env, &m, &failures[0], dir, config.shrink_budget)
            });
            report.failed.push(Failed {
                mutant: m,
                failures,
                case,
            });
        }
    }
}
