//! The external-provider operation of PRP v3 (PROTOCOL-V3 §3–§4): the checks a runner makes
//! before it acts on one, its two digests, building one, and the replay of a request id already
//! seen. Its `input` is typed by its `action` in the generated types ([`Input`], one variant per
//! action, each closed), so a decoded operation already holds exactly its action's members.
//!
//! Decided on PROTOCOL-V3's Open point "which digest an API computes": each function says it in
//! its name. [`redacted_digest`] is what a controller puts in `digest` (PROTOCOL §4.11's redaction,
//! then canonical JSON); [`unredacted_digest`] is what a runner compares it with (canonical JSON
//! as it is). They agree unless redaction changes the input, so [`operation`] and [`command`]
//! (building an operation in Rust) compute both and refuse an input they disagree on: a runner
//! would refuse it.
//!
//! ```
//! use prp_peer::external_provider::{Assignment, Input, RenewInput, check, operation};
//!
//! let assignment = Assignment {
//!     binding_id: "bind-7".into(),
//!     run_id: "run-1".into(),
//!     normalized_session_id: "sess-1".into(),
//!     turn_id: "turn-3".into(),
//!     binding_generation: 2,
//!     assignment_revision: 5,
//! };
//! let renew = RenewInput::builder().expires_at_unix_ms(1_772_600_000_000_i64).build().unwrap();
//! let op = operation("renew-1", &assignment, Input::from(renew)).unwrap();
//! assert_eq!(op.action.as_str(), "renew");
//! check(&op, &assignment).unwrap();
//! ```

use std::fmt;

use serde_json::{Map, Value, json};

use crate::digest::{digest, unredacted};
use crate::types::{
    CommandPayloadExternalProviderOperationActionV3 as Action,
    CommandPayloadExternalProviderOperationInputAcceptV3,
    CommandPayloadExternalProviderOperationInputConsumeInputV3,
    CommandPayloadExternalProviderOperationInputFinishV3,
    CommandPayloadExternalProviderOperationInputProgressV3,
    CommandPayloadExternalProviderOperationInputRenewV3,
    CommandPayloadExternalProviderOperationInputRequestUserInputV3,
    CommandPayloadExternalProviderOperationInputToolV3,
    CommandPayloadExternalProviderOperationInputV3,
    CommandPayloadExternalProviderOperationV3 as Operation, CommandPayloadV3, CommandTypeV3,
    CommandV3, EventPayloadExternalProviderInputAvailableV3 as InputAvailable, QuestionResponse,
};
use prp_types::Validate as _;

/// The most bytes an operation's input may take as JSON (256 KiB).
pub const MAX_INPUT_BYTES: usize = 262_144;
/// The longest request id, in characters.
pub const MAX_REQUEST_ID: usize = 240;

/// An operation's `input`: one variant per action, chosen by `action`.
pub type Input = CommandPayloadExternalProviderOperationInputV3;
/// `accept`'s input: `{}`.
pub type AcceptInput = CommandPayloadExternalProviderOperationInputAcceptV3;
/// `tool`'s input: `name` and `arguments`.
pub type ToolInput = CommandPayloadExternalProviderOperationInputToolV3;
/// `progress`'s input: `text`.
pub type ProgressInput = CommandPayloadExternalProviderOperationInputProgressV3;
/// `finish`'s input: `result`.
pub type FinishInput = CommandPayloadExternalProviderOperationInputFinishV3;
/// `renew`'s input: `expiresAtUnixMs`.
pub type RenewInput = CommandPayloadExternalProviderOperationInputRenewV3;
/// `request_user_input`'s input: `requestId` and `questionSet`.
pub type RequestUserInputInput = CommandPayloadExternalProviderOperationInputRequestUserInputV3;
/// `consume_input`'s input: `requestId` and `inputDigest`.
pub type ConsumeInputInput = CommandPayloadExternalProviderOperationInputConsumeInputV3;

