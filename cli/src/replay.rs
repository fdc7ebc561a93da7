//! `prp replay FIXTURE [--summary]` and `prp goldens [--check] DIR`: the replay reducer's golden
//! output (PROTOCOL §2.7), printed or checked. Both are thin shells over `prp_peer::reducer`.
//!
//! Exit codes: 0 printed / written / fresh, 1 a rejected fixture or stale goldens, 2 usage or I/O.

use crate::Status;
use crate::input;
use crate::report;
use prp_conformance::goldens;
use prp_peer::reducer;
use std::io::Write;
use std::path::PathBuf;

/// Replay a fixture and print its session snapshot.
///
/// The fixture goes through the whole contract pipeline first (version checks, schema, binding
/// checks); an accepted one is folded into the session snapshot, printed byte-identical to the
/// golden format (two-space JSON, trailing newline). A rejected fixture's issues go to stderr with
/// the codes `prp validate` gives, and the exit is 1.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// Print the parity summary instead of the snapshot.
    #[arg(long)]
    summary: bool,
    #[command(flatten)]
    protocol: crate::Protocol,
    /// The replay fixture; `-` reads standard input.
    #[arg(value_name = "FIXTURE")]
    fixture: PathBuf,
}

/// Regenerate, or check, the golden files of a fixtures directory.
///
/// For every replay fixture `DIR/replay/NAME.json` the contract accepts, writes
/// `DIR/replay/golden/NAME.snapshot.json` and `NAME.summary.json`; files already up to date are
/// not rewritten. Rejected fixtures (expected rejections) are named on stderr and have no goldens.
#[derive(clap::Args, Debug)]
pub struct GoldensArgs {
    /// Write nothing: exit 1 and name every golden file that is missing or stale.
    #[arg(long)]
    check: bool,
    #[command(flatten)]
    protocol: crate::Protocol,
    /// The fixtures directory (holds `replay/*.json`).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

pub fn run_replay(args: &ReplayArgs) -> Status {
    let name = input::name(&args.fixture);
    let bytes = match input::read_document(&args.fixture) {
        Ok(bytes) => bytes,
        Err(issue) => {
            eprintln!("prp replay: {name}: {}", report::issue_text(&issue));
            return if issue.code == prp_types::Code::IoError {
                Status::Error
            } else {
                Status::Failed
            };
        }
    };
    let snapshot = match reducer::replay_fixture_bytes_with(args.protocol.contract, &bytes) {
        Ok(snapshot) => snapshot,
        Err(issues) => {
            for issue in &issues {
                eprintln!(
                    "prp replay: {name}: rejected: {}",
                    report::issue_text(issue)
                );
            }
            return Status::Failed;
        }
    };
    let text = if args.summary {
        snapshot.summary().to_pretty()
    } else {
        snapshot.to_pretty()
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Status::Ok,
        Err(e) => {
            eprintln!("prp replay: cannot write the output: {e}");
            Status::Error
        }
    }
}

pub fn run_goldens(args: &GoldensArgs) -> Status {
    let rendered = match goldens::render(&args.dir, args.protocol.contract) {
        Ok(rendered) => rendered,
        Err(e) => {
            eprintln!("prp goldens: {}: {e}", args.dir.join("replay").display());
            return Status::Error;
        }
    };
    // Rejected fixtures are the expected rejections (for example an unsupported required
    // version): they have no goldens. Named so that an unexpected rejection is noticed.
    for r in &rendered.rejected {
        let first = r.issues.first().map(report::issue_text).unwrap_or_default();
        eprintln!("skipped {} (rejected: {first})", r.fixture.display());
    }
    if args.check {
        check(args, &rendered)
    } else {
        write(&rendered)
    }
}

fn check(o: &GoldensArgs, rendered: &goldens::Goldens) -> Status {
    let drift = match rendered.check() {
        Ok(drift) => drift,
        Err(e) => {
            eprintln!("prp goldens: {e}");
            return Status::Error;
        }
    };
    if drift.is_empty() {
        println!(
            "The {} golden files match their fixtures.",
            rendered.files.len()
        );
        return Status::Ok;
    }
    for d in &drift {
        let what = match d {
            goldens::Drift::Missing(_) => "missing",
            goldens::Drift::Stale(_) => "stale",
        };
        eprintln!("{what}: {}", d.path().display());
    }
    eprintln!(
        "{} of {} golden files are stale or missing. Run `prp goldens {}`.",
        drift.len(),
        rendered.files.len(),
        o.dir.display()
    );
    Status::Failed
}

fn write(rendered: &goldens::Goldens) -> Status {
    match rendered.write() {
        Ok(written) => {
            for path in &written {
                println!("wrote {}", path.display());
            }
            println!(
                "{} golden files up to date ({} rewritten).",
                rendered.files.len(),
                written.len()
            );
            Status::Ok
        }
        Err(e) => {
            eprintln!("prp goldens: {e}");
            Status::Error
        }
    }
}
