//! The fixture contract pipeline (PROTOCOL §1.7): `parse → version checks → schema → binding
//! checks`, fail-closed at each stage.
//!
//! Each stage runs only when the previous one found nothing, so a fixture that needs an unknown
//! version is reported as exactly that (`unsupported_required_version`) and never as the schema
//! errors it also has. Stage 1 and the canonical-JSON comparisons of stage 3 work on the parsed
//! [`Value`] (typed structs do not keep unknown members in input order); stage 2 is the generated
//! typed decode, so a valid fixture comes back as both the value and the typed [`Fixture`].
//!
//! The protocol versions the pipeline accepts are one value, a [`Contract`] (by default every
//! version this build knows, 1..=[`LATEST`]): a consumer of 1..2 runs the same code configured
//! with 1..2, and gets the texts and verdicts of a v1/v2 implementation.
//!
//! Decisions on the Open points of §1.7 and PROTOCOL-V3 §1, stricter where in doubt: an event
//! whose `schemaVersion` is greater than the fixture's `protocolVersion` is rejected in stage 1
//! (`unsupported_required_version` at `/events/i/schemaVersion`), because a v2 event cannot occur
//! in a run negotiated at v1; and an event whose `schema` is not `paperclip.prp.event.v{N}` for its
//! `schemaVersion` N is rejected there too (same code, at `/events/i/schema`), so that the two
//! version markers of an envelope cannot disagree. Each runs only when the numbers it compares are
//! versions the contract knows, so it never doubles another stage-1 issue.

mod binding;
mod versions;

use crate::decode::{self, MAX_DOCUMENT_BYTES};
pub use crate::issue::{Code, Issue};
use crate::negotiation::{NegotiationError, VersionRange};
use crate::types::{Event, EventV2, EventV3, Fixture, FixtureEvent};
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

/// The outcome of validating one live event (of any version the contract accepts).
pub type EventOutcome = Outcome<FixtureEvent>;

/// The highest protocol version this build knows: the one its newest schemas describe.
pub const LATEST: u32 = 3;

/// Every protocol version this build knows, `1..=LATEST`: the default range of a [`Contract`].
pub fn known() -> VersionRange {
    VersionRange::new(1, i64::from(LATEST)).expect("1..=LATEST is a well-formed range")
}

/// Why a range cannot configure the pipeline.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// Not `MIN..MAX` of integers with `1 <= MIN <= MAX`.
    #[error(transparent)]
    Malformed(#[from] NegotiationError),
    /// A version newer than this build: its schemas cannot check it, so it is refused here rather
    /// than accepted unchecked later.
    #[error("protocol range {range} goes beyond version {LATEST}, the newest this build knows")]
    BeyondKnown {
        /// The range as given.
        range: VersionRange,
    },
}

/// The contract pipeline for one range of protocol versions: stage 1 accepts a fixture's
/// `protocolVersion` in the range and event `schemaVersion`s up to its maximum, and words its
/// refusals with the range (`this implementation supports 1-3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Contract {
    protocol: VersionRange,
}

impl Default for Contract {
    /// Every version this build knows ([`known`]).
    fn default() -> Self {
        Contract { protocol: known() }
    }
}

impl Contract {
    /// The pipeline for `protocol`, refused when it names a version beyond [`LATEST`].
    pub fn new(protocol: VersionRange) -> Result<Self, RangeError> {
        if protocol.max() > LATEST {
            return Err(RangeError::BeyondKnown { range: protocol });
        }
        Ok(Contract { protocol })
    }

    /// The protocol versions this pipeline accepts.
    pub fn protocol(&self) -> VersionRange {
        self.protocol
    }

    /// The whole pipeline on the bytes of a fixture (the reference's `parse_fixture_text`).
    pub fn validate_fixture_bytes(&self, bytes: &[u8]) -> FixtureOutcome {
        match parse(bytes) {
            Ok(value) => self.run_fixture(value, bytes),
            Err(issue) => Outcome::invalid(vec![issue]),
        }
    }

    /// The pipeline from stage 1 on an already parsed value (the reference's `validate_fixture`).
    pub fn validate_fixture_value(&self, value: &Value) -> FixtureOutcome {
        match serde_json::to_vec(value) {
            Ok(bytes) => self.run_fixture(value.clone(), &bytes),
            // A `Value` always serialises; keep the signature total anyway.
            Err(e) => Outcome::invalid(vec![Issue::new(
                Code::Keyword(prp_types::Keyword::Encode),
                "",
                e.to_string(),
            )]),
        }
    }

    /// Stages 1–3; `bytes` is the text of `value`, which the typed decoder reads.
    fn run_fixture(&self, value: Value, bytes: &[u8]) -> FixtureOutcome {
        let issues = versions::fixture_issues(&value, self.protocol);
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

    /// Validates one event on the live path: a `schemaVersion` beyond the range fails closed, then
    /// the schema of the version it names (v1 when it is missing or not a known version's number).
    pub fn validate_event_bytes(&self, bytes: &[u8]) -> EventOutcome {
        let value = match parse(bytes) {
            Ok(v) => v,
            Err(issue) => return Outcome::invalid(vec![issue]),
        };
        if let Some(issue) = versions::event_issue(&value, self.protocol) {
            return Outcome::invalid(vec![issue]);
        }
        match decode_event(&value, bytes) {
            Ok(t) => Outcome::valid(value, t),
            Err(e) => Outcome::invalid(vec![e]),
        }
    }
}

impl std::str::FromStr for Contract {
    type Err = RangeError;
    /// `MIN..MAX` (or `N`), as `prp negotiate` reads a range, then [`Contract::new`].
    fn from_str(s: &str) -> Result<Self, RangeError> {
        Contract::new(s.parse()?)
    }
}

impl std::fmt::Display for Contract {
    /// The range, `MIN..MAX`, as [`std::str::FromStr`] reads it back.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.protocol.fmt(f)
    }
}

/// An event as the type of the version its `schemaVersion` names: v3 for 3, v2 for 2, v1
/// otherwise (stage 1 has already refused a version beyond the range).
fn decode_event(value: &Value, bytes: &[u8]) -> Result<FixtureEvent, Issue> {
    match versions::whole(value, "schemaVersion") {
        Some(3) => decode::decode::<EventV3>(bytes).map(FixtureEvent::EventV3),
        Some(2) => decode::decode::<EventV2>(bytes).map(FixtureEvent::EventV2),
        _ => decode::decode::<Event>(bytes).map(FixtureEvent::Event),
    }
}

/// Stage 0: bytes to a JSON value, or the one issue (`invalid_json`, `too_large`, `too_deep`) that
/// decoding the same bytes would give.
fn parse(bytes: &[u8]) -> Result<Value, Issue> {
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(decode::too_large(bytes.len() as u64));
    }
    serde_json::from_slice(bytes).map_err(|e| decode::classify(&e, String::new(), bytes))
}

/// [`Contract::validate_fixture_bytes`] under the default range (every version this build knows).
pub fn validate_fixture_bytes(bytes: &[u8]) -> FixtureOutcome {
    Contract::default().validate_fixture_bytes(bytes)
}

/// [`Contract::validate_fixture_value`] under the default range.
pub fn validate_fixture_value(value: &Value) -> FixtureOutcome {
    Contract::default().validate_fixture_value(value)
}

/// [`Contract::validate_event_bytes`] under the default range.
pub fn validate_event_bytes(bytes: &[u8]) -> EventOutcome {
    Contract::default().validate_event_bytes(bytes)
}
