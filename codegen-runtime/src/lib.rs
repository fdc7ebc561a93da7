//! The runtime of the code `prp-codegen` generates: the seeds, rule tables, checks, failures and
//! value types (`Str`, `Tri`, `Integer`, `Order`, ...) every generated module calls, and the JSON
//! reader its verdicts run on. Generated code refers to it as `rt` and to the crates it needs
//! through it (`rt::serde`, `rt::serde_json`, `rt::indexmap`), so a crate that includes generated
//! code adds this one dependency, and two generated crates share one `Tri`, `Failure` and `Str`.
//!
//! This is not a stable API for hand-written code: it changes with the generator, and the two are
//! released together. What users of a generated crate need (strings, integers, failures) that
//! crate re-exports.
//!
//! Constraint checks run inside `DeserializeSeed`s, so a failure is raised while the decoder stands on
//! the offending value, and the [`reader`] (or any path-tracking deserializer) names it with a JSON
//! pointer.
//!
//! Most of a generated type's impls are this crate's macros: the generated code declares the type
//! with its docs and gives a table (a struct's members for [`decode_members!`],
//! [`verify_members!`], [`members!`] and [`builder!`]; a tagged union's variants for [`tagged!`];
//! [`str_enum!`], [`constrained_str!`]). A table expands to the code a generator would otherwise
//! write out per type, so the output stays short without a runtime cost.
//!
//! What is compiled once per generated type is what a crate of generated code costs to build, so
//! the helpers it calls keep their generic part small: checks are given results, not closures
//! ([`within`]), combinators give way to plain matches, and a typed value becomes a JSON tree through
//! the text encoder ([`to_json`]), so that each type's encoder is compiled for one serializer.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

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
    /// The failure behind the serde error [`fail`] built last on this thread: serde errors carry
    /// only text, so the typed failure travels beside the error instead of inside it.
    static LAST_FAILURE: std::cell::RefCell<Option<Failure>> = const { std::cell::RefCell::new(None) };
}

/// Builds a serde error for a failed check, and records the typed [`Failure`] for
/// [`take_failure`]: its keyword, its pointer relative to the value being decoded, its sentence.
pub fn fail<E: de::Error>(code: Keyword, rel: &str, msg: impl fmt::Display) -> E {
    let failure = Failure::new(code, rel, msg.to_string());
    let error = E::custom(&failure.message);
    LAST_FAILURE.with(|slot| *slot.borrow_mut() = Some(failure));
    error
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

/// The typed failure behind a decode error whose text is `error_text`: the one [`fail`] recorded
/// last on this thread, if the error is the one it built (its text is the failure's sentence, less
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
pub fn escape_token(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// An object key, borrowed from the input when it has no escapes.
pub struct Key<'de>(pub Cow<'de, str>);

impl Key<'_> {
    /// The member name, unescaped.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// An optional property whose schema also admits `null`: absent, present as `null`, or a value.
/// Keeping the three apart makes `"x": null` survive a round trip.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Tri<T> {
    #[default]
    /// The member is absent.
    Absent,
    /// The member is `null`.
    Null,
    /// The member has a value.
    Value(T),
}

impl<T> Tri<T> {
    /// Whether the member was absent.
    pub fn is_absent(&self) -> bool {
        matches!(self, Tri::Absent)
    }
    /// Whether the member was `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Tri::Null)
    }
    /// The value, when there is one.
    pub fn as_value(&self) -> Option<&T> {
        match self {
            Tri::Value(v) => Some(v),
            _ => None,
        }
    }
    /// A value when there is one, else absent (never `null`).
    pub fn from_present(v: Option<T>) -> Self {
        match v {
            Some(v) => Tri::Value(v),
            None => Tri::Null,
        }
    }
    /// A decoder's slot for a nullable member: absent if it never came, else as
    /// [`from_present`](Self::from_present).
    #[inline]
    pub fn from_slot(slot: Option<Option<T>>) -> Self {
        match slot {
            None => Tri::Absent,
            Some(v) => Tri::from_present(v),
        }
    }
}

impl<T: serde::Serialize> serde::Serialize for Tri<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Tri::Value(v) => v.serialize(s),
            _ => s.serialize_none(),
        }
    }
}

/// An ECMA-262 regular expression, compiled on first use. The generator has already compiled every
/// pattern once, so compiling here cannot fail.
pub struct Pattern {
    /// The expression as the schema writes it.
    pub source: &'static str,
    compiled: OnceLock<Matcher>,
}

enum Matcher {
    Scan(Scan),
    Regex(regress::Regex),
}

impl Pattern {
    /// A pattern compiled on its first match.
    pub const fn new(source: &'static str) -> Self {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }

    fn matcher(&self) -> &Matcher {
        self.compiled
            .get_or_init(|| match Scan::compile(self.source) {
                Some(scan) => Matcher::Scan(scan),
                None => Matcher::Regex(
                    regress::Regex::with_flags(self.source, "u")
                        .expect("pattern compiled at generation time"),
                ),
            })
    }

    /// Whether `s` matches (anywhere, as ECMA-262 `test` does, unless anchored).
    pub fn is_match(&self, s: &str) -> bool {
        match self.matcher() {
            Matcher::Scan(scan) => scan.is_match(s),
            Matcher::Regex(re) => re.find(s).is_some(),
        }
    }

    /// Whether this pattern runs as a single left-to-right scan instead of through `regress`.
    pub fn is_scan(&self) -> bool {
        matches!(self.matcher(), Matcher::Scan(_))
    }
}

/// A pattern that a single greedy scan decides exactly: `^`, then ASCII literals and ASCII classes
/// with quantifiers (and optional groups of fixed-count ones), then optionally `$`. It is used only when greed cannot go wrong: a repeated
/// step's characters never start what follows it, so giving characters back could never help. Such
/// patterns (identifiers, digests, URL prefixes) are the common case and need no backtracking engine.
struct Scan {
    steps: Vec<Part>,
    to_end: bool,
}

/// A part of a scan: one step, or an optional group `(?:…)?` of steps that each match a fixed
/// number of times (taken whole or not at all).
// Built once per pattern and read on every match: a boxed step would cost an indirection per step.
#[allow(clippy::large_enum_variant)]
enum Part {
    One(Step),
    Optional(Vec<Step>),
}

/// One element of a [`Scan`]: a set of ASCII bytes, as a table over every byte value (bytes of
/// non-ASCII characters are never in it), taken between `min` and `max` times.
struct Step {
    table: [bool; 256],
    min: u32,
    max: u32,
}

impl Scan {
    /// `None` when the pattern is outside the subset (the caller then uses `regress`).
    fn compile(source: &str) -> Option<Scan> {
        let b = source.as_bytes();
        if !source.is_ascii() || b.first() != Some(&b'^') {
            return None;
        }
        let mut i = 1;
        // (set of ASCII bytes as a bit mask, min, max) per step; an optional group as a step whose
        // set is its first step's, min 0, with its steps beside.
        #[allow(clippy::type_complexity)] // a parse's scratch list, read once below
        let mut steps: Vec<(u128, u32, u32, Option<Vec<(u128, u32, u32)>>)> = Vec::new();
        let mut to_end = false;
        while i < b.len() {
            if b[i] == b'(' {
                if b.get(i + 1..i + 3) != Some(&b"?:"[..]) {
                    return None;
                }
                let close = i + b[i..].iter().position(|&c| c == b')')?;
                let inner =
                    Self::compile(&format!("^{}", std::str::from_utf8(&b[i + 3..close]).ok()?))?;
                if inner.to_end || b.get(close + 1) != Some(&b'?') {
                    return None;
                }
                if matches!(b.get(close + 2), Some(b'?' | b'*' | b'+' | b'{')) {
                    return None;
                }
                let mut group = Vec::new();
                for part in inner.steps {
                    match part {
                        Part::One(st) if st.min == st.max && st.min > 0 => {
                            let set = (0..128u8).fold(0u128, |acc, c| {
                                if st.table[usize::from(c)] {
                                    acc | 1u128 << c
                                } else {
                                    acc
                                }
                            });
                            group.push((set, st.min, st.max));
                        }
                        _ => return None,
                    }
                }
                let first = group.first()?.0;
                steps.push((first, 0, 1, Some(group)));
                i = close + 2;
                continue;
            }
            let set = match b[i] {
                b'$' if i + 1 == b.len() => {
                    to_end = true;
                    break;
                }
                b'[' => {
                    let (set, next) = Self::class(b, i + 1)?;
                    i = next;
                    set
                }
                b'\\' => {
                    let set = Self::escape(*b.get(i + 1)?)?;
                    i += 2;
                    set
                }
                b'.' | b'^' | b'$' | b'|' | b'(' | b')' | b']' | b'{' | b'}' | b'*' | b'+'
                | b'?' => return None,
                c => {
                    i += 1;
                    1u128 << c
                }
            };
            let (min, max, next) = Self::quantifier(b, i)?;
            i = next;
            steps.push((set, min, max, None));
        }
        // Greed is exact when a repeated step's (or an optional group's first) set is disjoint
        // from every set that may follow it, up to and including the next step that must match.
        for (n, (set, min, max, _)) in steps.iter().enumerate() {
            if min == max {
                continue;
            }
            for (next_set, next_min, _, _) in &steps[n + 1..] {
                if next_set & set != 0 {
                    return None;
                }
                if *next_min > 0 {
                    break;
                }
            }
        }
        let step = |set: u128, min, max| Step {
            table: std::array::from_fn(|c| c < 128 && set >> c & 1 == 1),
            min,
            max,
        };
        let steps = steps
            .into_iter()
            .map(|(set, min, max, group)| match group {
                None => Part::One(step(set, min, max)),
                Some(g) => {
                    Part::Optional(g.into_iter().map(|(s, lo, hi)| step(s, lo, hi)).collect())
                }
            })
            .collect();
        Some(Scan { steps, to_end })
    }