/// The action whose input `input` is.
pub fn action_of(input: &Input) -> Result<Action, Refusal> {
    Ok(match input {
        Input::Accept(_) => Action::Accept,
        Input::Tool(_) => Action::Tool,
        Input::Progress(_) => Action::Progress,
        Input::Finish(_) => Action::Finish,
        Input::Renew(_) => Action::Renew,
        Input::RequestUserInput(_) => Action::RequestUserInput,
        Input::ConsumeInput(_) => Action::ConsumeInput,
        other => {
            return Err(Refusal::Invalid {
                why: format!("an input this build has no action for: {other:?}"),
            });
        }
    })
}

/// The request id an input names, for the actions that have one.
fn input_request_id(input: &Input) -> Option<&str> {
    match input {
        Input::RequestUserInput(i) => Some(i.request_id.as_str()),
        Input::ConsumeInput(i) => Some(i.request_id.as_str()),
        _ => None,
    }
}

/// The assignment a runner holds for one external-provider binding: what every operation it
/// accepts must name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    /// `bindingId`.
    pub binding_id: String,
    /// `runId`.
    pub run_id: String,
    /// `normalizedSessionId`.
    pub normalized_session_id: String,
    /// `turnId`.
    pub turn_id: String,
    /// `bindingGeneration`.
    pub binding_generation: i64,
    /// `assignmentRevision`.
    pub assignment_revision: i64,
}

/// Why a runner refuses an operation or an `input_available` event (or why an operation cannot be
/// built): a stable code, the member it is about (a JSON pointer into the payload) and a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A request id that is empty, too long, or holds a character outside `[A-Za-z0-9._:-]`.
    RequestId {
        /// Where: `/requestId` or `/input/requestId`.
        pointer: &'static str,
    },
    /// A binding member that is not the assignment's.
    Binding {
        /// The member's JSON name.
        member: &'static str,
    },
    /// `digest` is not the unredacted digest of `{action, input}`.
    Digest {
        /// What the runner computed.
        expected: String,
    },
    /// `input_available`'s `inputDigest` is not the unredacted digest of its answer.
    InputDigest {
        /// What the runner computed.
        expected: String,
    },
    /// The input takes more than [`MAX_INPUT_BYTES`] as JSON.
    TooLarge {
        /// Its size.
        bytes: usize,
    },
    /// The request id was used before for another operation.
    RequestReused {
        /// The request id.
        request_id: String,
    },
    /// Redaction changes the input, so the digest a controller computes is not the one a runner
    /// checks: no runner would accept the operation.
    Redacted,
    /// What the schema refuses: a member against its rule, or an input that is not its
    /// action's (a value changed in code).
    Invalid {
        /// The failure, in words, located.
        why: String,
    },
}

