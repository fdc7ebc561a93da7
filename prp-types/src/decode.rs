//! Bytes in, typed documents out: one pass of serde over the input, with constraint checks inside the
//! generated decoders and a JSON pointer for every failure.

use crate::types::rt;
use serde::de::DeserializeOwned;
use std::fmt;

/// The largest document, in bytes, that decoding accepts.
pub const MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;

/// The deepest nesting of arrays and objects that decoding accepts (serde_json's recursion limit).
pub const MAX_DEPTH: usize = 128;

/// Why bytes did not decode to a typed document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Stable snake_case code: `invalid_json`, `too_large`, `too_deep`, or the schema keyword that
    /// failed (`required`, `type`, `const`, `enum`, `pattern`, `max_length`, `additional_properties`,
    /// `one_of`, ...).
    pub code: String,
    /// JSON pointer (RFC 6901) of the offending value; `""` is the document itself.
    pub pointer: String,
    /// A sentence saying what is wrong.
    pub message: String,
}

impl DecodeError {
    fn new(
        code: impl Into<String>,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        DecodeError {
            code: code.into(),
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// Whether the input was not JSON at all (as opposed to JSON the schema rejects).
    pub fn is_syntax(&self) -> bool {
        matches!(
            self.code.as_str(),
            "invalid_json" | "too_large" | "too_deep"
        )
    }

    /// The pointer as written in reports: `/` for the root.
    pub fn path(&self) -> &str {
        if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}: {}", self.code, self.path(), self.message)
    }
}

impl std::error::Error for DecodeError {}

/// Decodes one JSON document into `T`, checking every schema constraint.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(DecodeError::new(
            "too_large",
            "",
            format!(
                "document is {} bytes; the limit is {MAX_DOCUMENT_BYTES}",
                bytes.len()
            ),
        ));
    }
    // Decode without tracking the path first: valid input is the common case, and only an error
    // needs a pointer, which a second, tracked pass over the same bytes then provides.
    // UTF-8 is checked once for the whole text (fast, vectorised) rather than string by string.
    if let Ok(text) = std::str::from_utf8(bytes) {
        let mut de = serde_json::Deserializer::from_str(text);
        if let Ok(value) = T::deserialize(&mut de)
            && de.end().is_ok()
        {
            return Ok(value);
        }
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let mut track = serde_path_to_error::Track::new();
    let value = T::deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track));
    let value = match value {
        Ok(v) => v,
        Err(e) => {
            // A schema failure in text that is not JSON at all is reported as what it is.
            if let Err(syntax) = serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
                return Err(classify(&syntax, String::new()));
            }
            return Err(classify(&e, rt::pointer_of(&track.path())));
        }
    };
    de.end().map_err(|e| classify(&e, String::new()))?;
    Ok(value)
}

/// [`decode`] for text.
pub fn decode_str<T: DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    decode(text.as_bytes())
}

/// Decodes any PRP document, choosing its type by its `schema` member.
///
/// A version member outside the supported set fails closed with `unsupported_required_version`.
pub fn decode_document(bytes: &[u8]) -> Result<crate::Document, DecodeError> {
    decode(bytes).map_err(fail_closed_on_versions)
}

fn classify(e: &serde_json::Error, pointer: String) -> DecodeError {
    let text = e.to_string();
    match e.classify() {
        serde_json::error::Category::Syntax
        | serde_json::error::Category::Eof
        | serde_json::error::Category::Io => {
            if text.starts_with("recursion limit exceeded") {
                DecodeError::new(
                    "too_deep",
                    pointer,
                    format!("nesting is deeper than {MAX_DEPTH} levels"),
                )
            } else {
                DecodeError::new("invalid_json", "", format!("not valid JSON: {text}"))
            }
        }
        serde_json::error::Category::Data => match rt::unpack(&text) {
            Some((code, rel, msg)) => DecodeError::new(code, format!("{pointer}{rel}"), msg),
            None => DecodeError::new("type", pointer, rt::strip_position(&text).to_owned()),
        },
    }
}

/// A decoder that checks bytes against one schema, chosen at run time.
pub type Checker = fn(&[u8]) -> Result<(), DecodeError>;

/// Decodes bytes against one schema and encodes the typed value back to JSON.
pub type Reencoder = fn(&[u8]) -> Result<serde_json::Value, DecodeError>;

mod table {
    use super::{Checker, DecodeError, Reencoder, decode};
    #[allow(unused_imports)]
    use crate::types::*;

    macro_rules! checkers {
        ($(($id:expr, $t:ty)),* $(,)?) => {
            /// Every schema root (`$id`) and named definition (`$id#/$defs/NAME`) with its checker.
            pub static CHECKERS: &[(&str, Checker)] = &[$(($id, |b| decode::<$t>(b).map(|_| ()))),*];
            /// The same table, decoding and then encoding the typed value again through
            /// [`crate::encode`] (which validates it first): for round-trip tests and tools that
            /// normalise documents.
            pub static REENCODERS: &[(&str, Reencoder)] = &[$(($id, |b| {
                let v = decode::<$t>(b)?;
                let bytes = crate::encode(&v)?;
                serde_json::from_slice(&bytes).map_err(|e| DecodeError::new("encode", "", e.to_string()))
            })),*];
        };
    }
    crate::types::for_each_schema_type!(checkers);
}

pub use table::{CHECKERS, REENCODERS};

/// The checker for a schema `$id` (optionally with a `#/$defs/NAME` fragment).
pub fn checker(id: &str) -> Option<Checker> {
    CHECKERS.iter().find(|(k, _)| *k == id).map(|(_, c)| *c)
}

/// Members that carry a required version: a value outside the supported set fails closed.
const VERSION_MEMBERS: &[&str] = &["protocolVersion", "fixtureVersion", "schemaVersion"];

/// Marks a failed `const`/`enum` check on a version member as `unsupported_required_version`.
pub fn fail_closed_on_versions(mut e: DecodeError) -> DecodeError {
    let last = e.pointer.rsplit('/').next().unwrap_or("");
    if matches!(e.code.as_str(), "const" | "enum") && VERSION_MEMBERS.contains(&last) {
        e.message = format!(
            "{last} is unsupported by this implementation: {}",
            e.message
        );
        e.code = "unsupported_required_version".to_owned();
    }
    e
}
