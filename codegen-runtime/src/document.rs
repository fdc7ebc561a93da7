//! Documents: decoding a captured raw value, a refusal as a [`Failure`], nesting depth, and what a
//! generated document type says about its schema ([`SchemaInfo`], [`Document`]).

use crate::__private::*;
use serde::de::{self, DeserializeSeed};

/// Decodes a captured raw value with `seed`, reporting failures relative to `rel` (the captured
/// value's pointer inside the current object).
pub fn decode_raw<'a, S, E>(
    raw: &'a serde_json::value::RawValue,
    rel: &str,
    seed: S,
) -> Result<S::Value, E>
where
    S: DeserializeSeed<'a>,
    E: de::Error,
{
    match raw_failure(raw, seed) {
        Ok(value) => Ok(value),
        Err(mut f) => {
            f.rel.insert_str(0, rel);
            Err(f.into_error())
        }
    }
}

/// Decodes a captured raw value with `seed` on the [`reader`]; a failure is located relative to
/// the value.
pub fn raw_failure<'a, S: DeserializeSeed<'a>>(
    raw: &'a serde_json::value::RawValue,
    seed: S,
) -> Result<S::Value, Failure> {
    let mut reader = reader::Reader::new(raw.get());
    match seed.deserialize(&mut reader) {
        Ok(value) => Ok(value),
        Err(_) => Err(refused_failure(reader::last_refusal())),
    }
}

/// The failure behind a [`reader`] refusal, located where the reader stopped: the check's own
/// (keyword, sentence, pointer inside the value) when a check failed, else a type mismatch in
/// serde's words.
pub fn refused_failure(refusal: reader::Refusal) -> Failure {
    match refusal.failure {
        Some(f) => Failure {
            rel: format!("{}{}", refusal.pointer, f.rel),
            ..f
        },
        None if refusal.syntax => Failure::new(Keyword::Type, refusal.pointer, "not valid JSON"),
        None => Failure::new(Keyword::Type, refusal.pointer, refusal.message),
    }
}

/// The deepest nesting of arrays and objects in JSON text (strings skipped), for telling a document
/// too deep for the decoder from one that is not JSON: serde_json reports both as syntax errors.
pub fn nesting_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Identity of the schema a generated document type was made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaInfo {
    /// The schema's `$id`.
    pub id: &'static str,
    /// The schema file's path inside the schema directory.
    pub path: &'static str,
    /// The schema's `title`.
    pub title: &'static str,
    /// SHA-256 of the schema file's bytes after CRLF -> LF, lowercase hex.
    pub sha256: &'static str,
}

/// A type generated from the root of a schema file.
pub trait Document {
    /// The file it was generated from.
    const SCHEMA: SchemaInfo;
}

/// A member decoded in place, or captured raw until the member that decides its type is known.
pub enum Pending<T> {
    /// Decoded.
    Done(T),
    /// Captured raw, to be decoded once the selector is known.
    Raw(Box<serde_json::value::RawValue>),
}
