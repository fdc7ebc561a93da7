//! Typed Rust values for the Paperclip Runner Protocol (PRP v1/v2).
//!
//! The types in [`types`] are generated at build time from the JSON Schemas in `schemas/` by
//! `prp-codegen`. Decoding ([`decode`]) checks every constraint of the schema, so a decoded value is
//! one the schema accepts. A value built or changed in code is checked by [`Validate::validate`]
//! with the code and pointer decoding its JSON would give, and [`encode`] writes only values that
//! pass.

#![forbid(unsafe_code)]

pub mod contract;
pub mod decode;
pub mod encode;
pub mod issue;
pub mod json;
pub mod manifest;
pub mod reducer;
pub mod validation;

/// The generated PRP types, one per schema document, definition and inline object.
#[allow(clippy::all, clippy::pedantic, non_camel_case_types, dead_code)]
pub mod types {
    include!(concat!(env!("OUT_DIR"), "/prp_types.rs"));
}

pub use decode::{decode, decode_document, decode_str};
pub use encode::{Validate, encode, encode_pretty, encode_to_writer};
pub use issue::{Code, Issue};
pub use types::rt::{Document as SchemaDocument, False, Integer, SchemaInfo, Str, Tri, True};
pub use types::{Document, SCHEMAS};
