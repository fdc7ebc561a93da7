//! The runtime of the code `prp-codegen` generates: the seeds, rule tables, checks, failures and
//! value types (`Str`, `Tri`, `Integer`, `Order`, ...) every generated module calls, and the JSON
//! reader its verdicts run on. Generated code refers to it as `rt` and to the crates it needs
//! through it (`rt::serde`, `rt::serde_json`, `rt::indexmap`), so a crate that includes generated
//! code adds this one dependency, and two generated crates share one `Tri`, `Failure` and `Str`.
//!
//! Two faces. What generated code calls (seeds, rule tables, member slots, the struct and union
//! macros) is under [`__private`], which the generated module names `rt`: it is not an API for
//! hand-written code, changes with the generator, and the two are released together. What
//! hand-written code beside generated code may use (failures and their codes, the value types,
//! [`Verify`] and [`Check`], the [`reader`], the schema program's [`eval`]uator, and the rules a
//! hand-written type checks itself by) is re-exported at the crate root and documented there.
//!
//! Constraint checks run inside `DeserializeSeed`s, so a failure is raised while the decoder stands on
//! the offending value, and the [`reader`] (or any path-tracking deserializer) names it with a JSON
//! pointer.
//!
//! Most of a generated type's impls are this crate's macros: the generated code declares the type
//! with its docs and gives a table (a struct's members for [`decode_members!`],
//! [`verify_members!`], [`members!`] and [`builder!`]; a tagged union's variants for [`tagged!`];
//! [`str_enum!`], [`constrained_str!`]). A table expands to the code a generator would otherwise
//! write out per type, so the output stays short without a runtime cost.
//!
//! What is compiled once per generated type is what a crate of generated code costs to build, so
//! the helpers it calls keep their generic part small: checks are given results, not closures
//! ([`within`]), combinators give way to plain matches, and a typed value becomes a JSON tree through
//! the text encoder ([`to_json`]), so that each type's encoder is compiled for one serializer.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

// The rooms, in the order their macros are needed (`seeds` defines the visitors' `reject!`).
#[macro_use]
mod seeds;
mod document;
mod enums;
mod failure;
mod members;
mod numbers;
mod order;
mod pattern;
mod probe;
mod strings;
mod unique;
mod values;
mod verify;

mod macros;

/// The checker for schemas compiled to programs (see the module).
pub mod eval;

/// The JSON reader generated decoders run on: verdicts, typed decodes and located refusals (see
/// the module).
pub mod reader;

#[cfg(feature = "splice")]
#[doc(hidden)]
pub mod splice;

/// Without the `splice` feature a struct's builder table adds nothing (see [`splice`]).
#[cfg(not(feature = "splice"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __splice {
    ($($table:tt)*) => {};
}

// The stable face: what hand-written code beside generated code uses.

/// What a generated document type says about its schema.
pub use document::{Document, SchemaInfo};
/// Failures: a code, a pointer relative to the value checked, a sentence; and the typed channel
/// beside a serde error ([`fail`] raises one, [`take_failure`] reads it back).
pub use failure::{
    Failure, Keyword, clear_failure, escape_token, fail, strip_position, take_failure, within,
    within_index,
};
/// Rules cross members read values through ([`Probe`]), and the objects they read ([`Fields`]).
pub use probe::{Fields, Probe};
/// JSON pointers as the workspace writes them (escaped tokens, the root shown as `/`), for the
/// crates that name a place in a value and depend on the runtime alone.
pub use prp_vocabulary::pointer;
/// Boolean constants (`const: true`, `const: false`) as types.
pub use seeds::{False, True};
/// A hand-written decoder reads keys and refuses what the generated ones refuse.
pub use {
    document::{nesting_depth, refused_failure},
    members::{Key, duplicate},
    seeds::{AnyValue, Reject},
};
/// Checking: a built value ([`Check`]), a document by its verdict alone ([`Verify`]).
pub use {members::Check, verify::Verify};
/// The value types generated fields are made of.
pub use {numbers::Integer, order::Order, strings::Str, values::Tri};
/// A hand-written type checks itself by the generated types' own rules and failures.
pub use {
    numbers::{IntRule, int_failure},
    strings::{StrRule, is_rfc3339_date_time, str_failure},
    unique::{items_failure, json_eq, to_json},
};

/// What generated code calls, named `rt` in a generated module; not for hand-written code.
#[doc(hidden)]
pub mod __private {
    pub use crate::{
        builder, constrained_str, decode_members, members, object, setter, str_enum, tagged,
        verify_members,
    };
    pub use crate::{
        document::*, enums::*, failure::*, members::*, numbers::*, order::*, pattern::*, probe::*,
        seeds::*, strings::*, unique::*, values::*, verify::*,
    };
    pub use crate::{eval, reader};
    pub use {indexmap, serde, serde_json};
}

// The crates generated code names, re-exported so that its crate need not depend on them.
#[doc(hidden)]
pub use indexmap;
#[doc(hidden)]
pub use serde;
#[doc(hidden)]
pub use serde_json;

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
