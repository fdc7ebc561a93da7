//! String enums: their values as tables ([`StrEnum`]), parsed, decoded and printed once here.

use crate::__private::*;
use serde::de::{self, Deserializer, Visitor};
use std::fmt;

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
