//! The replay reducer (PROTOCOL §2): every golden of the reference corpus and of the project's own
//! fixtures reproduced byte for byte (one test per fixture), the `goldens --check` path,
//! idempotence, incremental feeding, and synthetic cases the corpus does not cover.
//!
//! `UPDATE_GOLDENS=1 cargo test --test replay` rewrites the project's goldens through the same
//! code path as `prp goldens fixtures`.

use prp_testkit as support;

use std::fs;
use std::path::{Path, PathBuf};

use prp_conformance::goldens;
use prp_peer::contract::Contract;
use prp_peer::reducer::ReplayEvent as _;
use prp_peer::reducer::{
    self, BatchOutcome, Integrity, ItemStatus, MAX_GAP_MISSING, Outcome, SessionState, Snapshot,
    TurnState,
};
use prp_types::types::{Fixture, FixtureEvent};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Golden files, one test per fixture

fn project_fixtures() -> PathBuf {
    support::project_dir().join("fixtures")
}

fn corpus_fixtures() -> Option<PathBuf> {
    support::corpus_dir().map(|corpus| support::reference_fixture_dir(&corpus))
}

/// The range the v1/v2 corpus is checked under: its expected rejections are a v1/v2 consumer's.
fn corpus_contract() -> Contract {
    "1..2".parse().unwrap()
}

/// The first line where two texts differ, for a readable failure.
fn first_line_difference(got: &str, want: &str) -> String {
    for (n, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        if g != w {
            return format!("line {}: got {g:?}, want {w:?}", n + 1);
        }
    }
    format!(
        "{} lines vs {} lines (trailing newline: {} vs {})",
        got.lines().count(),
        want.lines().count(),
        got.ends_with('\n'),
        want.ends_with('\n')
    )
}

/// Replays `fixtures/replay/<name>.json` under `contract` and compares both goldens byte for byte.
fn assert_goldens(fixtures: &Path, contract: Contract, name: &str) {
    let replay = fixtures.join("replay");
    let fixture = replay.join(format!("{name}.json"));
    let bytes = fs::read(&fixture).unwrap_or_else(|e| panic!("{}: {e}", fixture.display()));
    let snapshot = reducer::replay_fixture_bytes_with(contract, &bytes)
        .unwrap_or_else(|e| panic!("{} does not replay: {e:?}", fixture.display()));
    let outputs = [
        ("snapshot", snapshot.to_pretty()),
        ("summary", snapshot.summary().to_pretty()),
    ];
    for (kind, got) in outputs {
        let path = replay.join("golden").join(format!("{name}.{kind}.json"));
        let want = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            got == want,
            "{} differs: {}",
            path.display(),
            first_line_difference(&got, &want)
        );
    }
}

fn corpus_case(name: &str) {
    if let Some(dir) = corpus_fixtures() {
        assert_goldens(&dir, corpus_contract(), name);
    }
}

fn project_case(name: &str) {
    assert_goldens(&project_fixtures(), Contract::default(), name);
}

macro_rules! golden_tests {
    ($case:ident; $($test:ident => $name:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                super::$case($name);
            }
        )*
        /// The fixtures that have a test above.
        pub const NAMES: &[&str] = &[$($name),*];
    };
}

/// The reference corpus' 12 golden pairs.
mod corpus {
    golden_tests! { corpus_case;
        budget_cost_stop_reason => "budget-cost-stop-reason",
        duplicate_event => "duplicate-event",
        failed_run => "failed-run",
        happy_path => "happy-path",
        interrupted_run => "interrupted-run",
        semantic_tool_artifact_happy_path => "semantic-tool-artifact-happy-path",
        semantic_tool_conflict_duplicate_retry => "semantic-tool-conflict-duplicate-retry",
        semantic_tool_denial_redaction => "semantic-tool-denial-redaction",
        semantic_tool_governance_wake_monitor => "semantic-tool-governance-wake-monitor",
        semantic_tool_unknown_optional_envelope => "semantic-tool-unknown-optional-envelope",
        source_gap => "source-gap",
        unknown_optional_fields => "unknown-optional-fields",
    }
}

/// The project's own accepted replay fixtures.
mod project {
    golden_tests! { project_case;
        duplicate_event => "duplicate-event",
        external_provider_v3 => "external-provider-v3",
        failed_run => "failed-run",
        happy_path => "happy-path",
        interrupted_run => "interrupted-run",
        out_of_order_event => "out-of-order-event",
        semantic_tool_call => "semantic-tool-call",
        source_gap => "source-gap",
        unknown_optional_fields => "unknown-optional-fields",
    }
}

