//! Typed errors of the reducer. Typed events guarantee the shape of what the reducer reads; what
//! is left is a value changed in code so that it no longer fits (a `sourceSeq` out of range).

use crate::decode::DecodeError;

/// Why the reducer could not read its input. Stable codes, JSON pointers into the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} at {}: {message}", code.as_str(), path(pointer))]
pub struct ReduceError {
    /// What kind of problem it is.
    pub code: ReduceErrorCode,
    /// JSON pointer (RFC 6901) of the offending value; `""` is the input itself.
    pub pointer: String,
    /// A sentence saying what is wrong.
    pub message: String,
}

/// The stable codes of [`ReduceError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReduceErrorCode {
    /// A member the reducer reads is out of the range it can hold, or cannot be written as JSON.
    InvalidMember,
}

impl ReduceErrorCode {
    /// The snake_case code: `invalid_member`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReduceErrorCode::InvalidMember => "invalid_member",
        }
    }
}

fn path(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

impl ReduceError {
    pub(crate) fn new(
        code: ReduceErrorCode,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ReduceError {
            code,
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// The pointer as written in reports: `/` for the root.
    pub fn path(&self) -> &str {
        path(&self.pointer)
    }

    /// The same error, located below `prefix` (a JSON pointer such as `/events/3`).
    pub(crate) fn under(mut self, prefix: &str) -> Self {
        self.pointer.insert_str(0, prefix);
        self
    }
}

/// Why a fixture given as bytes did not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The bytes are not JSON, or not a fixture the schema accepts (including an unsupported
    /// required version, code `unsupported_required_version`).
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The fixture failed the contract pipeline (version checks, schema, binding checks); the
    /// issues are in pipeline order and never empty.
    #[error("{}", .0.first().map(|i| format!("{} at {}: {}", i.code.as_str(), i.path, i.message)).unwrap_or_default())]
    Rejected(Vec<crate::contract::Issue>),
    /// The fixture's events cannot be reduced.
    #[error(transparent)]
    Reduce(#[from] ReduceError),
}

impl ReplayError {
    /// The stable snake_case code of either kind of error.
    pub fn code(&self) -> &str {
        match self {
            ReplayError::Decode(e) => &e.code,
            ReplayError::Reduce(e) => e.code.as_str(),
            ReplayError::Rejected(issues) => issues.first().map_or("", |i| i.code.as_str()),
        }
    }

    /// The JSON pointer of the offending value, `/` for the root.
    pub fn path(&self) -> &str {
        match self {
            ReplayError::Decode(e) => e.path(),
            ReplayError::Reduce(e) => e.path(),
            ReplayError::Rejected(issues) => issues.first().map_or("/", |i| i.path.as_str()),
        }
    }
}
