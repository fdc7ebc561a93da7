//! `prp`: a thin command-line shell over prp-types, prp-peer, prp-conformance, prp-store,
//! prp-runner and prp-compat.
//!
//! Exit codes everywhere: 0 success / all valid, 1 a check failed / something invalid or stale,
//! 2 usage or I/O error. With several inputs every one gets a verdict and the exit is the worst.

mod catalog;
mod compat;
mod digest;
mod dispatch;
mod goals;
mod input;
mod manifest;
mod negotiate;
mod replay;
mod report;
mod runner;
mod store;
mod validate;

use clap::{CommandFactory, Parser, Subcommand};
use prp_peer::contract::Contract;
use std::process::ExitCode;

/// Validate PRP documents, replay fixtures into session snapshots, and check the files generated
/// from them.
///
/// Every issue is reported with a stable code, a JSON pointer and a sentence; the codes are listed
/// under `prp validate --help`.
#[derive(Parser, Debug)]
#[command(name = "prp", version, propagate_version = true, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Validate(validate::Args),
    Replay(replay::ReplayArgs),
    Goldens(replay::GoldensArgs),
    Manifest(manifest::Args),
    Digest(digest::Args),
    Catalog(catalog::Args),
    Compat(compat::Args),
    Store(store::Args),
    Dispatch(dispatch::Args),
    Negotiate(negotiate::Args),
    Goals(goals::Args),
    LocalRunner(runner::LocalRunnerArgs),
    FakeHarness(runner::FakeHarnessArgs),
    /// Print a completion script for SHELL (bash, elvish, fish, powershell, zsh) on stdout.
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
}

/// `--protocol MIN..MAX`, for every command that runs the contract pipeline: one value that
/// configures the pipeline, so that a v1/v2 consumer is this tool with `--protocol 1..2`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Protocol {
    /// The protocol versions to accept, MIN..MAX; a fixture outside them fails closed with
    /// unsupported_required_version. At most the versions this build knows.
    #[arg(long = "protocol", value_name = "MIN..MAX", default_value_t = Contract::default())]
    pub contract: Contract,
}

/// How a command ended; the exit code is the worst of its inputs'.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Everything valid, written or fresh: exit 0.
    Ok,
    /// Something invalid, rejected or stale: exit 1.
    Failed,
    /// Usage or I/O error: exit 2.
    Error,
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        match s {
            Status::Ok => ExitCode::SUCCESS,
            Status::Failed => ExitCode::from(1),
            Status::Error => ExitCode::from(2),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Validate(args) => validate::run(&args),
        Command::Replay(args) => replay::run_replay(&args),
        Command::Goldens(args) => replay::run_goldens(&args),
        Command::Manifest(args) => manifest::run(&args),
        Command::Digest(args) => digest::run(&args),
        Command::Catalog(args) => catalog::run(&args),
        Command::Compat(args) => compat::run(&args),
        Command::Store(args) => store::run(&args),
        Command::Dispatch(args) => dispatch::run(&args),
        Command::Negotiate(args) => negotiate::run(&args),
        Command::Goals(args) => goals::run(&args),
        Command::LocalRunner(args) => runner::run_local_runner(args),
        Command::FakeHarness(args) => return runner::run_fake_harness(&args),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "prp", &mut std::io::stdout());
            Status::Ok
        }
    };
    status.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}
