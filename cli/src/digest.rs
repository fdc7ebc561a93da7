//! `prp digest [--canonical] [--jsonl] PATH...`: digests of redacted values (PROTOCOL §4.11).

use crate::Status;
use crate::input;
use prp_peer::json;
use prp_peer::validation::{JsonLines, Line};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Print the digest of each JSON document: `sha256:` and the hex SHA-256 of the canonical JSON of
/// its redacted value, exactly as the TypeScript control plane computes it.
///
/// One line per document (per line with `--jsonl`). A document that is not JSON gets
/// `error: <code>: <message>` in its place and the others go on; the exit is then 1. An input that
/// cannot be read exits 2.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print the canonical JSON of the redacted value instead of its digest.
    #[arg(long)]
    canonical: bool,
    /// One document per line.
    #[arg(long)]
    jsonl: bool,
    /// The documents; `-` reads standard input.
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
}

pub fn run(args: &Args) -> Status {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut status = Status::Ok;
    for path in &args.paths {
        let result = if args.jsonl {
            lines(path, args, &mut out)
        } else {
            whole(path, args, &mut out)
        };
        match result {
            Ok(s) => status = status.max(s),
            Err(e) => {
                eprintln!("prp digest: cannot write the output: {e}");
                return Status::Error;
            }
        }
    }
    status
}

/// Writes the line for one document; the status it gives.
fn one(bytes: &[u8], args: &Args, out: &mut impl Write) -> std::io::Result<Status> {
    match json::parse(bytes) {
        Ok(value) => {
            let line = if args.canonical {
                json::canonical(&prp_peer::digest::redact(&value))
            } else {
                prp_peer::digest::digest(&value)
            };
            writeln!(out, "{line}")?;
            Ok(Status::Ok)
        }
        Err(issue) => {
            writeln!(out, "error: {}: {}", issue.code, issue.message)?;
            Ok(Status::Failed)
        }
    }
}

fn whole(path: &Path, args: &Args, out: &mut impl Write) -> std::io::Result<Status> {
    match input::read_document(path) {
        Ok(bytes) => one(&bytes, args, out),
        Err(issue) if issue.code == prp_types::Code::IoError => {
            eprintln!("prp digest: {}: {}", input::name(path), issue.message);
            Ok(Status::Error)
        }
        Err(issue) => {
            writeln!(out, "error: {}: {}", issue.code, issue.message)?;
            Ok(Status::Failed)
        }
    }
}

fn lines(path: &Path, args: &Args, out: &mut impl Write) -> std::io::Result<Status> {
    let mut lines = match input::open(path) {
        Ok(reader) => JsonLines::new(reader),
        Err(issue) => {
            eprintln!("prp digest: {}: {}", input::name(path), issue.message);
            return Ok(Status::Error);
        }
    };
    let mut status = Status::Ok;
    loop {
        match lines.next_line() {
            Ok(None) => return Ok(status),
            Ok(Some((_, Line::Text(text)))) => status = status.max(one(text, args, out)?),
            Ok(Some((_, Line::TooLong(len)))) => {
                let issue = prp_types::decode::too_large(len);
                writeln!(out, "error: {}: {}", issue.code, issue.message)?;
                status = status.max(Status::Failed);
            }
            Err(e) => {
                eprintln!("prp digest: {}: {e}", input::name(path));
                return Ok(Status::Error);
            }
        }
    }
}
