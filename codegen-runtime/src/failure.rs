//! Failures: what a value fails (a [`Keyword`] code), where and why ([`Failure`]), and the typed
//! channel that carries a failure beside the text-only serde error built for it ([`fail`],
//! [`take_failure`]).

use crate::__private::*;
use serde::de::{self};
use std::fmt;

/// What a value fails: the schema keyword, or the decoder limit, behind a [`Failure`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Keyword {
    /// A member that `additionalProperties: false` forbids.
    AdditionalProperties,
    /// A value that matches none of an `anyOf`'s alternatives.
    AnyOf,
    /// A value other than the `const`.
    Const,
    /// Too few, or too many, items that match `contains`.
    Contains,
    /// A member absent that another member's presence requires.
    DependentRequired,
    /// A member name that appears twice in one object.
    DuplicateKey,
    /// A value that could not be written as JSON.
    Encode,
    /// A value outside the `enum`.
    Enum,
    /// A number not below `exclusiveMaximum`.
    ExclusiveMaximum,
    /// A number not above `exclusiveMinimum`.
    ExclusiveMinimum,
    /// A value where the schema is `false`.
    FalseSchema,
    /// A string that is not in its asserted `format`.
    Format,
    /// An integer beyond the 64-bit range a bounded member is stored in.
    IntegerRange,
    /// More items than `maxItems`.
    MaxItems,
    /// A string longer than `maxLength` characters.
    MaxLength,
    /// More members than `maxProperties`.
    MaxProperties,
    /// A number above `maximum`.
    Maximum,
    /// Fewer items than `minItems`.
    MinItems,
    /// A string shorter than `minLength` characters.
    MinLength,
    /// Fewer members than `minProperties`.
    MinProperties,
    /// A number below `minimum`.
    Minimum,
    /// A number that is not a multiple of `multipleOf`.
    MultipleOf,
    /// Members that a `not` forbids together.
    Not,
    /// A value that matches none, or more than one, of a `oneOf`'s alternatives.
    OneOf,
    /// A string that does not match its `pattern`.
    Pattern,
    /// A required member that is absent.
    Required,
    /// Nesting deeper than the decoder's limit.
    TooDeep,
    /// A value of the wrong JSON type.
    Type,
    /// An item no subschema evaluated, where `unevaluatedItems` forbids it.
    UnevaluatedItems,
    /// A member no subschema evaluated, where `unevaluatedProperties` forbids it.
    UnevaluatedProperties,
    /// Two equal items where `uniqueItems` forbids it.
    UniqueItems,
}

impl Keyword {
    /// Every keyword, in name order.
    pub const ALL: &'static [Keyword] = &[
        Keyword::AdditionalProperties,
        Keyword::AnyOf,
        Keyword::Const,
        Keyword::Contains,
        Keyword::DependentRequired,
        Keyword::DuplicateKey,
        Keyword::Encode,
        Keyword::Enum,
        Keyword::ExclusiveMaximum,
        Keyword::ExclusiveMinimum,
        Keyword::FalseSchema,
        Keyword::Format,
        Keyword::IntegerRange,
        Keyword::MaxItems,
        Keyword::MaxLength,
        Keyword::MaxProperties,
        Keyword::Maximum,
        Keyword::MinItems,
        Keyword::MinLength,
        Keyword::MinProperties,
        Keyword::Minimum,
        Keyword::MultipleOf,
        Keyword::Not,
        Keyword::OneOf,
        Keyword::Pattern,
        Keyword::Required,
        Keyword::TooDeep,
        Keyword::Type,
        Keyword::UnevaluatedItems,
        Keyword::UnevaluatedProperties,
        Keyword::UniqueItems,
    ];

    /// Whether this is a keyword of the schema (`maxLength`, `required`, ...), as opposed to a
    /// limit of the decoder or encoder (a duplicate member, nesting too deep, a value JSON cannot
    /// hold).
    pub fn is_schema_keyword(self) -> bool {
        !matches!(
            self,
            Keyword::DuplicateKey | Keyword::TooDeep | Keyword::Encode
        )
    }

    /// The stable snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::AdditionalProperties => "additional_properties",
            Keyword::AnyOf => "any_of",
            Keyword::Const => "const",
            Keyword::Contains => "contains",
            Keyword::DependentRequired => "dependent_required",
            Keyword::DuplicateKey => "duplicate_key",
            Keyword::Encode => "encode",
            Keyword::Enum => "enum",
            Keyword::ExclusiveMaximum => "exclusive_maximum",
            Keyword::ExclusiveMinimum => "exclusive_minimum",
            Keyword::FalseSchema => "false_schema",
            Keyword::Format => "format",
            Keyword::IntegerRange => "integer_range",
            Keyword::MaxItems => "max_items",
            Keyword::MaxLength => "max_length",
            Keyword::MaxProperties => "max_properties",
            Keyword::Maximum => "maximum",
            Keyword::MinItems => "min_items",
            Keyword::MinLength => "min_length",
            Keyword::MinProperties => "min_properties",
            Keyword::Minimum => "minimum",
            Keyword::MultipleOf => "multiple_of",
            Keyword::Not => "not",
            Keyword::OneOf => "one_of",
            Keyword::Pattern => "pattern",
            Keyword::Required => "required",
            Keyword::TooDeep => "too_deep",
            Keyword::Type => "type",
            Keyword::UnevaluatedItems => "unevaluated_items",
            Keyword::UnevaluatedProperties => "unevaluated_properties",
            Keyword::UniqueItems => "unique_items",
        }
    }
}

