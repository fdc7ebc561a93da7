//! What a PRP peer does with the messages: the contract pipeline, the replay reducer, the semantic
//! action catalog, digests and redaction, the run-scoped dispatcher with its idempotency store
//! contract and in-memory store, version negotiation and session goals.
//!
//! The messages themselves are `prp-types` (generated from PRP's JSON Schemas; re-exported here as
//! [`types`], with [`Issue`] and [`Code`]), so a crate that only decodes and encodes messages
//! depends on `prp-types` alone and compiles none of this. The durable stores are `prp-store`,
//! the local runner `prp-runner`, the conformance tooling (manifest, goldens, dispatcher scenarios)
//! `prp-conformance`.
//!
//! Replay decoded events into a session snapshot:
//!
//! ```
//! use prp_peer::reducer::{SessionState, Snapshot};
//! use prp_peer::types::Event;
//! use serde_json::json;
//!
//! let started: Event = prp_types::decode_str(r#"{"schema": "paperclip.prp.event.v1",
//!   "sourceEventId": "evt-1", "sourceSeq": 1, "sourceInstanceId": "runner-a",
//!   "sourceKind": "runner", "runId": "run-1", "eventType": "session.started",
//!   "schemaVersion": 1, "priority": 1, "emittedAt": "2026-12-01T09:00:00Z", "payload": {}}"#)?;
//! let mut snapshot = Snapshot::new("demo", json!({"runId": "run-1"}), json!({}));
//! let outcome = snapshot.reduce(&[started.clone(), started])?;
//! assert_eq!((outcome.applied, outcome.already_processed), (1, 1));
//! assert_eq!(snapshot.session_state(), SessionState::Running);
//! # Ok::<(), prp_peer::Issue>(())
//! ```
//!
//! Negotiate a version and let the session decide what may go on the wire:
//!
//! ```
//! use prp_peer::{goals, negotiation::Session};
//!
//! let session = Session::negotiate("1..1".parse()?)?;
//! let change = goals::GoalSet::builder().objective("Ship the exporter").build()?;
//! let command = goals::set("cmd-7", 7, "2026-10-02T08:00:00Z", change)?;
//! // A peer that speaks only v1 never receives a v2 goal command.
//! assert_eq!(session.serialize(&command).unwrap_err().code(), "goal_command_needs_v2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod catalog;
pub mod contract;
pub mod digest;
pub mod dispatcher;
pub mod external_provider;
pub mod goals;
pub mod json;
pub mod negotiation;
pub mod reducer;
pub mod store;
pub mod validation;
pub mod versions;

pub use prp_types::{Code, Issue, types};
// The messages' modules under the names this crate's modules use for them.
use prp_types::{SCHEMAS, Str, decode, encode, issue};

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
