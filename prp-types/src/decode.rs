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
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let mut track = serde_path_to_error::Track::new();
    let value = T::deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track));
    let value = match value {
        Ok(v) => v,
        Err(e) => return Err(classify(&e, rt::pointer_of(&track.path()))),
    };
    de.end().map_err(|e| classify(&e, String::new()))?;
    Ok(value)
}

/// [`decode`] for text.
pub fn decode_str<T: DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    decode(text.as_bytes())
}

/// Decodes any PRP document, choosing its type by its `schema` member.
pub fn decode_document(bytes: &[u8]) -> Result<crate::Document, DecodeError> {
    decode(bytes)
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
