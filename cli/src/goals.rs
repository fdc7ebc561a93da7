//! `prp goals FIXTURE`: the session-goal projection of a replay fixture (PROTOCOL §5.3), a thin
//! shell over `prp_peer::goals::GoalProjection`.
//!
//! Exit codes: 0 printed, 1 a rejected fixture, 2 usage or I/O.

use crate::Status;
use crate::input;
use crate::report;
use prp_peer::goals::GoalProjection;
use std::io::Write;
use std::path::PathBuf;

/// Print the session-goal projection of a replay fixture.
///
/// The fixture goes through the contract pipeline first, as for `prp replay`. Its events are then
/// folded at the fixture's `protocolVersion`, starting from its capability snapshot, into the
/// current goal capability and goal, printed as two-space JSON: `negotiatedVersion`,
/// `goalsAvailable`, `capability`, `goal` (objective, status, workingNow, budget and usage,
/// timestamps), `awaitingSnapshot` (a session open or resume whose authoritative snapshot has not
/// come), `lastGoalEvent`, and `events` (applied, already processed, out of order).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The replay fixture; `-` reads standard input.
    #[arg(value_name = "FIXTURE")]
    fixture: PathBuf,
    #[command(flatten)]
    protocol: crate::Protocol,
}

/// The contract pipeline for the `--protocol` range, then the projection of the accepted fixture.
fn project(args: &Args, bytes: &[u8]) -> Result<GoalProjection, Vec<prp_types::Issue>> {
    let fixture = args
        .protocol
        .contract
        .validate_fixture_bytes(bytes)
        .into_result()?;
    GoalProjection::of_fixture(&fixture.typed).map_err(|e| vec![e])
}

pub fn run(args: &Args) -> Status {
    let name = input::name(&args.fixture);
    let bytes = match input::read_document(&args.fixture) {
        Ok(bytes) => bytes,
        Err(issue) => {
            eprintln!("prp goals: {name}: {}", report::issue_text(&issue));
            return if issue.code == prp_types::Code::IoError {
                Status::Error
            } else {
                Status::Failed
            };
        }
    };
    let projection = match project(args, &bytes) {
        Ok(p) => p,
        Err(issues) => {
            for issue in &issues {
                eprintln!("prp goals: {name}: rejected: {}", report::issue_text(issue));
            }
            return Status::Failed;
        }
    };
    let text = prp_peer::json::pretty(&projection.to_json());
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Status::Ok,
        Err(e) => {
            eprintln!("prp goals: cannot write the output: {e}");
            Status::Error
        }
    }
}
