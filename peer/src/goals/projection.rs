//! The goal projection (PROTOCOL §5.3 rules 4, 5 and 7): the current goal and goal capability,
//! folded from `session.capabilities.updated`, `session.goal.snapshot`, `session.goal.updated` and
//! `session.goal.cleared`.
//!
//! - A `session.started` or `session.resumed` event marks what is held as unconfirmed until the
//!   runner's next `session.goal.snapshot`, which is authoritative: it replaces the goal whatever
//!   was held, `null` included.
//! - `session.goal.updated` carries the whole goal (or `null`) and replaces it too;
//!   `session.goal.cleared` removes it; `session.capabilities.updated` replaces the capability.
//! - Status and `workingNow` are kept as the runner sent them: an `active` goal may be idle.
//! - Deliveries are deduplicated by `sourceEventId`, and an event whose `sourceSeq` is not past
//!   its source's cursor is listed as out of order and not applied, as the replay reducer does.
//! - An event whose `schemaVersion` is above the negotiated version is refused.
//! - A runner stamps the goal events v2 (PROTOCOL-V3 §1), but that is its rule, not a check of
//!   the consumer: a v3 goal event is read as its v2 form is.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use crate::encode::Validate;
use crate::issue::{Code, Issue};
use crate::reducer::{Outcome, ReplayEvent};
use crate::types::{
    Event, EventPayloadV2, EventPayloadV3, EventType, EventTypeV2, EventTypeV3, EventV2, EventV3,
    Fixture, FixtureCapabilities, FixtureEvent, GoalCapability, GoalCapabilityAvailability,
    GoalSnapshot,
};

/// What one event says about goals.
#[derive(Debug, Clone, Copy)]
pub enum GoalChange<'a> {
    /// `session.started` or `session.resumed`: a snapshot is due.
    SessionOpened,
    /// `session.capabilities.updated`.
    Capability(&'a GoalCapability),
    /// `session.goal.snapshot`: the authoritative goal, or none.
    Snapshot(Option<&'a GoalSnapshot>),
    /// `session.goal.updated`: the whole goal, or none.
    Updated(Option<&'a GoalSnapshot>),
    /// `session.goal.cleared`.
    Cleared,
    /// Nothing about goals.
    Unrelated,
}

/// An event the projection can fold: [`Event`], [`EventV2`] or [`FixtureEvent`].
pub trait GoalEvent: ReplayEvent {
    /// `schemaVersion`.
    fn schema_version(&self) -> u32;
    /// What the event says about goals; an error when its payload does not fit its type (a value
    /// changed in code).
    fn goal_change(&self) -> Result<GoalChange<'_>, Issue>;
}

impl GoalEvent for Event {
    fn schema_version(&self) -> u32 {
        1
    }
    fn goal_change(&self) -> Result<GoalChange<'_>, Issue> {
        Ok(match self.event_type {
            EventType::SessionStarted | EventType::SessionResumed => GoalChange::SessionOpened,
            _ => GoalChange::Unrelated,
        })
    }
}

impl GoalEvent for EventV2 {
    fn schema_version(&self) -> u32 {
        2
    }
    fn goal_change(&self) -> Result<GoalChange<'_>, Issue> {
        Ok(match (&self.event_type, &self.payload) {
            (EventTypeV2::SessionStarted | EventTypeV2::SessionResumed, _) => {
                GoalChange::SessionOpened
            }
            (
                EventTypeV2::SessionCapabilitiesUpdated,
                EventPayloadV2::SessionCapabilitiesUpdated(p),
            ) => GoalChange::Capability(&p.session_goals),
            (EventTypeV2::SessionGoalSnapshot, EventPayloadV2::SessionGoalSnapshot(p)) => {
                GoalChange::Snapshot(p.goal.as_ref())
            }
            (EventTypeV2::SessionGoalUpdated, EventPayloadV2::SessionGoalSnapshot(p)) => {
                GoalChange::Updated(p.goal.as_ref())
            }
            (EventTypeV2::SessionGoalCleared, _) => GoalChange::Cleared,
            (
                EventTypeV2::SessionCapabilitiesUpdated
                | EventTypeV2::SessionGoalSnapshot
                | EventTypeV2::SessionGoalUpdated,
                _,
            ) => return Err(payload_mismatch(self)),
            _ => GoalChange::Unrelated,
        })
    }
}

