//! `prp manifest [--check] PROTOCOL_DIR`: regenerate or check the conformance manifest (PROTOCOL §7).
//!
//! Exit codes: 0 written or fresh, 1 stale or a check failed, 2 usage or I/O error.

use prp_types::manifest::{self, Check, Error};
use std::process::ExitCode;

pub const USAGE: &str =
    "prp manifest [--check] PROTOCOL_DIR   (PROTOCOL_DIR holds schemas/ and fixtures/)";

type Options = crate::args::CheckDir;

fn parse(args: &[String]) -> Result<Options, String> {
    crate::args::check_dir(args, "PROTOCOL_DIR")
}

pub fn run(args: &[String]) -> ExitCode {
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("prp manifest: {e}\nusage: {USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = if o.check {
        manifest::check(&o.dir).map(Some)
    } else {
        manifest::write(&o.dir).map(|_| None)
    };
    match result {
        Ok(None) => {
            println!("wrote {}", manifest::manifest_path(&o.dir).display());
            ExitCode::SUCCESS
        }
        Ok(Some(Check::Fresh)) => {
            println!("The generated PRP contract manifest matches its sources.");
            ExitCode::SUCCESS
        }
        Ok(Some(Check::Stale(parts))) => {
            eprintln!(
                "The generated PRP contract manifest is stale. Run `prp manifest {}`.",
                o.dir.display()
            );
            for part in parts {
                eprintln!("  {part}");
            }
            ExitCode::from(1)
        }
        Err(e @ Error::Invalid(_)) => {
            eprintln!("prp manifest: {e}");
            ExitCode::from(1)
        }
        Err(e @ Error::Io { .. }) => {
            eprintln!("prp manifest: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn arguments() {
        assert_eq!(
            parse(&args(&["--check", "protocol"])),
            Ok(Options {
                check: true,
                dir: "protocol".into()
            })
        );
        assert!(parse(&args(&[])).is_err());
        assert!(parse(&args(&["a", "b"])).is_err());
        assert!(parse(&args(&["--force", "a"])).is_err());
    }

    #[test]
    fn a_missing_directory_is_an_io_error() {
        let code = run(&args(&["--check", "/nonexistent/prp-protocol"]));
        assert_eq!(code, ExitCode::from(2));
    }
}
