//! Numbers: integer and number rules, their seeds, and [`Integer`] for integers with no 64-bit
//! bound.

use crate::__private::*;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

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