impl Refusal {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::RequestId { .. } => "external_provider_request_id",
            Refusal::Binding { .. } => "external_provider_binding_mismatch",
            Refusal::Digest { .. } => "external_provider_digest_mismatch",
            Refusal::InputDigest { .. } => "external_provider_input_digest_mismatch",
            Refusal::TooLarge { .. } => "external_provider_input_too_large",
            Refusal::RequestReused { .. } => "external_provider_request_reused",
            Refusal::Redacted => "external_provider_input_redacted",
            Refusal::Invalid { .. } => "external_provider_invalid",
        }
    }

    /// The JSON pointer, into the command's `payload`, of what the refusal is about.
    pub fn pointer(&self) -> String {
        match self {
            Refusal::TooLarge { .. } | Refusal::Redacted => "/input".into(),
            Refusal::RequestId { pointer } => (*pointer).into(),
            Refusal::Binding { member } => format!("/{member}"),
            Refusal::Digest { .. } => "/digest".into(),
            Refusal::InputDigest { .. } => "/inputDigest".into(),
            Refusal::RequestReused { .. } => "/requestId".into(),
            Refusal::Invalid { .. } => "".into(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::RequestId { .. } => write!(
                f,
                "a request id is 1 to {MAX_REQUEST_ID} characters of A-Z, a-z, 0-9, `.`, `_`, `:` and `-`"
            ),
            Refusal::Binding { member } => {
                write!(f, "`{member}` is not the assignment's")
            }
            Refusal::Digest { expected } => write!(
                f,
                "`digest` is not the digest of the operation's action and input ({expected})"
            ),
            Refusal::InputDigest { expected } => write!(
                f,
                "`inputDigest` is not the digest of the request id, turn and response ({expected})"
            ),
            Refusal::TooLarge { bytes } => write!(
                f,
                "the input takes {bytes} bytes as JSON; the limit is {MAX_INPUT_BYTES}"
            ),
            Refusal::RequestReused { request_id } => write!(
                f,
                "request id `{request_id}` was used for another operation"
            ),
            Refusal::Redacted => f.write_str(
                "redaction changes the input, so the digest a controller computes is not the one a runner checks",
            ),
            Refusal::Invalid { why } => write!(f, "the operation breaks its schema: {why}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// Whether `id` is a request id a runner accepts.
pub fn is_request_id(id: &str) -> bool {
    (1..=MAX_REQUEST_ID).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
}

/// The digest a controller writes in `digest`: redacted (PROTOCOL §4.11), canonical JSON of
/// `{action, input}`, SHA-256, `sha256:` and hex.
pub fn redacted_digest(action: Action, input: &Input) -> String {
    digest(&operation_value(action, input))
}

/// The digest a runner checks `digest` against: canonical JSON of `{action, input}` as it is,
/// SHA-256, `sha256:` and hex.
pub fn unredacted_digest(action: Action, input: &Input) -> String {
    unredacted(&operation_value(action, input))
}

/// `input_available`'s `inputDigest` as a controller computes it: redacted, over
/// `{requestId, turnId, response}`.
pub fn redacted_input_digest(
    request_id: &str,
    turn_id: &str,
    response: &QuestionResponse,
) -> String {
    digest(&input_value(request_id, turn_id, response))
}

/// `input_available`'s `inputDigest` as a runner checks it: unredacted, over
/// `{requestId, turnId, response}`.
pub fn unredacted_input_digest(
    request_id: &str,
    turn_id: &str,
    response: &QuestionResponse,
) -> String {
    unredacted(&input_value(request_id, turn_id, response))
}

fn operation_value(action: Action, input: &Input) -> Value {
    json!({ "action": action.as_str(), "input": input })
}

fn input_value(request_id: &str, turn_id: &str, response: &QuestionResponse) -> Value {
    json!({ "requestId": request_id, "turnId": turn_id, "response": response })
}

/// The checks a runner makes before it acts on an operation (PROTOCOL-V3 §3): the schema's rules
/// (which also hold the input to exactly its action's members), the request ids, the binding
/// against `assignment`, the input's size, and the digest.
pub fn check(op: &Operation, assignment: &Assignment) -> Result<(), Refusal> {
    op.validate()
        .map_err(|i| Refusal::Invalid { why: i.to_string() })?;
    if !is_request_id(op.request_id.as_str()) {
        return Err(Refusal::RequestId {
            pointer: "/requestId",
        });
    }
    check_binding(op, assignment)?;
    if input_request_id(&op.input).is_some_and(|id| !is_request_id(id)) {
        return Err(Refusal::RequestId {
            pointer: "/input/requestId",
        });
    }
    let bytes = serde_json::to_vec(&op.input).map_or(usize::MAX, |b| b.len());
    if bytes > MAX_INPUT_BYTES {
        return Err(Refusal::TooLarge { bytes });
    }
    let expected = unredacted_digest(op.action, &op.input);
    if op.digest.as_str() != expected {
        return Err(Refusal::Digest { expected });
    }
    Ok(())
}

/// Checks that an `external_provider.input_available` event's `inputDigest` is the unredacted
/// digest of its `{requestId, turnId, response}`, as the runner that consumes the input compares
/// it (PROTOCOL-V3 §3–§4).
pub fn check_input_available(payload: &InputAvailable) -> Result<(), Refusal> {
    let expected = unredacted_input_digest(
        payload.request_id.as_str(),
        payload.turn_id.as_str(),
        &payload.response,
    );
    if payload.input_digest.as_str() == expected {
        Ok(())
    } else {
        Err(Refusal::InputDigest { expected })
    }
}

/// Refuses an operation whose binding members are not `assignment`'s, in payload order.
fn check_binding(op: &Operation, a: &Assignment) -> Result<(), Refusal> {
    let texts = [
        ("bindingId", op.binding_id.as_str(), a.binding_id.as_str()),
        ("runId", op.run_id.as_str(), a.run_id.as_str()),
        (
            "normalizedSessionId",
            op.normalized_session_id.as_str(),
            a.normalized_session_id.as_str(),
        ),
        ("turnId", op.turn_id.as_str(), a.turn_id.as_str()),
    ];
    if let Some((member, ..)) = texts.iter().find(|(_, got, want)| got != want) {
        return Err(Refusal::Binding { member });
    }
    let numbers = [
        (
            "bindingGeneration",
            &op.binding_generation,
            a.binding_generation,
        ),
        (
            "assignmentRevision",
            &op.assignment_revision,
            a.assignment_revision,
        ),
    ];
    match numbers
        .iter()
        .find(|(_, got, want)| got.as_i64() != Some(*want))
    {
        Some((member, ..)) => Err(Refusal::Binding { member }),
        None => Ok(()),
    }
}

/// Builds the payload of an `external_provider.operation` for `assignment`, its `action` the
/// input's and its digest computed. Refused when the schema refuses a member, or when redaction
/// would change the input (the controller's digest and the runner's would differ).
pub fn operation(
    request_id: &str,
    assignment: &Assignment,
    input: Input,
) -> Result<Operation, Refusal> {
    let action = action_of(&input)?;
    let digest = redacted_digest(action, &input);
    if digest != unredacted_digest(action, &input) {
        return Err(Refusal::Redacted);
    }
    Operation::builder()
        .request_id(request_id)
        .binding_id(assignment.binding_id.as_str())
        .run_id(assignment.run_id.as_str())
        .normalized_session_id(assignment.normalized_session_id.as_str())
        .turn_id(assignment.turn_id.as_str())
        .binding_generation(assignment.binding_generation)
        .assignment_revision(assignment.assignment_revision)
        .digest(digest.as_str())
        .action(action)
        .input(input)
        .build()
        .map_err(invalid)
}

/// The whole `external_provider.operation` command (`paperclip.prp.command.v3`), its payload as
/// [`operation`] builds it, checked as `validate` checks a command.
pub fn command(
    command_id: &str,
    controller_seq: i64,
    issued_at: &str,
    request_id: &str,
    assignment: &Assignment,
    input: Input,
) -> Result<CommandV3, Refusal> {
    let payload = operation(request_id, assignment, input)?;
    CommandV3::builder()
        .command_id(command_id)
        .controller_seq(controller_seq)
        .type_(CommandTypeV3::ExternalProviderOperation)
        .issued_at(issued_at)
        .payload(CommandPayloadV3::from(payload))
        .build()
        .map_err(invalid)
}

fn invalid(f: prp_types::Failure) -> Refusal {
    Refusal::Invalid { why: f.to_string() }
}

/// What a runner does with an operation's request id: act on it, answer with the outcome it
/// stored for the same operation, or refuse a request id another operation used.
#[derive(Debug, Clone, PartialEq)]
pub enum Replay<'a> {
    /// Not seen before: act, then [`Ledger::settle`].
    New,
    /// The same operation again: its stored outcome.
    Settled(&'a Map<String, Value>),
}

/// The operations a runner has settled, by request id, with the digest each carried.
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    settled: std::collections::BTreeMap<String, (String, Map<String, Value>)>,
}

impl Ledger {
    /// What to do with `op`: the same request id with the same digest replays the outcome; with
    /// another digest it is refused.
    pub fn replay(&self, op: &Operation) -> Result<Replay<'_>, Refusal> {
        match self.settled.get(op.request_id.as_str()) {
            None => Ok(Replay::New),
            Some((digest, outcome)) if digest == op.digest.as_str() => Ok(Replay::Settled(outcome)),
            Some(_) => Err(Refusal::RequestReused {
                request_id: op.request_id.as_str().to_owned(),
            }),
        }
    }

    /// Records the outcome of `op`, to be replayed to a resend.
    pub fn settle(&mut self, op: &Operation, outcome: Map<String, Value>) {
        self.settled.insert(
            op.request_id.as_str().to_owned(),
            (op.digest.as_str().to_owned(), outcome),
        );
    }
}
