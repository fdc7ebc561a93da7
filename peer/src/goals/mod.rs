//! Session goals (PROTOCOL §5.3, v2 only): the goal commands a controller builds, the gate that
//! decides whether one may go on the wire, and the projection of the goal events into the current
//! goal and capability.
//!
//! ```text
//! command::{get, set, clear}   -> CommandV2 (constants filled, limits checked)
//! gate::check(version, advertised, goal, command) -> Result<(), Refusal>
//! GoalProjection::apply(&event) -> Outcome   (capability, goal, open/resume, stale events)
//! ```
//!
//! [`crate::negotiation::Session`] ties the three together: it holds the negotiated version and a
//! projection, and serializes only the commands the gate lets through.
//!
//! ```
//! use prp_peer::goals;
//! use prp_peer::negotiation::Session;
//!
//! // A runner that speaks only v1 never receives a goal command: it is refused, never written.
//! let session = Session::negotiate("1..1".parse()?)?;
//! let change = goals::GoalSet::builder().objective("Ship the exporter").build()?;
//! let command = goals::set("cmd-7", 7, "2026-10-02T08:00:00Z", change)?;
//! let refusal = session.serialize(&command).unwrap_err();
//! assert_eq!(refusal.code(), "goal_command_needs_v2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Session goals are the runner's own goals for one agent session; they are not Paperclip's company
//! or business goals.

pub mod command;
pub mod gate;
mod projection;

pub use crate::reducer::Outcome;
pub use command::{GoalSet, clear, get, set};
pub use gate::{Advertised, Outgoing, Refusal, required_actions};
pub use projection::{GoalChange, GoalEvent, GoalProjection};
