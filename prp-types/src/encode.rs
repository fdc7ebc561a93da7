//! Typed values out: check a value built or changed in code against its schema, then write it.
//!
//! Decoding and checking share the generated rule tables, so a value that [`Validate::validate`]
//! accepts is one whose JSON [`crate::decode()`] accepts, and a refusal carries the code and JSON pointer
//! that decoding the same JSON would report.

use crate::issue::{Code, Issue};
use prp_codegen_runtime as rt;
use serde::Serialize;
use std::io;

/// A generated PRP type whose value can be checked against its schema.
///
/// The Rust types already hold what they can (enums, one-value constants, required members);
/// `validate` checks the rest: string lengths, patterns and the date-time profile, numeric bounds,
/// item counts and uniqueness, conditionals (`if`/`then`), exclusive alternatives, a payload that
/// must fit the schema its `eventType` selects, and unknown members that would shadow a declared one.
pub trait Validate {
    /// The first violation, located by a JSON pointer into the value's JSON.
    fn validate(&self) -> Result<(), Issue>;
}

impl<T: rt::Check + ?Sized> Validate for T {
    fn validate(&self) -> Result<(), Issue> {
        self.check().map_err(Issue::from)
    }
}

/// Validates `value`, then serializes it as compact JSON.
pub fn encode<T: Validate + Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Issue> {
    let mut out = Vec::with_capacity(256);
    encode_to_writer(&mut out, value)?;
    Ok(out)
}

/// Validates `value`, then serializes it as two-space indented JSON.
pub fn encode_pretty<T: Validate + Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Issue> {
    value.validate()?;
    serde_json::to_vec_pretty(value).map_err(encode_error)
}

/// Validates `value`, then writes it as compact JSON to `writer`. Nothing is written when the value
/// is refused.
pub fn encode_to_writer<W: io::Write, T: Validate + Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> Result<(), Issue> {
    value.validate()?;
    serde_json::to_writer(writer, value).map_err(encode_error)
}

fn encode_error(e: serde_json::Error) -> Issue {
    let code = if e.is_io() {
        Code::IoError
    } else {
        Code::Keyword(crate::Keyword::Encode)
    };
    Issue::new(code, "", format!("could not write the document: {e}"))
}
