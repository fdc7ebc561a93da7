//! `prp validate`: check documents against the generated types.
//!
//! A replay fixture (`schema` = `paperclip.prp.fixture.v1`, or `--schema` naming the fixture schema)
//! gets the whole contract pipeline of PROTOCOL §1.7 — version checks, schema, binding checks — for
//! the `--protocol` range, and every issue it finds is reported; other documents get the typed
//! decode and its one error.

use crate::Status;
use crate::input;
use crate::report;
use prp_peer::validation::{self, Block, JsonBlocks, Selected};
use prp_types::{Code, Issue};
use std::io::Write;
use std::path::{Path, PathBuf};

const CODES: &str = "\
Issue codes (stable; `--json` carries them in `code`):
  io_error                      the input cannot be read
  invalid_json                  not JSON, or not UTF-8
  too_large                     larger than 16 MiB (the real size is named)
  too_deep                      arrays and objects nested deeper than 128 levels
  duplicate_key                 a member name repeated in one object
  unknown_schema                no PRP schema has the document's `schema` member
  unsupported_required_version  a version this implementation does not support
  schema_validation             the schema rejects the document (`keyword` names the rule)
  binding_mismatch              a fixture's parts disagree (events against identity, ...)

Exit: 0 every document valid, 1 one is invalid, 2 usage error or an input cannot be read.";

/// Check PRP documents against their schemas.
///
/// Without `--schema`, a document's own `schema` member picks its type. A replay fixture gets the
/// whole contract pipeline (version checks, then the schema, then the binding checks) and every
/// issue is reported; any other document gets the first error of its typed decode. Every PATH gets
/// a verdict, even after one that cannot be read.
#[derive(clap::Args, Debug)]
#[command(after_long_help = CODES)]
pub struct Args {
    /// Check against this schema: a `$id` (optionally with `#/$defs/NAME`) or a file name in
    /// schemas/ (`event.schema.json`, `acpx-sidecar.schema.json#/$defs/request`).
    #[arg(long, value_name = "ID", value_parser = parse_schema)]
    schema: Option<Selected>,
    #[command(flatten)]
    protocol: crate::Protocol,
    /// One document per line; one verdict per line (`PATH:LINE`), in order, holding a few blocks
    /// of lines at a time (never the whole input).
    #[arg(long)]
    jsonl: bool,
    /// With `--jsonl`: threads that check lines (default: one per core). Verdicts stay in input
    /// order; at most four blocks of lines per thread are held at once.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Print each verdict as a JSON object: `{"source", "valid", "issues": [{"code", "path",
    /// "message"}]}` (`path` is a JSON pointer, `/` for the root).
    #[arg(long)]
    json: bool,
    /// The documents; `-` reads standard input.
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
}

fn parse_schema(id: &str) -> Result<Selected, String> {
    validation::select_schema(id).ok_or_else(|| format!("unknown schema `{id}`"))
}

pub fn run(args: &Args) -> Status {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut status = Status::Ok;
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    );
    for path in &args.paths {
        let result = if args.jsonl {
            validate_lines(path, args, jobs, &mut out)
        } else {
            validate_whole(path, args, &mut out)
        };
        match result {
            Ok(s) => status = status.max(s),
            Err(e) => {
                eprintln!("prp validate: cannot write the report: {e}");
                return Status::Error;
            }
        }
    }
    status
}

/// The status one verdict gives: an unreadable input is an error, any other issue a failure.
fn status_of(issues: &[Issue]) -> Status {
    if issues.iter().any(|i| i.code == Code::IoError) {
        Status::Error
    } else if issues.is_empty() {
        Status::Ok
    } else {
        Status::Failed
    }
}

fn validate_whole(path: &Path, args: &Args, out: &mut impl Write) -> std::io::Result<Status> {
    let issues = match input::read_document(path) {
        Ok(bytes) => validation::check(&bytes, args.schema, args.protocol.contract),
        Err(issue) => vec![issue],
    };
    report::verdict(out, &input::name(path), &issues, args.json)?;
    Ok(status_of(&issues))
}

