//! prp-mutants: schema edits the way users make them, at scale, for prp-codegen.
//!
//! A run draws mutants from seeds: each is a source schema directory (PRP's `schemas/`, or a
//! group of the official JSON-Schema-Test-Suite) after a chain of real kinds of edits ([`edits`]).
//! Every mutant is then generated, compiled with others in one crate per build, and its types
//! are given documents ([`documents`]) whose verdicts two independent validators decide
//! ([`oracle`]): the typed decode, the verdict-only check, `Check` on values built with the
//! builders and the encode → decode round trip must all agree with them. A failing mutant is
//! shrunk to the smallest directory that still fails ([`shrink`]) and written as a feature case
//! of prp-codegen's snapshot suite.
//!
//! `cargo test --release -p prp-mutants --test mutants` runs it, with `PRP_MUTANTS_SEED` and
//! `PRP_MUTANTS_COUNT` (see the test).

pub mod batch;
pub mod documents;
pub mod edits;
pub mod evaluate;
pub mod oracle;
pub mod recall;
pub mod rng;
pub mod run;
pub mod setup;
pub mod shrink;
pub mod source;
pub mod tree;

pub use edits::{Mutant, mutate};
pub use source::{File, Setup, Source};
