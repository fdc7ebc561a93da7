//! Controller commands in, receipts out (PROTOCOL §6.3, in the order of §6.6): the command schema
//! (first whether it is recent enough for the command's type, PROTOCOL-V3 §2: an
//! `external_provider.operation` below v3 is refused with "external provider operations require
//! PRP v3"), then a repeated or reused `commandId`, then a contiguous `controllerSeq`; a command that passes
//! is recorded and the sequence advanced, and only then is its type looked at. So `run is already
//! prepared` and `not implemented` still use up a sequence number, and sending the same command
//! again is a duplicate.

use indexmap::IndexMap;
use serde_json::{Map, Value};

use prp_peer::{json, negotiation};
use prp_types::types::Command;

/// The command schema the local runner reads.
pub const COMMAND_V1: &str = "paperclip.prp.command.v1";

/// A receipt's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// New and valid.
    Accepted,
    /// The same command again.
    Duplicate,
    /// Refused.
    Rejected,
}

impl Status {
    /// `accepted`, `duplicate` or `rejected`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Accepted => "accepted",
            Status::Duplicate => "duplicate",
            Status::Rejected => "rejected",
        }
    }
}

/// What intake decided about one line.
#[derive(Debug, Clone, PartialEq)]
pub enum Intake {
    /// Not a command at all: a diagnostic, no receipt.
    NotACommand(String),
    /// A receipt with no further effect.
    Receipt {
        /// The command's id.
        command_id: String,
        /// Its sequence number.
        controller_seq: Value,
        /// The status.
        status: Status,
        /// The detail sentence.
        detail: &'static str,
    },
    /// A new command, recorded and sequenced: the caller dispatches it by type.
    New(Box<Command>),
}

/// The commands seen so far, bounded.
#[derive(Debug)]
pub struct CommandLog {
    seen: IndexMap<String, String>,
    limit: usize,
    last_seq: i64,
}

impl CommandLog {
    /// A log keeping at most `limit` commands for duplicate detection.
    pub fn new(limit: usize) -> Self {
        CommandLog {
            seen: IndexMap::new(),
            limit: limit.max(1),
            last_seq: 0,
        }
    }

    /// Takes one controller line.
    pub fn take(&mut self, line: &str) -> Intake {
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                return Intake::NotACommand(
                    prp_codegen_runtime::strip_position(&e.to_string()).to_owned(),
                );
            }
        };
        let Some(obj) = value.as_object() else {
            return Intake::NotACommand("a command is a JSON object".into());
        };
        let (Some(command_id), Some(seq)) = (
            obj.get("commandId").and_then(Value::as_str),
            obj.get("controllerSeq").filter(|v| v.is_number()),
        ) else {
            return Intake::NotACommand(
                "a command needs a string commandId and a numeric controllerSeq".into(),
            );
        };
        let receipt = |status, detail| Intake::Receipt {
            command_id: command_id.to_owned(),
            controller_seq: seq.clone(),
            status,
            detail,
        };
        let schema = obj.get("schema").and_then(Value::as_str);
        if let (Some(schema), Some(type_)) = (schema, obj.get("type").and_then(Value::as_str))
            && let Err(too_old) = negotiation::check_command_schema(type_, schema)
        {
            return receipt(Status::Rejected, too_old.detail());
        }
        if schema != Some(COMMAND_V1) {
            return receipt(Status::Rejected, "unsupported command schema");
        }
        let command: Command = match prp_types::decode::decode(line.as_bytes()) {
            Ok(c) => c,
            Err(issue) => return Intake::NotACommand(issue.to_string()),
        };
        let key = identity(obj);
        if let Some(seen) = self.seen.get(command_id) {
            return if *seen == key {
                receipt(Status::Duplicate, "equivalent command already applied")
            } else {
                receipt(Status::Rejected, "commandId was reused with different data")
            };
        }
        let seq_value = command.controller_seq.as_i64();
        if seq_value != Some(self.last_seq + 1) {
            return receipt(Status::Rejected, "controllerSeq is not contiguous");
        }
        self.last_seq += 1;
        self.seen.insert(command_id.to_owned(), key);
        if self.seen.len() > self.limit {
            self.seen.shift_remove_index(0);
        }
        Intake::New(Box::new(command))
    }
}