/// A block of whole lines is at least this many bytes (or the stream's rest).
const BLOCK_BYTES: usize = 256 * 1024;

/// What one read from a JSONL stream gave; its bytes are in the buffer read into.
enum Kind {
    /// The buffer holds whole lines, the first numbered so.
    Lines(usize),
    /// Line `.0` is too long to keep: `.1` bytes.
    Long(usize, u64),
    /// The stream broke after the lines before it; nothing follows.
    Broken(Issue),
}

/// The next block of `blocks`, read into `text`; `None` at the end.
fn next_block<R: std::io::Read>(blocks: &mut JsonBlocks<R>, text: &mut Vec<u8>) -> Option<Kind> {
    match blocks.next_block(text, BLOCK_BYTES) {
        Ok(None) => None,
        Ok(Some(Block::Lines { first })) => Some(Kind::Lines(first)),
        Ok(Some(Block::TooLong { number, len })) => Some(Kind::Long(number, len)),
        Err(e) => Some(Kind::Broken(input::io_issue(&e))),
    }
}

/// Checks one block, appending its verdicts (`NAME:LINE`) to `report`; the worst status.
fn check_block(kind: &Kind, text: &[u8], name: &str, args: &Args, report: &mut Vec<u8>) -> Status {
    let mut status = Status::Ok;
    // Writing to a Vec cannot fail.
    match kind {
        Kind::Lines(first) => {
            for (n, line) in validation::block_lines(text, *first) {
                let issues = validation::check(line, args.schema, args.protocol.contract);
                if issues.is_empty() && !args.json {
                    // The common case, written in place: no source string is built.
                    let _ = writeln!(report, "{name}:{n}: valid");
                } else {
                    status = status.max(status_of(&issues));
                    let _ = report::verdict(report, &format!("{name}:{n}"), &issues, args.json);
                }
            }
        }
        Kind::Long(n, len) => {
            let issues = [validation::too_long(*len)];
            status = status_of(&issues);
            let _ = report::verdict(report, &format!("{name}:{n}"), &issues, args.json);
        }
        Kind::Broken(issue) => {
            status = Status::Error;
            let _ = report::verdict(report, name, std::slice::from_ref(issue), args.json);
        }
    }
    status
}

/// One document per line, one verdict per line, in input order, on `jobs` threads; memory is
/// bounded by a few blocks of lines per thread (and the longest line kept).
fn validate_lines(
    path: &Path,
    args: &Args,
    jobs: usize,
    out: &mut impl Write,
) -> std::io::Result<Status> {
    let name = input::name(path);
    let reader = match input::open_unbuffered(path) {
        Ok(reader) => reader,
        Err(issue) => {
            report::verdict(out, &name, std::slice::from_ref(&issue), args.json)?;
            return Ok(Status::Error);
        }
    };
    if jobs > 1 {
        return parallel::validate_lines(reader, &name, args, jobs, out);
    }
    let mut blocks = JsonBlocks::new(reader);
    let (mut text, mut report) = (Vec::new(), Vec::new());
    let mut status = Status::Ok;
    while let Some(kind) = next_block(&mut blocks, &mut text) {
        report.clear();
        status = status.max(check_block(&kind, &text, &name, args, &mut report));
        out.write_all(&report)?;
        if matches!(kind, Kind::Broken(_)) {
            break;
        }
    }
    Ok(status)
}

/// `--jsonl` on several threads: a reader cuts the stream into blocks of whole lines, workers check
/// them and format their verdicts, and the writer (this thread) prints the blocks in input order.
/// A block is read only into the buffer of one already written (a fixed set of buffers
/// circulates), so memory stays bounded however slow one block is.
mod parallel {
    use super::*;
    use std::collections::BTreeMap;
    use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
    use std::sync::{Arc, Mutex};

