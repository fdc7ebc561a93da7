//! Generation errors: each names the schema file and the JSON pointer of the offending node.

use std::fmt;

/// Why the generator refused a schema directory.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct Error {
    /// Stable snake_case code, e.g. `unsupported_keyword`, `unresolved_reference`.
    pub code: &'static str,
    /// The schema file (relative to the schema directory), when one is concerned.
    pub file: String,
    /// JSON pointer of the node inside that file (`""` for the root).
    pub pointer: String,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl Error {
    /// An error of kind `code` in `file` at `pointer`.
    pub fn new(
        code: &'static str,
        file: impl Into<String>,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Error {
            code,
            file: file.into(),
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}#{}: {}",
            self.code, self.file, self.pointer, self.message
        )
    }
}

/// The generator's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