    /// Parses a class body starting after `[`; returns its set and the index after `]`.
    fn class(b: &[u8], mut i: usize) -> Option<(u128, usize)> {
        if b.get(i) == Some(&b'^') {
            return None;
        }
        let mut set = 0u128;
        let mut first = true;
        loop {
            let c = *b.get(i)?;
            if c == b']' && !first {
                return Some((set, i + 1));
            }
            if c == b']' {
                return None;
            }
            first = false;
            let (low, next) = match c {
                b'\\' => {
                    let e = *b.get(i + 1)?;
                    let one = Self::escape(e)?;
                    if one.count_ones() != 1 {
                        // `\d` or `\w`: a set, never a range endpoint.
                        set |= one;
                        i += 2;
                        if b.get(i) == Some(&b'-') && b.get(i + 1) != Some(&b']') {
                            return None;
                        }
                        continue;
                    }
                    (e, i + 2)
                }
                c => (c, i + 1),
            };
            i = next;
            if b.get(i) == Some(&b'-') && b.get(i + 1).is_some_and(|&c| c != b']') {
                let high = match b[i + 1] {
                    b'\\' => {
                        let e = *b.get(i + 2)?;
                        if Self::escape(e)?.count_ones() != 1 {
                            return None;
                        }
                        i += 3;
                        e
                    }
                    c => {
                        i += 2;
                        c
                    }
                };
                if high < low {
                    return None;
                }
                for c in low..=high {
                    set |= 1u128 << c;
                }
            } else {
                set |= 1u128 << low;
            }
        }
    }

    /// The set of an escape: `\d`, `\w`, or an escaped syntax character standing for itself.
    fn escape(e: u8) -> Option<u128> {
        let range = |lo: u8, hi: u8| (lo..=hi).fold(0u128, |s, c| s | 1u128 << c);
        match e {
            b'd' => Some(range(b'0', b'9')),
            b'w' => Some(range(b'0', b'9') | range(b'a', b'z') | range(b'A', b'Z') | 1u128 << b'_'),
            b'^' | b'$' | b'\\' | b'.' | b'*' | b'+' | b'?' | b'(' | b')' | b'[' | b']' | b'{'
            | b'}' | b'|' | b'/' | b'-' => Some(1u128 << e),
            _ => None,
        }
    }

    /// Parses an optional greedy quantifier at `i`: `(min, max, next index)`.
    fn quantifier(b: &[u8], i: usize) -> Option<(u32, u32, usize)> {
        let (min, max, next) = match b.get(i) {
            Some(b'*') => (0, u32::MAX, i + 1),
            Some(b'+') => (1, u32::MAX, i + 1),
            Some(b'?') => (0, 1, i + 1),
            Some(b'{') => {
                let close = i + b[i..].iter().position(|&c| c == b'}')?;
                let body = std::str::from_utf8(&b[i + 1..close]).ok()?;
                let num = |t: &str| -> Option<u32> {
                    (!t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()))
                        .then(|| t.parse().ok())
                        .flatten()
                };
                let (min, max) = match body.split_once(',') {
                    None => {
                        let n = num(body)?;
                        (n, n)
                    }
                    Some((lo, "")) => (num(lo)?, u32::MAX),
                    Some((lo, hi)) => (num(lo)?, num(hi)?),
                };
                if max < min || max == u32::MAX && !body.ends_with(',') {
                    return None;
                }
                (min, max, close + 1)
            }
            _ => return Some((1, 1, i)),
        };
        // A lazy quantifier (`*?`) or a second quantifier is left to regress.
        match b.get(next) {
            Some(b'?' | b'*' | b'+' | b'{') => None,
            _ => Some((min, max, next)),
        }
    }

    fn is_match(&self, s: &str) -> bool {
        let b = s.as_bytes();
        let mut at = 0;
        // Greedy: as many as `max`; false when fewer than `min`. A fixed count is checked over
        // exactly that many bytes.
        #[inline(always)]
        fn take(step: &Step, b: &[u8], at: &mut usize) -> bool {
            if step.min == step.max {
                let end = *at + step.min as usize;
                let Some(run) = b.get(*at..end) else {
                    return false;
                };
                if !run.iter().all(|&c| step.table[usize::from(c)]) {
                    return false;
                }
                *at = end;
                return true;
            }
            let mut n = 0;
            while n < step.max && *at < b.len() && step.table[usize::from(b[*at])] {
                *at += 1;
                n += 1;
            }
            n >= step.min
        }
        for part in &self.steps {
            match part {
                Part::One(step) => {
                    if !take(step, b, &mut at) {
                        return false;
                    }
                }
                Part::Optional(group) => {
                    let start = at;
                    if !group.iter().all(|step| take(step, b, &mut at)) {
                        at = start;
                    }
                }
            }
        }
        !self.to_end || at == b.len()
    }
}

/// String constraints: lengths in code points, an ECMA-262 pattern, an asserted format.
pub struct StrRule {
    /// `minLength`, in code points.
    pub min: Option<u64>,
    /// `maxLength`, in code points.
    pub max: Option<u64>,
    /// `pattern`.
    pub pattern: Option<&'static Pattern>,
    /// An asserted `format`.
    pub format: Option<&'static FormatCheck>,
}

/// An asserted `format`: its name, for messages, and how it is checked.
pub struct FormatCheck {
    /// The format's name.
    pub name: &'static str,
    /// How it is checked.
    pub kind: FormatKind,
}

/// How a format is checked: RFC 3339 `date-time`, or a pattern the caller chose.
pub enum FormatKind {
    /// RFC 3339 `date-time`.
    DateTime,
    /// A caller's ECMA-262 expression.
    Pattern(Pattern),
}

impl FormatCheck {
    /// Whether `s` is in the format.
    pub fn accepts(&self, s: &str) -> bool {
        match &self.kind {
            FormatKind::DateTime => is_rfc3339_date_time(s),
            FormatKind::Pattern(p) => p.is_match(s),
        }
    }
}

/// RFC 3339 `date-time` (section 5.6): `YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)`, `T` and `Z`
/// in either case, real calendar days, and a leap second only where it is 23:59:60 in UTC.
pub fn is_rfc3339_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let d = b.get(r)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| d.iter().fold(0, |n, c| n * 10 + u32::from(c - b'0')))
    };
    let at = |i: usize, c: u8| b.get(i).is_some_and(|x| x.eq_ignore_ascii_case(&c));
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = (
        num(0..4),
        num(5..7),
        num(8..10),
        num(11..13),
        num(14..16),
        num(17..19),
    ) else {
        return false;
    };
    if !(at(4, b'-') && at(7, b'-') && at(10, b'T') && at(13, b':') && at(16, b':')) {
        return false;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days || hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 19;
    if at(i, b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    let offset_minutes: i64 = if at(i, b'Z') && b.len() == i + 1 {
        0
    } else if (at(i, b'+') || at(i, b'-')) && b.len() == i + 6 && at(i + 3, b':') {
        let (Some(oh), Some(om)) = (num(i + 1..i + 3), num(i + 4..i + 6)) else {
            return false;
        };
        if oh > 23 || om > 59 {
            return false;
        }
        let sign = if at(i, b'-') { -1 } else { 1 };
        sign * i64::from(oh * 60 + om)
    } else {
        return false;
    };
    if second == 60 {
        let utc = (i64::from(hour * 60 + minute) - offset_minutes).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// The first way `s` breaks `rule`, if any.
pub fn str_failure(rule: &StrRule, s: &str) -> Result<(), Failure> {
    // A string has at most as many code points as bytes, and at least a quarter as many: count only
    // when the byte length cannot decide.
    let bytes = s.len() as u64;
    let undecided = rule.max.is_some_and(|m| bytes > m)
        || rule.min.is_some_and(|m| bytes < m.saturating_mul(4));
    if undecided {
        let n = s.chars().count() as u64;
        if let Some(min) = rule.min.filter(|&m| n < m) {
            return Err(Failure::new(
                Keyword::MinLength,
                "",
                format!("string has {n} characters; at least {min} required"),
            ));
        }
        if let Some(max) = rule.max.filter(|&m| n > m) {
            return Err(Failure::new(
                Keyword::MaxLength,
                "",
                format!("string has {n} characters; at most {max} allowed"),
            ));
        }
    }
    if let Some(p) = rule.pattern
        && !p.is_match(s)
    {
        return Err(Failure::new(
            Keyword::Pattern,
            "",
            format!("string does not match the pattern {}", p.source),
        ));
    }
    if let Some(f) = rule.format
        && !f.accepts(s)
    {
        return Err(Failure::new(
            Keyword::Format,
            "",
            match &f.kind {
                FormatKind::DateTime => format!("string is not an RFC 3339 {}", f.name),
                FormatKind::Pattern(p) => {
                    format!("string is not a {}: it does not match {}", f.name, p.source)
                }
            },
        ));
    }
    Ok(())
}

/// Checks `s` against `rule` while a decoder stands on it.
pub fn check_str<E: de::Error>(rule: &StrRule, s: &str) -> Result<(), E> {
    str_failure(rule, s).map_err(Failure::into_error)
}

/// Integer constraints. JSON Schema integers are numbers with a zero fraction, so `1.0` is accepted.
pub struct IntRule {
    /// `minimum`.
    pub min: Option<i64>,
    /// `maximum`.
    pub max: Option<i64>,
    /// A closed set of values (`enum`, `const`).
    pub values: Option<&'static [i64]>,
}

/// The first way `v` breaks `rule`, if any.
pub fn int_failure(rule: &IntRule, v: i64) -> Result<(), Failure> {
    if let Some(values) = rule.values
        && !values.contains(&v)
    {
        let code = if values.len() == 1 {
            Keyword::Const
        } else {
            Keyword::Enum
        };
        return Err(Failure::new(
            code,
            "",
            format!("{v} is not one of the allowed values {values:?}"),
        ));
    }
    if let Some(min) = rule.min.filter(|&m| v < m) {
        return Err(Failure::new(
            Keyword::Minimum,
            "",
            format!("{v} is less than the minimum {min}"),
        ));
    }
    if let Some(max) = rule.max.filter(|&m| v > m) {
        return Err(Failure::new(
            Keyword::Maximum,
            "",
            format!("{v} is greater than the maximum {max}"),
        ));
    }
    Ok(())
}

/// Checks `v` against `rule` while a decoder stands on it.
pub fn check_int<E: de::Error>(rule: &IntRule, v: i64) -> Result<i64, E> {
    int_failure(rule, v).map_err(Failure::into_error)?;
    Ok(v)
}

/// The `i64` of an [`Integer`] whose rule keeps it within 64 bits, or why it is not.
pub fn integer_to_i64<E: de::Error>(v: Integer) -> Result<i64, E> {
    v.as_i64().ok_or_else(|| {
        fail(
            Keyword::IntegerRange,
            "",
            format_args!("{v} is outside the 64-bit range this implementation stores"),
        )
    })
}

/// Number constraints.
pub struct NumRule {
    /// `minimum`.
    pub min: Option<f64>,
    /// `maximum`.
    pub max: Option<f64>,
}

/// The first way `v` breaks `rule`, if any.
pub fn num_failure(rule: &NumRule, v: f64) -> Result<(), Failure> {
    if let Some(min) = rule.min.filter(|&m| v < m) {
        return Err(Failure::new(
            Keyword::Minimum,
            "",
            format!("{v} is less than the minimum {min}"),
        ));
    }
    if let Some(max) = rule.max.filter(|&m| v > m) {
        return Err(Failure::new(
            Keyword::Maximum,
            "",
            format!("{v} is greater than the maximum {max}"),
        ));
    }
    Ok(())
}

/// Checks `v` against `rule` while a decoder stands on it.
pub fn check_num<E: de::Error>(rule: &NumRule, v: f64) -> Result<f64, E> {
    num_failure(rule, v).map_err(Failure::into_error)?;
    Ok(v)
}

fn type_error<E: de::Error>(expected: &str, got: de::Unexpected) -> E {
    fail(
        Keyword::Type,
        "",
        format_args!("expected {expected}, found {got}"),
    )
}

/// Emits a visitor method that rejects one JSON type with a `type` error.
macro_rules! reject {
    (bool) => {
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Err(type_error(EXPECT, de::Unexpected::Bool(v)))
        }
    };
    (int) => {
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Err(type_error(EXPECT, de::Unexpected::Signed(v)))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Err(type_error(EXPECT, de::Unexpected::Unsigned(v)))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Err(type_error(EXPECT, de::Unexpected::Float(v)))
        }
    };
    (str) => {
        fn visit_str<E: de::Error>(self, _v: &str) -> Result<Self::Value, E> {
            Err(type_error(EXPECT, de::Unexpected::Other("a string")))
        }
    };
    (null) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Err(type_error(EXPECT, de::Unexpected::Other("null")))
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Err(type_error(EXPECT, de::Unexpected::Other("null")))
        }
    };
    (seq) => {
        fn visit_seq<A: SeqAccess<'de>>(self, _a: A) -> Result<Self::Value, A::Error> {
            Err(type_error(EXPECT, de::Unexpected::Other("an array")))
        }
    };
    (map) => {
        fn visit_map<A: MapAccess<'de>>(self, _a: A) -> Result<Self::Value, A::Error> {
            Err(type_error(EXPECT, de::Unexpected::Other("an object")))
        }
    };
}