// The last arms are unreachable until a version's schema joins the fixture's event union.
#[allow(unreachable_patterns)]
impl GoalEvent for FixtureEvent {
    fn schema_version(&self) -> u32 {
        match self {
            FixtureEvent::Event(e) => e.schema_version(),
            FixtureEvent::EventV2(e) => e.schema_version(),
            other => crate::versions::tag_version(other.tag()).unwrap_or(0),
        }
    }
    fn goal_change(&self) -> Result<GoalChange<'_>, Issue> {
        match self {
            FixtureEvent::Event(e) => e.goal_change(),
            FixtureEvent::EventV2(e) => e.goal_change(),
            FixtureEvent::EventV3(e) => v3_goal_change(e),
            other => Err(crate::versions::unread_version(other.tag())),
        }
    }
}

/// What a v3 event says about goals: its goal payloads are v2's.
fn v3_goal_change(event: &EventV3) -> Result<GoalChange<'_>, Issue> {
    Ok(match (&event.event_type, &event.payload) {
        (EventTypeV3::SessionStarted | EventTypeV3::SessionResumed, _) => GoalChange::SessionOpened,
        (
            EventTypeV3::SessionCapabilitiesUpdated,
            EventPayloadV3::SessionCapabilitiesUpdated(p),
        ) => GoalChange::Capability(&p.session_goals),
        (EventTypeV3::SessionGoalSnapshot, EventPayloadV3::SessionGoalSnapshot(p)) => {
            GoalChange::Snapshot(p.goal.as_ref())
        }
        (EventTypeV3::SessionGoalUpdated, EventPayloadV3::SessionGoalSnapshot(p)) => {
            GoalChange::Updated(p.goal.as_ref())
        }
        (EventTypeV3::SessionGoalCleared, _) => GoalChange::Cleared,
        (
            EventTypeV3::SessionCapabilitiesUpdated
            | EventTypeV3::SessionGoalSnapshot
            | EventTypeV3::SessionGoalUpdated,
            _,
        ) => return Err(payload_mismatch(event)),
        _ => GoalChange::Unrelated,
    })
}

/// Why a payload does not fit its event type: the schema's issue, when it finds one.
fn payload_mismatch<T: Validate>(event: &T) -> Issue {
    event.validate().err().unwrap_or_else(|| {
        Issue::new(
            Code::Keyword(prp_types::Keyword::Type),
            "/payload",
            "the payload does not fit the event type",
        )
    })
}

impl<T: GoalEvent> GoalEvent for &T {
    fn schema_version(&self) -> u32 {
        (*self).schema_version()
    }
    fn goal_change(&self) -> Result<GoalChange<'_>, Issue> {
        (*self).goal_change()
    }
}

/// The event that last changed the goal.
#[derive(Debug, Clone, PartialEq)]
struct Marker {
    source_event_id: String,
    event_type: String,
    emitted_at: String,
}

/// The current goal and goal capability of one session.
#[derive(Debug, Clone, PartialEq)]
pub struct GoalProjection {
    negotiated: u32,
    capability: Option<GoalCapability>,
    goal: Option<GoalSnapshot>,
    awaiting_snapshot: bool,
    last_goal_event: Option<Marker>,
    cursors: HashMap<String, u64>,
    processed: HashSet<String>,
    applied: usize,
    already_processed: usize,
    out_of_order: Vec<String>,
}

impl GoalProjection {
    /// An empty projection for a session negotiated at `version`: no capability (so goals are
    /// unsupported) and no goal.
    pub fn new(version: u32) -> Self {
        GoalProjection {
            negotiated: version,
            capability: None,
            goal: None,
            awaiting_snapshot: false,
            last_goal_event: None,
            cursors: HashMap::new(),
            processed: HashSet::new(),
            applied: 0,
            already_processed: 0,
            out_of_order: Vec::new(),
        }
    }

    /// The projection of a replay fixture that has passed the contract pipeline: negotiated at its
    /// `protocolVersion`, starting from its capability snapshot, then its events in order. Error
    /// pointers are into the fixture.
    pub fn of_fixture(fixture: &Fixture) -> Result<Self, Issue> {
        let mut p = GoalProjection::new(fixture.protocol_version.as_i64() as u32);
        p.set_capabilities(&fixture.capabilities);
        for (i, event) in fixture.events.iter().enumerate() {
            p.apply(event)
                .map_err(|e| e.under(&format!("/events/{i}")))?;
        }
        Ok(p)
    }

    /// Runs the whole contract pipeline on fixture bytes (as [`crate::reducer::replay_fixture_bytes`]
    /// does) and projects the accepted fixture; a rejected one gives its issues, never empty.
    pub fn of_fixture_bytes(bytes: &[u8]) -> Result<Self, Vec<Issue>> {
        let outcome = crate::contract::validate_fixture_bytes(bytes);
        match outcome.document {
            Some(fixture) => GoalProjection::of_fixture(&fixture.typed).map_err(|e| vec![e]),
            None => Err(outcome.issues),
        }
    }

