//! The session snapshot (PROTOCOL §2.1): the state a replay folds events into, and its golden
//! serialisation.
//!
//! The ordered members of the golden format are kept beside hash indexes (`processed`, the item
//! and request maps, `gap_keys`) so that applying an event never scans the session.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet};

use indexmap::{IndexMap, IndexSet};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use super::items::Items;
use super::js::Utf16Ordered;
use super::plans::PlanProjection;
use super::processed::ProcessedIds;
use super::state::{Gap, Integrity, OrNull, Request, Seq, SessionState, TurnState};
use super::timeline::Timeline;
use crate::issue::{Code, Issue};
use crate::types::Fixture;

/// The `schema` of a session snapshot.
pub const SNAPSHOT_SCHEMA: &str = "paperclip.prp.session-snapshot.v1";

/// The state of one session, built by [`create_snapshot`] and advanced by
/// [`Snapshot::reduce`] / [`Snapshot::apply`].
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub(super) fixture_name: String,
    pub(super) identity: Value,
    pub(super) capabilities: Value,
    pub(super) run_phase: Cow<'static, str>,
    pub(super) session_state: SessionState,
    pub(super) turn_state: TurnState,
    pub(super) active_turn_id: Option<String>,
    pub(super) items: Items,
    pub(super) requests: IndexMap<String, Request>,
    pub(super) proposed_result: Option<Value>,
    pub(super) terminal: Option<Value>,
    /// One entry per applied event, so it is also `processedEventIds` in application order.
    pub(super) timeline: Timeline,
    pub(super) source_cursors: IndexMap<String, u64>,
    /// Membership of `processedEventIds`, whose order is the timeline's.
    pub(super) processed: ProcessedIds,
    pub(super) duplicates: BTreeSet<Utf16Ordered>,
    pub(super) out_of_order: IndexSet<String>,
    pub(super) gaps: Vec<Gap>,
    /// Dedupe index of `gaps`: (`sourceKey`, `expected`, `received`).
    pub(super) gap_keys: HashSet<(String, u64, u64)>,
    pub(super) integrity: Integrity,
    pub(super) plans: PlanProjection,
    /// Reused buffer for `sourceKind:sourceInstanceId`, so a cursor lookup allocates nothing.
    pub(super) key_buffer: String,
}

/// `create_snapshot(fixture)`: the initial snapshot of a fixture's session.
///
/// `identity` and `capabilities` are written out as JSON in their recorded member order, unknown
/// members included, because the golden format reprints them.
pub fn create_snapshot(fixture: &Fixture) -> Result<Snapshot, Issue> {
    let json = |name: &str, value: Result<Value, serde_json::Error>| {
        value.map_err(|e| {
            Issue::new(
                Code::InvalidMember,
                format!("/{name}"),
                format!("`{name}` cannot be written as JSON: {e}"),
            )
        })
    };
    let identity = json("identity", prp_codegen_runtime::to_json(&fixture.identity))?;
    let capabilities = json(
        "capabilities",
        prp_codegen_runtime::to_json(&fixture.capabilities),
    )?;
    Ok(Snapshot::new(fixture.name.as_str(), identity, capabilities))
}

impl Snapshot {
    /// A snapshot before any event, for a session known by its name, identity and capabilities.
    pub fn new(fixture_name: impl Into<String>, identity: Value, capabilities: Value) -> Self {
        Snapshot {
            fixture_name: fixture_name.into(),
            identity,
            capabilities,
            run_phase: Cow::Borrowed("queued"),
            session_state: SessionState::NotStarted,
            turn_state: TurnState::NotStarted,
            active_turn_id: None,
            items: Items::default(),
            requests: IndexMap::new(),
            proposed_result: None,
            terminal: None,
            timeline: Timeline::default(),
            source_cursors: IndexMap::new(),
            processed: ProcessedIds::default(),
            duplicates: BTreeSet::new(),
            out_of_order: IndexSet::new(),
            gaps: Vec::new(),
            gap_keys: HashSet::new(),
            integrity: Integrity::Complete,
            plans: PlanProjection::default(),
            key_buffer: String::new(),
        }
    }

    /// `fixtureName`.
    pub fn fixture_name(&self) -> &str {
        &self.fixture_name
    }

    /// `identity`, as given.
    pub fn identity(&self) -> &Value {
        &self.identity
    }

    /// `capabilities`, as given.
    pub fn capabilities(&self) -> &Value {
        &self.capabilities
    }

    /// `runPhase`: `queued`, a phase from `runtime.phase.changed`, or `terminal`.
    pub fn run_phase(&self) -> &str {
        &self.run_phase
    }