/// The fixture names (file stems) in `dir/replay`, sorted.
fn replay_fixture_names(fixtures: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(fixtures.join("replay"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Goldens render under `contract` for exactly the accepted fixtures, and every one has a test
/// above.
fn assert_listed(fixtures: &Path, contract: Contract, listed: &[&str], rejected: &[&str]) {
    let rendered = goldens::render(fixtures, contract).unwrap();
    let got_rejected: Vec<String> = rendered
        .rejected
        .iter()
        .map(|r| {
            r.fixture
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(got_rejected, rejected);
    let accepted: Vec<String> = replay_fixture_names(fixtures)
        .into_iter()
        .filter(|n| !rejected.contains(&n.as_str()))
        .collect();
    let mut listed: Vec<&str> = listed.to_vec();
    listed.sort_unstable();
    assert_eq!(accepted, listed, "every accepted fixture has its own test");
    assert_eq!(rendered.files.len(), 2 * accepted.len());
}

#[test]
fn every_corpus_replay_fixture_has_a_test() {
    let Some(dir) = corpus_fixtures() else { return };
    assert_listed(
        &dir,
        corpus_contract(),
        corpus::NAMES,
        &[
            "semantic-tool-unsupported-required-version",
            "unsupported-required-version",
        ],
    );
}

#[test]
fn every_project_replay_fixture_has_a_test() {
    assert_listed(
        &project_fixtures(),
        Contract::default(),
        project::NAMES,
        &["unsupported-required-version"],
    );
}

#[test]
fn goldens_check_passes_on_the_corpus() {
    let Some(dir) = corpus_fixtures() else { return };
    let rendered = goldens::render(&dir, corpus_contract()).unwrap();
    assert_eq!(rendered.files.len(), 24);
    assert_eq!(rendered.check().unwrap(), vec![]);
}

/// `prp goldens --check fixtures`; with `UPDATE_GOLDENS=1`, `prp goldens fixtures` first.
#[test]
fn goldens_check_passes_on_the_project_fixtures() {
    let rendered = goldens::render(&project_fixtures(), Contract::default()).unwrap();
    if std::env::var_os("UPDATE_GOLDENS").is_some_and(|v| v == "1") {
        for path in rendered.write().unwrap() {
            eprintln!("wrote {}", path.display());
        }
    }
    let drift = rendered.check().unwrap();
    assert!(
        drift.is_empty(),
        "stale goldens (run `prp goldens fixtures`): {drift:?}"
    );
}

#[test]
fn goldens_check_names_missing_and_stale_files() {
    let dir = std::env::temp_dir().join(format!("prp-goldens-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("replay")).unwrap();
    for name in ["happy-path", "unsupported-required-version"] {
        fs::copy(
            project_fixtures().join(format!("replay/{name}.json")),
            dir.join(format!("replay/{name}.json")),
        )
        .unwrap();
    }
    let rendered = goldens::render(&dir, Contract::default()).unwrap();
    assert_eq!(rendered.rejected.len(), 1);
    assert_eq!(
        rendered.rejected[0].issues[0].code.as_str(),
        "unsupported_required_version"
    );
    assert_eq!(rendered.rejected[0].issues[0].path(), "/protocolVersion");
    let golden = dir.join("replay/golden");
    assert_eq!(
        rendered.check().unwrap(),
        vec![
            goldens::Drift::Missing(golden.join("happy-path.snapshot.json")),
            goldens::Drift::Missing(golden.join("happy-path.summary.json")),
        ]
    );
    assert_eq!(rendered.write().unwrap().len(), 2);
    assert_eq!(rendered.check().unwrap(), vec![]);
    assert_eq!(
        rendered.write().unwrap().len(),
        0,
        "up-to-date files are not rewritten"
    );
    fs::write(golden.join("happy-path.summary.json"), "{}\n").unwrap();
    assert_eq!(
        rendered.check().unwrap(),
        vec![goldens::Drift::Stale(
            golden.join("happy-path.summary.json")
        )]
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unsupported_required_version_is_rejected_before_replay() {
    let bytes =
        fs::read(project_fixtures().join("replay/unsupported-required-version.json")).unwrap();
    let err = reducer::replay_fixture_bytes(&bytes).unwrap_err();
    assert_eq!(
        (err[0].code.as_str(), err[0].path()),
        ("unsupported_required_version", "/protocolVersion")
    );
    let golden = project_fixtures().join("replay/golden");
    assert!(
        !golden
            .join("unsupported-required-version.snapshot.json")
            .exists()
    );
    assert!(
        !golden
            .join("unsupported-required-version.summary.json")
            .exists()
    );
}

// ---------------------------------------------------------------------------------------------
// Idempotence and incremental feeding, over every fixture

/// Every accepted fixture (project, then corpus when present, each under its range), typed.
fn all_fixtures() -> Vec<(String, Fixture)> {
    let mut dirs = vec![(project_fixtures(), Contract::default())];
    dirs.extend(corpus_fixtures().map(|dir| (dir, corpus_contract())));
    let mut out = Vec::new();
    for (dir, contract) in dirs {
        for name in replay_fixture_names(&dir) {
            let path = dir.join(format!("replay/{name}.json"));
            let bytes = fs::read(&path).unwrap();
            if let Some(fixture) = contract.validate_fixture_bytes(&bytes).document {
                out.push((path.display().to_string(), fixture.typed));
            }
        }
    }
    assert!(out.len() >= 8);
    out
}

fn events_of(fixture: &Fixture) -> &[FixtureEvent] {
    &fixture.events
}

#[test]
fn replaying_the_same_batch_again_changes_nothing() {
    for (name, fixture) in all_fixtures() {
        let mut snapshot = reducer::replay_fixture(&fixture).unwrap();
        let before = snapshot.to_pretty();
        let outcome = snapshot.reduce(events_of(&fixture)).unwrap();
        assert_eq!(snapshot.to_pretty(), before, "{name}");
        assert_eq!(outcome.applied, 0, "{name}");
        // A third time, and one event at a time, still nothing.
        snapshot.reduce(events_of(&fixture)).unwrap();
        for event in events_of(&fixture) {
            assert_ne!(snapshot.apply(event).unwrap(), Outcome::Applied, "{name}");
        }
        assert_eq!(snapshot.to_pretty(), before, "{name}");
    }
}

/// The ids delivered more than once within one chunk, sorted: what §2.2 rule 1 lists.
fn duplicates_within_chunks(events: &[FixtureEvent], chunk: usize) -> Vec<String> {
    let mut ids = std::collections::BTreeSet::new();
    for part in events.chunks(chunk) {
        let mut seen = std::collections::HashSet::new();
        for e in part {
            let id = e.view().unwrap().source_event_id.to_owned();
            if !seen.insert(id.clone()) {
                ids.insert(id);
            }
        }
    }
    ids.into_iter().collect()
}

#[test]
fn feeding_in_chunks_equals_one_batch_up_to_the_duplicate_listing() {
    for (name, fixture) in all_fixtures() {
        let whole = reducer::replay_fixture(&fixture).unwrap().to_value();
        let events = events_of(&fixture);
        for chunk in 1..=events.len() {
            let mut snapshot = reducer::create_snapshot(&fixture).unwrap();
            for part in events.chunks(chunk) {
                snapshot.reduce(part).unwrap();
            }
            let mut got = snapshot.to_value();
            // Rule 1 lists only repeats within one call: a duplicate split across calls is
            // dropped (rule 3.1) but not listed.
            assert_eq!(
                got["duplicateEventIds"],
                json!(duplicates_within_chunks(events, chunk)),
                "{name}, chunks of {chunk}"
            );
            got["duplicateEventIds"] = whole["duplicateEventIds"].clone();
            got["gaps"] = got["gaps"].clone();
            assert_eq!(got, whole, "{name}, chunks of {chunk}");
        }
        // Event by event through `apply` is the same as chunks of one.
        let mut snapshot = reducer::create_snapshot(&fixture).unwrap();
        for event in events {
            snapshot.apply(event).unwrap();
        }
        let mut got = snapshot.to_value();
        assert_eq!(got["duplicateEventIds"], json!([]), "{name}");
        got["duplicateEventIds"] = whole["duplicateEventIds"].clone();
        assert_eq!(got, whole, "{name}");
    }
}

#[test]
fn a_duplicate_in_one_batch_is_listed_and_applied_once() {
    let Some((_, fixture)) = all_fixtures()
        .into_iter()
        .find(|(name, _)| name.ends_with("duplicate-event.json"))
    else {
        panic!("no duplicate-event fixture")
    };
    let snapshot = reducer::replay_fixture(&fixture).unwrap();
    let duplicates: Vec<&str> = snapshot.duplicate_event_ids().collect();
    assert!(!duplicates.is_empty());
    let processed: Vec<&str> = snapshot.processed_event_ids().collect();
    for duplicate in duplicates {
        assert_eq!(processed.iter().filter(|id| **id == duplicate).count(), 1);
    }
    assert_eq!(snapshot.integrity(), Integrity::Complete);
}

// ---------------------------------------------------------------------------------------------
// Synthetic cases (no corpus fixture covers them)

fn session() -> Snapshot {
    Snapshot::new(
        "synthetic",
        json!({"schema": "paperclip.prp.identity.v1", "runId": "run_s", "futureKey": [1.5, 2]}),
        json!({"schema": "paperclip.prp.capabilities.v1"}),
    )
}

/// A v1 runner event from `runner_a`.
fn ev(id: &str, seq: u64, event_type: &str, payload: Value) -> Value {
    json!({
        "schema": "paperclip.prp.event.v1",
        "sourceEventId": id,
        "sourceSeq": seq,
        "sourceInstanceId": "runner_a",
        "sourceKind": "runner",
        "runId": "run_s",
        "eventType": event_type,
        "schemaVersion": 1,
        "priority": 1,
        "emittedAt": "2026-08-07T12:00:00.000Z",
        "payload": payload
    })
}

/// The same event as v2, whose payloads (but for goals and capabilities) are any object: how the
/// tests reach payloads that no v1 schema admits.
fn ev2(id: &str, seq: u64, event_type: &str, payload: Value) -> Value {
    with(
        with(
            ev(id, seq, event_type, payload),
            "schema",
            json!("paperclip.prp.event.v2"),
        ),
        "schemaVersion",
        json!(2),
    )
}

/// Events written as JSON, decoded as a fixture's events are: what the reducer is given.
fn typed(events: &[Value]) -> Vec<FixtureEvent> {
    events.iter().map(|e| typed1(e.clone())).collect()
}

fn typed1(event: Value) -> FixtureEvent {
    match prp_types::decode(&serde_json::to_vec(&event).unwrap()) {
        Ok(e) => e,
        Err(err) => panic!("not a valid event ({err}):\n{event:#}"),
    }
}

fn with(mut event: Value, key: &str, value: Value) -> Value {
    event[key] = value;
    event
}

fn summaries(snapshot: &Snapshot) -> Vec<String> {
    snapshot
        .timeline()
        .iter()
        .map(|e| e.summary().into_owned())
        .collect()
}

#[test]
fn a_stale_event_is_listed_flips_integrity_and_is_not_applied() {
    let mut s = session();
    let outcome = s
        .reduce(&typed(&[
            ev("e1", 1, "session.started", json!({})),
            ev("e2", 2, "turn.started", json!({})),
            ev("e_old", 2, "session.closed", json!({})),
            ev("e_older", 1, "session.failed", json!({})),
        ]))
        .unwrap();
    assert_eq!(
        outcome,
        BatchOutcome {
            applied: 2,
            already_processed: 0,
            out_of_order: 2
        }
    );
    assert_eq!(s.session_state(), SessionState::Running);
    assert_eq!(
        s.out_of_order_event_ids().collect::<Vec<_>>(),
        ["e_old", "e_older"]
    );
    assert_eq!(s.processed_event_ids().collect::<Vec<_>>(), ["e1", "e2"]);
    assert!(!s.is_processed("e_old"));
    assert_eq!(
        s.integrity(),
        Integrity::GapDetected,
        "a stale event alone flips integrity"
    );
    assert!(s.gaps().is_empty());
    assert_eq!(s.timeline().len(), 2);
    assert_eq!(s.source_cursors()["runner:runner_a"], 2);
    // Seen again: listed once; and a later in-order event keeps integrity at gap_detected.
    assert_eq!(
        s.apply(&typed1(ev("e_old", 2, "session.closed", json!({}))))
            .unwrap(),
        Outcome::OutOfOrder
    );
    assert_eq!(s.out_of_order_event_ids().count(), 2);
    assert_eq!(
        s.apply(&typed1(ev("e3", 3, "turn.completed", json!({}))))
            .unwrap(),
        Outcome::Applied
    );
    assert_eq!(s.integrity(), Integrity::GapDetected);
}

#[test]
fn an_out_of_order_arrival_after_a_gap_stays_out() {
    let mut s = session();
    s.reduce(&typed(&[
        ev("e1", 1, "session.started", json!({})),
        ev("e3", 3, "turn.started", json!({})),
        ev("e2", 2, "item.started", json!({"kind": "late"})),
    ]))
    .unwrap();
    assert_eq!(s.gaps().len(), 1);
    assert_eq!((s.gaps()[0].expected, s.gaps()[0].received), (2, 3));
    assert_eq!(s.out_of_order_event_ids().collect::<Vec<_>>(), ["e2"]);
    assert!(s.items().is_empty(), "the late event gets no projection");
    // It also gets no timeline entry, and replay of the batch is idempotent.
    let before = s.to_pretty();
    s.reduce(&typed(&[ev(
        "e2",
        2,
        "item.started",
        json!({"kind": "late"}),
    )]))
    .unwrap();
    assert_eq!(s.to_pretty(), before);
}

#[test]
fn sources_have_their_own_cursors_including_the_control_plane() {
    let mut s = session();
    let control = |id: &str, seq: u64, t: &str, p: Value| {
        with(
            with(ev(id, seq, t, p), "sourceKind", json!("control_plane")),
            "sourceInstanceId",
            json!("paperclip_1"),
        )
    };
    s.reduce(&typed(&[
        ev("r1", 1, "session.started", json!({})),
        control("c1", 1, "run.attached", json!({})),
        ev("r2", 2, "turn.started", json!({})),
        control("c2", 2, "run.detached", json!({})),
        with(
            ev("b1", 5, "runner.connected", json!({})),
            "sourceInstanceId",
            json!("runner_b"),
        ),
    ]))
    .unwrap();
    let cursors: Vec<(&str, u64)> = s
        .source_cursors()
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    assert_eq!(
        cursors,
        [
            ("runner:runner_a", 2),
            ("control_plane:paperclip_1", 2),
            ("runner:runner_b", 5)
        ],
        "first-insertion order"
    );
    // A new source starting above 1 is a gap of that source only.
    assert_eq!(s.gaps().len(), 1);
    assert_eq!(s.gaps()[0].source_key, "runner:runner_b");
    assert_eq!(s.gaps()[0].missing, [1, 2, 3, 4]);
    assert_eq!(summaries(&s)[1], "run attached");
    // The same sourceSeq from another source is not stale.
    assert_eq!(
        s.apply(&typed1(control("c3", 3, "run.attached", json!({}))))
            .unwrap(),
        Outcome::Applied
    );
}

#[test]
fn gaps_list_at_most_256_missing_numbers() {
    // (missingCount, numbers listed, truncated)
    let cases = [
        (256, 256, false),
        (257, 256, true),
        (300, 256, true),
        (1, 1, false),
    ];
    for (missing_count, listed, truncated) in cases {
        let received = 2 + missing_count;
        let mut s = session();
        s.reduce(&typed(&[
            ev("e1", 1, "session.started", json!({})),
            ev("e2", received, "turn.started", json!({})),
        ]))
        .unwrap();
        let gap = &s.gaps()[0];
        assert_eq!(gap.expected, 2);
        assert_eq!(gap.missing_count, received - 2);
        assert_eq!(gap.missing.len(), listed);
        assert!(listed as u64 <= MAX_GAP_MISSING);
        assert_eq!(gap.missing.first(), Some(&2));
        assert_eq!(gap.missing.last(), Some(&(1 + listed as u64)));
        assert_eq!(gap.truncated, truncated, "received {received}");
        assert_eq!(s.integrity(), Integrity::GapDetected);
    }
    // The largest sourceSeq: a huge gap costs 256 numbers, not 2^53.
    let mut s = session();
    s.apply(&typed1(ev(
        "far",
        reducer::MAX_SOURCE_SEQ,
        "session.started",
        json!({}),
    )))
    .unwrap();
    let gap = &s.gaps()[0];
    assert_eq!(
        (gap.missing_count, gap.missing.len(), gap.truncated),
        (reducer::MAX_SOURCE_SEQ - 1, 256, true)
    );
    let summary = s.summary().to_value();
    assert_eq!(
        summary["gaps"][0]["missingCount"],
        json!(9_007_199_254_740_990_u64)
    );
}

#[test]
fn the_gap_entry_keeps_the_golden_key_order() {
    let mut s = session();
    s.apply(&typed1(ev("e", 3, "session.started", json!({}))))
        .unwrap();
    let text = s.summary().to_pretty();
    let keys = [
        "sourceKey",
        "expected",
        "received",
        "missingCount",
        "missing",
        "truncated",
    ];
    let positions: Vec<usize> = keys
        .iter()
        .map(|k| text.find(&format!("\"{k}\"")).unwrap())
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
}

#[test]
fn runtime_requests_are_created_resolved_expired_and_cancelled() {
    let mut s = session();
    let req = |id: &str, t: &str, prompt: &str| {
        json!({"request": {"schema": "paperclip.runtime_request.v1", "requestKind": "runtime",
                           "requestId": id, "type": t, "status": "pending", "prompt": prompt}})
    };
    s.reduce(&typed(&[
        ev(
            "e1",
            1,
            "runtime_request.created",
            req("q1", "permission", "Run the tests?"),
        ),
        ev("e2", 2, "runtime_request.created", req("q2", "input", "")),
        ev(
            "e3",
            3,
            "runtime_request.created",
            json!({"requestId": "q3", "requestKind": "interaction"}),
        ),
        ev(
            "e4",
            4,
            "runtime_request.resolved",
            json!({"requestId": "q1"}),
        ),
        ev(
            "e5",
            5,
            "runtime_request.expired",
            json!({"requestId": "q2"}),
        ),
        ev(
            "e6",
            6,
            "runtime_request.cancelled",
            json!({"requestId": "q3"}),
        ),
        ev(
            "e7",
            7,
            "runtime_request.cancelled",
            json!({"requestId": "nobody"}),
        ),
        ev("e8", 8, "runtime_request.resolved", json!({})),
        ev(
            "e9",
            9,
            "runtime_request.created",
            req("q1", "other", "ignored: q1 exists"),
        ),
        ev(
            "e10",
            10,
            "runtime_request.created",
            json!({"request": null, "type": "flat"}),
        ),
        ev(
            "e11",
            11,
            "runtime_request.expired",
            json!({"requestId": "ends in space "}),
        ),
    ]))
    .unwrap();
    assert_eq!(
        summaries(&s),
        [
            "permission: Run the tests?",
            "input request",
            "runtime request",
            "Resolved permission: Run the tests?",
            "Expired input request",
            "Cancelled runtime request",
            "Cancelled runtime request nobody",
            "Resolved runtime request",
            "other: ignored: q1 exists",
            "flat request",
            "Expired runtime request ends in space",
        ]
    );
    let requests = s.to_value()["requests"].clone();
    assert_eq!(
        requests,
        json!([
            {"requestId": "q1", "requestKind": "runtime", "type": "permission", "status": "resolved", "prompt": "Run the tests?"},
            {"requestId": "q2", "requestKind": "runtime", "type": "input", "status": "expired", "prompt": ""},
            {"requestId": "q3", "requestKind": "interaction", "type": "runtime", "status": "cancelled", "prompt": ""}
        ])
    );
}

#[test]
fn items_follow_the_projection_rules() {
    let mut s = session();
    let item =
        |id: &str, seq: u64, t: &str, p: Value| with(ev(id, seq, t, p), "itemId", json!("i1"));
    s.reduce(&typed(&[
        item("e1", 1, "item.delta", json!({"text": "Hel"})),
        item("e2", 2, "item.delta", json!({"text": "lo"})),
        item("e3", 3, "item.started", json!({"text": ""})),
        item("e4", 4, "item.delta", json!({})),
        item(
            "e5",
            5,
            "item.failed",
            json!({"message": "boom", "kind": "command"}),
        ),
        ev("e6", 6, "item.completed", json!({"kind": "no item id"})),
        with(
            ev("e7", 7, "item.completed", json!({"text": "new"})),
            "itemId",
            json!("i2"),
        ),
    ]))
    .unwrap();
    let items = s.to_value()["items"].clone();
    assert_eq!(
        items,
        json!([
            {"itemId": "i1", "kind": "command", "status": "failed", "text": "Hello"},
            {"itemId": "i2", "kind": "diagnostic", "status": "completed", "text": "new"}
        ])
    );
    assert_eq!(
        s.items().get("i1").map(|i| i.status),
        Some(ItemStatus::Failed)
    );
    assert_eq!(
        summaries(&s),
        [
            "Hel",
            "lo",
            "Started item",
            "Item updated",
            "boom",
            "Completed no item id",
            "Completed item"
        ]
    );
    // The timeline carries itemId only when the event has one.
    let timeline = s.to_value()["timeline"].clone();
    assert!(timeline[5].get("itemId").is_none());
    assert_eq!(timeline[6]["itemId"], "i2");
}

#[test]
fn session_turn_and_phase_projections() {
    let mut s = session();
    s.reduce(&typed(&[
        ev(
            "e1",
            1,
            "runtime.phase.changed",
            json!({"phase": "harness_starting"}),
        ),
        ev("e2", 2, "runtime.phase.changed", json!({"phase": 7})),
        ev("e3", 3, "session.resumed", json!({})),
        with(
            ev("e4", 4, "turn.started", json!({})),
            "turnId",
            json!("t1"),
        ),
    ]))
    .unwrap();
    assert_eq!(s.run_phase(), "harness_starting");
    assert_eq!(s.active_turn_id(), Some("t1"));
    assert_eq!(
        summaries(&s)[..2],
        [
            "Phase changed to harness starting",
            "Phase changed to unknown"
        ]
    );
    s.reduce(&typed(&[
        ev("e5", 5, "turn.cancelled", json!({})),
        ev("e6", 6, "session.failed", json!({})),
        ev2(
            "e7",
            7,
            "run.terminal",
            json!({"runTerminalState": "cancelled", "futureTerminalReason": {"b": 1, "a": 2}}),
        ),
        ev("e8", 8, "turn.started", json!({})),
        ev("e9", 9, "session.updated", json!({})),
    ]))
    .unwrap();
    // Events after run.terminal are still applied; the terminal does not touch session or turn.
    assert_eq!(s.run_phase(), "terminal");
    assert_eq!(s.turn_state(), TurnState::Running);
    assert_eq!(s.active_turn_id(), None, "turn.started without a turnId");
    assert_eq!(s.session_state(), SessionState::Failed);
    assert_eq!(
        summaries(&s)[6..],
        ["Run cancelled", "turn started", "session updated"]
    );
    let summary = s.summary().to_value();
    assert_eq!(summary["runTerminalState"], "cancelled");
    assert_eq!(summary["turnTerminalState"], Value::Null);
    // Unknown members of the copied terminal keep their input order.
    assert!(
        s.to_pretty()
            .contains("\"futureTerminalReason\": {\n      \"b\": 1,\n      \"a\": 2\n    }")
    );
}

#[test]
fn diagnostics_summaries() {
    let mut s = session();
    s.reduce(&typed(&[
        ev(
            "e1",
            1,
            "runner.diagnostic",
            json!({"message": "disk low", "code": "disk_low"}),
        ),
        ev(
            "e2",
            2,
            "harness.diagnostic",
            json!({"message": "", "code": "harness_slow_start"}),
        ),
        ev("e3", 3, "runner.diagnostic", json!({"code": ""})),
        ev("e4", 4, "harness.diagnostic", json!({})),
        ev2("e5", 5, "run.result.proposed", json!({"summary": 5})),
        ev2("e6", 6, "run.terminal", json!({})),
    ]))
    .unwrap();
    assert_eq!(
        summaries(&s),
        [
            "disk low",
            "Harness slow start",
            "runner diagnostic",
            "harness diagnostic",
            "Structured result proposed",
            "Run terminal"
        ]
    );
}

#[test]
fn v2_events_reduce_like_v1_events() {
    let v2 = ev2;
    let capability = json!({
        "availability": "unsupported", "actions": [], "autonomousUpdates": false,
        "persistentAcrossResume": false, "maxObjectiveChars": 1, "tokenBudgetControl": false,
        "usageReporting": false
    });
    let mut s = session();
    s.reduce(&typed(&[
        v2("g1", 1, "session.started", json!({})),
        v2("g2", 2, "session.goal.snapshot", json!({"goal": null})),
        v2(
            "g3",
            3,
            "session.capabilities.updated",
            json!({ "sessionGoals": capability }),
        ),
        v2("g4", 4, "session.goal.cleared", json!({})),
        v2(
            "g5",
            5,
            "run.terminal",
            json!({"turnTerminalState": "completed", "runTerminalState": "succeeded"}),
        ),
    ]))
    .unwrap();
    assert_eq!(
        summaries(&s),
        [
            "session started",
            "session goal snapshot",
            "session capabilities updated",
            "session goal cleared",
            "Run succeeded"
        ]
    );
    assert_eq!(s.session_state(), SessionState::Running);
    assert_eq!(s.run_phase(), "terminal");
    assert_eq!(
        s.timeline().get(1).map(|e| e.event_type()),
        Some("session.goal.snapshot")
    );
}

/// PROTOCOL-V3 §5: the three v3 events take the default summary, project nothing and change no
/// state.
#[test]
fn v3_events_are_timeline_only_with_the_default_summary() {
    let binding = json!({
        "companyId": "c", "agentId": "a", "bindingId": "b", "runId": "run_s",
        "normalizedSessionId": "s", "turnId": "t", "bindingGeneration": 1, "assignmentRevision": 1
    });
    let v3 = |id: &str, seq: u64, event_type: &str, payload: Value| {
        let e = with(
            ev(id, seq, event_type, payload),
            "schema",
            json!("paperclip.prp.event.v3"),
        );
        typed1(with(e, "schemaVersion", json!(3)))
    };
    let events = [
        v3(
            "x1",
            1,
            "external_provider.dispatch_requested",
            json!({ "binding": binding, "kind": "authority_revoked", "externalStopConfirmed": false }),
        ),
        v3(
            "x2",
            2,
            "external_provider.operation_settled",
            json!({ "binding": binding, "requestId": "r1", "outcome": { "status": "ok" } }),
        ),
    ];
    let mut s = session();
    let before = s.to_value();
    s.reduce(&events).unwrap();
    assert_eq!(
        summaries(&s),
        [
            "external_provider dispatch_requested",
            "external_provider operation_settled"
        ]
    );
    let mut after = s.to_value();
    let mut expected = before;
    for v in [&mut after, &mut expected] {
        for bookkeeping in ["timeline", "sourceCursors", "processedEventIds"] {
            v.as_object_mut().unwrap().remove(bookkeeping);
        }
    }
    assert_eq!(
        after, expected,
        "nothing but the timeline and the processed events moved"
    );
}

#[test]
fn event_types_without_a_rule_are_timeline_only() {
    let mut s = session();
    let before = s.to_value();
    s.apply(&typed1(ev("x1", 1, "usage.reported", json!({"kind": "x"}))))
        .unwrap();
    assert_eq!(summaries(&s), ["usage reported"]);
    assert_eq!(
        s.timeline().get(0).map(|e| e.event_type()),
        Some("usage.reported")
    );
    let after = s.to_value();
    assert_eq!(after["items"], before["items"], "`kind` is not an item's");
    assert_eq!(after["runPhase"], before["runPhase"]);
}

fn plan(plan_id: &str, revision: u64, steps: &[(&str, &str)]) -> Value {
    let steps: Vec<Value> = steps
        .iter()
        .map(|(id, status)| json!({"stepId": id, "body": format!("do {id}"), "status": status}))
        .collect();
    json!({
        "schema": "paperclip.plan.updated.v1", "planId": plan_id, "revision": revision,
        "explanation": null, "steps": steps, "complete": false,
        "syncStatus": "not_applicable", "documentRevision": null
    })
}

#[test]
fn the_plan_projection_keeps_the_latest_applied_plan_per_plan_id() {
    let mut s = session();
    let other = |id: &str, seq: u64, p: Value| {
        with(
            ev(id, seq, "plan.updated", p),
            "sourceInstanceId",
            json!("runner_b"),
        )
    };
    s.reduce(&typed(&[
        with(
            ev(
                "p1",
                1,
                "plan.updated",
                plan("plan_a", 1, &[("s1", "in_progress"), ("s2", "pending")]),
            ),
            "turnId",
            json!("t1"),
        ),
        ev(
            "p2",
            2,
            "plan.updated",
            plan("plan_b", 1, &[("x", "pending")]),
        ),
        ev(
            "p3",
            3,
            "plan.updated",
            plan("plan_a", 2, &[("s2", "completed")]),
        ),
        // Stale: not applied, so it does not replace the newer plan.
        ev(
            "p_stale",
            2,
            "plan.updated",
            plan("plan_a", 9, &[("old", "blocked")]),
        ),
        // A duplicate delivery changes nothing.
        ev(
            "p3",
            3,
            "plan.updated",
            plan("plan_a", 2, &[("s2", "completed")]),
        ),
        // Another stream: application order decides; revision is informational.
        other("q1", 1, plan("plan_a", 1, &[("s3", "blocked")])),
        // Not a plan (a v2 payload is only checked to be an object): left out.
        ev2(
            "p4",
            4,
            "plan.updated",
            json!({"planId": "plan_b", "steps": "nope"}),
        ),
    ]))
    .unwrap();
    let plans = s.plans();
    assert_eq!(plans.len(), 2);
    let ids: Vec<&str> = plans.iter().map(|p| p.plan.plan_id.as_str()).collect();
    assert_eq!(ids, ["plan_a", "plan_b"], "first-seen order");
    let a = plans.get("plan_a").unwrap();
    assert_eq!(
        (
            a.source_event_id.as_str(),
            a.source_key.as_str(),
            a.source_seq
        ),
        ("q1", "runner:runner_b", 1)
    );
    assert_eq!(a.plan.revision, 1);
    assert_eq!(a.plan.steps.len(), 1, "steps are replaced, never merged");
    assert_eq!(a.plan.steps[0].step_id, "s3");
    assert_eq!(plans.get("plan_b").unwrap().plan.steps[0].step_id, "x");
    assert_eq!(plans.rejected(), ["p4"]);
    // The plan projection is not part of the golden snapshot.
    let golden = s.to_value();
    assert!(golden.get("plans").is_none());
    assert_eq!(golden.as_object().unwrap().len(), 19);
    assert_eq!(summaries(&s)[0], "plan updated");
}

#[test]
fn the_plan_projection_follows_source_seq_within_a_stream_fed_one_by_one() {
    let mut s = session();
    s.apply(&typed1(ev(
        "p2",
        2,
        "plan.updated",
        plan("plan", 2, &[("b", "completed")]),
    )))
    .unwrap();
    s.apply(&typed1(ev(
        "p1",
        1,
        "plan.updated",
        plan("plan", 1, &[("a", "pending")]),
    )))
    .unwrap();
    assert_eq!(s.plans().get("plan").unwrap().plan.steps[0].step_id, "b");
}

#[test]
fn a_sequence_out_of_range_is_an_error_and_leaves_the_snapshot_unchanged() {
    let mut s = session();
    s.apply(&typed1(ev("e1", 1, "session.started", json!({}))))
        .unwrap();
    let before = s.to_pretty();
    // Decoded events always fit; a value changed in code may not.
    for (seq, pointer) in [(-3, "/1/sourceSeq"), (1 << 53, "/1/sourceSeq")] {
        let mut batch = typed(&[
            ev("e2", 2, "turn.started", json!({})),
            ev("e3", 3, "turn.completed", json!({})),
        ]);
        let FixtureEvent::Event(e) = &mut batch[1] else {
            panic!("a v1 event")
        };
        e.source_seq = seq;
        let err = s.reduce(&batch).unwrap_err();
        assert_eq!(
            (err.pointer.as_str(), err.code),
            (pointer, prp_types::Code::InvalidMember),
            "{err}"
        );
        assert_eq!(
            s.to_pretty(),
            before,
            "nothing applied before the bad event"
        );
        let err = s.apply(&batch[1]).unwrap_err();
        assert_eq!(err.pointer, "/sourceSeq");
        assert!(
            err.to_string()
                .starts_with("invalid_member at /sourceSeq: "),
            "{err}"
        );
    }
}

#[test]
fn malformed_fixture_bytes_are_errors() {
    for bad in [
        &b"{"[..],
        b"[]",
        b"{\"schema\": \"paperclip.prp.fixture.v1\"}",
        &[0xff, 0xfe],
    ] {
        assert!(reducer::replay_fixture_bytes(bad).is_err());
    }
}

#[test]
fn copies_keep_input_key_order_unknown_members_and_numbers() {
    let mut s = session();
    s.apply(&typed1(ev2(
        "e1",
        1,
        "run.result.proposed",
        json!({"z": 1.0, "a": [1e21, 0.5, -0.0], "m": {"y": true, "x": null}}),
    )))
    .unwrap();
    let text = s.to_pretty();
    assert!(
        text.contains("\"proposedResult\": {\n    \"z\": 1,\n    \"a\": [\n      1e+21,\n      0.5,\n      0\n    ],\n    \"m\": {\n      \"y\": true,\n      \"x\": null\n    }\n  },"),
        "{text}"
    );
    assert!(text.contains("\"futureKey\": [\n      1.5,\n      2\n    ]"));
}

#[test]
fn duplicate_ids_are_sorted_by_utf16_code_units() {
    let mut s = session();
    let ids = ["\u{ffff}b", "\u{10000}a", "a"];
    let mut batch = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        batch.push(ev(id, i as u64 + 1, "session.updated", json!({})));
        batch.push(ev(id, i as u64 + 1, "session.updated", json!({})));
    }
    let batch = typed(&batch);
    s.reduce(&batch).unwrap();
    assert_eq!(
        s.duplicate_event_ids().collect::<Vec<_>>(),
        ["a", "\u{10000}a", "\u{ffff}b"]
    );
    // Listed again in a later batch: still once.
    s.reduce(&batch[..2]).unwrap();
    assert_eq!(s.duplicate_event_ids().count(), 3);
}

#[test]
fn the_project_happy_path_keeps_its_latest_plan() {
    let bytes = fs::read(project_fixtures().join("replay/happy-path.json")).unwrap();
    let snapshot = reducer::replay_fixture_bytes(&bytes).unwrap();
    let plans = snapshot.plans();
    assert_eq!(plans.len(), 1);
    let entry = plans.iter().next().unwrap();
    assert_eq!(entry.plan.revision, 2);
    assert!(entry.plan.complete);
    assert!(entry.plan.explanation.is_absent());
    assert_eq!(entry.turn_id.as_deref(), Some("turn_rs_happy_1"));
    assert!(plans.rejected().is_empty());
}

#[test]
fn deltas_interleaved_across_many_items_reach_their_own_item() {
    // More items streaming at once than the reducer remembers as recent.
    let mut s = session();
    let mut batch = Vec::new();
    let mut want: Vec<String> = vec![String::new(); 7];
    for round in 0..5 {
        for (item, text) in want.iter_mut().enumerate() {
            let seq = (round * 7 + item + 1) as u64;
            let delta = format!("{round}{item} ");
            batch.push(with(
                ev(
                    &format!("d{seq}"),
                    seq,
                    "item.delta",
                    json!({"text": delta}),
                ),
                "itemId",
                json!(format!("item{}", (item * 3) % 7)),
            ));
            text.push_str(&delta);
        }
    }
    s.reduce(&typed(&batch)).unwrap();
    let items: Vec<(&str, &str)> = s.items().iter().map(|item| (item.id, item.text)).collect();
    let order: Vec<String> = (0..7).map(|i| format!("item{}", (i * 3) % 7)).collect();
    let expected: Vec<(&str, &str)> = order
        .iter()
        .zip(&want)
        .map(|(id, text)| (id.as_str(), text.as_str()))
        .collect();
    assert_eq!(items, expected);
}

/// Large batches against one event at a time and against a direct model of PROTOCOL §2.3's
/// identity rules: the batch path probes and records ids a chunk at a time, so its batches cross
/// chunk boundaries, with ids repeated within and across chunks, stale and gapped sequences.
mod batches {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{HashMap, HashSet};

    /// (id from a small pool, step of the source's sequence, source, event kind, item).
    type Spec = (u16, i8, bool, u8, u8);

    fn stream() -> impl Strategy<Value = Vec<Spec>> {
        prop::collection::vec(
            (0u16..500, -2i8..=3, any::<bool>(), 0u8..4, 0u8..9),
            0..1200,
        )
    }

    fn events(specs: &[Spec]) -> Vec<Value> {
        let mut seqs = [0i64; 2];
        specs
            .iter()
            .map(|&(id, step, second, kind, item)| {
                let seq = &mut seqs[usize::from(second)];
                *seq = (*seq + i64::from(step)).max(1);
                let (event_type, payload) = match kind {
                    0 => ("item.delta", json!({ "text": format!("{id} ") })),
                    1 => ("item.started", json!({ "kind": "reasoning" })),
                    2 => ("turn.started", json!({})),
                    _ => ("session.started", json!({})),
                };
                let mut e = ev(&format!("e{id}"), *seq as u64, event_type, payload);
                e["sourceInstanceId"] = json!(if second { "runner_b" } else { "runner_a" });
                e["itemId"] = json!(format!("item{item}"));
                e
            })
            .collect()
    }

    /// `processedEventIds` and `outOfOrderEventIds` straight from the rules: a known id is
    /// dropped, a sequence not past its source's cursor is listed, anything else applies.
    fn model(events: &[Value]) -> (Vec<String>, Vec<String>) {
        let mut processed = Vec::new();
        let mut known = HashSet::new();
        let mut out_of_order: Vec<String> = Vec::new();
        let mut cursors: HashMap<String, u64> = HashMap::new();
        for e in events {
            let id = e["sourceEventId"].as_str().unwrap().to_owned();
            let source = e["sourceInstanceId"].as_str().unwrap().to_owned();
            let seq = e["sourceSeq"].as_u64().unwrap();
            if known.contains(&id) {
                continue;
            }
            let cursor = cursors.entry(source).or_insert(0);
            if seq <= *cursor {
                if !out_of_order.contains(&id) {
                    out_of_order.push(id);
                }
                continue;
            }
            *cursor = seq;
            known.insert(id.clone());
            processed.push(id);
        }
        (processed, out_of_order)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn one_batch_equals_one_event_at_a_time_and_the_rules(specs in stream()) {
            let json = events(&specs);
            let events = typed(&json);
            let mut whole = session();
            let outcome = whole.reduce(&events).unwrap();
            let mut single = session();
            let mut counts = BatchOutcome::default();
            for e in &events {
                match single.apply(e).unwrap() {
                    Outcome::Applied => counts.applied += 1,
                    Outcome::AlreadyProcessed => counts.already_processed += 1,
                    Outcome::OutOfOrder => counts.out_of_order += 1,
                }
            }
            prop_assert_eq!(outcome, counts);
            let (processed, out_of_order) = model(&json);
            prop_assert_eq!(whole.processed_event_ids().collect::<Vec<_>>(), processed);
            prop_assert_eq!(whole.out_of_order_event_ids().collect::<Vec<_>>(), out_of_order);
            for e in &json {
                let id = e["sourceEventId"].as_str().unwrap();
                prop_assert_eq!(whole.is_processed(id), single.is_processed(id));
            }
            let mut got = whole.to_value();
            let listed = duplicates_within_chunks(&events, events.len().max(1));
            prop_assert_eq!(&got["duplicateEventIds"], &json!(listed));
            got["duplicateEventIds"] = json!([]);
            prop_assert_eq!(got, single.to_value());
        }
    }
}

#[test]
fn ids_applied_long_ago_are_still_known() {
    // More applied events than one generation of the processed-id index holds (57,344), so that
    // older ids sit in frozen generations behind the filter, which is rebuilt as it fills.
    let n: u64 = 130_000;
    let mut s = session();
    let events: Vec<FixtureEvent> = (1..=n)
        .map(|seq| typed1(ev(&format!("long{seq}"), seq, "session.updated", json!({}))))
        .collect();
    for batch in events.chunks(5_000) {
        s.reduce(batch).unwrap();
    }
    assert_eq!(s.timeline().len() as u64, n);
    assert!((1..=n).all(|seq| s.is_processed(&format!("long{seq}"))));
    assert!((1..=n).all(|seq| !s.is_processed(&format!("never{seq}"))));
    // Redelivered from the first, a middle and the current generation with fresh sequence numbers:
    // dropped as processed, not applied and not out of order.
    assert_eq!(
        s.apply(&typed1(ev("long7", n + 1, "session.updated", json!({}))))
            .unwrap(),
        Outcome::AlreadyProcessed
    );
    let again = [
        ev("long60000", n + 2, "session.updated", json!({})),
        ev("long129999", n + 3, "session.updated", json!({})),
        ev("fresh", n + 4, "session.updated", json!({})),
    ];
    let outcome = s.reduce(&typed(&again)).unwrap();
    assert_eq!((outcome.already_processed, outcome.applied), (2, 1));
    assert_eq!(s.out_of_order_event_ids().count(), 0);
}