/// A keyword equals its snake_case name: `failure.code == "max_length"`.
impl PartialEq<str> for Keyword {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Keyword {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

std::thread_local! {
    /// The failure behind the serde error [`fail`] built last on this thread, when that error
    /// could not hold it. serde's errors are built from a `Display` alone (`de::Error::custom`),
    /// and a generated decoder runs on any deserializer, so a `serde_json::Error` carries only the
    /// sentence: the typed failure travels beside it, for [`take_failure`]. The reader keeps it
    /// in its record of the refusal instead (see `HANDOFF`).
    static LAST_FAILURE: std::cell::RefCell<Option<Failure>> = const { std::cell::RefCell::new(None) };

    /// The failure [`fail`] is turning into an error, while it calls `de::Error::custom`: the
    /// reader's error takes it into its record of the refusal (`reader::Refusal::failure`), so
    /// that nothing is matched back by the sentence. A generic decoder has no other way to hand a
    /// typed value to the error's constructor; the slot is empty before and after every call of
    /// [`fail`], so it never holds a stale failure. Why the reader's record is itself on the
    /// thread, not in its error: see `reader::Refused`.
    static HANDOFF: std::cell::Cell<Option<Failure>> = const { std::cell::Cell::new(None) };
}

/// Builds a serde error for a failed check, with the typed [`Failure`] (its keyword, its pointer
/// relative to the value being decoded, its sentence) handed to the reader's record of the refusal
/// when the error is the reader's, and otherwise recorded for [`take_failure`]. Cold: it runs only
/// when a value is refused, and kept out of line it leaves the decoders it is called from small.
#[cold]
#[inline(never)]
pub fn fail<E: de::Error>(code: Keyword, rel: &str, msg: impl fmt::Display) -> E {
    let failure = Failure::new(code, rel, msg.to_string());
    let message = failure.message.clone();
    HANDOFF.set(Some(failure));
    let error = E::custom(&message);
    if let Some(failure) = HANDOFF.take() {
        LAST_FAILURE.with(|slot| *slot.borrow_mut() = Some(failure));
    }
    error
}

/// The failure [`fail`] is handing to the error being built, if it is building one.
pub(crate) fn handed_over() -> Option<Failure> {
    HANDOFF.take()
}

/// A tagged union's failure for a tag value no variant has: `rel` points at the tag, `allowed`
/// says which values it takes.
#[cold]
pub fn unknown_tag<E: de::Error>(rel: &str, value: &str, allowed: &str) -> E {
    fail(
        Keyword::OneOf,
        rel,
        format_args!("unknown {value:?}: {allowed}"),
    )
}

/// The typed failure behind a decode error whose text is `error_text` (one of a deserializer other
/// than the reader, whose error holds its failure itself): the one [`fail`] recorded last on this
/// thread, if the error is the one it built (its text is the failure's sentence, less
/// serde_json's position); `None` for an error serde itself raised (a wrong JSON type, bad syntax).
/// Clears the record either way.
pub fn take_failure(error_text: &str) -> Option<Failure> {
    let failure = LAST_FAILURE.with(|slot| slot.borrow_mut().take())?;
    (strip_position(error_text) == failure.message).then_some(failure)
}

/// Forgets any recorded failure, so that a stale one is never matched to a later error.
pub fn clear_failure() {
    LAST_FAILURE.with(|slot| *slot.borrow_mut() = None);
}

/// Escapes one reference token of a JSON pointer (RFC 6901).
pub use prp_vocabulary::pointer::escape as escape_token;

/// A located check failure: a stable keyword code, a JSON pointer relative to the value checked,
/// and a sentence. Decoding turns it into a serde error; checking a built value returns it as is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What failed.
    pub code: Keyword,
    /// Where, as a JSON pointer relative to the value checked (`""` for the value itself).
    pub rel: String,
    /// A sentence saying what is wrong.
    pub message: String,
}

impl Failure {
    /// A failure of `code` at `rel` (a JSON pointer relative to the value checked).
    pub fn new(code: Keyword, rel: impl Into<String>, message: impl Into<String>) -> Self {
        Failure {
            code,
            rel: rel.into(),
            message: message.into(),
        }
    }
    /// A builder's failure for required member `key` left unset.
    pub fn missing(key: &str) -> Self {
        Self::new(
            Keyword::Required,
            "",
            format!("missing required member `{key}`"),
        )
    }
    /// A builder's value of required member `key`, or its failure when left unset.
    pub fn needed<T>(slot: Option<T>, key: &str) -> Result<T, Self> {
        match slot {
            Some(value) => Ok(value),
            None => Err(Self::missing(key)),
        }
    }
    /// The failure as a decoder error, to be found again by [`take_failure`].
    pub fn into_error<E: de::Error>(self) -> E {
        fail(self.code, &self.rel, self.message)
    }
    /// The same failure seen from the object holding the checked value as member `token`.
    pub fn at(mut self, token: &str) -> Self {
        let token = escape_token(token);
        self.rel.insert_str(0, &token);
        self.rel.insert(0, '/');
        self
    }
    /// The same failure seen from the array holding the checked value at `index`.
    pub fn at_index(mut self, index: usize) -> Self {
        self.rel.insert_str(0, &format!("/{index}"));
        self
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rel.is_empty() {
            write!(f, "{}: {}", self.code, self.message)
        } else {
            write!(f, "{} at {}: {}", self.code, self.rel, self.message)
        }
    }
}

impl std::error::Error for Failure {}

/// Conversions that cannot fail (a builder's setter given the member's own type) meet fallible ones
/// (a constrained string from `&str`) in one error type.
impl From<::core::convert::Infallible> for Failure {
    fn from(never: ::core::convert::Infallible) -> Self {
        match never {}
    }
}

/// The result of member `token`'s checks, a failure located under it. It takes the result rather
/// than a closure that runs the checks so that it is compiled once, not once per checked member.
#[inline]
pub fn within(token: &str, checked: Result<(), Failure>) -> Result<(), Failure> {
    match checked {
        Ok(()) => Ok(()),
        Err(e) => Err(e.at(token)),
    }
}

/// The result of array item `index`'s checks, a failure located under it.
#[inline]
pub fn within_index(index: usize, checked: Result<(), Failure>) -> Result<(), Failure> {
    match checked {
        Ok(()) => Ok(()),
        Err(e) => Err(e.at_index(index)),
    }
}

/// Removes serde_json's " at line L column C" suffix from a message.
pub fn strip_position(text: &str) -> &str {
    match text.rfind(" at line ") {
        Some(i) => &text[..i],
        None => text,
    }
}