/// The string type of generated fields: short strings (ids, timestamps, names: up to 24 bytes) are
/// stored inline, so decoding them allocates nothing.
pub type Str = compact_str::CompactString;

/// Decodes a string and checks its [`StrRule`].
#[derive(Clone, Copy)]
pub struct StrSeed(pub &'static StrRule);

impl<'de> DeserializeSeed<'de> for StrSeed {
    type Value = Str;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Str, D::Error> {
        struct V(&'static StrRule);
        const EXPECT: &str = "a string";
        impl<'de> Visitor<'de> for V {
            type Value = Str;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(bool);
            reject!(int);
            reject!(null);
            reject!(seq);
            reject!(map);
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Str, E> {
                check_str(self.0, v)?;
                Ok(Str::from(v))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Str, E> {
                check_str(self.0, &v)?;
                Ok(Str::from(v))
            }
        }
        d.deserialize_string(V(self.0))
    }
}

/// Decodes an integer whose rule bounds it within 64 bits (any number with a zero fraction) and
/// checks its [`IntRule`]; the value is stored as `i64`.
#[derive(Clone, Copy)]
pub struct IntSeed(pub &'static IntRule);

impl<'de> DeserializeSeed<'de> for IntSeed {
    type Value = i64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<i64, D::Error> {
        integer_to_i64(IntegerSeed(self.0).deserialize(d)?)
    }
}

/// Decodes a number and checks its [`NumRule`].
#[derive(Clone, Copy)]
pub struct NumSeed(pub &'static NumRule);

impl<'de> DeserializeSeed<'de> for NumSeed {
    type Value = f64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<f64, D::Error> {
        struct V(&'static NumRule);
        const EXPECT: &str = "a number";
        impl<'de> Visitor<'de> for V {
            type Value = f64;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(bool);
            reject!(str);
            reject!(null);
            reject!(seq);
            reject!(map);
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
                check_num(self.0, v as f64)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
                check_num(self.0, v as f64)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
                check_num(self.0, v)
            }
        }
        d.deserialize_f64(V(self.0))
    }
}

/// Decodes a boolean, optionally required to equal a constant.
#[derive(Clone, Copy)]
pub struct BoolSeed(pub Option<bool>);

impl<'de> DeserializeSeed<'de> for BoolSeed {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        struct V(Option<bool>);
        const EXPECT: &str = "a boolean";
        impl<'de> Visitor<'de> for V {
            type Value = bool;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(int);
            reject!(str);
            reject!(null);
            reject!(seq);
            reject!(map);
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
                match self.0 {
                    Some(c) if c != v => Err(fail(Keyword::Const, "", format_args!("must be {c}"))),
                    _ => Ok(v),
                }
            }
        }
        d.deserialize_bool(V(self.0))
    }
}

macro_rules! bool_constant {
    ($name:ident, $value:literal, $doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name;

        impl $name {
            /// The one value.
            pub const fn get(self) -> bool {
                $value
            }
        }
        impl From<$name> for bool {
            fn from(_: $name) -> bool {
                $value
            }
        }
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bool($value)
            }
        }
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                BoolSeed(Some($value)).deserialize(d).map(|_| $name)
            }
        }
        impl Probed for $name {
            fn probe(&self) -> Probe<'_> {
                Probe::Bool($value)
            }
        }
    };
}

bool_constant!(
    True,
    true,
    "The JSON constant `true` (`const: true`): a member that cannot hold anything else."
);
bool_constant!(
    False,
    false,
    "The JSON constant `false` (`const: false`): a member that cannot hold anything else."
);

/// Decodes `null`.
#[derive(Clone, Copy)]
pub struct NullSeed;

impl<'de> DeserializeSeed<'de> for NullSeed {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        struct V;
        const EXPECT: &str = "null";
        impl<'de> Visitor<'de> for V {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(bool);
            reject!(int);
            reject!(str);
            reject!(seq);
            reject!(map);
            fn visit_unit<E: de::Error>(self) -> Result<(), E> {
                Ok(())
            }
            fn visit_none<E: de::Error>(self) -> Result<(), E> {
                Ok(())
            }
        }
        d.deserialize_option(V)
    }
}

/// Decodes a JSON object with no declared shape; every member is kept.
#[derive(Clone, Copy)]
pub struct ObjectSeed;

impl<'de> DeserializeSeed<'de> for ObjectSeed {
    type Value = serde_json::Map<String, serde_json::Value>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        struct V;
        const EXPECT: &str = "an object";
        impl<'de> Visitor<'de> for V {
            type Value = serde_json::Map<String, serde_json::Value>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(bool);
            reject!(int);
            reject!(str);
            reject!(null);
            reject!(seq);
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                object_members(map)
            }
        }
        d.deserialize_map(V)
    }
}

/// Decodes an array of items decoded by `item`, then checks counts and uniqueness.
#[derive(Clone, Copy)]
pub struct VecSeed<S> {
    /// The items' decoder.
    pub item: S,
    /// `minItems`.
    pub min: Option<u64>,
    /// `maxItems`.
    pub max: Option<u64>,
    /// `uniqueItems`, under JSON equality.
    pub unique: bool,
}

impl<'de, S> DeserializeSeed<'de> for VecSeed<S>
where
    S: DeserializeSeed<'de> + Copy,
    S::Value: serde::Serialize,
{
    type Value = Vec<S::Value>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        struct V<S>(VecSeed<S>);
        const EXPECT: &str = "an array";
        impl<'de, S> Visitor<'de> for V<S>
        where
            S: DeserializeSeed<'de> + Copy,
            S::Value: serde::Serialize,
        {
            type Value = Vec<S::Value>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(bool);
            reject!(int);
            reject!(str);
            reject!(null);
            reject!(map);
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let rule = self.0;
                let mut out = Vec::new();
                while let Some(v) = seq.next_element_seed(rule.item)? {
                    out.push(v);
                    if rule.max.is_some_and(|m| out.len() as u64 > m) {
                        return Err(fail(
                            Keyword::MaxItems,
                            "",
                            format_args!(
                                "array has more than {} items",
                                rule.max.unwrap_or_default()
                            ),
                        ));
                    }
                }
                items_failure(&out, rule.min, None, rule.unique).map_err(Failure::into_error)?;
                Ok(out)
            }
        }
        d.deserialize_seq(V(self))
    }
}

/// The first way an array breaks its item count or uniqueness rule, if any.
pub fn items_failure<T: serde::Serialize>(
    items: &[T],
    min: Option<u64>,
    max: Option<u64>,
    unique: bool,
) -> Result<(), Failure> {
    let n = items.len();
    if let Some(min) = min.filter(|&m| (n as u64) < m) {
        return Err(Failure::new(
            Keyword::MinItems,
            "",
            format!("array has {n} items; at least {min} required"),
        ));
    }
    if let Some(max) = max.filter(|&m| (n as u64) > m) {
        return Err(Failure::new(
            Keyword::MaxItems,
            "",
            format!("array has {n} items; at most {max} allowed"),
        ));
    }
    if unique && let Some((i, j)) = first_duplicate(items) {
        return Err(Failure::new(
            Keyword::UniqueItems,
            "",
            format!("items {i} and {j} are equal"),
        ));
    }
    Ok(())
}

/// `value` as a JSON tree, written by the compact text encoder and read back. A generated type's
/// encoder is then compiled for that one serializer, not also for `serde_json::to_value`'s tree
/// builder, which doubled every struct's encoding code in a generated crate. The round trip is
/// exact (integers as written, floats as their shortest round-trip text), at the cost of a text
/// buffer on paths that are not hot (a snapshot's payloads, a rule's check of a built value).
pub fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<serde_json::Value> {
    tree(&serde_json::to_vec(value)?)
}

/// The JSON tree of a text this crate's encoder wrote.
fn tree(text: &[u8]) -> serde_json::Result<serde_json::Value> {
    let mut reader = serde_json::Deserializer::from_slice(text);
    // The text was written from a value already in memory: any depth it has is the value's own.
    reader.disable_recursion_limit();
    let tree = serde::Deserialize::deserialize(&mut reader)?;
    reader.end()?;
    Ok(tree)
}