    /// Takes the goal capability of a capability snapshot: a v2 or v3 snapshot's `sessionGoals`;
    /// a v1 snapshot has none, so goals are unsupported.
    pub fn set_capabilities(&mut self, snapshot: &FixtureCapabilities) {
        self.capability = match snapshot {
            FixtureCapabilities::CapabilitiesV2(c) => Some(c.session_goals.clone()),
            FixtureCapabilities::CapabilitiesV3(c) => Some(c.session_goals.clone()),
            // v1 has no goals; a later version is refused by negotiation before it gets here.
            _ => None,
        };
    }

    /// Folds one event.
    pub fn apply<E: GoalEvent>(&mut self, event: &E) -> Result<Outcome, Issue> {
        let version = event.schema_version();
        if version > self.negotiated {
            return Err(Issue::new(
                Code::UnsupportedRequiredVersion,
                "/schemaVersion",
                format!(
                    "event schemaVersion {version} exceeds the negotiated protocol version {}",
                    self.negotiated
                ),
            ));
        }
        let change = event.goal_change()?;
        let view = event.view()?;
        if self.processed.contains(view.source_event_id) {
            self.already_processed += 1;
            return Ok(Outcome::AlreadyProcessed);
        }
        let source = format!("{}:{}", view.source_kind, view.source_instance_id);
        let cursor = self.cursors.get(&source).copied().unwrap_or(0);
        if view.source_seq <= cursor {
            if !self
                .out_of_order
                .iter()
                .any(|id| id == view.source_event_id)
            {
                self.out_of_order.push(view.source_event_id.to_owned());
            }
            return Ok(Outcome::OutOfOrder);
        }
        self.cursors.insert(source, view.source_seq);
        self.processed.insert(view.source_event_id.to_owned());
        self.applied += 1;
        let goal_event = match change {
            GoalChange::Unrelated => false,
            GoalChange::SessionOpened => {
                self.awaiting_snapshot = self.negotiated >= 2;
                false
            }
            GoalChange::Capability(c) => {
                self.capability = Some(c.clone());
                true
            }
            GoalChange::Snapshot(g) => {
                self.goal = g.cloned();
                self.awaiting_snapshot = false;
                true
            }
            GoalChange::Updated(g) => {
                self.goal = g.cloned();
                true
            }
            GoalChange::Cleared => {
                self.goal = None;
                true
            }
        };
        if goal_event {
            self.last_goal_event = Some(Marker {
                source_event_id: view.source_event_id.to_owned(),
                event_type: view.event_type.to_owned(),
                emitted_at: view.emitted_at.to_owned(),
            });
        }
        Ok(Outcome::Applied)
    }

    /// The negotiated protocol version.
    pub fn negotiated(&self) -> u32 {
        self.negotiated
    }

    /// The latest goal capability, if the runner advertised one.
    pub fn capability(&self) -> Option<&GoalCapability> {
        self.capability.as_ref()
    }

    /// Whether goal controls may be sent at all: version 2 and an `available` capability.
    pub fn goals_available(&self) -> bool {
        self.negotiated >= 2
            && self
                .capability
                .as_ref()
                .is_some_and(|c| c.availability == GoalCapabilityAvailability::Available)
    }

    /// The current goal, if there is one.
    pub fn goal(&self) -> Option<&GoalSnapshot> {
        self.goal.as_ref()
    }

    /// Whether a session open or resume has been seen and its authoritative snapshot has not.
    pub fn awaiting_snapshot(&self) -> bool {
        self.awaiting_snapshot
    }

    /// The projection as JSON (the output of `prp goals`), members in a fixed order.
    pub fn to_json(&self) -> Value {
        let encode = |v: Result<Value, serde_json::Error>| v.unwrap_or(Value::Null);
        json!({
            "negotiatedVersion": self.negotiated,
            "goalsAvailable": self.goals_available(),
            "capability": self.capability.as_ref().map_or(Value::Null, |c| encode(prp_codegen_runtime::to_json(c))),
            "goal": self.goal.as_ref().map_or(Value::Null, |g| encode(prp_codegen_runtime::to_json(g))),
            "awaitingSnapshot": self.awaiting_snapshot,
            "lastGoalEvent": self.last_goal_event.as_ref().map_or(Value::Null, |m| json!({
                "sourceEventId": m.source_event_id,
                "eventType": m.event_type,
                "emittedAt": m.emitted_at,
            })),
            "events": {
                "applied": self.applied,
                "alreadyProcessed": self.already_processed,
                "outOfOrder": self.out_of_order,
            },
        })
    }
}
