//! `prp validate`: check documents against the generated types.
//!
//! A replay fixture (`schema` = `paperclip.prp.fixture.v1`, or `--schema` naming the fixture schema)
//! gets the whole contract pipeline of PROTOCOL §1.7 — version checks, schema, binding checks — and
//! every issue it finds is reported; other documents get the typed decode and its one error.

use prp_types::validation::{self, Finding, JsonLines, Line, Selected};
use serde_json::json;
use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

pub const USAGE: &str =
    "prp validate [--schema ID] [--jsonl] [--json] PATH...   (PATH `-` reads stdin)";

struct Options {
    schema: Option<Selected>,
    jsonl: bool,
    json: bool,
    paths: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        schema: None,
        jsonl: false,
        json: false,
        paths: vec![],
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--schema" => {
                let id = it.next().ok_or("--schema needs an ID")?;
                o.schema = Some(
                    validation::select_schema(id)
                        .ok_or_else(|| format!("unknown schema `{id}`"))?,
                );
            }
            "--jsonl" => o.jsonl = true,
            "--json" => o.json = true,
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            _ => o.paths.push(a.clone()),
        }
    }
    if o.paths.is_empty() {
        return Err("no PATH given".into());
    }
    Ok(o)
}

pub fn run(args: &[String]) -> ExitCode {
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("prp validate: {e}\nusage: {USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut all_valid = true;
    for path in &o.paths {
        let result = if o.jsonl {
            validate_lines(path, &o, &mut out)
        } else {
            validate_whole(path, &o, &mut out)
        };
        match result {
            Ok(valid) => all_valid &= valid,
            Err(e) => {
                eprintln!("prp validate: {path}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if all_valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn open(path: &str) -> std::io::Result<Box<dyn BufRead>> {
    if path == "-" {
        Ok(Box::new(std::io::BufReader::new(std::io::stdin())))
    } else {
        Ok(Box::new(std::io::BufReader::new(std::fs::File::open(
            path,
        )?)))
    }
}

fn validate_whole(path: &str, o: &Options, out: &mut impl Write) -> std::io::Result<bool> {
    let mut bytes = Vec::new();
    // Read one byte past the limit so that an oversized document is reported, not truncated.
    open(path)?
        .take(prp_types::decode::MAX_DOCUMENT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    let findings = validation::check(&bytes, o.schema);
    report(path, &findings, o.json, out)?;
    Ok(findings.is_empty())
}

/// One document per line, one verdict per line, in order; memory is bounded by the longest line.
fn validate_lines(path: &str, o: &Options, out: &mut impl Write) -> std::io::Result<bool> {
    let mut lines = JsonLines::new(open(path)?);
    let mut valid = true;
    while let Some((n, line)) = lines.next_line()? {
        let findings = match line {
            Line::Text(text) => validation::check(text, o.schema),
            Line::TooLong => vec![validation::too_long()],
        };
        valid &= findings.is_empty();
        report(&format!("{path}:{n}"), &findings, o.json, out)?;
    }
    Ok(valid)
}

/// One verdict per document: a line of text, or with `--json` one JSON object.
fn report(
    source: &str,
    findings: &[Finding],
    json: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    if json {
        let issues: Vec<serde_json::Value> = findings
            .iter()
            .map(|f| json!({"code": f.code, "path": f.path, "message": f.message}))
            .collect();
        writeln!(
            out,
            "{}",
            json!({"source": source, "valid": findings.is_empty(), "issues": issues})
        )
    } else if findings.is_empty() {
        writeln!(out, "{source}: valid")
    } else {
        let issues: Vec<String> = findings
            .iter()
            .map(|f| format!("{} at {}: {}", f.code, f.path, f.message))
            .collect();
        writeln!(out, "{source}: invalid: {}", issues.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project_file(rel: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(rel);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn json_report(source: &str, findings: &[Finding]) -> serde_json::Value {
        let mut out = Vec::new();
        report(source, findings, true, &mut out).unwrap();
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
        let paths: Vec<&str> = findings.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["/fixtureVersion", "/protocolVersion"]);
        assert!(
            findings
                .iter()
                .all(|f| f.code == "unsupported_required_version")
        );
        let mut text = Vec::new();
        report("f.json", &findings, false, &mut text).unwrap();
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
        assert_eq!(findings[0].code, "unknown_schema");
        assert_eq!(validation::check(b"{", None)[0].code, "invalid_json");
        assert_eq!(
            json_report("x", &[])["valid"],
            serde_json::Value::Bool(true)
        );
    }
}