/// Finds two equal items under JSON equality (key order ignored, `1 == 1.0`). The items are
/// written as text ([`to_json`]'s reason: one encoder per type) and hashed as text, by a hash equal
/// for equal values; only when two hashes meet are the items compared as trees.
pub fn first_duplicate<T: serde::Serialize>(items: &[T]) -> Option<(usize, usize)> {
    if items.len() < 2 {
        return None;
    }
    let texts: Vec<Vec<u8>> = items
        .iter()
        .map(|item| serde_json::to_vec(item).unwrap_or_else(|_| b"null".to_vec()))
        .collect();
    first_equal_text(&texts)
}

/// [`first_duplicate`] over the items' compact texts.
fn first_equal_text(texts: &[Vec<u8>]) -> Option<(usize, usize)> {
    let mut hashes: Vec<u64> = texts.iter().map(|t| text_hash(t, &mut 0)).collect();
    hashes.sort_unstable();
    if hashes.windows(2).all(|w| w[0] != w[1]) {
        return None;
    }
    let values: Vec<serde_json::Value> = texts
        .iter()
        .map(|t| tree(t).unwrap_or(serde_json::Value::Null))
        .collect();
    first_equal(&values)
}

/// A hash of the value that starts at `*at` in `text` (compact JSON as serde_json writes it),
/// passing over it. Values [`json_eq`] finds equal hash alike: an object's members are summed in
/// any order, and a number is hashed as [`canonical`] writes it (`1.0` as `1`); a string has one
/// spelling, so its bytes serve.
fn text_hash(text: &[u8], at: &mut usize) -> u64 {
    const OBJECT: u64 = 0x6f62_6a65_6374;
    const ARRAY: u64 = 0x0061_7272_6179;
    // serde_json writes no whitespace, but a raw value kept as written might.
    let ws = |at: &mut usize| {
        while text.get(*at).is_some_and(u8::is_ascii_whitespace) {
            *at += 1;
        }
    };
    ws(at);
    let hash = match text.get(*at) {
        Some(b'{') => {
            *at += 1;
            let mut sum = 0u64;
            ws(at);
            while text.get(*at).is_some_and(|&b| b != b'}') {
                let key = text_hash(text, at);
                *at += 1; // the colon
                sum = sum.wrapping_add(mix(key, text_hash(text, at)));
                if text.get(*at) == Some(&b',') {
                    *at += 1;
                    ws(at);
                }
            }
            *at += 1;
            mix(OBJECT, sum)
        }
        Some(b'[') => {
            *at += 1;
            let mut h = ARRAY;
            ws(at);
            while text.get(*at).is_some_and(|&b| b != b']') {
                h = mix(h, text_hash(text, at));
                if text.get(*at) == Some(&b',') {
                    *at += 1;
                    ws(at);
                }
            }
            *at += 1;
            mix(h, ARRAY)
        }
        Some(b'"') => {
            let start = *at;
            *at += 1;
            while let Some(&b) = text.get(*at) {
                *at += if b == b'\\' { 2 } else { 1 };
                if b == b'"' {
                    break;
                }
            }
            bytes_hash(text.get(start..*at).unwrap_or(&text[start..]))
        }
        _ => {
            let start = *at;
            while text.get(*at).is_some_and(|b| {
                !matches!(b, b',' | b']' | b'}' | b':') && !b.is_ascii_whitespace()
            }) {
                *at += 1;
            }
            number_hash(text.get(start..*at).unwrap_or_default())
        }
    };
    ws(at);
    hash
}

/// The hash of a number or literal token, a float with no fraction written as [`canonical`]
/// writes it.
fn number_hash(token: &[u8]) -> u64 {
    if token.iter().any(|b| matches!(b, b'.' | b'e' | b'E'))
        && let Some(f) = std::str::from_utf8(token)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
        && f.fract() == 0.0
        && f.abs() < 1e21
    {
        return bytes_hash(format!("{:.0}", f + 0.0).as_bytes());
    }
    bytes_hash(token)
}

/// FNV-1a.
fn bytes_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Two hashes as one, order mattering.
fn mix(a: u64, b: u64) -> u64 {
    (a.rotate_left(27) ^ b).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// [`first_duplicate`] over the items' trees: short lists (the usual case) pair by pair, long ones
/// through canonical texts.
fn first_equal(values: &[serde_json::Value]) -> Option<(usize, usize)> {
    if values.len() <= 16 {
        return (1..values.len()).find_map(|j| {
            (0..j)
                .find(|&i| json_eq(&values[i], &values[j]))
                .map(|i| (i, j))
        });
    }
    let mut seen = std::collections::HashMap::with_capacity(values.len());
    for (j, value) in values.iter().enumerate() {
        let mut key = String::new();
        canonical(value, &mut key);
        if let Some(&i) = seen.get(&key) {
            return Some((i, j));
        }
        seen.insert(key, j);
    }
    None
}

/// JSON equality: the relation [`canonical`] texts encode, without writing them.
pub fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| json_eq(v, w))
        }
        (Value::Number(x), Value::Number(y)) => {
            x == y || {
                let (mut p, mut q) = (String::new(), String::new());
                canonical(a, &mut p);
                canonical(b, &mut q);
                p == q
            }
        }
        _ => a == b,
    }
}

/// Writes a canonical JSON text: object keys sorted, integral numbers without a fraction.
pub fn canonical(v: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (n, k) in keys.into_iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::Value::String(k.clone()).to_string());
                out.push(':');
                canonical(&m[k.as_str()], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (n, item) in a.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        Value::Number(n) => match n.as_f64() {
            // `-0.0` is written `0`, as `json_eq` finds them equal.
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 1e21 => {
                out.push_str(&format!("{:.0}", f + 0.0))
            }
            _ => out.push_str(&n.to_string()),
        },
        other => out.push_str(&other.to_string()),
    }
}

/// `Some` for a value, `None` for `null`.
#[derive(Clone, Copy)]
pub struct NullableSeed<S>(pub S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for NullableSeed<S> {
    type Value = Option<S::Value>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        struct V<S>(S);
        impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for V<S> {
            type Value = Option<S::Value>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a value or null")
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                self.0.deserialize(d).map(Some)
            }
        }
        d.deserialize_option(V(self.0))
    }
}

/// Decodes with a type's own `Deserialize`.
pub struct TypeSeed<T>(std::marker::PhantomData<fn() -> T>);

impl<T> Default for TypeSeed<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> TypeSeed<T> {
    /// The seed of `T`.
    pub const fn new() -> Self {
        TypeSeed(std::marker::PhantomData)
    }
}

impl<T> Clone for TypeSeed<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for TypeSeed<T> {}

impl<'de, T: de::Deserialize<'de>> DeserializeSeed<'de> for TypeSeed<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }
}

/// A generated check of an object's members read by name: a narrowing, or rules across members.
/// It reads a decoded value and a verdict-only check's kept members alike.
pub type MemberCheck = fn(&dyn Fields) -> Result<(), Failure>;

/// Decodes with `inner` (the decoder of the object type `T`), then runs a generated check on the
/// decoded value (a narrowing that an `allOf` adds to a shared type).
pub struct RefinedSeed<S, T> {
    /// The object type's decoder.
    pub inner: S,
    /// The check run on the decoded value.
    pub check: MemberCheck,
    ty: std::marker::PhantomData<fn() -> T>,
}

impl<S, T> RefinedSeed<S, T> {
    /// `inner`, then `check`.
    pub const fn new(inner: S, check: MemberCheck) -> Self {
        RefinedSeed {
            inner,
            check,
            ty: std::marker::PhantomData,
        }
    }
}

impl<S: Copy, T> Clone for RefinedSeed<S, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Copy, T> Copy for RefinedSeed<S, T> {}

impl<'de, S: DeserializeSeed<'de, Value = T>, T: Fields> DeserializeSeed<'de>
    for RefinedSeed<S, T>
{
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        let v = self.inner.deserialize(d)?;
        (self.check)(&v).map_err(|f| f.into_error())?;
        Ok(v)
    }
}

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

/// A generated type whose value, built or changed in code, is checked against its schema with the
/// code and pointer that decoding its JSON would report for the same violation. (Scalars need no
/// impl: the generator checks them inline against their rules.)
pub trait Check {
    /// The first rule the value breaks, with its pointer. The default is for a type whose Rust
    /// type already says every rule (a string enum, a struct whose members carry their own).
    fn check(&self) -> Result<(), Failure> {
        Ok(())
    }
}

/// Decodes the value of member `key` into `slot` with `seed`, refusing a member already seen
/// ([`duplicate`]): the member arm of every generated decoder and verdict, in one place.
#[inline]
pub fn once<'de, A, S>(
    map: &mut A,
    slot: &mut Option<S::Value>,
    key: &str,
    seed: S,
) -> Result<(), A::Error>
where
    A: MapAccess<'de>,
    S: DeserializeSeed<'de>,
{
    if slot.is_some() {
        return Err(duplicate(map, key));
    }
    *slot = Some(map.next_value_seed(seed)?);
    Ok(())
}

/// A closed object's arm for a member it does not declare: refused, located at the member's value.
#[cold]
pub fn unknown_member<'de, A: MapAccess<'de>>(map: &mut A, name: &str) -> Result<(), A::Error> {
    let msg = format!("unknown member `{name}` is not allowed");
    map.next_value_seed(Reject(Failure::new(Keyword::AdditionalProperties, "", msg)))
}

/// An open object's arm for a member it does not declare: kept as JSON, its place recorded,
/// refused if it came before.
#[inline]
pub fn keep_member<'de, A: MapAccess<'de>>(
    map: &mut A,
    extra: &mut serde_json::Map<String, serde_json::Value>,
    key: Key<'de>,
    order: &mut OrderRecorder,
) -> Result<(), A::Error> {
    if extra.contains_key(key.as_str()) {
        return Err(duplicate(map, key.as_str()));
    }
    order.push(EXTRA);
    let v = map.next_value_seed(AnyValue)?;
    extra.insert(key.0.into_owned(), v);
    Ok(())
}

/// The verdict-only arm for a member an object does not declare: checked by `seed`, refused if it
/// came before.
#[inline]
pub fn check_member<'de, A: MapAccess<'de>, S: DeserializeSeed<'de>>(
    map: &mut A,
    keys: &mut KeySet<'de>,
    key: Key<'de>,
    seed: S,
) -> Result<(), A::Error> {
    if let Some(k) = keys.insert(key) {
        return Err(duplicate(map, k.as_str()));
    }
    map.next_value_seed(seed).map(drop)
}

