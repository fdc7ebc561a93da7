//! The replay reducer: events folded into a session snapshot and a parity summary (PROTOCOL §2).
//!
//! ```text
//! create_snapshot(&fixture) -> Snapshot
//! Snapshot::reduce(&[event])  batch: lists in-batch duplicates, then applies each event
//! Snapshot::apply(&event)     one event: cursors, stale/out-of-order, gaps, timeline, projection
//! Snapshot::to_pretty()       the golden snapshot bytes
//! Snapshot::summary()         the parity summary (to_pretty(): the golden summary bytes)
//! Snapshot::plans()           the latest plan per planId (outside the golden format)
//! ```
//!
//! Events are the generated typed events, [`Event`](crate::types::Event),
//! [`EventV2`](crate::types::EventV2) or a fixture's [`FixtureEvent`](crate::types::FixtureEvent)
//! (see [`ReplayEvent`]), read in place. The reducer trusts the contract pipeline for meaning (ids
//! matching the identity, one terminal); the types guarantee the shape.

mod event;
mod items;
mod js;
mod plans;
mod processed;
mod projection;
mod reduce;
mod snapshot;
mod state;
mod summary;
mod timeline;

pub use event::{EventView, MAX_SOURCE_SEQ, ReplayEvent};
pub use items::{Item, ItemStatus, Items};
pub use plans::{PlanEntry, PlanProjection};
pub use reduce::{BatchOutcome, Outcome};
pub use snapshot::{SNAPSHOT_SCHEMA, Snapshot, create_snapshot};
pub use state::{Gap, Integrity, MAX_GAP_MISSING, Request, SessionState, TurnState};
pub use summary::ParitySummary;
pub use timeline::{Entries, Timeline, TimelineEntry};

use crate::contract::Contract;
use crate::issue::Issue;
use crate::types::Fixture;

/// Replays a fixture that has already passed the contract pipeline:
/// `reduce(create_snapshot(fixture), fixture.events)` in a single call. Error pointers are into
/// the fixture.
pub fn replay_fixture(fixture: &Fixture) -> Result<Snapshot, Issue> {
    let mut snapshot = create_snapshot(fixture)?;
    snapshot
        .reduce(&fixture.events)
        .map_err(|e| e.under("/events"))?;
    Ok(snapshot)
}

/// Runs the whole contract pipeline on fixture bytes (PROTOCOL §1.7: version checks, schema,
/// binding checks) under the default range ([`crate::contract::known`]) and replays the accepted
/// fixture; a rejected fixture gives its issues, in pipeline order and never empty.
pub fn replay_fixture_bytes(bytes: &[u8]) -> Result<Snapshot, Vec<Issue>> {
    replay_fixture_bytes_with(Contract::default(), bytes)
}

/// [`replay_fixture_bytes`] with the pipeline configured by `contract` (its protocol range).
pub fn replay_fixture_bytes_with(contract: Contract, bytes: &[u8]) -> Result<Snapshot, Vec<Issue>> {
    let outcome = contract.validate_fixture_bytes(bytes);
    match outcome.document {
        Some(fixture) => replay_fixture(&fixture.typed).map_err(|e| vec![e]),
        None => Err(outcome.issues),
    }
}
