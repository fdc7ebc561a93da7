//! The external-provider operation (PROTOCOL-V3 §3) as a runner checks it: the project's v3
//! command documents pass every check, and each check refuses what it is for, with its code and
//! the member it points at.

use prp_peer::external_provider::{
    Assignment, Input, Ledger, MAX_INPUT_BYTES, ProgressInput, Refusal, RenewInput, Replay,
    ToolInput, action_of, check, check_input_available, command, operation, redacted_digest,
    unredacted_digest, unredacted_input_digest,
};
use prp_peer::types::{CommandPayloadV3, CommandV3, EventPayloadV3, EventV3};
use serde_json::{Value, json};

fn documents() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents")
}

fn operation_in(file: &str) -> prp_peer::types::CommandPayloadExternalProviderOperationV3 {
    let bytes = std::fs::read(documents().join(file)).unwrap();
    let command: CommandV3 = prp_types::decode(&bytes).unwrap();
    match command.payload {
        CommandPayloadV3::ExternalProviderOperation(op) => *op,
        other => panic!("{file}: not an operation: {other:?}"),
    }
}

/// The assignment the fixture documents' operations were issued for.
fn assignment() -> Assignment {
    Assignment {
        binding_id: "mbind-7c31".into(),
        run_id: "run-9344".into(),
        normalized_session_id: "sess-5120".into(),
        turn_id: "turn-1".into(),
        binding_generation: 2,
        assignment_revision: 1,
    }
}

const ACTIONS: [&str; 7] = [
    "accept",
    "tool",
    "progress",
    "finish",
    "renew",
    "request-user-input",
    "consume-input",
];

#[test]
fn every_fixture_operation_passes_and_its_input_is_its_actions() {
    for action in ACTIONS {
        let file = format!("command-v3-external-provider-{action}.json");
        let op = operation_in(&file);
        check(&op, &assignment()).unwrap_or_else(|r| panic!("{file}: {r}"));
        assert_eq!(action_of(&op.input).unwrap(), op.action, "{file}");
        // Nothing in these inputs is redacted: both digests agree.
        assert_eq!(
            redacted_digest(op.action, &op.input),
            op.digest.as_str(),
            "{file}"
        );
    }
}

/// `op` with its payload changed by `edit` and its digest left as it was.
fn edited(
    op: &prp_peer::types::CommandPayloadExternalProviderOperationV3,
    edit: impl FnOnce(&mut Value),
) -> prp_peer::types::CommandPayloadExternalProviderOperationV3 {
    let mut v = serde_json::to_value(op).unwrap();
    edit(&mut v);
    serde_json::from_value(v).expect("the edit keeps the payload valid against its schema")
}

fn refusal(op: &prp_peer::types::CommandPayloadExternalProviderOperationV3) -> (String, String) {
    let r = check(op, &assignment()).expect_err("refused");
    (r.code().to_owned(), r.pointer())
}

#[test]
fn each_binding_member_must_be_the_assignments() {
    let op = operation_in("command-v3-external-provider-progress.json");
    for (member, value) in [
        ("bindingId", json!("mbind-other")),
        ("runId", json!("run-1")),
        ("normalizedSessionId", json!("sess-1")),
        ("turnId", json!("turn-2")),
        ("bindingGeneration", json!(3)),
        ("assignmentRevision", json!(2)),
    ] {
        let op = edited(&op, |v| v[member] = value);
        assert_eq!(
            refusal(&op),
            (
                "external_provider_binding_mismatch".into(),
                format!("/{member}")
            ),
            "{member}"
        );
    }
}

#[test]
fn request_ids_are_ascii_of_the_allowed_set() {
    let op = operation_in("command-v3-external-provider-accept.json");
    for bad in ["op 1", "op/1", "opé", "op#1"] {
        let op = edited(&op, |v| v["requestId"] = json!(bad));
        assert_eq!(
            refusal(&op),
            ("external_provider_request_id".into(), "/requestId".into()),
            "{bad}"
        );
    }
    let op = operation_in("command-v3-external-provider-consume-input.json");
    let op = edited(&op, |v| v["input"]["requestId"] = json!("in put"));
    let op = with_digest(op);
    assert_eq!(
        refusal(&op),
        (
            "external_provider_request_id".into(),
            "/input/requestId".into()
        )
    );
}

/// `op` with the digest of its own action and input, as an honest controller would send it.
fn with_digest(
    op: prp_peer::types::CommandPayloadExternalProviderOperationV3,
) -> prp_peer::types::CommandPayloadExternalProviderOperationV3 {
    let digest = unredacted_digest(op.action, &op.input);
    edited(&op, |v| v["digest"] = json!(digest))
}

#[test]
fn the_input_is_exactly_its_actions() {
    // Decoding already holds the input to its action's members.
    let op = operation_in("command-v3-external-provider-progress.json");
    let mut v = serde_json::to_value(&op).unwrap();
    v["input"]["note"] = json!("x");
    let e = prp_types::decode::<prp_peer::types::CommandPayloadExternalProviderOperationV3>(
        &serde_json::to_vec(&v).unwrap(),
    )
    .unwrap_err();
    assert_eq!(e.pointer, "/input/note", "{e}");
    // A value changed in code so that its input is another action's is refused by the check.
    let mut changed = op.clone();
    changed.action =
        action_of(&operation_in("command-v3-external-provider-tool.json").input).unwrap();
    let r = check(&changed, &assignment()).unwrap_err();
    assert_eq!(r.code(), "external_provider_invalid", "{r}");
}