/// The value of required member `key`, or the decoder's `required` failure when it never came.
#[inline]
pub fn required<T, E: de::Error>(slot: Option<T>, key: &str) -> Result<T, E> {
    match slot {
        Some(v) => Ok(v),
        None => Err(fail(
            Keyword::Required,
            "",
            format_args!("missing required member `{key}`"),
        )),
    }
}

/// Where a builder keeps a member: `Option` (unset or set) or [`Tri`] (absent, `null` or set).
pub trait Slot<T> {
    /// Sets the member to `value`.
    fn fill(&mut self, value: T);
}

impl<T> Slot<T> for Option<T> {
    fn fill(&mut self, value: T) {
        *self = Some(value);
    }
}

impl<T> Slot<T> for Tri<T> {
    fn fill(&mut self, value: T) {
        *self = Tri::Value(value);
    }
}

/// A builder's setter: `value` converted into the member's type, or, when it breaks the type's
/// rule, the first such failure kept (at member `key`) for `build` to return.
pub fn set<T, V, S>(slot: &mut S, error: &mut Option<Failure>, value: V, key: &str)
where
    V: TryInto<T>,
    Failure: From<V::Error>,
    S: Slot<T>,
{
    match value.try_into() {
        Ok(v) => slot.fill(v),
        Err(e) => {
            if error.is_none() {
                *error = Some(Failure::from(e).at(key));
            }
        }
    }
}

/// The error a `duplicate_key` failure becomes, blamed on the second occurrence's value.
pub fn duplicate<'de, A: MapAccess<'de>>(map: &mut A, key: &str) -> A::Error {
    let msg = format!(
        "member `{key}` appears more than once; a peer that keeps the first and one that keeps the last would read two different messages"
    );
    match map.next_value_seed(Reject(Failure::new(Keyword::DuplicateKey, "", msg))) {
        Err(e) => e,
        Ok(()) => de::Error::custom("duplicate member"),
    }
}

/// The failure an `extra` key that names a declared member becomes.
pub fn shadowing(key: &str) -> Failure {
    Failure::new(
        Keyword::DuplicateKey,
        format!("/{}", escape_token(key)),
        format!(
            "`{key}` is a declared member and cannot also be kept among the unknown ones; set the field instead"
        ),
    )
}

/// Refuses the first undeclared member kept under a `declared` member's name (a value built in
/// code could hold one; encoding would then write that name twice).
pub fn not_shadowing<'a>(
    keys: impl IntoIterator<Item = &'a String>,
    declared: &[&str],
) -> Result<(), Failure> {
    match keys.into_iter().find(|k| declared.contains(&k.as_str())) {
        Some(k) => Err(shadowing(k)),
        None => Ok(()),
    }
}

/// Writes an optional member when it is present.
pub fn optional_entry<M: serde::ser::SerializeMap, T: serde::Serialize>(
    map: &mut M,
    key: &str,
    value: &Option<T>,
) -> Result<(), M::Error> {
    match value {
        Some(v) => map.serialize_entry(key, v),
        None => Ok(()),
    }
}

/// Writes an optional nullable member: nothing when absent, `null`, or its value.
pub fn tri_entry<M: serde::ser::SerializeMap, T: serde::Serialize>(
    map: &mut M,
    key: &str,
    value: &Tri<T>,
) -> Result<(), M::Error> {
    match value {
        Tri::Absent => Ok(()),
        Tri::Null => map.serialize_entry(key, &()),
        Tri::Value(v) => map.serialize_entry(key, v),
    }
}

/// Checks a value by encoding it and decoding the JSON again with `seed`: for the few rules a typed
/// value cannot be walked for (exclusive alternatives, a member typed by its selector's old value).
pub fn recheck<T, S>(value: &T, seed: S) -> Result<(), Failure>
where
    T: serde::Serialize + ?Sized,
    S: for<'a> DeserializeSeed<'a>,
{
    let raw = serde_json::value::to_raw_value(value)
        .map_err(|e| Failure::new(Keyword::Encode, "", e.to_string()))?;
    raw_failure(&raw, seed).map(|_| ())
}

/// Decodes any JSON value, refusing objects that repeat a member name.
#[derive(Clone, Copy)]
pub struct AnyValue;

impl<'de> DeserializeSeed<'de> for AnyValue {
    type Value = serde_json::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<serde_json::Value, D::Error> {
        use serde_json::Value;
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Value;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
                Ok(Value::Bool(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
                Ok(Value::from(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
                Ok(Value::from(v))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
                Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
                Ok(Value::String(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
                Ok(Value::String(v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
                Ok(Value::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<Value, E> {
                Ok(Value::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
                AnyValue.deserialize(d)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = seq.next_element_seed(AnyValue)? {
                    out.push(v);
                }
                Ok(Value::Array(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
                object_members(map).map(Value::Object)
            }
        }
        d.deserialize_any(V)
    }
}

/// The members of an object as JSON, in input order, refusing a repeated name.
fn object_members<'de, A: MapAccess<'de>>(
    mut map: A,
) -> Result<serde_json::Map<String, serde_json::Value>, A::Error> {
    let mut out = serde_json::Map::new();
    while let Some(key) = map.next_key::<Key<'de>>()? {
        if out.contains_key(key.as_str()) {
            return Err(duplicate(&mut map, key.as_str()));
        }
        let value = map.next_value_seed(AnyValue)?;
        out.insert(key.0.into_owned(), value);
    }
    Ok(out)
}

/// The seed of a `false` schema: whatever the value, it fails.
#[derive(Clone, Copy)]
pub struct NeverSeed;

impl<'de> DeserializeSeed<'de> for NeverSeed {
    type Value = serde_json::Value;
    fn deserialize<D: Deserializer<'de>>(self, _d: D) -> Result<serde_json::Value, D::Error> {
        Err(fail(
            Keyword::FalseSchema,
            "",
            "no value is allowed here (the schema is `false`)",
        ))
    }
}

/// A seed that fails at once: used to blame an unexpected key at its own pointer.
pub struct Reject(pub Failure);

impl<'de> DeserializeSeed<'de> for Reject {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, _d: D) -> Result<(), D::Error> {
        Err(self.0.into_error())
    }
}

/// Reads the string value of one property of an object and skips everything else: how a tagged union
/// finds its discriminator before choosing a variant.
pub struct TagSeed(pub &'static str);

impl<'de> DeserializeSeed<'de> for TagSeed {
    type Value = Option<String>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<String>, D::Error> {
        struct V(&'static str);
        const EXPECT: &str = "an object";
        impl<'de> Visitor<'de> for V {
            type Value = Option<String>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(bool);
            reject!(int);
            reject!(str);
            reject!(null);
            reject!(seq);
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<String>, A::Error> {
                let mut tag = None;
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    if key.as_str() == self.0 {
                        tag = match map.next_value::<serde_json::Value>()? {
                            serde_json::Value::String(s) => Some(s),
                            _ => None,
                        };
                    } else {
                        map.next_value::<de::IgnoredAny>()?;
                    }
                }
                Ok(tag)
            }
        }
        d.deserialize_map(V(self.0))
    }
}

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
    match take_failure(&refusal.message) {
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

/// Removes serde_json's " at line L column C" suffix from a message.
pub fn strip_position(text: &str) -> &str {
    match text.rfind(" at line ") {
        Some(i) => &text[..i],
        None => text,
    }
}

/// A JSON value seen through a typed field, for the generated conditional checks.
#[derive(Debug, Clone, Copy)]
pub enum Probe<'a> {
    /// An absent member.
    Absent,
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer within 64 bits.
    Int(i64),
    /// Any other number.
    Num(f64),
    /// A string.
    Str(&'a str),
    /// An array, by its item count.
    Array(usize),
    /// An object.
    Object,
}

impl Probe<'_> {
    /// Whether the member is absent.
    pub fn is_absent(&self) -> bool {
        matches!(self, Probe::Absent)
    }
    /// JSON equality with a constant (`1 == 1.0`).
    pub fn equals(&self, other: &Probe<'_>) -> bool {
        match (self, other) {
            (Probe::Null, Probe::Null) => true,
            (Probe::Bool(a), Probe::Bool(b)) => a == b,
            (Probe::Int(a), Probe::Int(b)) => a == b,
            (Probe::Int(a), Probe::Num(b)) | (Probe::Num(b), Probe::Int(a)) => (*a as f64) == *b,
            (Probe::Num(a), Probe::Num(b)) => a == b,
            (Probe::Str(a), Probe::Str(b)) => a == b,
            _ => false,
        }
    }
    /// Whether the value equals one of `set` (JSON equality).
    pub fn is_in(&self, set: &[Probe<'_>]) -> bool {
        set.iter().any(|c| self.equals(c))
    }
    /// Whether the value has one of the JSON types named ("integer" includes integral numbers).
    pub fn has_type(&self, kinds: &[&str]) -> bool {
        let kind = match self {
            Probe::Absent => return true,
            Probe::Null => "null",
            Probe::Bool(_) => "boolean",
            Probe::Int(_) => "integer",
            Probe::Num(f) if f.fract() == 0.0 => "integer",
            Probe::Num(_) => "number",
            Probe::Str(_) => "string",
            Probe::Array(_) => "array",
            Probe::Object => "object",
        };
        kinds
            .iter()
            .any(|k| *k == kind || (*k == "number" && kind == "integer"))
    }
    /// The item count of an array; `None` for any other value.
    #[allow(clippy::len_without_is_empty)] // a count that exists only for arrays
    pub fn len(&self) -> Option<usize> {
        match self {
            Probe::Array(n) => Some(*n),
            _ => None,
        }
    }
}

/// Something that can be seen as a [`Probe`].
pub trait Probed {
    /// The value, as a check across members reads it.
    fn probe(&self) -> Probe<'_>;
}

impl Probed for Str {
    fn probe(&self) -> Probe<'_> {
        Probe::Str(self)
    }
}
impl Probed for bool {
    fn probe(&self) -> Probe<'_> {
        Probe::Bool(*self)
    }
}
impl Probed for i64 {
    fn probe(&self) -> Probe<'_> {
        Probe::Int(*self)
    }
}
impl Probed for f64 {
    fn probe(&self) -> Probe<'_> {
        Probe::Num(*self)
    }
}
impl Probed for () {
    fn probe(&self) -> Probe<'_> {
        Probe::Null
    }
}
impl<T> Probed for Vec<T> {
    fn probe(&self) -> Probe<'_> {
        Probe::Array(self.len())
    }
}
impl Probed for serde_json::Map<String, serde_json::Value> {
    fn probe(&self) -> Probe<'_> {
        Probe::Object
    }
}
impl Probed for serde_json::Value {
    fn probe(&self) -> Probe<'_> {
        use serde_json::Value;
        match self {
            Value::Null => Probe::Null,
            Value::Bool(b) => Probe::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Probe::Int(i),
                None => Probe::Num(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => Probe::Str(s),
            Value::Array(a) => Probe::Array(a.len()),
            Value::Object(_) => Probe::Object,
        }
    }
}
/// A required property that may be `null`.
impl<T: Probed> Probed for Option<T> {
    fn probe(&self) -> Probe<'_> {
        match self {
            Some(v) => v.probe(),
            None => Probe::Null,
        }
    }
}
impl<T: Probed> Probed for Tri<T> {
    fn probe(&self) -> Probe<'_> {
        match self {
            Tri::Absent => Probe::Absent,
            Tri::Null => Probe::Null,
            Tri::Value(v) => v.probe(),
        }
    }
}

/// An optional property: `None` is absent.
pub fn probe_optional<T: Probed>(v: &Option<T>) -> Probe<'_> {
    match v {
        Some(v) => v.probe(),
        None => Probe::Absent,
    }
}

