//! The PRP local runner and the fake harness (PROTOCOL §6): a runner between a controller (PRP
//! commands in, a stream of events and receipts out) and a harness child process it supervises,
//! and a fake harness that plays scripts so that supervision, reconciliation and limits are tested
//! without a real agent. Unix only (process groups and signals); elsewhere the crate is empty.
//!
//! It stands on `prp-types` for every message it reads or writes, each checked against its schema;
//! a crate that only wants the messages depends on `prp-types` alone.
//!
//! ```text
//! script    paperclip.fake_harness.script.v1, decoded with located errors
//! harness   the fake harness: the fixed preamble, then the steps, over stdio
//! intake    controller commands -> receipts (schema, duplicates, sequence)
//! stream    events stamped and checked, receipts, diagnostics; nothing after run.terminal
//! lines     a bounded line reader;  logs  the bounded log tail
//! process   the harness in its own process group, signalled as a group
//! reconcile how the run ended, decided by the runner
//! local     the loop that ties them together
//! ```

#![cfg(unix)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod harness;
pub mod intake;
pub mod lines;
pub mod local;
pub mod logs;
pub mod process;
pub mod reconcile;
pub mod script;
pub mod stream;

pub use local::{Config, Limits, Outcome, RunError, run};
pub use script::Script;
pub use stream::{Clock, Identity};

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
