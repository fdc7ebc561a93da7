//! `prp replay FIXTURE [--summary]` and `prp goldens [--check] DIR`: the replay reducer's golden
//! output (PROTOCOL §2.7), printed or checked. Both are thin shells over `prp_types::reducer`.
//!
//! Exit codes: 0 printed / written / fresh, 1 a rejected fixture or stale goldens, 2 usage or I/O.

use prp_types::decode::MAX_DOCUMENT_BYTES;
use prp_types::reducer::{self, goldens};
use std::io::{Read, Write};
use std::process::ExitCode;

pub const USAGE_REPLAY: &str = "prp replay FIXTURE [--summary]   (the golden snapshot, or parity summary; FIXTURE `-` reads stdin)";

pub const USAGE_GOLDENS: &str =
    "prp goldens [--check] DIR   (DIR holds replay/*.json; goldens go to replay/golden/)";

#[derive(Debug, PartialEq, Eq)]
struct ReplayOptions {
    summary: bool,
    fixture: String,
}

fn parse_replay(args: &[String]) -> Result<ReplayOptions, String> {
    let (summary, fixture) = crate::args::flag_and_operand(args, "--summary", "FIXTURE")?;
    Ok(ReplayOptions { summary, fixture })
}

/// Reads a file (or stdin for `-`), one byte past the decode limit so that an oversized fixture
/// is reported as such rather than truncated.
fn read_input(path: &str) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let limit = MAX_DOCUMENT_BYTES as u64 + 1;
    if path == "-" {
        std::io::stdin().take(limit).read_to_end(&mut bytes)?;
    } else {
        std::fs::File::open(path)?
            .take(limit)
            .read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

pub fn run_replay(args: &[String]) -> ExitCode {
    let o = match parse_replay(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("prp replay: {e}\nusage: {USAGE_REPLAY}");
            return ExitCode::from(2);
        }
    };
    let bytes = match read_input(&o.fixture) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("prp replay: {}: {e}", o.fixture);
            return ExitCode::from(2);
        }
    };
    let snapshot = match reducer::replay_fixture_bytes(&bytes) {
        Ok(snapshot) => snapshot,
        Err(e) => {
            eprintln!("prp replay: {}: rejected: {e}", o.fixture);
            return ExitCode::from(1);
        }
    };
    let text = if o.summary {
        snapshot.summary().to_pretty()
    } else {
        snapshot.to_pretty()
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("prp replay: cannot write the output: {e}");
            ExitCode::from(2)
        }
    }
}

type GoldensOptions = crate::args::CheckDir;

fn parse_goldens(args: &[String]) -> Result<GoldensOptions, String> {
    crate::args::check_dir(args, "DIR")
}

pub fn run_goldens(args: &[String]) -> ExitCode {
    let o = match parse_goldens(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("prp goldens: {e}\nusage: {USAGE_GOLDENS}");
            return ExitCode::from(2);
        }
    };
    let rendered = match goldens::render(&o.dir) {
        Ok(rendered) => rendered,
        Err(e) => {
            eprintln!("prp goldens: {}: {e}", o.dir.join("replay").display());
            return ExitCode::from(2);
        }
    };
    // Rejected fixtures are the expected rejections (for example an unsupported required
    // version): they have no goldens. Named so that an unexpected rejection is noticed.
    for r in &rendered.rejected {
        eprintln!("skipped {} (rejected: {})", r.fixture.display(), r.error);
    }
    if o.check {
        check(&o, &rendered)
    } else {
        write(&rendered)
    }
}

fn check(o: &GoldensOptions, rendered: &goldens::Goldens) -> ExitCode {
    let drift = match rendered.check() {
        Ok(drift) => drift,
        Err(e) => {
            eprintln!("prp goldens: {e}");
            return ExitCode::from(2);
        }
    };
    if drift.is_empty() {
        println!(
            "The {} golden files match their fixtures.",
            rendered.files.len()
        );
        return ExitCode::SUCCESS;
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
    ExitCode::from(1)
}

fn write(rendered: &goldens::Goldens) -> ExitCode {
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
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("prp goldens: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn replay_arguments() {
        assert_eq!(
            parse_replay(&args(&["--summary", "f.json"])),
            Ok(ReplayOptions {
                summary: true,
                fixture: "f.json".into()
            })
        );
        assert_eq!(parse_replay(&args(&["-"])).map(|o| o.summary), Ok(false));
        assert!(parse_replay(&args(&[])).is_err());
        assert!(parse_replay(&args(&["a", "b"])).is_err());
        assert!(parse_replay(&args(&["--pretty", "a"])).is_err());
    }

    #[test]
    fn goldens_arguments() {
        assert_eq!(
            parse_goldens(&args(&["fixtures", "--check"])),
            Ok(GoldensOptions {
                check: true,
                dir: "fixtures".into()
            })
        );
        assert!(parse_goldens(&args(&[])).is_err());
        assert!(parse_goldens(&args(&["a", "b"])).is_err());
        assert!(parse_goldens(&args(&["--write", "a"])).is_err());
    }
}
