//! The generated types against the reference validator: every document and sub-document of the
//! reference fixtures gets the same verdict from typed decoding as from the `jsonschema` oracle over
//! the reference schemas, and every accepted value round-trips.

mod support;

use prp_types::decode::{CHECKERS, checker};
use prp_types::types::rt;
use serde_json::Value;
use support::*;

fn canonical(v: &Value) -> String {
    let mut s = String::new();
    rt::canonical(v, &mut s);
    s
}

#[test]
fn every_fixture_node_gets_the_oracle_verdict() {
    let Some(corpus) = corpus_dir() else { return };
    let oracle = Oracle::from_dirs(&reference_schema_dirs(&corpus));
    let mut compared = 0usize;
    let mut accepted = 0usize;
    let mut disagreements = Vec::new();
    for file in json_files(&reference_fixture_dir(&corpus)) {
        let doc = read_json(&file);
        walk_containers(&doc, &mut |pointer, node| {
            let bytes = serde_json::to_vec(node).expect("a Value serializes");
            for (key, check) in CHECKERS {
                let Some(validator) = oracle.get(key) else {
                    continue;
                };
                let expected = validator.is_valid(node);
                let got = check(&bytes);
                compared += 1;
                accepted += usize::from(got.is_ok());
                if got.is_ok() != expected {
                    disagreements.push(format!(
                        "{}#{pointer} as {key}: oracle {expected}, typed {got:?}",
                        file.display()
                    ));
                }
            }
        });
    }
    println!("compared {compared} verdicts, {accepted} accepted");
    assert!(compared > 50_000, "too few comparisons: {compared}");
    assert!(accepted > 100, "too few accepted: {accepted}");
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

#[test]
fn every_schema_type_has_a_checker() {
    // The checker table is generated: every root and every `$defs` entry of the reference must be in it.
    let Some(corpus) = corpus_dir() else { return };
    let oracle = Oracle::from_dirs(&reference_schema_dirs(&corpus));
    let missing: Vec<&str> = oracle.keys().filter(|k| checker(k).is_none()).collect();
    assert!(missing.is_empty(), "no typed checker for {missing:?}");
    assert_eq!(
        CHECKERS.len(),
        oracle.keys().count(),
        "the checker table has entries the oracle lacks"
    );
}

#[test]
fn every_accepted_node_round_trips() {
    let Some(corpus) = corpus_dir() else { return };
    let mut checked = 0usize;
    let mut failures = Vec::new();
    for file in json_files(&reference_fixture_dir(&corpus)) {
        let doc = read_json(&file);
        walk_containers(&doc, &mut |pointer, node| {
            let bytes = serde_json::to_vec(node).expect("a Value serializes");
            for (key, reencode) in prp_types::decode::REENCODERS {
                let Ok(again) = reencode(&bytes) else {
                    continue;
                };
                checked += 1;
                // Same JSON value: key order aside, unknown members, nulls and numbers included.
                if canonical(&again) != canonical(node) {
                    failures.push(format!(
                        "{}#{pointer} as {key}:\n  in:  {}\n  out: {}",
                        file.display(),
                        canonical(node),
                        canonical(&again)
                    ));
                }
            }
        });
    }
    println!("{checked} accepted values re-encoded");
    assert!(checked > 300, "too few accepted values: {checked}");
    assert!(
        failures.is_empty(),
        "{} values changed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn bad_input_gets_a_code_and_no_panic() {
    use prp_types::decode_document;
    let code = |bytes: &[u8]| decode_document(bytes).map(|_| ()).unwrap_err().code;
    assert_eq!(code(b"{\"schema\": "), "invalid_json");
    assert_eq!(code(b"not json"), "invalid_json");
    assert_eq!(code(b"{} trailing"), "invalid_json");
    assert_eq!(code(br#"{"schema": "paperclip.nothing.v9"}"#), "one_of");
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let wrapped = format!(r#"{{"schema":"paperclip.prp.event.v1","debug":{{"x":{deep}}}}}"#);
    assert_eq!(code(wrapped.as_bytes()), "too_deep");
    let huge = vec![b' '; prp_types::decode::MAX_DOCUMENT_BYTES + 1];
    assert_eq!(code(&huge), "too_large");
}

#[test]
fn a_version_from_the_future_fails_closed() {
    let text =
        std::fs::read_to_string(project_dir().join("fixtures/documents/event-plan-updated.json"))
            .unwrap();
    let future = text.replace("\"schemaVersion\": 1", "\"schemaVersion\": 7");
    let e = prp_types::decode_str::<prp_types::types::Event>(&future).unwrap_err();
    let e = prp_types::decode::fail_closed_on_versions(e);
    assert_eq!(
        (e.code.as_str(), e.pointer.as_str()),
        ("unsupported_required_version", "/schemaVersion")
    );
}

#[test]
fn constraint_failures_point_at_the_value() {
    let text =
        std::fs::read_to_string(project_dir().join("fixtures/documents/event-tool-execution.json"))
            .unwrap();
    let cases = [
        (
            "\"exec-9\"",
            "\"-bad id\"",
            "pattern",
            "/payload/executionId",
        ),
        (
            "\"crates/pager\"",
            "\"../etc/passwd\"",
            "pattern",
            "/payload/target",
        ),
        (
            "\"durationMs\": 5120",
            "\"durationMs\": -1",
            "minimum",
            "/payload/durationMs",
        ),
        (
            "\"status\": \"completed\"",
            "\"status\": \"done\"",
            "enum",
            "/payload/status",
        ),
        (
            "\"exitCode\": 0",
            "\"exitCode\": 0, \"extra\": 1",
            "additional_properties",
            "/payload/extra",
        ),
        (
            "\"2026-11-29T10:15:02Z\"",
            "\"2026-11-29T10:15:02+00:00\"",
            "format",
            "/emittedAt",
        ),
        (
            "\"sourceSeq\": 8",
            "\"sourceSeq\": 9007199254740992",
            "maximum",
            "/sourceSeq",
        ),
        ("\"sourceSeq\": 8", "\"sourceSeq\": 8.0", "", ""),
        ("\"outputBytes\": 26,", "", "required", "/payload"),
        (
            "\"eventType\": \"tool.execution.completed\"",
            "\"eventType\": \"plan.updated\"",
            "const",
            "/payload/schema",
        ),
    ];
    for (from, to, code, pointer) in cases {
        assert!(text.contains(from), "{from}");
        let changed = text.replacen(from, to, 1);
        let got = prp_types::decode_str::<prp_types::types::Event>(&changed);
        match got {
            Ok(_) => assert_eq!(code, "", "{to} was accepted"),
            Err(e) => assert_eq!(
                (e.code.as_str(), e.pointer.as_str()),
                (code, pointer),
                "{to}: {e}"
            ),
        }
    }
}

/// The verdict-only check keeps what narrowings read, unknown members of an open payload
/// included: `semantic_tool.result` narrows the payload's `channel` and `providerPhase`.
#[test]
fn the_verdict_reads_the_members_narrowings_check() {
    use prp_types::decode::{accepts, verify};
    use prp_types::types::Event;
    let text = std::fs::read_to_string(
        project_dir().join("fixtures/rejected/binding/05-semantic-envelope-repeated.json"),
    )
    .unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let event = fixture["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["eventType"] == "semantic_tool.result")
        .expect("the fixture has a semantic_tool.result event")
        .to_string();
    let open = "\"payload\":{";
    assert!(event.contains(open), "{event}");
    let cases = [
        ("", ""),
        ("\"channel\":\"final\",", ""),
        ("\"channel\":\"bogus\",", "enum /payload/channel"),
        ("\"providerPhase\":\"x\",", ""),
        ("\"providerPhase\":3,", "type /payload/providerPhase"),
        (
            "\"channel\":\"final\",\"channel\":\"final\",",
            "duplicate_key /payload/channel",
        ),
        ("\"other\":1,\"other\":2,", "duplicate_key /payload/other"),
    ];
    for (members, expected) in cases {
        let doc = event.replacen(open, &format!("{open}{members}"), 1);
        let decoded = prp_types::decode_str::<Event>(&doc)
            .err()
            .map_or(String::new(), |e| format!("{} {}", e.code, e.pointer));
        assert_eq!(decoded, expected, "{members}");
        assert_eq!(
            accepts::<Event>(doc.as_bytes()),
            expected.is_empty(),
            "{members}"
        );
        let verified = verify::<Event>(doc.as_bytes())
            .err()
            .map_or(String::new(), |e| format!("{} {}", e.code, e.pointer));
        assert_eq!(verified, expected, "{members}");
    }
}

#[test]
fn reference_fixtures_meet_the_manifest_expectation() {
    use prp_types::types::{
        ConformanceFixture, ConformanceOutput, Fixture, NativeExecution, QuestionAdapterFixture,
    };
    let Some(corpus) = corpus_dir() else { return };
    let protocol = corpus.join("protocol");
    let manifest = read_json(&protocol.join("manifest.json"));
    let mut checked = 0;
    for entry in manifest["fixtures"]
        .as_array()
        .expect("manifest lists fixtures")
    {
        let path = entry["path"].as_str().unwrap();
        let bytes = std::fs::read(protocol.join(path)).unwrap();
        // Which schema validates a fixture is decided by where it lives (the contract's rule).
        let verdict = if path.starts_with("fixtures/replay/golden/") {
            continue;
        } else if path.starts_with("fixtures/replay/") {
            prp_types::decode::<Fixture>(&bytes)
                .map(|_| ())
                .map_err(prp_types::decode::fail_closed_on_versions)
        } else if path.starts_with("fixtures/questions/") {
            prp_types::decode::<QuestionAdapterFixture>(&bytes).map(|_| ())
        } else if path.ends_with("conformance-minimal-run.json") {
            prp_types::decode::<ConformanceFixture>(&bytes).map(|_| ())
        } else if path.ends_with("conformance-expected-output.json") {
            prp_types::decode::<ConformanceOutput>(&bytes).map(|_| ())
        } else if path.ends_with("native-execution-seeded.json") {
            prp_types::decode::<NativeExecution>(&bytes).map(|_| ())
        } else {
            continue;
        };
        checked += 1;
        let expected_ok = entry["expectation"] == "accept";
        assert_eq!(verdict.is_ok(), expected_ok, "{path}: {verdict:?}");
    }
    assert!(checked >= 20, "only {checked} fixtures checked");
}
