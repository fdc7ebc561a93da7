//! Generation errors: each names the schema file and the JSON pointer of the offending node.

use std::fmt;

/// What kind of refusal an [`Error`] is: a stable code, printed in snake_case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// A file or directory could not be read.
    Io,
    /// A schema file is not JSON.
    InvalidJson,
    /// A keyword's value is not what the dialect allows.
    InvalidSchema,
    /// A `$id` that is not an absolute URI (or not under the base).
    InvalidSchemaId,
    /// Two schemas declare one `$id`.
    DuplicateSchemaId,
    /// Two schemas of one resource declare one `$anchor`.
    DuplicateAnchor,
    /// A `$schema` other than draft 2020-12.
    UnsupportedSchemaDialect,
    /// A schema file without the `title` its type is named by.
    MissingSchemaTitle,
    /// A `$ref` that names no schema of the set.
    UnresolvedReference,
    /// A URI that names no schema of the set.
    UnknownSchema,
    /// A `pattern` (or asserted format) that is not an ECMA-262 regex.
    InvalidPattern,
    /// An option the generator cannot use (a runtime path, a type name).
    InvalidOption,
    /// A type name given by an option that is not a Rust identifier, or taken.
    InvalidTypeName,
    /// Required and forbidden at once: no value is valid (a member `required` that
    /// `additionalProperties: false` refuses).
    Unsatisfiable,
    /// A defect of the generator itself (its output does not parse): a bug to report.
    Internal,
    /// A schema no typed shape says: the generator falls back to a checked JSON value
    /// where it can, and refuses where it cannot.
    UnsupportedKeyword,
}

impl Code {
    /// The stable snake_case name (`unsupported_keyword`).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Io => "io",
            Code::InvalidJson => "invalid_json",
            Code::InvalidSchema => "invalid_schema",
            Code::InvalidSchemaId => "invalid_schema_id",
            Code::DuplicateSchemaId => "duplicate_schema_id",
            Code::DuplicateAnchor => "duplicate_anchor",
            Code::UnsupportedSchemaDialect => "unsupported_schema_dialect",
            Code::MissingSchemaTitle => "missing_schema_title",
            Code::UnresolvedReference => "unresolved_reference",
            Code::UnknownSchema => "unknown_schema",
            Code::InvalidPattern => "invalid_pattern",
            Code::InvalidOption => "invalid_option",
            Code::InvalidTypeName => "invalid_type_name",
            Code::UnsupportedKeyword => "unsupported_keyword",
            Code::Unsatisfiable => "unsatisfiable",
            Code::Internal => "internal",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code equals its snake_case name: `err.code == "invalid_option"`.
impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Why the generator refused a schema directory.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct Error {
    /// What kind of refusal it is.
    pub code: Code,
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
        code: Code,
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
        // The place as a URI (the file, then the pointer as a fragment): one way to write it.
        let place = prp_vocabulary::uri::at(&self.file, &self.pointer);
        write!(f, "{}: {place}: {}", self.code, self.message)
    }
}

/// The generator's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