    /// A block read, in the buffer that carries it.
    struct Batch {
        text: Vec<u8>,
        kind: Kind,
    }

    /// A checked block: its verdicts, the worst status, and its buffer to reuse.
    struct Done {
        report: Vec<u8>,
        status: Status,
        spare: Vec<u8>,
    }

    pub fn validate_lines(
        reader: Box<dyn std::io::Read + Send>,
        name: &str,
        args: &Args,
        jobs: usize,
        out: &mut impl Write,
    ) -> std::io::Result<Status> {
        let in_flight = jobs * 4;
        std::thread::scope(|scope| {
            // The buffers circulate: reader -> worker -> writer -> reader. Only `in_flight`
            // exist, which bounds memory.
            let (spare_tx, spare_rx) = sync_channel::<Vec<u8>>(in_flight);
            for _ in 0..in_flight {
                let _ = spare_tx.send(Vec::with_capacity(BLOCK_BYTES * 2));
            }
            let (work_tx, work_rx) = sync_channel::<(usize, Batch)>(in_flight);
            let (done_tx, done_rx) = sync_channel::<(usize, Done)>(in_flight);
            scope.spawn(move || read_blocks(reader, &spare_rx, &work_tx));
            // Shared, not borrowed: the receiver must go when the last worker does, so that a
            // reader blocked on a full queue is told to stop.
            let work_rx = Arc::new(Mutex::new(work_rx));
            for _ in 0..jobs {
                let (work_rx, done_tx) = (Arc::clone(&work_rx), done_tx.clone());
                scope.spawn(move || check_blocks(&work_rx, &done_tx, name, args));
            }
            drop(done_tx);
            // Print blocks in order; each one printed returns its buffer to the reader. Leaving
            // early (the output failed) drops the channels, which stops the reader and workers.
            let mut status = Status::Ok;
            let mut next = 0;
            let mut waiting = BTreeMap::new();
            for (seq, done) in done_rx {
                waiting.insert(seq, done);
                while let Some(done) = waiting.remove(&next) {
                    out.write_all(&done.report)?;
                    status = status.max(done.status);
                    next += 1;
                    let _ = spare_tx.send(done.spare);
                }
            }
            Ok(status)
        })
    }

    fn read_blocks(
        reader: Box<dyn std::io::Read + Send>,
        spare: &Receiver<Vec<u8>>,
        work: &SyncSender<(usize, Batch)>,
    ) {
        let mut blocks = JsonBlocks::new(reader);
        for seq in 0.. {
            let Ok(mut text) = spare.recv() else { return };
            let Some(kind) = next_block(&mut blocks, &mut text) else {
                return;
            };
            let last = matches!(kind, Kind::Broken(_));
            if work.send((seq, Batch { text, kind })).is_err() || last {
                return;
            }
        }
    }