/// Objects whose members can be probed by name, declared or not: how code that knows a member only
/// by its JSON name (a reducer reading `payload.kind`) reads a typed value without encoding it.
pub trait Fields {
    /// The member named `key`.
    fn field(&self, key: &str) -> Probe<'_>;
    /// An undeclared member that is a JSON object, for reading one level further. Declared members
    /// are typed: read them through their fields.
    fn json_object(&self, key: &str) -> Option<&serde_json::Map<String, serde_json::Value>> {
        let _ = key;
        None
    }
}

/// Objects up to this many members are searched key by key: cheaper than hashing the name.
const SCANNED_MEMBERS: usize = 8;

/// The member `key` of a JSON object.
pub fn json_member<'a>(
    object: &'a serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> Option<&'a serde_json::Value> {
    if object.len() <= SCANNED_MEMBERS {
        object.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        object.get(key)
    }
}

impl Fields for serde_json::Map<String, serde_json::Value> {
    fn field(&self, key: &str) -> Probe<'_> {
        json_member(self, key).map_or(Probe::Absent, Probed::probe)
    }
    fn json_object(&self, key: &str) -> Option<&serde_json::Map<String, serde_json::Value>> {
        json_member(self, key)?.as_object()
    }
}

/// A value that is not an object has no members.
impl Fields for serde_json::Value {
    fn field(&self, key: &str) -> Probe<'_> {
        self.as_object().map_or(Probe::Absent, |o| o.field(key))
    }
    fn json_object(&self, key: &str) -> Option<&serde_json::Map<String, serde_json::Value>> {
        self.as_object()?.json_object(key)
    }
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

/// A JSON Schema integer with no 64-bit bound in its schema: any number with a zero fraction, kept
/// exactly as parsed (`2^64` and `1e300` are integers too). Integers whose schema bounds them to the
/// 64-bit range are plain `i64` fields instead.
#[derive(Debug, Clone, PartialEq)]
pub struct Integer(serde_json::Number);

impl Integer {
    /// The value, when it fits an `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        self.0.as_i64()
    }
    /// The value, when it fits a `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        self.0.as_u64()
    }
    /// The value as a float (exact up to 2^53).
    pub fn as_f64(&self) -> f64 {
        self.0.as_f64().unwrap_or(f64::NAN)
    }
    /// The JSON number.
    pub fn number(&self) -> &serde_json::Number {
        &self.0
    }
}

impl From<i64> for Integer {
    fn from(v: i64) -> Self {
        Integer(v.into())
    }
}
impl From<u64> for Integer {
    fn from(v: u64) -> Self {
        Integer(v.into())
    }
}
impl From<i32> for Integer {
    fn from(v: i32) -> Self {
        Integer(v.into())
    }
}
impl From<u32> for Integer {
    fn from(v: u32) -> Self {
        Integer(v.into())
    }
}
impl PartialEq<i64> for Integer {
    fn eq(&self, other: &i64) -> bool {
        self.as_i64() == Some(*other)
    }
}
impl fmt::Display for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
impl serde::Serialize for Integer {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}
impl Probed for Integer {
    fn probe(&self) -> Probe<'_> {
        match self.as_i64() {
            Some(i) => Probe::Int(i),
            None => Probe::Num(self.as_f64()),
        }
    }
}

/// Builds an [`Integer`] from a float, which must have a zero fraction.
pub fn integer_from_f64<E: de::Error>(v: f64) -> Result<Integer, E> {
    // `1.0` is the integer 1: store it as one so that 64-bit accessors and comparisons work.
    if v.fract() == 0.0 && (-9.223372036854776e18..9.223372036854776e18).contains(&v) {
        return Ok(Integer::from(v as i64));
    }
    match serde_json::Number::from_f64(v) {
        Some(n) if v.fract() == 0.0 => Ok(Integer(n)),
        _ => Err(fail(
            Keyword::Type,
            "",
            format_args!("{v} is not an integer"),
        )),
    }
}

/// The first way an [`Integer`] breaks an [`IntRule`], comparing exactly within 64 bits.
pub fn integer_failure(rule: &IntRule, v: &Integer) -> Result<(), Failure> {
    if let Some(i) = v.as_i64() {
        return int_failure(rule, i);
    }
    // Beyond i64: above every i64 bound when positive, below when negative.
    let positive = v.as_u64().is_some() || v.as_f64() > 0.0;
    if rule.values.is_some() {
        return Err(Failure::new(
            Keyword::Enum,
            "",
            format!("{v} is not one of the allowed values"),
        ));
    }
    if positive && let Some(max) = rule.max {
        return Err(Failure::new(
            Keyword::Maximum,
            "",
            format!("{v} is greater than the maximum {max}"),
        ));
    }
    if !positive && let Some(min) = rule.min {
        return Err(Failure::new(
            Keyword::Minimum,
            "",
            format!("{v} is less than the minimum {min}"),
        ));
    }
    Ok(())
}

/// Checks an [`Integer`] against an [`IntRule`] while decoding.
pub fn check_integer<E: de::Error>(rule: &IntRule, v: Integer) -> Result<Integer, E> {
    integer_failure(rule, &v).map_err(Failure::into_error)?;
    Ok(v)
}

/// Decodes an unbounded [`Integer`] and checks its [`IntRule`].
#[derive(Clone, Copy)]
pub struct IntegerSeed(pub &'static IntRule);

impl<'de> DeserializeSeed<'de> for IntegerSeed {
    type Value = Integer;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Integer, D::Error> {
        struct V(&'static IntRule);
        const EXPECT: &str = "an integer";
        impl<'de> Visitor<'de> for V {
            type Value = Integer;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(bool);
            reject!(str);
            reject!(null);
            reject!(seq);
            reject!(map);
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Integer, E> {
                check_integer(self.0, v.into())
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Integer, E> {
                check_integer(self.0, v.into())
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Integer, E> {
                check_integer(self.0, integer_from_f64(v)?)
            }
        }
        d.deserialize_any(V(self.0))
    }
}

/// Collects the rest of an object (after `first`, a key already read) and returns it as JSON text:
/// the slow path of a tagged union whose discriminator is not the first member.
pub fn buffer_rest<'de, A: MapAccess<'de>>(
    first: Option<Key<'de>>,
    map: &mut A,
) -> Result<Box<serde_json::value::RawValue>, A::Error> {
    let mut object = serde_json::Map::new();
    if let Some(k) = first {
        let v = map.next_value_seed(AnyValue)?;
        object.insert(k.0.into_owned(), v);
    }
    while let Some(k) = map.next_key::<Key<'de>>()? {
        if object.contains_key(k.as_str()) {
            return Err(duplicate(map, k.as_str()));
        }
        let v = map.next_value_seed(AnyValue)?;
        object.insert(k.0.into_owned(), v);
    }
    serde_json::value::to_raw_value(&object).map_err(|e| fail(Keyword::Type, "", e))
}

/// The slot an unknown member takes in an [`Order`]: "the next member of `extra`".
pub const EXTRA: u16 = u16::MAX;

/// The order an object's members arrived in, so that encoding a decoded value writes them back where
/// they stood. Each entry is a declared member's index, or [`EXTRA`]. Nothing is stored (and nothing
/// allocated) when the input already had the order a built value is written in: declared members in
/// schema order, then unknown ones. Members set in code after decoding follow the recorded ones.
///
/// Two values that differ only in member order are equal, as JSON objects are.
#[derive(Clone, Default)]
pub struct Order(Option<Box<[u16]>>);

impl Order {
    /// The recorded slots; empty when the order is the schema's.
    pub fn slots(&self) -> &[u16] {
        self.0.as_deref().unwrap_or(&[])
    }
    /// Whether a recorded order is kept (the input's order was not the schema's).
    pub fn is_recorded(&self) -> bool {
        self.0.is_some()
    }
}

impl PartialEq for Order {
    fn eq(&self, _: &Order) -> bool {
        true
    }
}

impl fmt::Debug for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => f.write_str("Order(schema)"),
            Some(slots) => write!(f, "Order({slots:?})"),
        }
    }
}

/// Records the member order while an object decodes: a push per member into a small inline buffer.
pub struct OrderRecorder {
    inline: [u16; 24],
    len: usize,
    spill: Vec<u16>,
    canonical: bool,
    next: u16,
    extras: bool,
}

impl OrderRecorder {
    /// Nothing seen yet.
    #[inline]
    pub fn new() -> Self {
        OrderRecorder {
            inline: [0; 24],
            len: 0,
            spill: Vec::new(),
            canonical: true,
            next: 0,
            extras: false,
        }
    }

    /// A member seen, by its slot in schema order.
    #[inline]
    pub fn push(&mut self, slot: u16) {
        if self.canonical {
            if slot == EXTRA {
                self.extras = true;
            } else if self.extras || slot < self.next {
                self.canonical = false;
            } else {
                self.next = slot + 1;
            }
        }
        if self.len < self.inline.len() {
            self.inline[self.len] = slot;
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(slot);
        }
        self.len += 1;
    }

    /// The order to keep: empty when it was schema order.
    pub fn finish(self) -> Order {
        if self.canonical {
            return Order(None);
        }
        let slots: Box<[u16]> = if self.spill.is_empty() {
            self.inline[..self.len].into()
        } else {
            self.spill.into_boxed_slice()
        };
        Order(Some(slots))
    }
}

