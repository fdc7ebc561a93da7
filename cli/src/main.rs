//! `prp`: a thin command-line shell over prp-types.
//!
//! Exit codes everywhere: 0 success / all valid, 1 a check failed / something invalid or stale,
//! 2 usage or I/O error.

mod args;
mod manifest;
mod replay;
mod validate;

use std::process::ExitCode;

fn usage() -> String {
    [
        validate::USAGE,
        replay::USAGE_REPLAY,
        replay::USAGE_GOLDENS,
        manifest::USAGE,
    ]
    .iter()
    .fold("usage:".to_owned(), |acc, u| format!("{acc}\n  {u}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("validate") => validate::run(&args[1..]),
        Some("manifest") => manifest::run(&args[1..]),
        Some("replay") => replay::run_replay(&args[1..]),
        Some("goldens") => replay::run_goldens(&args[1..]),
        Some("-h" | "--help") => {
            println!("{}", usage());
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{}", usage());
            ExitCode::from(2)
        }
    }
}
