//! §7.2–§7.4.5: the fixture entries — expectation, compatibility case — and the checks each kind of
//! fixture gets before the manifest may be written.

use super::{Error, Source, io_error, problem, read_source};
use crate::contract::Contract;
use crate::decode::decode;
use crate::issue::{Code, Issue};
use crate::json;
use crate::types::{ConformanceFixture, ConformanceOutput};
use prp_peer::negotiation::VersionRange;
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

/// Checks every fixture under `contract` and returns the manifest's `fixtures` entries.
pub(super) fn entries(
    dir: &Path,
    contract: Contract,
    problems: &mut Vec<Issue>,
) -> Result<Vec<Value>, Error> {
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
            check(kind, &source, contract, problems, &mut pair);
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
    contract: Contract,
    problems: &mut Vec<Issue>,
    pair: &mut (Option<ConformanceFixture>, Option<ConformanceOutput>),
) {
    let rel = source.rel.as_str();
    let bytes = source.text.as_bytes();
    match kind {
        Kind::ReplayAccept => replay_accept(rel, bytes, contract, problems),
        Kind::ReplayReject => replay_reject(rel, bytes, contract, problems),
        // v2 events and capabilities are the point here, so the v1-only assertion does not apply;
        // the whole contract pipeline does.
        Kind::GoalReplay => {
            for issue in &contract.validate_fixture_bytes(bytes).issues {
                problems.push(problem(Code::InvalidFixture, format!("{rel}: {issue}")));
            }
        }
        Kind::RejectedBinding => rejected_binding(rel, bytes, contract, problems),
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

fn require(at: &str, v: Option<&Value>, want: &str) -> Result<(), Issue> {
    require_one_of(at, v, &[want.to_owned()])
}

/// `Ok` when `v` is one of the strings `wants`; otherwise `<at> requires A, B or C`.
fn require_one_of(at: &str, v: Option<&Value>, wants: &[String]) -> Result<(), Issue> {
    if v.and_then(Value::as_str)
        .is_some_and(|s| wants.iter().any(|w| w == s))
    {
        return Ok(());
    }
    let listed = match wants.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    Err(problem(
        Code::UnsupportedRequiredSchema,
        format!("{at} requires {listed}"),
    ))
}

/// `Ok` when `v` is an integer (as JSON means it: `1.0` is 1) in `lo..=hi`; otherwise
/// `<at>=<value>; supported=<lo>-<hi>` (or `=<lo>` when they are one version).
fn version(at: &str, v: Option<&Value>, lo: u32, hi: u32) -> Result<(), Issue> {
    let ok = v
        .and_then(Value::as_f64)
        .is_some_and(|n| n.fract() == 0.0 && (f64::from(lo)..=f64::from(hi)).contains(&n));
    if ok {
        return Ok(());
    }
    let supported = if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}-{hi}")
    };
    Err(problem(
        Code::UnsupportedRequiredVersion,
        format!("{at}={}; supported={supported}", shown(v)),
    ))
}

/// The discriminators `paperclip.prp.<name>.v1` to `.v<hi>`.
fn tags(name: &str, hi: u32) -> Vec<String> {
    (1..=hi)
        .map(|v| format!("paperclip.prp.{name}.v{v}"))
        .collect()
}

/// Whether a directory of `range` is checked as v1/v2 was (PROTOCOL §7.4: a replay fixture holds
/// v1 capabilities and v1 events only) rather than as v3 is (PROTOCOL-V3 §6: any known version,
/// with the event rules of PROTOCOL-V3 §1).
fn v1_envelopes_only(range: VersionRange) -> bool {
    range.max() < 3
}

/// The compatibility assertion of §7.4.2 for a directory of protocol `range`: the first way the
/// fixture leaves what the manifest's replay contract supports.
fn assertion(value: &Value, range: VersionRange) -> Result<(), Issue> {
    require("schema", value.get("schema"), "paperclip.prp.fixture.v1")?;
    version("fixtureVersion", value.get("fixtureVersion"), 1, 1)?;
    let pv = value.get("protocolVersion");
    version("protocolVersion", pv, range.min(), range.max())?;
    require(
        "identity.schema",
        value.pointer("/identity/schema"),
        "paperclip.prp.identity.v1",
    )?;
    let capabilities = if v1_envelopes_only(range) {
        1
    } else {
        range.max()
    };
    require_one_of(
        "capabilities.schema",
        value.pointer("/capabilities/schema"),
        &tags("capabilities", capabilities),
    )?;
    commands(value, range)?;
    // A whole number within the range: checked just above.
    let protocol = pv.and_then(Value::as_f64).map_or(1, |p| p as u32);
    events(value, range, protocol)?;
    require(
        "result.schema",
        value.pointer("/result/schema"),
        "paperclip.run_result.v1",
    )
}