impl Default for OrderRecorder {
    fn default() -> Self {
        Self::new()
    }
}

/// Writes an object's members: first in the recorded order, then every member not yet written in
/// schema order, then the remaining unknown members. `field(i, map)` writes declared member `i` if
/// it is present.
pub fn serialize_members<M, K, V, F>(
    map: &mut M,
    order: &Order,
    declared: u16,
    mut extras: impl Iterator<Item = (K, V)>,
    mut field: F,
) -> Result<(), M::Error>
where
    M: serde::ser::SerializeMap,
    K: serde::Serialize,
    V: serde::Serialize,
    F: FnMut(u16, &mut M) -> Result<(), M::Error>,
{
    let slots = order.slots();
    if slots.is_empty() {
        for i in 0..declared {
            field(i, map)?;
        }
    } else {
        let mut done = vec![false; usize::from(declared)];
        for &slot in slots {
            if slot == EXTRA {
                if let Some((k, v)) = extras.next() {
                    map.serialize_entry(&k, &v)?;
                }
            } else if let Some(d) = done.get_mut(usize::from(slot))
                && !*d
            {
                *d = true;
                field(slot, map)?;
            }
        }
        for (i, d) in done.iter().enumerate() {
            if !*d {
                field(i as u16, map)?;
            }
        }
    }
    for (k, v) in extras {
        map.serialize_entry(&k, &v)?;
    }
    Ok(())
}

/// The verdict-only twin of `Deserialize`: reads a value and checks it against the schema with the
/// same rules, in the same order, on the same parser calls, but keeps only what a later check reads
/// (a selector, the members that rules across members read): no other string is copied, no struct,
/// vector or map is built. Validation that needs only a yes or a no uses it, and decodes a rejected
/// document again for its located error, so errors are the decoder's own.
pub trait Verify {
    /// Reads a value from `d` and checks it, keeping nothing.
    fn verify<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error>;
}

/// The verdict-only twin of a `DeserializeSeed`. Seeds whose checks need the decoded value
/// (`uniqueItems`) or that keep nothing anyway (numbers) decode and drop it.
pub trait VerifySeed<'de>: Sized {
    /// Reads a value from `d` and checks it, keeping nothing.
    fn verify<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error>;
}

/// A [`VerifySeed`] used where serde wants a `DeserializeSeed` (`next_value_seed`).
#[derive(Clone, Copy)]
pub struct Verified<S>(pub S);

impl<'de, S: VerifySeed<'de>> DeserializeSeed<'de> for Verified<S> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.0.verify(d)
    }
}

/// Verifies by decoding `T` and dropping it.
pub fn verify_by_decoding<'de, T: de::Deserialize<'de>, D: Deserializer<'de>>(
    d: D,
) -> Result<(), D::Error> {
    T::deserialize(d)?;
    Ok(())
}

macro_rules! verify_by_decoding {
    ($($seed:ty),*) => {
        $(impl<'de> VerifySeed<'de> for $seed {
            fn verify<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                self.deserialize(d)?;
                Ok(())
            }
        })*
    };
}

verify_by_decoding!(
    IntSeed,
    IntegerSeed,
    NumSeed,
    BoolSeed,
    NullSeed,
    NeverSeed,
    Reject
);

impl Verify for True {
    fn verify<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
        BoolSeed(Some(true)).verify(d)
    }
}

impl Verify for False {
    fn verify<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
        BoolSeed(Some(false)).verify(d)
    }
}

impl<'de, T: Verify> VerifySeed<'de> for TypeSeed<T> {
    fn verify<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        T::verify(d)
    }
}

/// The verdict-only check of a generated object type's members (its decoder's twin).
pub trait VerifyMembers {
    /// What a value of the type is, for the error about any other JSON type.
    const EXPECTING: &'static str;
    /// Checks the members as decoding does, keeping only what rules read; `pre` is a member a
    /// tagged union already read, `refine` one more check on the members (a narrowing).
    fn verify_members<'de, A: MapAccess<'de>>(
        map: A,
        pre: Option<(&str, &str)>,
        refine: Option<MemberCheck>,
    ) -> Result<(), A::Error>;
}

/// A generated string enum: its values and their JSON strings in schema order. Parsing,
/// decoding and printing are written once here over these tables, not once per enum.
pub trait StrEnum: Copy + Sized + 'static {
    /// Every value, in schema order.
    const VALUES: &'static [Self];
    /// The JSON string of each value, in the same order.
    const NAMES: &'static [&'static str];
    /// The values as a message lists them: `` `a`, `b` ``.
    const ALLOWED: &'static str;
    /// The failure of a string outside the set: `Enum`, or `Const` for a one-value set.
    const CODE: Keyword;
    /// The position of `self` in [`StrEnum::VALUES`].
    fn index(self) -> usize;
    /// The value whose JSON string is `s`. Generated as a `match`, which the compiler turns into
    /// a search by length and bytes: a scan of [`StrEnum::NAMES`] would cost an event decode
    /// a comparison per event type.
    fn from_json(s: &str) -> Option<Self>;
    /// The JSON string of `self`.
    fn json(self) -> &'static str {
        Self::NAMES[self.index()]
    }
}

/// The value whose JSON string is `s`, or the sentence saying what the values are.
#[inline]
pub fn parse_enum<T: StrEnum>(s: &str) -> Result<T, String> {
    match T::from_json(s) {
        Some(value) => Ok(value),
        None => Err(not_one_of(s, T::ALLOWED)),
    }
}

/// The sentence for a string no value of an enum has.
#[cold]
fn not_one_of(s: &str, allowed: &str) -> String {
    format!("`{s}` is not one of {allowed}")
}

/// A string-enum member a tagged union already read as its discriminator (`pre`), parsed, or
/// the enum's failure located at `rel`.
#[inline]
pub fn pre_read<T: StrEnum, E: de::Error>(s: &str, rel: &str) -> Result<T, E> {
    match parse_enum(s) {
        Ok(value) => Ok(value),
        Err(m) => Err(fail(T::CODE, rel, m)),
    }
}

/// The verdict-only seed of a generated type.
#[inline]
pub const fn verified<T>() -> Verified<TypeSeed<T>> {
    Verified(TypeSeed::new())
}

/// Decodes a string enum: every generated string enum's `Deserialize`.
#[inline]
pub fn decode_enum<'de, T: StrEnum, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    struct V<T>(std::marker::PhantomData<fn() -> T>);
    impl<T: StrEnum> Visitor<'_> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "one of {}", T::ALLOWED)
        }
        fn visit_str<E: de::Error>(self, s: &str) -> Result<T, E> {
            parse_enum(s).map_err(|m| fail(T::CODE, "", m))
        }
    }
    d.deserialize_str(V::<T>(std::marker::PhantomData))
}

/// The decoding twin of [`VerifyMembers`]: a generated struct's decoder over an object's members.
pub trait DecodeMembers: VerifyMembers + Sized {
    /// Decodes the members of an object; `pre` is a member a tagged union already read.
    fn decode_members<'de, A: MapAccess<'de>>(
        map: A,
        pre: Option<(&str, &str)>,
    ) -> Result<Self, A::Error>;
}

/// Decodes a `T` from an object: every generated struct's `Deserialize`.
#[inline]
pub fn decode_object<'de, T: DecodeMembers, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    struct V<T>(std::marker::PhantomData<fn() -> T>);
    impl<'de, T: DecodeMembers> Visitor<'de> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(T::EXPECTING)
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::decode_members(map, None)
        }
    }
    d.deserialize_map(V::<T>(std::marker::PhantomData))
}

/// Verifies an object of type `T`, with `refine` on its members if given.
pub fn verify_object<'de, T: VerifyMembers, D: Deserializer<'de>>(
    d: D,
    refine: Option<MemberCheck>,
) -> Result<(), D::Error> {
    struct V<T>(Option<MemberCheck>, std::marker::PhantomData<fn() -> T>);
    impl<'de, T: VerifyMembers> Visitor<'de> for V<T> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(T::EXPECTING)
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
            T::verify_members(map, None, self.0)
        }
    }
    d.deserialize_map(V::<T>(refine, std::marker::PhantomData))
}

/// `inner` is `T`'s own decoder, so `T` verifies in its place.
impl<'de, S, T: VerifyMembers> VerifySeed<'de> for RefinedSeed<S, T> {
    fn verify<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        verify_object::<T, D>(d, Some(self.check))
    }
}

/// The members a verdict-only check kept, read by name (the function answers for each name) as
/// rules across members read a decoded value.
pub struct View<'a>(pub &'a dyn Fn(&str) -> Probe<'a>);

impl Fields for View<'_> {
    fn field(&self, key: &str) -> Probe<'_> {
        (self.0)(key)
    }
}

impl<'de> VerifySeed<'de> for StrSeed {
    fn verify<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        struct V(&'static StrRule);
        const EXPECT: &str = "a string";
        impl<'de> Visitor<'de> for V {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(bool);
            reject!(int);
            reject!(null);
            reject!(seq);
            reject!(map);
            fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
                check_str(self.0, v)
            }
        }
        d.deserialize_string(V(self.0))
    }
}

impl<'de, S: VerifySeed<'de>> VerifySeed<'de> for NullableSeed<S> {
    fn verify<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        struct V<S>(S);
        impl<'de, S: VerifySeed<'de>> Visitor<'de> for V<S> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a value or null")
            }
            fn visit_none<E: de::Error>(self) -> Result<(), E> {
                Ok(())
            }
            fn visit_unit<E: de::Error>(self) -> Result<(), E> {
                Ok(())
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                self.0.verify(d)
            }
        }
        d.deserialize_option(V(self.0))
    }
}

impl<'de, S> VerifySeed<'de> for VecSeed<S>
where
    S: VerifySeed<'de> + DeserializeSeed<'de> + Copy,
    S::Value: serde::Serialize,
{
    fn verify<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        // Uniqueness compares the items themselves.
        if self.unique {
            return self.deserialize(d).map(|_| ());
        }
        struct V<S>(VecSeed<S>);
        const EXPECT: &str = "an array";
        impl<'de, S: VerifySeed<'de> + Copy> Visitor<'de> for V<S> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(bool);
            reject!(int);
            reject!(str);
            reject!(null);
            reject!(map);
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
                let rule = self.0;
                let mut n: u64 = 0;
                while seq.next_element_seed(Verified(rule.item))?.is_some() {
                    n += 1;
                    if rule.max.is_some_and(|m| n > m) {
                        return Err(fail(Keyword::MaxItems, "", "array has too many items"));
                    }
                }
                if rule.min.is_some_and(|m| n < m) {
                    return Err(fail(Keyword::MinItems, "", "array has too few items"));
                }
                Ok(())
            }
        }
        d.deserialize_seq(V(self))
    }
}

