//! Which protocol version each message type belongs to (PROTOCOL-V3 §1–§2), and what a peer does
//! with a message of a version the session does not speak.
//!
//! | message | version |
//! |---|---|
//! | `external_provider.operation` command, `external_provider.*` events | 3 |
//! | `session.goal.*` commands, `session.capabilities.updated` and `session.goal.*` events | 2 |
//! | everything else | 1 |
//!
//! A message is stamped with the lowest version whose schema has its type, so that every peer
//! that can read it does: the controller stamps commands `paperclip.prp.command.v{N}`, a runner
//! stamps events `schemaVersion: N` and `paperclip.prp.event.v{N}`.
//!
//! Below negotiation, the contract pipeline and the goal gate, which all ask it: the version a
//! union variant's tag names, and the refusal of one this implementation does not read, live here
//! too, so that no two of them depend on each other for it.

use serde_json::{Map, Value};

use crate::issue::{Code, Issue};
use crate::types::{Event, FixtureEvent};

/// The version a union variant's tag names: `paperclip.prp.event.v2` is 2.
pub(crate) fn tag_version(tag: &str) -> Option<u32> {
    tag.rsplit_once(".v")?.1.parse().ok()
}

/// The issue of a typed value of a version the schemas describe but this implementation does not
/// read: generated unions gain a variant when a version's schema joins them, and the code reading
/// them fails closed on it, as stage 1 does on the JSON.
pub(crate) fn unread_version(tag: &str) -> Issue {
    Issue::new(
        Code::UnsupportedRequiredVersion,
        String::new(),
        format!("`{tag}` is a version this implementation does not read"),
    )
}

/// The `schemaVersion` a runner stamps on an event of `event_type`.
pub fn event_schema_version(event_type: &str) -> u32 {
    if event_type.starts_with("external_provider.") {
        3
    } else if event_type == "session.capabilities.updated"
        || event_type.starts_with("session.goal.")
    {
        2
    } else {
        1
    }
}

/// The `schema` member of an event of `version`: `paperclip.prp.event.v{version}`.
pub fn event_schema(version: u32) -> String {
    format!("paperclip.prp.event.v{version}")
}

/// The command schema version a controller stamps on a command of `command_type`.
pub fn command_schema_version(command_type: &str) -> u32 {
    if command_type == "external_provider.operation" {
        3
    } else if command_type.starts_with("session.goal.") {
        2
    } else {
        1
    }
}

/// A received command whose `schema` is older than its `type` needs. Each has a stable
/// [`CommandSchemaError::code`] and a short [`CommandSchemaError::detail`] for a receipt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandSchemaError {
    /// `external_provider.operation` below `paperclip.prp.command.v3`.
    #[error(
        "external provider operations require PRP v3; this command is paperclip.prp.command.v{schema}"
    )]
    ExternalProviderNeedsV3 {
        /// The version the command's `schema` names.
        schema: u32,
    },
    /// A `session.goal.*` command below `paperclip.prp.command.v2`.
    #[error(
        "session goal commands require the paperclip.prp.command.v2 schema; this command is paperclip.prp.command.v{schema}"
    )]
    GoalCommandNeedsV2 {
        /// The version the command's `schema` names.
        schema: u32,
    },
}

impl CommandSchemaError {
    /// A stable snake_case name for the refusal.
    pub fn code(&self) -> &'static str {
        match self {
            CommandSchemaError::ExternalProviderNeedsV3 { .. } => {
                "external_provider_schema_below_v3"
            }
            CommandSchemaError::GoalCommandNeedsV2 { .. } => "goal_command_schema_below_v2",
        }
    }

    /// The refusal without the version, for a fixed receipt `detail`.
    pub fn detail(&self) -> &'static str {
        match self {
            CommandSchemaError::ExternalProviderNeedsV3 { .. } => {
                "external provider operations require PRP v3"
            }
            CommandSchemaError::GoalCommandNeedsV2 { .. } => {
                "session goal commands require the paperclip.prp.command.v2 schema"
            }
        }
    }
}

