//! `prp manifest [--check] PROTOCOL_DIR`: regenerate or check the conformance manifest (PROTOCOL §7).
//!
//! Exit codes: 0 written or fresh, 1 stale or a check failed, 2 usage or I/O error.

use prp_types::manifest::{self, Check, Error};
use std::path::PathBuf;
use std::process::ExitCode;

pub const USAGE: &str =
    "prp manifest [--check] PROTOCOL_DIR   (PROTOCOL_DIR holds schemas/ and fixtures/)";

#[derive(Debug, PartialEq, Eq)]
struct Options {
    check: bool,
    dir: PathBuf,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut check = false;
    let mut dir = None;
    for a in args {
        match a.as_str() {
            "--check" => check = true,
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            _ if dir.is_some() => return Err("more than one PROTOCOL_DIR given".into()),
            _ => dir = Some(PathBuf::from(a)),
        }
    }
    let dir = dir.ok_or("no PROTOCOL_DIR given")?;
    Ok(Options { check, dir })
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
