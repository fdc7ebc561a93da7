//! PRP's conformance tooling: the manifest of a protocol directory (every schema and fixture with
//! its SHA-256, each fixture re-validated and each expected rejection confirmed), the reducer's
//! golden files, and dispatcher conformance scenarios.
//!
//! It is what `prp manifest`, `prp goldens` and `prp dispatch` run, and what another implementation
//! of PRP uses to check itself against the same files. A peer that only speaks the protocol needs
//! `prp-peer`, not this.
//!
//! Check that a protocol directory's manifest is fresh:
//!
//! ```no_run
//! let dir = std::path::Path::new("protocol");
//! // The directory's protocol range: here every version this build knows (1..3).
//! let contract = prp_peer::contract::Contract::default();
//! match prp_conformance::manifest::check(dir, contract)? {
//!     prp_conformance::manifest::Check::Fresh => println!("manifest.json is fresh"),
//!     prp_conformance::manifest::Check::Stale(parts) => eprintln!("stale: {parts:?}"),
//! }
//! # Ok::<(), prp_conformance::manifest::Error>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod goldens;
pub mod manifest;
pub mod scenario;

// The modules of prp-types and prp-peer under the names this crate's modules use for them.
use prp_peer::{contract, digest, json, store};
use prp_types::{SCHEMAS, decode, encode, issue, types};

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