#[test]
fn the_digest_is_the_unredacted_one() {
    let op = operation_in("command-v3-external-provider-tool.json");
    let changed = edited(&op, |v| {
        v["input"]["arguments"]["key"] = json!("paid-invoices")
    });
    let r = check(&changed, &assignment()).unwrap_err();
    assert_eq!(
        (r.code(), r.pointer().as_str()),
        ("external_provider_digest_mismatch", "/digest")
    );
    // A secret-looking member: the controller's redacted digest is not what the runner checks.
    let secret = edited(&op, |v| {
        v["input"]["arguments"] = json!({ "apiKey": "abc" })
    });
    let redacted = redacted_digest(secret.action, &secret.input);
    assert_ne!(redacted, unredacted_digest(secret.action, &secret.input));
    let sent = edited(&secret, |v| v["digest"] = json!(redacted));
    assert_eq!(refusal(&sent).0, "external_provider_digest_mismatch");
    assert!(check(&with_digest(secret), &assignment()).is_ok());
}

#[test]
fn an_input_past_256_kib_is_refused() {
    let op = operation_in("command-v3-external-provider-finish.json");
    let big = "x".repeat(MAX_INPUT_BYTES);
    let op = with_digest(edited(&op, |v| {
        v["input"]["result"] = json!({ "text": big })
    }));
    let r = check(&op, &assignment()).unwrap_err();
    assert_eq!(r.code(), "external_provider_input_too_large");
    assert!(r.to_string().contains("the limit is 262144"), "{r}");
}

#[test]
fn building_an_operation_computes_its_digest_and_refuses_what_redaction_changes() {
    let renew = RenewInput::builder()
        .expires_at_unix_ms(1_772_600_000_000_i64)
        .build()
        .unwrap();
    let op = operation("renew-9", &assignment(), Input::from(renew)).unwrap();
    assert_eq!(op.action.as_str(), "renew");
    assert_eq!(op.digest.as_str(), unredacted_digest(op.action, &op.input));
    check(&op, &assignment()).unwrap();

    let secret = ToolInput::builder()
        .name("login")
        .arguments(
            json!({ "password": "hunter2" })
                .as_object()
                .unwrap()
                .clone(),
        )
        .build()
        .unwrap();
    assert_eq!(
        operation("tool-9", &assignment(), Input::from(secret)).unwrap_err(),
        Refusal::Redacted
    );
    // The input's own rules are its type's: an empty progress text cannot be built.
    let empty = ProgressInput::builder().text("").build().unwrap_err();
    assert!(empty.to_string().contains("at least 1"), "{empty}");

    let progress = ProgressInput::builder().text("Reading").build().unwrap();
    let c = command(
        "cmd-1",
        7,
        "2026-03-04T08:13:05.000Z",
        "p-1",
        &assignment(),
        Input::from(progress),
    )
    .unwrap();
    let back: prp_peer::types::CommandV3 =
        prp_types::decode(&prp_types::encode(&c).unwrap()).unwrap();
    assert_eq!(back, c, "the built command decodes as itself");
}

#[test]
fn a_request_id_replays_its_outcome_and_refuses_another_operation() {
    let op = operation_in("command-v3-external-provider-tool.json");
    let mut ledger = Ledger::default();
    assert_eq!(ledger.replay(&op).unwrap(), Replay::New);
    let outcome = json!({ "status": "ok" }).as_object().unwrap().clone();
    ledger.settle(&op, outcome.clone());
    assert_eq!(ledger.replay(&op).unwrap(), Replay::Settled(&outcome));
    let other = with_digest(edited(&op, |v| {
        v["input"]["name"] = json!("write_document")
    }));
    assert_eq!(
        ledger.replay(&other).unwrap_err().code(),
        "external_provider_request_reused"
    );
}

#[test]
fn input_available_carries_the_digest_of_its_answer() {
    let bytes =
        std::fs::read(documents().join("event-v3-external-provider-input-available.json")).unwrap();
    let event: EventV3 = prp_types::decode(&bytes).unwrap();
    let EventPayloadV3::ExternalProviderInputAvailable(p) = event.payload else {
        panic!("not input_available");
    };
    assert_eq!(
        unredacted_input_digest(p.request_id.as_str(), p.turn_id.as_str(), &p.response),
        p.input_digest.as_str()
    );
    check_input_available(&p).unwrap();
    let mut other = (*p).clone();
    other.turn_id = "turn-2".try_into().unwrap();
    let r = check_input_available(&other).unwrap_err();
    assert_eq!(
        (r.code(), r.pointer().as_str()),
        ("external_provider_input_digest_mismatch", "/inputDigest")
    );
    // The consume_input operation names the same answer by the same digest.
    let consume = operation_in("command-v3-external-provider-consume-input.json");
    let Input::ConsumeInput(consume) = consume.input else {
        panic!("not consume_input");
    };
    assert_eq!(consume.input_digest.as_str(), p.input_digest.as_str());
}
