//! §7.2–§7.4.5: the fixture entries — expectation, compatibility case — and the checks each kind of
//! fixture gets before the manifest may be written.

use super::{Error, Source, io_error, problem, read_source};
use crate::contract;
use crate::decode::decode;
use crate::issue::{Code, Issue};
use crate::json;
use crate::types::{ConformanceFixture, ConformanceOutput, Fixture};
use serde_json::{Value, json};
use std::path::Path;

const REPLAY: &str = "fixtures/replay/";
const GOLDEN: &str = "fixtures/replay/golden/";
const QUESTIONS: &str = "fixtures/questions/";
/// The project's protocolVersion 2 replay fixtures, beside their expected goal projections.
const GOALS: &str = "fixtures/goals/";
const GOAL_PROJECTION: &str = ".projection.json";
const REJECTED_BINDING: &str = "fixtures/rejected/binding/";
const REJECTED: &str = "fixtures/rejected/";
const CONFORMANCE_INPUT: &str = "fixtures/conformance-minimal-run.json";
const CONFORMANCE_OUTPUT: &str = "fixtures/conformance-expected-output.json";
const CONFORMANCE_INPUT_V1: &str = "paperclip.runner.conformance.fixture.v1";
const CONFORMANCE_OUTPUT_V1: &str = "paperclip.runner.conformance.output.v1";
/// The replay fixtures the reference expects to fail closed on an unknown required version.
const UNKNOWN_VERSION: &[&str] = &[
    "fixtures/replay/unsupported-required-version.json",
    "fixtures/replay/semantic-tool-unsupported-required-version.json",
];

/// How a fixture is checked, decided by where it lives (§7.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Golden,
    ReplayAccept,
    ReplayReject,
    GoalReplay,
    RejectedBinding,
    RejectedUnknown,
    Question,
    ConformanceInput,
    ConformanceOutput,
    Other,
}

fn kind(rel: &str) -> Kind {
    if rel.starts_with(GOLDEN) {
        Kind::Golden
    } else if UNKNOWN_VERSION.contains(&rel) {
        Kind::ReplayReject
    } else if rel.starts_with(REPLAY) {
        Kind::ReplayAccept
    } else if rel.starts_with(GOALS) && !rel.ends_with(GOAL_PROJECTION) {
        Kind::GoalReplay
    } else if rel.starts_with(REJECTED_BINDING) {
        Kind::RejectedBinding
    } else if rel.starts_with(REJECTED) {
        Kind::RejectedUnknown
    } else if rel.starts_with(QUESTIONS) {
        Kind::Question
    } else if rel == CONFORMANCE_INPUT {
        Kind::ConformanceInput
    } else if rel == CONFORMANCE_OUTPUT {
        Kind::ConformanceOutput
    } else {
        Kind::Other
    }
}

/// The `expectation` and `compatibilityCase` of a fixture.
fn expectation(rel: &str, kind: Kind, value: Option<&Value>) -> (&'static str, String) {
    match kind {
        Kind::Golden => ("accept", "deterministic-replay-oracle".into()),
        Kind::ReplayReject => ("reject", "unknown-required-version".into()),
        Kind::ReplayAccept if rel.ends_with("unknown-optional-fields.json") => {
            ("accept", "additive-optional-fields".into())
        }
        Kind::GoalReplay => ("accept", "session-goals-v2".into()),
        Kind::RejectedBinding => ("reject", "binding-mismatch".into()),
        Kind::RejectedUnknown => ("reject", "unknown".into()),
        Kind::Question => {
            let adapter = value
                .and_then(|v| v.get("adapter"))
                .and_then(Value::as_str)
                .unwrap_or("unknown");
            ("accept", format!("{adapter}-structured-input"))
        }
        Kind::ConformanceInput => ("accept", "cross-language-input".into()),
        Kind::ConformanceOutput => ("accept", "cross-language-output".into()),
        Kind::ReplayAccept | Kind::Other => ("accept", "canonical".into()),
    }
}

