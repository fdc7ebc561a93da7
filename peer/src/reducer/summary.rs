//! The parity summary (PROTOCOL §2.6): the few facts every implementation's replay must agree on.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use super::snapshot::Snapshot;
use super::state::{Gap, Integrity, Seq};

/// `parity_summary(snapshot)`, borrowed from the snapshot.
#[derive(Debug, Clone, Copy)]
pub struct ParitySummary<'a> {
    snapshot: &'a Snapshot,
}

impl<'a> ParitySummary<'a> {
    pub(super) fn new(snapshot: &'a Snapshot) -> Self {
        ParitySummary { snapshot }
    }

    /// `runId`: `identity.runId` (`null` if the identity has none).
    pub fn run_id(&self) -> &'a Value {
        self.snapshot
            .identity()
            .get("runId")
            .unwrap_or(&Value::Null)
    }

    /// `integrity`.
    pub fn integrity(&self) -> Integrity {
        self.snapshot.integrity()
    }

    /// `timelineCount`.
    pub fn timeline_count(&self) -> usize {
        self.snapshot.timeline().len()
    }

    /// `duplicateEventIds`.
    pub fn duplicate_event_ids(&self) -> impl ExactSizeIterator<Item = &'a str> + Clone + 'a {
        self.snapshot.duplicate_event_ids()
    }

    /// `gaps`.
    pub fn gaps(&self) -> &'a [Gap] {
        self.snapshot.gaps()
    }

    /// `turnTerminalState`: the terminal payload's, or `null`.
    pub fn turn_terminal_state(&self) -> &'a Value {
        self.terminal_member("turnTerminalState")
    }

    /// `runTerminalState`: the terminal payload's, or `null`.
    pub fn run_terminal_state(&self) -> &'a Value {
        self.terminal_member("runTerminalState")
    }

    fn terminal_member(&self, name: &str) -> &'a Value {
        self.snapshot
            .terminal()
            .and_then(|t| t.get(name))
            .unwrap_or(&Value::Null)
    }

    /// The summary as a JSON value, keys in golden order.
    pub fn to_value(&self) -> Value {
        // Serializing into a Value fails only for non-string map keys, which this has none of.
        prp_codegen_runtime::to_json(self).unwrap_or(Value::Null)
    }

    /// The golden bytes: pretty JSON (PROTOCOL §0.4) with a trailing newline.
    pub fn to_pretty(&self) -> String {
        crate::json::pretty(&self.to_value())
    }
}

impl Serialize for ParitySummary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(7))?;
        m.serialize_entry("runId", self.run_id())?;
        m.serialize_entry("integrity", self.integrity().as_str())?;
        m.serialize_entry("timelineCount", &self.timeline_count())?;
        m.serialize_entry("duplicateEventIds", &Seq(self.duplicate_event_ids()))?;
        m.serialize_entry("gaps", self.gaps())?;
        m.serialize_entry("turnTerminalState", self.turn_terminal_state())?;
        m.serialize_entry("runTerminalState", self.run_terminal_state())?;
        m.end()
    }
}

impl Snapshot {
    /// The parity summary (PROTOCOL §2.6).
    pub fn summary(&self) -> ParitySummary<'_> {
        ParitySummary::new(self)
    }
}