    fn check_blocks(
        work: &Mutex<Receiver<(usize, Batch)>>,
        done: &SyncSender<(usize, Done)>,
        name: &str,
        args: &Args,
    ) {
        loop {
            let next = match work.lock() {
                Ok(rx) => rx.recv(),
                Err(_) => return,
            };
            let Ok((seq, batch)) = next else { return };
            let mut report = Vec::new();
            let status = check_block(&batch.kind, &batch.text, name, args, &mut report);
            let done_block = Done {
                report,
                status,
                spare: batch.text,
            };
            if done.send((seq, done_block)).is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prp_peer::contract::Contract;
    use serde_json::json;

    /// A file of the workspace, or `None` after a visible skip when it is not there (the crate
    /// tested from its package, which holds no fixtures); under `CI=true` it must be there.
    fn project_file(rel: &str) -> Option<Vec<u8>> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(rel);
        if !path.is_file() {
            let in_ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true"));
            assert!(
                !in_ci,
                "{} not found (required when CI=true)",
                path.display()
            );
            eprintln!("skipped: {rel} not found (a package holds no workspace fixtures)");
            return None;
        }
        Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
    }

    fn json_report(source: &str, issues: &[Issue]) -> serde_json::Value {
        let mut out = Vec::new();
        report::verdict(&mut out, source, issues, true).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn a_fixture_gets_the_binding_checks() {
        let Some(bytes) = project_file("fixtures/rejected/binding/01-event-run-id.json") else {
            return;
        };
        let findings = validation::check(&bytes, None, Contract::default());
        assert_eq!(
            json_report("case.json", &findings),
            json!({"source": "case.json", "valid": false, "issues": [{
                "code": "binding_mismatch",
                "path": "/events/3/runId",
                "message": "event runId must match identity.runId",
            }]})
        );
        // Naming the fixture schema explicitly selects the same pipeline.
        let selected = validation::select_schema("fixture.schema.json").unwrap();
        assert_eq!(
            validation::check(&bytes, Some(selected), Contract::default()),
            findings
        );
    }

    /// The version issues of a binding case with `fixtureVersion` 2 and `protocolVersion` set to
    /// `protocol`, under the range `range`, as `prp validate` prints them.
    fn version_findings(protocol: u32, range: &str) -> Option<(Vec<Issue>, String)> {
        let bytes = project_file("fixtures/rejected/binding/01-event-run-id.json")?;
        let mut v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        v["fixtureVersion"] = json!(2);
        v["protocolVersion"] = json!(protocol);
        let contract = range.parse().unwrap();
        let findings = validation::check(&serde_json::to_vec(&v).unwrap(), None, contract);
        let mut text = Vec::new();
        report::verdict(&mut text, "f.json", &findings, false).unwrap();
        Some((findings, String::from_utf8(text).unwrap()))
    }

    #[test]
    fn a_fixture_reports_every_version_issue() {
        let Some((findings, text)) = version_findings(3, "1..2") else {
            return;
        };
        let paths: Vec<&str> = findings.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(paths, ["/fixtureVersion", "/protocolVersion"]);
        assert!(
            findings
                .iter()
                .all(|f| f.code == Code::UnsupportedRequiredVersion)
        );
        assert_eq!(
            text,
            "f.json: invalid: unsupported_required_version at /fixtureVersion: fixtureVersion 2 is unsupported; this implementation requires 1; unsupported_required_version at /protocolVersion: protocolVersion 3 is unsupported; this implementation supports 1-2\n"
        );
    }

    /// The same under the default range 1..3: version 3 is accepted, 4 is the one beyond it.
    #[test]
    fn a_fixture_reports_every_version_issue_under_1_3() {
        let Some((findings, _)) = version_findings(3, "1..3") else {
            return;
        };
        let paths: Vec<&str> = findings.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(paths, ["/fixtureVersion"]);
        let Some((_, text)) = version_findings(4, "1..3") else {
            return;
        };
        assert_eq!(
            text,
            "f.json: invalid: unsupported_required_version at /fixtureVersion: fixtureVersion 2 is unsupported; this implementation requires 1; unsupported_required_version at /protocolVersion: protocolVersion 4 is unsupported; this implementation supports 1-3\n"
        );
    }

    #[test]
    fn other_documents_keep_the_typed_decode() {
        let Some(bytes) = project_file("fixtures/documents/event-plan-updated.json") else {
            return;
        };
        let check = |bytes: &[u8]| validation::check(bytes, None, Contract::default());
        assert_eq!(check(&bytes), vec![]);
        // A string that merely mentions the fixture discriminator does not make a fixture.
        let findings = check(br#"{"schema": "x", "note": "paperclip.prp.fixture.v1"}"#);
        assert_eq!(findings[0].code, Code::UnknownSchema);
        assert_eq!(check(b"{")[0].code, Code::InvalidJson);
        assert_eq!(
            json_report("x", &[])["valid"],
            serde_json::Value::Bool(true)
        );
    }
}
