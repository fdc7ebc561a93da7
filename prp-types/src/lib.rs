//! Typed Rust values for the Paperclip Runner Protocol (PRP v1/v2).
//!
//! The types in [`types`] are generated at build time from the JSON Schemas in `schemas/` by
//! `prp-codegen`. Decoding ([`decode()`]) checks every constraint of the schema, so a decoded value
//! is one the schema accepts. A value built in code is valid by construction where its type can
//! say so (constrained strings, integer enums, constants) and checked by [`Validate::validate`]
//! for the rest, with the code and pointer decoding its JSON would give; [`encode()`] writes only
//! values that pass. Every error is an [`Issue`]: a typed [`Code`], a JSON pointer, a sentence.
//!
//! This crate is what a user of PRP messages needs and nothing heavier: the types, the contract
//! pipeline, the reducer, the catalog and digests, the dispatcher with the [`store`] contract and
//! its in-memory store, negotiation and session goals. Its dependencies are serde and small
//! pure-Rust crates. The durable stores (SQLite, PostgreSQL) are in the `prp-store` crate, the
//! local runner and fake harness in `prp-runner`, and the generated code's runtime in
//! `prp-codegen-runtime`, re-exported here where users meet it ([`Str`], [`Tri`], [`Failure`]).
//!
//! Decode a document and read it:
//!
//! ```
//! use prp_types::types::{Event, EventPayload, EventType};
//!
//! let text = r#"{"schema": "paperclip.prp.event.v1", "sourceEventId": "evt-1", "sourceSeq": 1,
//!   "sourceInstanceId": "runner-a", "sourceKind": "runner", "runId": "run-1",
//!   "eventType": "turn.started", "schemaVersion": 1, "priority": 1,
//!   "emittedAt": "2026-12-01T09:00:00Z", "payload": {}}"#;
//! let event: Event = prp_types::decode_str(text)?;
//! assert_eq!(event.event_type, EventType::TurnStarted);
//! assert!(matches!(event.payload, EventPayload::Other(_)));
//!
//! // A document the schema refuses gets a code and a pointer.
//! let err = prp_types::decode_str::<Event>(&text.replace("run-1", "")).unwrap_err();
//! assert_eq!((err.code, err.pointer.as_str()), (prp_types::Code::MinLength, "/runId"));
//! # Ok::<(), prp_types::Issue>(())
//! ```
//!
//! Build a `plan.updated` event and send it:
//!
//! ```
//! use prp_types::types::*;
//!
//! let plan = Plan::builder()
//!     .plan_id("plan-1")
//!     .revision(1)
//!     .steps(vec![PlanStep::builder().step_id("read").body("Read the failing test")
//!         .status(PlanStepStatus::InProgress).build()?])
//!     .complete(false)
//!     .sync_status(PlanSyncStatus::NotApplicable)
//!     .build()?;
//! let event = Event::builder()
//!     .source_event_id("evt-2").source_seq(2).source_instance_id("runner-a")
//!     .source_kind(EventSourceKind::Runner).run_id("run-1")
//!     .priority(EventPriority::V1).emitted_at("2026-12-01T09:00:01Z")
//!     .payload(plan) // the event type follows: plan.updated
//!     .build()?;
//! assert_eq!(event.event_type, EventType::PlanUpdated);
//! let bytes = prp_types::encode(&event)?;
//! assert!(bytes.starts_with(br#"{"schema":"paperclip.prp.event.v1""#));
//!
//! // A member its type cannot hold is refused where it is set.
//! let err = Event::builder().run_id("").build().unwrap_err();
//! assert_eq!((err.code.as_str(), err.rel.as_str()), ("min_length", "/runId"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Replay decoded events into a session snapshot:
//!
//! ```
//! use prp_types::reducer::Snapshot;
//! use prp_types::types::Event;
//! use serde_json::json;
//!
//! let started: Event = prp_types::decode_str(r#"{"schema": "paperclip.prp.event.v1",
//!   "sourceEventId": "evt-1", "sourceSeq": 1, "sourceInstanceId": "runner-a",
//!   "sourceKind": "runner", "runId": "run-1", "eventType": "session.started",
//!   "schemaVersion": 1, "priority": 1, "emittedAt": "2026-12-01T09:00:00Z", "payload": {}}"#)?;
//! let mut snapshot = Snapshot::new("demo", json!({"runId": "run-1"}), json!({}));
//! let outcome = snapshot.reduce(&[started.clone(), started])?;
//! assert_eq!((outcome.applied, outcome.already_processed), (1, 1));
//! assert_eq!(snapshot.session_state(), prp_types::reducer::SessionState::Running);
//! # Ok::<(), prp_types::Issue>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod catalog;
pub mod contract;
pub mod decode;
pub mod digest;
pub mod dispatcher;
pub mod encode;
pub mod goals;
pub mod issue;
pub mod json;
pub mod manifest;
pub mod negotiation;
pub mod reducer;
pub mod store;
pub mod validation;

/// The generated PRP types, one per schema document, definition and inline object.
#[allow(clippy::all, clippy::pedantic, non_camel_case_types, dead_code)]
pub mod types {
    include!(concat!(env!("OUT_DIR"), "/prp_types.rs"));
}

pub use decode::{decode, decode_document, decode_str};
pub use encode::{Validate, encode, encode_pretty, encode_to_writer};
pub use issue::{Code, Issue};
pub use prp_codegen_runtime::{
    Document as SchemaDocument, Failure, False, Integer, Keyword, Order, SchemaInfo, Str, Tri, True,
};
pub use types::{Document, SCHEMAS};
