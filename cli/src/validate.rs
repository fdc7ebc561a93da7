//! `prp validate`: check documents against the generated types.
//!
//! A replay fixture (`schema` = `paperclip.prp.fixture.v1`, or `--schema` naming the fixture schema)
//! gets the whole contract pipeline of PROTOCOL §1.7 — version checks, schema, binding checks — and
//! every issue it finds is reported; other documents get the typed decode and its one error.

use crate::Status;
use crate::input;
use crate::report;
use prp_types::validation::{self, JsonLines, Line, Selected};
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
    /// One document per line; one verdict per line (`PATH:LINE`), in order, holding one line at
    /// a time.
    #[arg(long)]
    jsonl: bool,
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
    for path in &args.paths {
        let result = if args.jsonl {
            validate_lines(path, args, &mut out)
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
        Ok(bytes) => validation::check(&bytes, args.schema),
        Err(issue) => vec![issue],
    };
    report::verdict(out, &input::name(path), &issues, args.json)?;
    Ok(status_of(&issues))
}

/// One document per line, one verdict per line, in order; memory is bounded by the longest line.
fn validate_lines(path: &Path, args: &Args, out: &mut impl Write) -> std::io::Result<Status> {
    let name = input::name(path);
    let mut lines = match input::open(path) {
        Ok(reader) => JsonLines::new(reader),
        Err(issue) => {
            report::verdict(out, &name, std::slice::from_ref(&issue), args.json)?;
            return Ok(Status::Error);
        }
    };
    let mut status = Status::Ok;
    loop {
        let issues = match lines.next_line() {
            Ok(None) => return Ok(status),
            Ok(Some((n, line))) => {
                let issues = match line {
                    Line::Text(text) => validation::check(text, args.schema),
                    Line::TooLong(len) => vec![validation::too_long(len)],
                };
                report::verdict(out, &format!("{name}:{n}"), &issues, args.json)?;
                issues
            }
            Err(e) => {
                // The stream broke: its verdict, and no more lines from it.
                let issue = input::io_issue(&e);
                report::verdict(out, &name, std::slice::from_ref(&issue), args.json)?;
                return Ok(status.max(Status::Error));
            }
        };
        status = status.max(status_of(&issues));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn project_file(rel: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(rel);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn json_report(source: &str, issues: &[Issue]) -> serde_json::Value {
        let mut out = Vec::new();
        report::verdict(&mut out, source, issues, true).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn a_fixture_gets_the_binding_checks() {
        let bytes = project_file("fixtures/rejected/binding/01-event-run-id.json");
        let findings = validation::check(&bytes, None);
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
        assert_eq!(validation::check(&bytes, Some(selected)), findings);
    }

    #[test]
    fn a_fixture_reports_every_version_issue() {
        let mut v: serde_json::Value = serde_json::from_slice(&project_file(
            "fixtures/rejected/binding/01-event-run-id.json",
        ))
        .unwrap();
        v["fixtureVersion"] = json!(2);
        v["protocolVersion"] = json!(3);
        let findings = validation::check(&serde_json::to_vec(&v).unwrap(), None);
        let paths: Vec<&str> = findings.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(paths, ["/fixtureVersion", "/protocolVersion"]);
        assert!(
            findings
                .iter()
                .all(|f| f.code == Code::UnsupportedRequiredVersion)
        );
        let mut text = Vec::new();
        report::verdict(&mut text, "f.json", &findings, false).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "f.json: invalid: unsupported_required_version at /fixtureVersion: fixtureVersion 2 is unsupported; this implementation requires 1; unsupported_required_version at /protocolVersion: protocolVersion 3 is unsupported; this implementation supports 1-2\n"
        );
    }

    #[test]
    fn other_documents_keep_the_typed_decode() {
        let bytes = project_file("fixtures/documents/event-plan-updated.json");
        assert_eq!(validation::check(&bytes, None), vec![]);
        // A string that merely mentions the fixture discriminator does not make a fixture.
        let findings = validation::check(
            br#"{"schema": "x", "note": "paperclip.prp.fixture.v1"}"#,
            None,
        );
        assert_eq!(findings[0].code, Code::UnknownSchema);
        assert_eq!(validation::check(b"{", None)[0].code, Code::InvalidJson);
        assert_eq!(
            json_report("x", &[])["valid"],
            serde_json::Value::Bool(true)
        );
    }
}
