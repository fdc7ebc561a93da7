//! Plan snapshots (PROTOCOL §2.8): the latest `plan.updated` checklist per `planId`, so that a UI
//! can show the current plan. A separate projection: it is not part of the snapshot's golden
//! format, which must not change.
//!
//! Decisions on the spec's open points:
//! - Streams interleave in application order: the event applied last replaces the entry, whatever
//!   its source. Within one stream that is `sourceSeq` order, since stale events are not applied.
//! - `revision` is informational: a lower revision applied later still replaces the entry.
//! - A payload must decode as a `paperclip.plan.updated.v1` plan. v1 events are schema-checked
//!   already; a v2 event's payload is only checked to be an object, so one that is not a plan is
//!   left out of the projection (its id is listed in [`PlanProjection::rejected`]) rather than
//!   replacing a good checklist with one a UI cannot render.

use indexmap::IndexMap;

use super::event::EventView;
use crate::types::Plan;

/// One plan: the payload of the last applied `plan.updated` event for its `planId`.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanEntry {
    /// The checklist, as the provider sent it.
    pub plan: Plan,
    /// The event that set it.
    pub source_event_id: String,
    /// That event's `sourceKind:sourceInstanceId`.
    pub source_key: String,
    /// That event's `sourceSeq`.
    pub source_seq: u64,
    /// That event's `turnId`, if any.
    pub turn_id: Option<String>,
}

/// The latest plan per `planId`, in the order plans first appeared.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlanProjection {
    plans: IndexMap<String, PlanEntry>,
    rejected: Vec<String>,
}

impl PlanProjection {
    /// The plan with this id.
    pub fn get(&self, plan_id: &str) -> Option<&PlanEntry> {
        self.plans.get(plan_id)
    }

    /// Every plan, in the order their ids first appeared.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &PlanEntry> + '_ {
        self.plans.values()
    }

    /// How many plans there are.
    pub fn len(&self) -> usize {
        self.plans.len()
    }

    /// Whether no plan was seen.
    pub fn is_empty(&self) -> bool {
        self.plans.is_empty()
    }

    /// The `sourceEventId`s of applied `plan.updated` events whose payload is not a plan.
    pub fn rejected(&self) -> &[String] {
        &self.rejected
    }

    /// Takes an applied `plan.updated` event.
    pub(super) fn observe(&mut self, event: &EventView<'_>) {
        let Some(plan) = &event.plan else {
            self.rejected.push(event.source_event_id.to_owned());
            return;
        };
        let plan = plan.clone().into_owned();
        let entry = PlanEntry {
            source_event_id: event.source_event_id.to_owned(),
            source_key: format!("{}:{}", event.source_kind, event.source_instance_id),
            source_seq: event.source_seq,
            turn_id: event.turn_id.map(str::to_owned),
            plan,
        };
        match self.plans.get_mut(entry.plan.plan_id.as_str()) {
            Some(slot) => *slot = entry,
            None => {
                self.plans.insert(entry.plan.plan_id.to_string(), entry);
            }
        }
    }
}