/// Any JSON value, objects refusing a repeated member (what [`AnyValue`] accepts).
impl<'de> VerifySeed<'de> for AnyValue {
    fn verify<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
                Ok(())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
                Ok(())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
                Ok(())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
                Ok(())
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
                Ok(())
            }
            fn visit_unit<E: de::Error>(self) -> Result<(), E> {
                Ok(())
            }
            fn visit_none<E: de::Error>(self) -> Result<(), E> {
                Ok(())
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                AnyValue.verify(d)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
                while seq.next_element_seed(Verified(AnyValue))?.is_some() {}
                Ok(())
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
                verify_members(map)
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> VerifySeed<'de> for ObjectSeed {
    fn verify<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        struct V;
        const EXPECT: &str = "an object";
        impl<'de> Visitor<'de> for V {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(bool);
            reject!(int);
            reject!(str);
            reject!(null);
            reject!(seq);
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
                verify_members(map)
            }
        }
        d.deserialize_map(V)
    }
}

/// The members of an object of any JSON, a repeated name refused (what [`object_members`] accepts).
fn verify_members<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    let mut seen = KeySet::default();
    while let Some(key) = map.next_key::<Key<'de>>()? {
        if let Some(k) = seen.insert(key) {
            return Err(duplicate(&mut map, k.as_str()));
        }
        map.next_value_seed(Verified(AnyValue))?;
    }
    Ok(())
}

/// The member names of one object seen so far, so that a repeated one is refused without building
/// the object: a short list searched in order, then a hash set once the object is large.
#[derive(Default)]
pub struct KeySet<'de> {
    few: Vec<Key<'de>>,
    many: std::collections::HashSet<Cow<'de, str>>,
}

impl<'de> KeySet<'de> {
    /// Linear search is faster than hashing up to about this many names.
    const FEW: usize = 16;

    /// Adds `key`, or gives it back when the set already holds it.
    pub fn insert(&mut self, key: Key<'de>) -> Option<Key<'de>> {
        if self.few.len() < Self::FEW {
            if self.few.iter().any(|k| k.0 == key.0) {
                return Some(key);
            }
            self.few.push(key);
            return None;
        }
        if self.few.iter().any(|k| k.0 == key.0) || self.many.contains(&key.0) {
            return Some(key);
        }
        self.many.insert(key.0);
        None
    }
}

/// Verifies a captured raw value with `seed` (a member kept until the member that chooses its
/// schema was read).
pub fn verify_raw<'a, S: VerifySeed<'a>, E: de::Error>(
    raw: &'a serde_json::value::RawValue,
    seed: S,
) -> Result<(), E> {
    seed.verify(&mut reader::Reader::new(raw.get()))
        .map_err(E::custom)
}

/// The check of a value where the schema is `false`: always a failure. A call rather than a
/// `return`, so that the checks written after it are not unreachable code.
pub fn false_schema<T: ?Sized>(_: &T) -> Result<(), Failure> {
    Err(Failure::new(
        Keyword::FalseSchema,
        "",
        "no value is allowed here",
    ))
}

/// Checks `value`'s JSON against node `node` of `program`: the rules of a typed value that its
/// type does not say, located in the value as the program locates them.
pub fn program_rule<T: serde::Serialize + ?Sized>(
    program: &eval::Program,
    node: usize,
    value: &T,
) -> Result<(), Failure> {
    let json = to_json(value).map_err(|e| Failure::new(Keyword::Encode, "", e.to_string()))?;
    program.check(node, &json)
}

/// Decodes with `inner`, then checks the value's JSON against `nodes` of `program`: the rules of a
/// value that its type does not say.
#[derive(Clone, Copy)]
pub struct RuleSeed<S> {
    /// The value's decoder.
    pub inner: S,
    /// The generated code's program.
    pub program: fn() -> &'static eval::Program,
    /// The rules' nodes.
    pub nodes: &'static [usize],
}

impl<'de, S> DeserializeSeed<'de> for RuleSeed<S>
where
    S: DeserializeSeed<'de>,
    S::Value: serde::Serialize,
{
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let value = self.inner.deserialize(d)?;
        for &n in self.nodes {
            program_rule((self.program)(), n, &value).map_err(Failure::into_error)?;
        }
        Ok(value)
    }
}

// The rules read the value's JSON, so the verdict-only check decodes it too.
impl<'de, S> VerifySeed<'de> for RuleSeed<S>
where
    S: DeserializeSeed<'de>,
    S::Value: serde::Serialize,
{
    fn verify<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.deserialize(d).map(drop)
    }
}

/// The checker for schemas compiled to programs (see the module).
pub mod eval;

mod macros;

#[cfg(feature = "splice")]
#[doc(hidden)]
pub mod splice;

/// Without the `splice` feature a struct's builder table adds nothing (see [`splice`]).
#[cfg(not(feature = "splice"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __splice {
    ($($table:tt)*) => {};
}

/// The JSON reader generated decoders run on: verdicts, typed decodes and located refusals (see
/// the module).
pub mod reader;

// The crates generated code names, re-exported so that its crate need not depend on them.
#[doc(hidden)]
pub use indexmap;
#[doc(hidden)]
pub use serde;
#[doc(hidden)]
pub use serde_json;

#[cfg(test)]
mod tests {
    use super::to_json;
    use serde_json::{Value, json};

    /// `to_json` gives the tree `serde_json::to_value` gives: numbers exactly, members in order.
    #[test]
    fn to_json_is_to_value() {
        let samples = [
            json!({"z": 1, "a": [1.0, -0.0, 1e300, 0.1, 5e-324], "m": {"y": null, "b": true}}),
            json!([u64::MAX, i64::MIN, "é\n\"\u{1}", {}, []]),
            json!(2.5e-8),
        ];
        for sample in samples {
            let ours = to_json(&sample).unwrap();
            assert_eq!(ours, serde_json::to_value(&sample).unwrap());
            let order = |v: &Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>());
            assert_eq!(order(&ours), order(&sample));
        }
        assert_eq!(to_json(&f64::NAN).unwrap(), Value::Null);
    }

    /// `uniqueItems` equality is JSON equality: member order and number spelling aside.
    #[test]
    fn first_duplicate_is_json_equality() {
        use super::first_duplicate;
        assert_eq!(first_duplicate(&["a", "b", "a"]), Some((0, 2)));
        assert_eq!(first_duplicate(&["a", "A", "a ", "\"a\""]), None);
        assert_eq!(first_duplicate(&["e\u{301}", "é", "\u{e9}"]), Some((1, 2)));
        assert_eq!(
            first_duplicate(&[json!(1), json!("1"), json!(1.0)]),
            Some((0, 2))
        );
        assert_eq!(
            first_duplicate(&[json!(true), json!(null), json!(false)]),
            None
        );
        let raw = |t: &str| serde_json::value::RawValue::from_string(t.to_string()).unwrap();
        let spaced = [
            raw(r#"{"a": [1, 2], "b": {}}"#),
            raw(r#"{ "b" : { } , "a":[1,2.0] }"#),
        ];
        assert_eq!(first_duplicate(&spaced), Some((0, 1)));
        let objects = [json!({"a": 1, "b": [2]}), json!({"b": [2.0], "a": 1})];
        assert_eq!(first_duplicate(&objects), Some((0, 1)));
        let many: Vec<String> = (0..40).map(|i| format!("n{}", i % 33)).collect();
        assert_eq!(first_duplicate(&many), Some((0, 33)));
        let mut trees: Vec<Value> = (0..40).map(|i| json!({"k": i, "z": [i]})).collect();
        assert_eq!(first_duplicate(&trees), None);
        trees.push(json!({"z": [7.0], "k": 7}));
        assert_eq!(first_duplicate(&trees), Some((7, 40)));
    }

    /// Text the encoder would never write (cut short, unbalanced) is hashed without a panic.
    #[test]
    fn text_hash_survives_broken_text() {
        let whole = br#"{"a":[1,"x\"y",{"b":null}],"c":-2.5e3}"#;
        for cut in 0..=whole.len() {
            let texts = [
                whole[..cut].to_vec(),
                b"[7]".to_vec(),
                whole[..cut].to_vec(),
            ];
            // Equal texts always hash alike, so the pair is found (as trees, both `null` if broken).
            assert_eq!(
                super::first_equal_text(&texts),
                Some((0, 2)),
                "cut at {cut}"
            );
        }
    }

    /// The text hash agrees with the trees: equal values (members reordered, `1` written `1.0`)
    /// are found, unequal ones are not, on many generated lists.
    #[test]
    fn first_duplicate_by_hash_matches_trees() {
        use super::{first_duplicate, first_equal};
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        fn value(next: &mut impl FnMut(u64) -> u64, depth: u32) -> Value {
            match next(if depth > 2 { 6 } else { 8 }) {
                0 => json!(next(3)),
                1 => json!(next(3) as f64),
                2 => json!(-0.0),
                3 => json!(["x", "y", "x\"", "\\"][next(4) as usize]),
                4 => [json!(true), json!(false), json!(null)][next(3) as usize].clone(),
                5 => json!(0.5 * next(3) as f64),
                6 => Value::Array((0..next(3)).map(|_| value(next, depth + 1)).collect()),
                _ => {
                    let mut keys = vec!["a", "b", "c"];
                    keys.truncate(next(4) as usize);
                    if next(2) == 0 {
                        keys.reverse();
                    }
                    let members = keys
                        .into_iter()
                        .map(|k| (k.to_string(), value(next, depth + 1)));
                    Value::Object(members.collect())
                }
            }
        }
        let mut found = 0;
        for _ in 0..3000 {
            let n = 2 + next(5) as usize;
            let items: Vec<Value> = (0..n).map(|_| value(&mut next, 0)).collect();
            let expected = first_equal(&items);
            found += usize::from(expected.is_some());
            assert_eq!(first_duplicate(&items), expected, "{items:?}");
        }
        assert!(
            found > 300,
            "too few lists with equal items to test: {found}"
        );
    }

    /// A value deeper than serde_json's parsing limit (128) still converts: its depth is its own.
    #[test]
    fn to_json_keeps_deep_values() {
        let mut deep = json!("leaf");
        for _ in 0..300 {
            deep = json!([deep]);
        }
        assert_eq!(to_json(&deep).unwrap(), deep);
    }
}