/// What two deliveries of one command must share: its members other than unknown extras, as
/// canonical JSON.
fn identity(obj: &Map<String, Value>) -> String {
    let mut core = Map::new();
    for k in [
        "schema",
        "commandId",
        "controllerSeq",
        "type",
        "issuedAt",
        "payload",
    ] {
        if let Some(v) = obj.get(k) {
            core.insert(k.to_owned(), v.clone());
        }
    }
    json::canonical(&Value::Object(core))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, seq: i64, ty: &str, payload: &str) -> String {
        format!(
            r#"{{"schema":"paperclip.prp.command.v1","commandId":"{id}","controllerSeq":{seq},"type":"{ty}","issuedAt":"2026-08-07T21:00:00Z","payload":{payload}}}"#
        )
    }

    fn status(i: &Intake) -> (&str, &str) {
        match i {
            Intake::Receipt { status, detail, .. } => (status.as_str(), detail),
            Intake::New(_) => ("new", ""),
            Intake::NotACommand(_) => ("not a command", ""),
        }
    }

    #[test]
    fn the_receipt_table() {
        let mut log = CommandLog::new(8);
        assert_eq!(
            status(&log.take(&line("a", 1, "run.prepare", "{}"))),
            ("new", "")
        );
        // Same command, keys in another order: a duplicate.
        let reordered = r#"{"payload":{},"type":"run.prepare","controllerSeq":1,"commandId":"a","schema":"paperclip.prp.command.v1","issuedAt":"2026-08-07T21:00:00Z"}"#;
        assert_eq!(
            status(&log.take(reordered)),
            ("duplicate", "equivalent command already applied")
        );
        assert_eq!(
            status(&log.take(&line("a", 1, "run.prepare", r#"{"x":1}"#))),
            ("rejected", "commandId was reused with different data")
        );
        assert_eq!(
            status(&log.take(&line("b", 3, "session.open", "{}"))),
            ("rejected", "controllerSeq is not contiguous")
        );
        assert_eq!(
            status(&log.take(&line("b", 2, "session.open", "{}"))),
            ("new", "")
        );
        assert_eq!(
            status(&log.take(&line("c", 3, "x", "{}").replace("command.v1", "command.v2"))),
            ("rejected", "unsupported command schema")
        );
        // A v3-only command under an older schema says why, and uses no sequence number.
        for schema in ["command.v1", "command.v2"] {
            let old =
                line("c", 3, "external_provider.operation", "{}").replace("command.v1", schema);
            assert_eq!(
                status(&log.take(&old)),
                ("rejected", "external provider operations require PRP v3")
            );
        }
        // A goal command under v1 likewise.
        assert_eq!(
            status(&log.take(&line("c", 3, "session.goal.get", "{}"))),
            (
                "rejected",
                "session goal commands require the paperclip.prp.command.v2 schema"
            )
        );
        // Under v3 it is the local runner's schema check that refuses it.
        let v3 =
            line("c", 3, "external_provider.operation", "{}").replace("command.v1", "command.v3");
        assert_eq!(
            status(&log.take(&v3)),
            ("rejected", "unsupported command schema")
        );
        assert_eq!(
            status(&log.take(&line("c", 3, "turn.start", "{}"))),
            ("new", "")
        );
        assert_eq!(status(&log.take("not json")), ("not a command", ""));
        assert_eq!(
            status(&log.take(r#"{"commandId":"d"}"#)),
            ("not a command", "")
        );
        // A v1 command missing issuedAt is not a command.
        assert_eq!(
            status(&log.take(r#"{"schema":"paperclip.prp.command.v1","commandId":"e","controllerSeq":3,"type":"turn.start","payload":{}}"#)),
            ("not a command", "")
        );
    }

    #[test]
    fn the_history_is_bounded() {
        let mut log = CommandLog::new(2);
        for (i, id) in ["a", "b", "c"].iter().enumerate() {
            log.take(&line(id, i as i64 + 1, "turn.start", "{}"));
        }
        // `a` was forgotten: it is now judged by its sequence number.
        assert_eq!(
            status(&log.take(&line("a", 1, "turn.start", "{}"))),
            ("rejected", "controllerSeq is not contiguous")
        );
        assert_eq!(
            status(&log.take(&line("c", 3, "turn.start", "{}"))),
            ("duplicate", "equivalent command already applied")
        );
    }
}