/// Every `*.json` file below `dir/fixtures`, as relative paths in manifest order.
fn fixture_paths(dir: &Path) -> Result<Vec<String>, Error> {
    fn collect(dir: &Path, abs: &Path, rel: &str, out: &mut Vec<String>) -> Result<(), Error> {
        for entry in std::fs::read_dir(abs).map_err(|e| io_error(abs, e))? {
            let entry = entry.map_err(|e| io_error(abs, e))?;
            let path = entry.path();
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                return Err(io_error(
                    &path,
                    std::io::Error::new(std::io::ErrorKind::InvalidData, "file name is not UTF-8"),
                ));
            };
            let child = format!("{rel}/{name}");
            if path.is_dir() {
                collect(dir, &path, &child, out)?;
            } else if name.ends_with(".json") && path != super::manifest_path(dir) {
                out.push(child);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    collect(dir, &dir.join("fixtures"), "fixtures", &mut out)?;
    super::sort_paths(&mut out);
    Ok(out)
}

/// Checks every fixture and returns the manifest's `fixtures` entries.
pub(super) fn entries(dir: &Path, problems: &mut Vec<Issue>) -> Result<Vec<Value>, Error> {
    let mut out = Vec::new();
    let mut pair: (Option<ConformanceFixture>, Option<ConformanceOutput>) = (None, None);
    for rel in fixture_paths(dir)? {
        let source = read_source(dir, rel)?;
        let kind = kind(&source.rel);
        // The decoder's limits hold here too, so that a file gets the code `prp validate` gives it.
        let parsed = if source.text.len() > crate::decode::MAX_DOCUMENT_BYTES {
            Err(crate::decode::too_large(source.text.len() as u64))
        } else {
            serde_json::from_str(&source.text)
                .map_err(|e| crate::decode::classify(&e, String::new(), source.text.as_bytes()))
        };
        let value: Option<Value> = match parsed {
            Ok(v) => Some(v),
            Err(issue) => {
                problems.push(problem(
                    issue.code,
                    format!("{}: {}", source.rel, issue.message),
                ));
                None
            }
        };
        let (expect, case) = expectation(&source.rel, kind, value.as_ref());
        if value.is_some() {
            check(kind, &source, problems, &mut pair);
        }
        out.push(json!({
            "path": source.rel,
            "sha256": source.sha256,
            "expectation": expect,
            "compatibilityCase": case,
        }));
    }
    if let (Some(input), Some(output)) = pair {
        conformance_pair(&input, &output, problems);
    }
    Ok(out)
}

fn check(
    kind: Kind,
    source: &Source,
    problems: &mut Vec<Issue>,
    pair: &mut (Option<ConformanceFixture>, Option<ConformanceOutput>),
) {
    let rel = source.rel.as_str();
    let bytes = source.text.as_bytes();
    match kind {
        Kind::ReplayAccept => replay_accept(rel, bytes, problems),
        Kind::ReplayReject => replay_reject(rel, bytes, problems),
        // v2 events and capabilities are the point here, so the v1-only assertion does not apply;
        // the whole contract pipeline does.
        Kind::GoalReplay => {
            for issue in &contract::validate_fixture_bytes(bytes).issues {
                problems.push(problem(Code::InvalidFixture, format!("{rel}: {issue}")));
            }
        }
        Kind::RejectedBinding => rejected_binding(rel, bytes, problems),
        Kind::RejectedUnknown => problems.push(problem(
            Code::InvalidFixture,
            format!("{rel}: no rule says how a fixture in this directory must be rejected"),
        )),
        Kind::Question => super::questions::check(rel, bytes, problems),
        Kind::ConformanceInput if !schema_version(rel, bytes, CONFORMANCE_INPUT_V1, problems) => {}
        Kind::ConformanceOutput if !schema_version(rel, bytes, CONFORMANCE_OUTPUT_V1, problems) => {
        }
        Kind::ConformanceInput => match decode::<ConformanceFixture>(bytes) {
            Ok(f) => pair.0 = Some(f),
            Err(e) => problems.push(problem(Code::InvalidFixture, format!("{rel}: {e}"))),
        },
        Kind::ConformanceOutput => match decode::<ConformanceOutput>(bytes) {
            Ok(o) => pair.1 = Some(o),
            Err(e) => problems.push(problem(Code::InvalidFixture, format!("{rel}: {e}"))),
        },
        Kind::Golden | Kind::Other => {}
    }
}

/// Whether a cross-language document declares the `schemaVersion` this implementation reads.
fn schema_version(rel: &str, bytes: &[u8], want: &str, problems: &mut Vec<Issue>) -> bool {
    let value: Option<Value> = serde_json::from_slice(bytes).ok();
    let found = value.as_ref().and_then(|v| v.get("schemaVersion"));
    if found.and_then(Value::as_str) == Some(want) {
        return true;
    }
    problems.push(problem(
        Code::UnsupportedRequiredSchema,
        format!("{rel}: schemaVersion requires {want}"),
    ));
    false
}

/// How a value reads inside a message: numbers as ECMAScript prints them, strings bare.
fn shown(v: Option<&Value>) -> String {
    match v {
        None => "undefined".into(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => json::number(n),
        Some(other) => json::canonical(other),
    }
}

/// The compatibility assertion of §7.4.2: the first way the fixture leaves what the manifest's
/// replay contract supports (v1 events and capabilities only).
fn assertion(value: &Value) -> Result<(), Issue> {
    use Code::{InvalidFixture, UnsupportedRequiredSchema, UnsupportedRequiredVersion};
    let require = |at: &str, v: Option<&Value>, want: &str| -> Result<(), Issue> {
        if v.and_then(Value::as_str) == Some(want) {
            Ok(())
        } else {
            Err(problem(
                UnsupportedRequiredSchema,
                format!("{at} requires {want}"),
            ))
        }
    };
    let version = |at: &str, v: Option<&Value>, ok: bool, supported: &str| {
        if ok {
            Ok(())
        } else {
            Err(problem(
                UnsupportedRequiredVersion,
                format!("{at}={}; supported={supported}", shown(v)),
            ))
        }
    };
    // An integer as JSON means it (`1.0` is the integer 1), within lo..=hi.
    let is_int = |v: Option<&Value>, lo: f64, hi: f64| {
        v.and_then(Value::as_f64)
            .is_some_and(|n| n.fract() == 0.0 && (lo..=hi).contains(&n))
    };
    require("schema", value.get("schema"), "paperclip.prp.fixture.v1")?;
    let fv = value.get("fixtureVersion");
    version("fixtureVersion", fv, is_int(fv, 1.0, 1.0), "1")?;
    let pv = value.get("protocolVersion");
    version("protocolVersion", pv, is_int(pv, 1.0, 2.0), "1-2")?;
    require(
        "identity.schema",
        value.pointer("/identity/schema"),
        "paperclip.prp.identity.v1",
    )?;
    require(
        "capabilities.schema",
        value.pointer("/capabilities/schema"),
        "paperclip.prp.capabilities.v1",
    )?;
    let Some(commands) = value.get("commands").and_then(Value::as_array) else {
        return Err(problem(InvalidFixture, "commands must be an array"));
    };
    for (i, command) in commands.iter().enumerate() {
        let schema = command.get("schema").and_then(Value::as_str);
        if !matches!(
            schema,
            Some("paperclip.prp.command.v1" | "paperclip.prp.command.v2")
        ) {
            return Err(problem(
                UnsupportedRequiredSchema,
                format!(
                    "commands[{i}].schema requires paperclip.prp.command.v1 or paperclip.prp.command.v2"
                ),
            ));
        }
    }
    let events = value.get("events").and_then(Value::as_array);
    let Some(events) = events.filter(|e| !e.is_empty()) else {
        return Err(problem(InvalidFixture, "events must be a non-empty array"));
    };
    for (i, event) in events.iter().enumerate() {
        require(
            &format!("events[{i}].schema"),
            event.get("schema"),
            "paperclip.prp.event.v1",
        )?;
        let sv = event.get("schemaVersion");
        version(
            &format!("events[{i}].schemaVersion"),
            sv,
            is_int(sv, 1.0, 1.0),
            "1",
        )?;
        if let Some(tool) = event.pointer("/payload/semantic_tool")
            && tool.get("schemaVersion").is_some()
        {
            let tv = tool.get("schemaVersion");
            version(
                &format!("events[{i}].payload.semantic_tool.schemaVersion"),
                tv,
                is_int(tv, 1.0, 1.0),
                "1",
            )?;
        }
    }
    require(
        "result.schema",
        value.pointer("/result/schema"),
        "paperclip.run_result.v1",
    )
}

fn replay_accept(rel: &str, bytes: &[u8], problems: &mut Vec<Issue>) {
    let Ok(value) = serde_json::from_slice::<Value>(bytes) else {
        return;
    };
    if let Err(mut p) = assertion(&value) {
        p.message = format!("{rel}: {}", p.message);
        problems.push(p);
        return;
    }
    let outcome = contract::validate_fixture_bytes(bytes);
    for issue in &outcome.issues {
        problems.push(problem(Code::InvalidFixture, format!("{rel}: {issue}")));
    }
}

fn replay_reject(rel: &str, bytes: &[u8], problems: &mut Vec<Issue>) {
    let Ok(value) = serde_json::from_slice::<Value>(bytes) else {
        return;
    };
    let failed_closed = matches!(
        assertion(&value),
        Err(Issue {
            code: Code::UnsupportedRequiredVersion,
            ..
        })
    );
    let schema_rejects = decode::<Fixture>(bytes).is_err();
    if !(failed_closed && schema_rejects) {
        problems.push(problem(
            Code::InvalidFixture,
            format!("{rel} did not fail closed"),
        ));
    }
}

/// Project extension: a binding case must reach stage 3 and be rejected there, and only there.
fn rejected_binding(rel: &str, bytes: &[u8], problems: &mut Vec<Issue>) {
    let outcome = contract::validate_fixture_bytes(bytes);
    if outcome.ok() {
        problems.push(problem(
            Code::InvalidFixture,
            format!("{rel} did not fail closed"),
        ));
    } else if let Some(issue) = outcome
        .issues
        .iter()
        .find(|i| i.code != Code::BindingMismatch)
    {
        problems.push(problem(
            Code::InvalidFixture,
            format!("{rel} was rejected before the binding checks: {issue}"),
        ));
    }
}

/// §7.4.4: the cross-language input and output describe the same run.
fn conformance_pair(
    input: &ConformanceFixture,
    output: &ConformanceOutput,
    problems: &mut Vec<Issue>,
) {
    let run = &input.run;
    if run.run_id != output.run_identity.run_id || run.session_id != output.run_identity.session_id
    {
        problems.push(problem(
            Code::ConformanceIdentityMismatch,
            format!(
                "{CONFORMANCE_OUTPUT}: runIdentity must be runId {} and sessionId {}",
                run.run_id, run.session_id
            ),
        ));
    }
    for (i, event) in input.events.iter().enumerate() {
        let want = i as i64 + 1;
        if event.run_id != run.run_id || event.sequence != want {
            problems.push(problem(
                Code::InvalidConformanceEvent,
                format!(
                    "{CONFORMANCE_INPUT}: events[{i}] must have runId {} and sequence {want}",
                    run.run_id
                ),
            ));
        }
    }
    let (r, o) = (&input.result, &output.result);
    if r.status.as_str() != o.status.as_str() || r.summary != o.summary || r.run_id != run.run_id {
        problems.push(problem(
            Code::ConformanceResultMismatch,
            format!(
                "{CONFORMANCE_INPUT} and {CONFORMANCE_OUTPUT}: result status and summary must match, with result.runId {}",
                run.run_id
            ),
        ));
    }
}
