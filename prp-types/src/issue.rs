//! The one error type of the runtime: what failed (a typed [`Code`]), where (a JSON pointer) and
//! why (a sentence). Decoding, validation, the contract pipeline, the manifest, the reducer and the
//! command line all report [`Issue`]s, so the same input gets the same code and pointer from every
//! one of them.

use prp_codegen_runtime::Keyword;
use std::fmt;

macro_rules! codes {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal,)*) => {
        /// A stable issue code. [`Code::as_str`] gives its snake_case name, which is what reports
        /// and JSON output carry; names never change meaning.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            /// What a value fails, as the generated checks and the decoder say it: a schema
            /// keyword (`Keyword::MaxLength`) or a decoder limit (`Keyword::TooDeep`). The
            /// runtime's code, wrapped: a keyword the runtime gains is a code here with no edit.
            Keyword(Keyword),
            $($(#[doc = $doc])* $variant,)*
        }

        impl Code {
            /// The codes that are not a runtime [`Keyword`], in declaration order.
            const OWN: &'static [Code] = &[$(Code::$variant),*];

            /// Every code: the runtime's keywords, then this crate's own.
            pub fn all() -> impl Iterator<Item = Code> {
                Keyword::ALL.iter().map(|k| Code::Keyword(*k)).chain(Self::OWN.iter().copied())
            }

            /// The stable snake_case name.
            pub fn as_str(self) -> &'static str {
                match self {
                    Code::Keyword(k) => k.as_str(),
                    $(Code::$variant => $name,)*
                }
            }

            /// The code with this snake_case name.
            pub fn from_name(name: &str) -> Option<Code> {
                match name {
                    $($name => Some(Code::$variant),)*
                    _ => Keyword::ALL.iter().find(|k| k.as_str() == name).map(|k| Code::Keyword(*k)),
                }
            }
        }
    };
}

codes! {
    /// A file or stream could not be read.
    IoError => "io_error",
    /// The bytes are not JSON (or not UTF-8).
    InvalidJson => "invalid_json",
    /// The document is larger than [`crate::decode::MAX_DOCUMENT_BYTES`].
    TooLarge => "too_large",
    /// No PRP schema has the document's `schema` member.
    UnknownSchema => "unknown_schema",
    /// A version member names a version this implementation does not support.
    UnsupportedRequiredVersion => "unsupported_required_version",
    /// A schema-valid fixture whose parts disagree (an event's `runId` against the identity, ...).
    BindingMismatch => "binding_mismatch",
    /// A member the reducer reads holds a value it cannot use (set in code out of range).
    InvalidMember => "invalid_member",
    /// A discovery query that is empty or longer than 500 characters once trimmed.
    SemanticDiscoveryQueryInvalid => "semantic_discovery_query_invalid",
    /// A discovery namespace that is not `^[a-z][a-z0-9_]{0,63}$`.
    SemanticDiscoveryNamespaceInvalid => "semantic_discovery_namespace_invalid",
    /// A schema that does not declare the draft 2020-12 dialect.
    UnsupportedSchemaDialect => "unsupported_schema_dialect",
    /// A schema `$id` outside the PRP namespace or not a URL.
    InvalidSchemaId => "invalid_schema_id",
    /// Two schemas with one `$id`.
    DuplicateSchemaId => "duplicate_schema_id",
    /// A schema without a `title`.
    MissingSchemaTitle => "missing_schema_title",
    /// A `$ref` to a schema that is not in the set.
    UnresolvedSchemaReference => "unresolved_schema_reference",
    /// A `$ref` fragment that names nothing in its schema.
    UnresolvedSchemaFragment => "unresolved_schema_fragment",
    /// A schema that does not compile.
    SchemaCompileError => "schema_compile_error",
    /// A fixture that requires a schema this implementation does not have.
    UnsupportedRequiredSchema => "unsupported_required_schema",
    /// A fixture the contract rejects where it should be accepted, or the other way round.
    InvalidFixture => "invalid_fixture",
    /// A question-adapter fixture that does not hold.
    InvalidQuestionAdapterFixture => "invalid_question_adapter_fixture",
    /// A Codex question fixture that does not hold.
    InvalidCodexQuestionFixture => "invalid_codex_question_fixture",
    /// An ACPX question fixture that does not hold.
    InvalidAcpxQuestionFixture => "invalid_acpx_question_fixture",
    /// A question fixture for a provider this implementation does not know.
    UnsupportedProvider => "unsupported_provider",
    /// A conformance output whose run identity is not its input's.
    ConformanceIdentityMismatch => "conformance_identity_mismatch",
    /// A conformance output event that is not a valid PRP event.
    InvalidConformanceEvent => "invalid_conformance_event",
    /// A conformance output whose result is not the expected one.
    ConformanceResultMismatch => "conformance_result_mismatch",
    /// A fake-harness script that is not a valid `paperclip.fake_harness.script.v1` document.
    InvalidScript => "invalid_script",
}