    /// `sessionState`.
    pub fn session_state(&self) -> SessionState {
        self.session_state
    }

    /// `turnState`.
    pub fn turn_state(&self) -> TurnState {
        self.turn_state
    }

    /// `activeTurnId`.
    pub fn active_turn_id(&self) -> Option<&str> {
        self.active_turn_id.as_deref()
    }

    /// `items`, by `itemId`, in first-seen order.
    pub fn items(&self) -> &Items {
        &self.items
    }

    /// `requests`, by `requestId`, in first-seen order.
    pub fn requests(&self) -> &IndexMap<String, Request> {
        &self.requests
    }

    /// `proposedResult`: the last `run.result.proposed` payload, as delivered.
    pub fn proposed_result(&self) -> Option<&Value> {
        self.proposed_result.as_ref()
    }

    /// `terminal`: the last `run.terminal` payload, as delivered.
    pub fn terminal(&self) -> Option<&Value> {
        self.terminal.as_ref()
    }

    /// `timeline`: one entry per applied event; an entry's position is its index + 1.
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// `sourceCursors`: `sourceKind:sourceInstanceId` → last applied `sourceSeq`, in
    /// first-insertion order.
    pub fn source_cursors(&self) -> &IndexMap<String, u64> {
        &self.source_cursors
    }

    /// `processedEventIds`, in application order.
    pub fn processed_event_ids(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        self.timeline.iter().map(|e| e.source_event_id())
    }

    /// Whether an event with this `sourceEventId` has been applied.
    pub fn is_processed(&self, source_event_id: &str) -> bool {
        let hash = self.processed.hash(source_event_id);
        self.processed
            .contains(&self.timeline, hash, source_event_id)
    }

    /// `duplicateEventIds`, in UTF-16 code-unit order.
    pub fn duplicate_event_ids(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        self.duplicates.iter().map(|id| id.0.as_str())
    }

    /// `outOfOrderEventIds`, in first-seen order.
    pub fn out_of_order_event_ids(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        self.out_of_order.iter().map(String::as_str)
    }

    /// `gaps`, in detection order.
    pub fn gaps(&self) -> &[Gap] {
        &self.gaps
    }

    /// `integrity`.
    pub fn integrity(&self) -> Integrity {
        self.integrity
    }

    /// The latest plan per `planId` (PROTOCOL §2.8). Not part of the snapshot's golden format.
    pub fn plans(&self) -> &PlanProjection {
        &self.plans
    }

    /// The snapshot as a JSON value, keys in golden order.
    pub fn to_value(&self) -> Value {
        // Serializing into a Value fails only for non-string map keys, which this has none of.
        prp_codegen_runtime::to_json(self).unwrap_or(Value::Null)
    }

    /// The golden bytes: pretty JSON (PROTOCOL §0.4) with a trailing newline.
    pub fn to_pretty(&self) -> String {
        crate::json::pretty(&self.to_value())
    }
}

impl Serialize for Snapshot {
    /// The golden format: the 19 members in the order of PROTOCOL §2.1.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(19))?;
        m.serialize_entry("schema", SNAPSHOT_SCHEMA)?;
        m.serialize_entry("fixtureName", &self.fixture_name)?;
        m.serialize_entry("identity", &self.identity)?;
        m.serialize_entry("capabilities", &self.capabilities)?;
        m.serialize_entry("runPhase", self.run_phase.as_ref())?;
        m.serialize_entry("sessionState", self.session_state.as_str())?;
        m.serialize_entry("turnState", self.turn_state.as_str())?;
        m.serialize_entry("activeTurnId", &self.active_turn_id)?;
        m.serialize_entry("items", &Seq(self.items.iter()))?;
        m.serialize_entry(
            "requests",
            &Seq(self.requests.iter().map(|(id, r)| r.golden(id))),
        )?;
        m.serialize_entry("proposedResult", &OrNull(self.proposed_result.as_ref()))?;
        m.serialize_entry("terminal", &OrNull(self.terminal.as_ref()))?;
        m.serialize_entry(
            "timeline",
            &Seq(self.timeline.iter().enumerate().map(|(i, e)| e.golden(i))),
        )?;
        m.serialize_entry("sourceCursors", &self.source_cursors)?;
        m.serialize_entry("processedEventIds", &Seq(self.processed_event_ids()))?;
        m.serialize_entry("duplicateEventIds", &Seq(self.duplicate_event_ids()))?;
        m.serialize_entry("outOfOrderEventIds", &Seq(self.out_of_order_event_ids()))?;
        m.serialize_entry("gaps", &self.gaps)?;
        m.serialize_entry("integrity", self.integrity.as_str())?;
        m.end()
    }
}
