//! The fixture contract pipeline (PROTOCOL §1.7): `parse → version checks → schema → binding
//! checks`, fail-closed at each stage.
//!
//! Each stage runs only when the previous one found nothing, so a fixture that needs an unknown
//! version is reported as exactly that (`unsupported_required_version`) and never as the schema
//! errors it also has. Stage 1 and the canonical-JSON comparisons of stage 3 work on the parsed
//! [`Value`] (typed structs do not keep unknown members in input order); stage 2 is the generated
//! typed decode, so a valid fixture comes back as both the value and the typed [`Fixture`].
//!
//! Decision on the Open point of §1.7: an event whose `schemaVersion` is greater than the
//! fixture's `protocolVersion` is rejected in stage 1 (`unsupported_required_version` at
//! `/events/i/schemaVersion`), because a v2 event cannot occur in a run negotiated at v1. The check
//! runs only when both numbers are supported versions, so it never doubles another stage-1 issue.

mod binding;
mod versions;

pub(crate) use versions::{tag_version, unread_version};

use crate::decode::{self, MAX_DOCUMENT_BYTES};
pub use crate::issue::{Code, Issue};
use crate::types::{Event, EventV2, Fixture, FixtureEvent};
use serde_json::Value;

/// A document that passed every stage: the parsed value (input key order kept) and its typed form.
#[derive(Debug, Clone, PartialEq)]
pub struct Validated<T> {
    /// The document as parsed, members in input order (stage 3 compares canonical JSON of it).
    pub value: Value,
    /// The document as its generated type.
    pub typed: T,
}

/// The result of the pipeline: `document` is `Some` exactly when `issues` is empty.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome<T> {
    /// The document, when every stage passed.
    pub document: Option<Validated<T>>,
    /// What the first failing stage found, in the order found; empty when the document passed.
    pub issues: Vec<Issue>,
}

impl<T> Outcome<T> {
    fn valid(value: Value, typed: T) -> Self {
        Outcome {
            document: Some(Validated { value, typed }),
            issues: Vec::new(),
        }
    }

    fn invalid(issues: Vec<Issue>) -> Self {
        Outcome {
            document: None,
            issues,
        }
    }

    /// Whether the document passed every stage.
    pub fn ok(&self) -> bool {
        self.document.is_some()
    }

    /// The validated document, or the issues that rejected it.
    pub fn into_result(self) -> Result<Validated<T>, Vec<Issue>> {
        self.document.ok_or(self.issues)
    }

    /// The reference's outcome shape `{ok, fixture, issues}`, with the document's value as `fixture`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "ok": self.ok(),
            "fixture": self.document.as_ref().map_or(Value::Null, |d| d.value.clone()),
            "issues": prp_codegen_runtime::to_json(&self.issues).unwrap_or(Value::Null),
        })
    }
}

/// The outcome of validating a replay fixture.
pub type FixtureOutcome = Outcome<Fixture>;

/// The outcome of validating one live event (v1 or v2).
pub type EventOutcome = Outcome<FixtureEvent>;

/// Stage 0: bytes to a JSON value, or the one issue (`invalid_json`, `too_large`, `too_deep`) that
/// decoding the same bytes would give.
fn parse(bytes: &[u8]) -> Result<Value, Issue> {
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(decode::too_large(bytes.len() as u64));
    }
    serde_json::from_slice(bytes).map_err(|e| decode::classify(&e, String::new(), bytes))
}

/// The whole pipeline on the bytes of a fixture (the reference's `parse_fixture_text`).
pub fn validate_fixture_bytes(bytes: &[u8]) -> FixtureOutcome {
    match parse(bytes) {
        Ok(value) => run_fixture(value, bytes),
        Err(issue) => Outcome::invalid(vec![issue]),
    }
}

/// The pipeline from stage 1 on an already parsed value (the reference's `validate_fixture`).
pub fn validate_fixture_value(value: &Value) -> FixtureOutcome {
    match serde_json::to_vec(value) {
        Ok(bytes) => run_fixture(value.clone(), &bytes),
        // A `Value` always serialises; keep the signature total anyway.
        Err(e) => Outcome::invalid(vec![Issue::new(Code::Encode, "", e.to_string())]),
    }
}

/// Stages 1–3; `bytes` is the text of `value`, which the typed decoder reads.
fn run_fixture(value: Value, bytes: &[u8]) -> FixtureOutcome {
    let issues = versions::fixture_issues(&value);
    if !issues.is_empty() {
        return Outcome::invalid(issues);
    }
    let fixture = match decode::decode::<Fixture>(bytes) {
        Ok(f) => f,
        Err(e) => return Outcome::invalid(vec![e]),
    };
    let issues = binding::issues(&fixture, &value);
    if issues.is_empty() {
        Outcome::valid(value, fixture)
    } else {
        Outcome::invalid(issues)
    }
}

/// Validates one event on the live path: an unsupported `schemaVersion` fails closed, then the v2
/// schema when `schemaVersion` is exactly 2 and the v1 schema otherwise (even when it is missing).
pub fn validate_event_bytes(bytes: &[u8]) -> EventOutcome {
    let value = match parse(bytes) {
        Ok(v) => v,
        Err(issue) => return Outcome::invalid(vec![issue]),
    };
    if let Some(issue) = versions::event_issue(&value) {
        return Outcome::invalid(vec![issue]);
    }
    let v2 = value
        .get("schemaVersion")
        .and_then(Value::as_f64)
        .is_some_and(|n| n == 2.0);
    let typed = if v2 {
        decode::decode::<EventV2>(bytes).map(FixtureEvent::EventV2)
    } else {
        decode::decode::<Event>(bytes).map(FixtureEvent::Event)
    };
    match typed {
        Ok(t) => Outcome::valid(value, t),
        Err(e) => Outcome::invalid(vec![e]),
    }
}
