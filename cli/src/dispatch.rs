//! `prp dispatch SCENARIO [--store memory | sqlite:PATH | postgres://…]`: a dispatcher conformance
//! scenario, one JSON line per step.

use crate::Status;
use prp_conformance::scenario::{self, ScenarioStore};
use std::path::PathBuf;

/// Run a dispatcher conformance scenario.
///
/// The scenario gives a run context, canned bindings and steps (dispatch a call, replace the
/// context, discover, list the always-available tools, print the records). One JSON line is
/// printed per step; a dispatch line also says how many times its binding ran (`executions`).
/// Exit 0 when every step ran (denials included), 1 when the scenario is invalid.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The scenario file; `-` reads standard input.
    #[arg(value_name = "SCENARIO")]
    scenario: PathBuf,
    /// The idempotency store: `memory` (the default), `sqlite:PATH` or a PostgreSQL URL.
    #[arg(long, value_name = "STORE", default_value = "memory")]
    store: String,
}

pub fn run(args: &Args) -> Status {
    let store = if args.store == "memory" {
        ScenarioStore::Memory
    } else {
        match prp_store::open(&args.store) {
            Ok(s) => ScenarioStore::Durable(s),
            Err(e) => {
                eprintln!("prp dispatch: {e}");
                return Status::Error;
            }
        }
    };
    let bytes = match crate::input::read_document(&args.scenario) {
        Ok(b) => b,
        Err(issue) if issue.code == prp_types::Code::IoError => {
            eprintln!(
                "prp dispatch: {}: {}",
                crate::input::name(&args.scenario),
                issue.message
            );
            return Status::Error;
        }
        Err(issue) => {
            eprintln!(
                "prp dispatch: {}: {}",
                crate::input::name(&args.scenario),
                crate::report::issue_text(&issue)
            );
            return Status::Failed;
        }
    };
    match scenario::run(&bytes, store) {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            Status::Ok
        }
        Err(issue) => {
            eprintln!(
                "prp dispatch: {}: invalid scenario: {}",
                crate::input::name(&args.scenario),
                crate::report::issue_text(&issue)
            );
            Status::Failed
        }
    }
}
