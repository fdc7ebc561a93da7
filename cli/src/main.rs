//! `prp`: a thin command-line shell over prp-types.
//!
//! Exit codes everywhere: 0 success / all valid, 1 a check failed / something invalid or stale,
//! 2 usage or I/O error.

mod manifest;
mod validate;

use std::process::ExitCode;

fn usage() -> String {
    format!("usage:\n  {}\n  {}", validate::USAGE, manifest::USAGE)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("validate") => validate::run(&args[1..]),
        Some("manifest") => manifest::run(&args[1..]),
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