/// Checks a received command's `schema` against its `type`, before the command is decoded: a
/// v3-only type under an older schema is not in that schema's type list, and a runner says why
/// rather than "unknown type". A `schema` that is not `paperclip.prp.command.v{N}` passes: it is
/// the caller's schema check that refuses it.
pub fn check_command_schema(command_type: &str, schema: &str) -> Result<(), CommandSchemaError> {
    let Some(version) = schema
        .strip_prefix("paperclip.prp.command.v")
        .and_then(|v| v.parse::<u32>().ok())
    else {
        return Ok(());
    };
    match command_schema_version(command_type) {
        3 if version < 3 => Err(CommandSchemaError::ExternalProviderNeedsV3 { schema: version }),
        2 if version < 2 => Err(CommandSchemaError::GoalCommandNeedsV2 { schema: version }),
        _ => Ok(()),
    }
}

/// An event's `eventType`; a version this build does not read is an error.
pub fn event_type(event: &FixtureEvent) -> Result<&'static str, Issue> {
    match event {
        FixtureEvent::Event(e) => Ok(e.event_type.as_str()),
        FixtureEvent::EventV2(e) => Ok(e.event_type.as_str()),
        FixtureEvent::EventV3(e) => Ok(e.event_type.as_str()),
        other => Err(unread_version(other.tag())),
    }
}

/// An event's `schemaVersion`, read from its `schema` tag.
pub fn schema_version(event: &FixtureEvent) -> u32 {
    tag_version(event.tag()).unwrap_or(0)
}

/// What goes on the wire in place of `event` in a session negotiated at `negotiated`: the event
/// itself, or, when its `schemaVersion` is above that, a v1 `runner.diagnostic` placeholder with
/// payload `{reasonCode: "event_requires_prp_v{N}", originalEventType}` (PROTOCOL-V3 §2).
///
/// The placeholder keeps the original's envelope (`sourceEventId`, `sourceSeq`, `priority`, the
/// ids and times), so the peer's cursor and acknowledgements still advance past it. It drops the
/// payload, `debug` and undeclared members: a goal event's payload may hold an objective, and an
/// older peer is not to see what its version does not carry.
pub fn outgoing_event(negotiated: u32, event: FixtureEvent) -> Result<FixtureEvent, Issue> {
    let version = schema_version(&event);
    if version <= negotiated {
        return Ok(event);
    }
    placeholder(&event, version).map(FixtureEvent::Event)
}

/// The envelope members a placeholder keeps.
const ENVELOPE: [&str; 11] = [
    "sourceEventId",
    "sourceSeq",
    "sourceInstanceId",
    "sourceKind",
    "runId",
    "normalizedSessionId",
    "turnId",
    "itemId",
    "priority",
    "emittedAt",
    "observedAt",
];

/// The v1 `runner.diagnostic` standing in for `event`, a version-`version` event; decoded, so it
/// is checked against the v1 event schema.
fn placeholder(event: &FixtureEvent, version: u32) -> Result<Event, Issue> {
    let original_type = event_type(event)?;
    let encode_error = |e: serde_json::Error| {
        Issue::new(Code::Keyword(prp_types::Keyword::Encode), "", e.to_string())
    };
    let Value::Object(mut original) = serde_json::to_value(event).map_err(encode_error)? else {
        return Err(Issue::new(
            Code::Keyword(prp_types::Keyword::Type),
            "",
            "an event is a JSON object",
        ));
    };
    let mut out = Map::new();
    out.insert("schema".into(), event_schema(1).into());
    for key in ENVELOPE {
        if let Some(v) = original.remove(key) {
            out.insert(key.into(), v);
        }
    }
    out.insert("eventType".into(), "runner.diagnostic".into());
    out.insert("schemaVersion".into(), 1.into());
    let mut payload = Map::new();
    payload.insert(
        "reasonCode".into(),
        format!("event_requires_prp_v{version}").into(),
    );
    payload.insert("originalEventType".into(), original_type.into());
    out.insert("payload".into(), Value::Object(payload));
    let bytes = serde_json::to_vec(&Value::Object(out)).map_err(encode_error)?;
    crate::decode::decode::<Event>(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_names_its_version() {
        assert_eq!(tag_version("paperclip.prp.event.v2"), Some(2));
        assert_eq!(tag_version("paperclip.prp.capabilities.v12"), Some(12));
        assert_eq!(tag_version("paperclip.prp.event"), None);
        assert_eq!(tag_version("paperclip.prp.event.vx"), None);
        let issue = unread_version("paperclip.prp.event.v3");
        assert_eq!(issue.code, Code::UnsupportedRequiredVersion);
        assert!(issue.message.contains("paperclip.prp.event.v3"));
    }
}