/// Every command is of a version up to the range's maximum (at least v2, as v1/v2 allowed).
fn commands(value: &Value, range: VersionRange) -> Result<(), Issue> {
    let Some(commands) = value.get("commands").and_then(Value::as_array) else {
        return Err(problem(Code::InvalidFixture, "commands must be an array"));
    };
    let allowed = tags("command", range.max().max(2));
    for (i, command) in commands.iter().enumerate() {
        require_one_of(
            &format!("commands[{i}].schema"),
            command.get("schema"),
            &allowed,
        )?;
    }
    Ok(())
}

fn events(value: &Value, range: VersionRange, protocol: u32) -> Result<(), Issue> {
    let events = value.get("events").and_then(Value::as_array);
    let Some(events) = events.filter(|e| !e.is_empty()) else {
        return Err(problem(
            Code::InvalidFixture,
            "events must be a non-empty array",
        ));
    };
    for (i, event) in events.iter().enumerate() {
        let sv = event.get("schemaVersion");
        if v1_envelopes_only(range) {
            require(
                &format!("events[{i}].schema"),
                event.get("schema"),
                "paperclip.prp.event.v1",
            )?;
            version(&format!("events[{i}].schemaVersion"), sv, 1, 1)?;
        } else {
            // PROTOCOL-V3 §1: no newer than the fixture's protocol, and `schema` names the version.
            version(&format!("events[{i}].schemaVersion"), sv, 1, protocol)?;
            let named = sv.and_then(Value::as_f64).map_or(0, |v| v as u32);
            require(
                &format!("events[{i}].schema"),
                event.get("schema"),
                &format!("paperclip.prp.event.v{named}"),
            )?;
        }
        if let Some(tool) = event.pointer("/payload/semantic_tool")
            && tool.get("schemaVersion").is_some()
        {
            let at = format!("events[{i}].payload.semantic_tool.schemaVersion");
            version(&at, tool.get("schemaVersion"), 1, 1)?;
        }
    }
    Ok(())
}

fn replay_accept(rel: &str, bytes: &[u8], contract: Contract, problems: &mut Vec<Issue>) {
    let Ok(value) = serde_json::from_slice::<Value>(bytes) else {
        return;
    };
    if let Err(mut p) = assertion(&value, contract.protocol()) {
        p.message = format!("{rel}: {}", p.message);
        problems.push(p);
        return;
    }
    let outcome = contract.validate_fixture_bytes(bytes);
    for issue in &outcome.issues {
        problems.push(problem(Code::InvalidFixture, format!("{rel}: {issue}")));
    }
}

/// An expected rejection must fail the assertion on a version and be refused by the schemas of the
/// range. The types are generated from the newest schemas, which take versions a v1/v2 schema
/// did not, so "the schemas of the range" are the pipeline's stages 1–2 under `contract`: stage 1
/// refuses what lies beyond the range, stage 2 every other schema failure.
fn replay_reject(rel: &str, bytes: &[u8], contract: Contract, problems: &mut Vec<Issue>) {
    let Ok(value) = serde_json::from_slice::<Value>(bytes) else {
        return;
    };
    let failed_closed = matches!(
        assertion(&value, contract.protocol()),
        Err(Issue {
            code: Code::UnsupportedRequiredVersion,
            ..
        })
    );
    let schema_rejects = contract
        .validate_fixture_bytes(bytes)
        .issues
        .iter()
        .any(|i| i.code != Code::BindingMismatch);
    if !(failed_closed && schema_rejects) {
        problems.push(problem(
            Code::InvalidFixture,
            format!("{rel} did not fail closed"),
        ));
    }
}

/// Project extension: a binding case must reach stage 3 and be rejected there, and only there.
fn rejected_binding(rel: &str, bytes: &[u8], contract: Contract, problems: &mut Vec<Issue>) {
    let outcome = contract.validate_fixture_bytes(bytes);
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
