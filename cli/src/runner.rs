//! `prp local-runner` and `prp fake-harness` (PROTOCOL §6): thin shells over
//! `prp_runner`.

use crate::Status;
use prp_runner::harness::{self, PlayOptions};
use prp_runner::{Clock, Config, Identity, Limits, RunError, Script};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// Run one PRP run with a supervised harness.
///
/// Reads `paperclip.prp.command.v1` JSON lines on stdin and writes `paperclip.runner.stream.v1`
/// lines on stdout: a receipt per command, the run's events, diagnostics. `run.prepare` starts
/// HARNESS_COMMAND in its own process group with only PATH in its environment; the runner maps what
/// it says into PRP events and, when it exits, reconciles how the run ended (`harness.exited`, then
/// `run.terminal`, then nothing). Closing stdin after `run.prepare` cancels the run; before it, the
/// exit is 1. The exit is 0 once `run.terminal` is written.
#[derive(clap::Args, Debug)]
pub struct LocalRunnerArgs {
    /// The run id stamped on every event (`runId`).
    #[arg(long, value_name = "ID")]
    run_id: String,
    /// The session id stamped on every event (`normalizedSessionId`).
    #[arg(long, value_name = "ID")]
    session_id: String,
    /// The runner id stamped on every event (`sourceInstanceId`).
    #[arg(long, value_name = "ID")]
    runner_id: String,
    /// Log lines kept for `harness.exited`.
    #[arg(long, value_name = "N", default_value_t = 32)]
    log_max_lines: usize,
    /// Log bytes kept for `harness.exited`.
    #[arg(long, value_name = "N", default_value_t = 16_384)]
    log_max_bytes: usize,
    /// The longest harness line; a longer stdout line is a protocol violation.
    #[arg(long, value_name = "N", default_value_t = 65_536,
          value_parser = clap::value_parser!(u64).range(64..=16 * 1024 * 1024))]
    harness_max_line_bytes: u64,
    /// Milliseconds between SIGTERM and SIGKILL to the harness's process group.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    shutdown_grace_ms: u64,
    /// The longest controller line; a longer one is refused with a diagnostic.
    #[arg(long, value_name = "N", default_value_t = 65_536,
          value_parser = clap::value_parser!(u64).range(64..=16 * 1024 * 1024))]
    controller_max_line_bytes: u64,
    /// Commands remembered to recognise a repeated one.
    #[arg(long, value_name = "N", default_value_t = 4096)]
    command_history_limit: usize,
    /// Milliseconds `run.prepare` waits for the harness's `ready`.
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    ready_timeout_ms: u64,
    /// Stamp `emittedAt` from the sequence number instead of the clock, so that a scripted run
    /// gives the same bytes every time.
    #[arg(long)]
    deterministic_time: bool,
    /// The harness command and its arguments.
    #[arg(last = true, required = true, value_name = "HARNESS_COMMAND")]
    harness: Vec<OsString>,
}

/// Play a fake-harness script over stdio.
///
/// Sends `ready`, waits for `session.open` and `turn.start` (10 s each), then plays the
/// `paperclip.fake_harness.script.v1` steps: events, logs, requests, results and terminal
/// proposals as `paperclip.fake_harness.message.v1` lines on stdout, waiting for the runner's
/// commands where a step says so. A script that is not valid is refused before anything is sent
/// (exit 2); a wait that times out exits 1; an `exit` step exits with its code.
#[derive(clap::Args, Debug)]
pub struct FakeHarnessArgs {
    /// Sleep this long at every `delay` step instead of the script's time.
    #[arg(long, value_name = "MS")]
    delay_ms: Option<u64>,
    /// The script.
    #[arg(value_name = "SCRIPT")]
    script: PathBuf,
}

pub fn run_local_runner(args: LocalRunnerArgs) -> Status {
    let config = Config {
        identity: Identity {
            run_id: args.run_id,
            session_id: args.session_id,
            runner_id: args.runner_id,
        },
        harness: args.harness,
        limits: Limits {
            log_max_lines: args.log_max_lines,
            log_max_bytes: args.log_max_bytes,
            harness_max_line_bytes: args.harness_max_line_bytes as usize,
            shutdown_grace: Duration::from_millis(args.shutdown_grace_ms),
            controller_max_line_bytes: args.controller_max_line_bytes as usize,
            command_history_limit: args.command_history_limit,
            ready_timeout: Duration::from_millis(args.ready_timeout_ms),
        },
        clock: if args.deterministic_time {
            Clock::Deterministic
        } else {
            Clock::System
        },
    };
    match prp_runner::run(&config, std::io::stdin(), std::io::stdout().lock()) {
        Ok(_) => Status::Ok,
        Err(RunError::ClosedBeforePrepare) => {
            eprintln!("prp local-runner: the controller closed stdin before run.prepare");
            Status::Failed
        }
        Err(e) => {
            eprintln!("prp local-runner: {e}");
            Status::Error
        }
    }
}

pub fn run_fake_harness(args: &FakeHarnessArgs) -> std::process::ExitCode {
    let bytes = match std::fs::read(&args.script) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("prp fake-harness: {}: {e}", args.script.display());
            return std::process::ExitCode::from(2);
        }
    };
    let script = match Script::decode(&bytes) {
        Ok(s) => s,
        Err(issue) => {
            eprintln!(
                "prp fake-harness: {}: {}",
                args.script.display(),
                crate::report::issue_text(&issue)
            );
            return std::process::ExitCode::from(2);
        }
    };
    let input = harness::spawn_line_reader(std::io::BufReader::new(std::io::stdin()));
    let options = PlayOptions {
        delay_ms: args.delay_ms,
    };
    match harness::play(&script, &input, std::io::stdout().lock(), &options) {
        // The status as given (130, 7, ...); stdout was flushed when `play` returned.
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("prp fake-harness: {e}");
            std::process::ExitCode::from(1)
        }
    }
}