impl Code {
    /// Whether this is a schema keyword a value fails (`max_length`, `required`, ...), as
    /// opposed to a decoder limit or a code of the protocol's own.
    pub fn is_schema_keyword(self) -> bool {
        matches!(self, Code::Keyword(k) if k.is_schema_keyword())
    }

    /// The code a `prp validate` report carries: schema keywords are grouped as
    /// `schema_validation` (the keyword itself is named beside it); every other code as itself.
    pub fn report_name(self) -> &'static str {
        if self.is_schema_keyword() {
            "schema_validation"
        } else {
            self.as_str()
        }
    }

    /// Whether the input was not JSON at all (as opposed to JSON the schema rejects).
    pub fn is_syntax(self) -> bool {
        matches!(
            self,
            Code::InvalidJson | Code::TooLarge | Code::Keyword(Keyword::TooDeep)
        )
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code equals its snake_case name: `issue.code == "max_length"`.
impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl From<Keyword> for Code {
    fn from(k: Keyword) -> Code {
        Code::Keyword(k)
    }
}

/// One issue: a typed code, the JSON pointer of the offending value (RFC 6901; `""` is the
/// document itself) and a sentence a person understands.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Issue {
    /// What failed.
    pub code: Code,
    /// Where: a JSON pointer into the input, `""` for the whole input.
    pub pointer: String,
    /// Why, in a sentence.
    pub message: String,
}

impl Issue {
    /// An issue at `pointer`.
    pub fn new(code: Code, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Issue {
            code,
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// The pointer as written in reports: `/` for the root.
    pub fn path(&self) -> &str {
        prp_codegen_runtime::pointer::shown(&self.pointer)
    }

    /// Whether the input was not JSON at all (as opposed to JSON the schema rejects).
    pub fn is_syntax(&self) -> bool {
        self.code.is_syntax()
    }

    /// The same issue, located below `prefix` (a JSON pointer such as `/events/3`).
    pub fn under(mut self, prefix: &str) -> Self {
        self.pointer.insert_str(0, prefix);
        self
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}: {}", self.code, self.path(), self.message)
    }
}

impl std::error::Error for Issue {}

impl From<prp_codegen_runtime::Failure> for Issue {
    fn from(f: prp_codegen_runtime::Failure) -> Self {
        Issue::new(f.code.into(), f.rel, f.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut names: Vec<&str> = Code::all().map(|c| c.as_str()).collect();
        for c in Code::all() {
            assert_eq!(Code::from_name(c.as_str()), Some(c));
        }
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count);
        assert_eq!(
            Code::from_name("max_length"),
            Some(Code::Keyword(Keyword::MaxLength))
        );
        assert_eq!(Code::from_name("unknown_schema"), Some(Code::UnknownSchema));
        assert_eq!(Code::from_name("no_such_code"), None);
    }

    #[test]
    fn schema_keywords_are_reported_as_schema_validation() {
        let keywords: Vec<Code> = Code::all().filter(|c| c.is_schema_keyword()).collect();
        assert_eq!(keywords.len(), 28);
        assert_eq!(
            Code::Keyword(Keyword::MaxLength).report_name(),
            "schema_validation"
        );
        for limit in [Keyword::DuplicateKey, Keyword::TooDeep, Keyword::Encode] {
            assert!(!Code::Keyword(limit).is_schema_keyword());
            assert_eq!(Code::Keyword(limit).report_name(), limit.as_str());
        }
        assert!(Code::Keyword(Keyword::TooDeep).is_syntax());
    }
}
