//! The value types of the catalog's input contracts. Each one both checks a decoded value and
//! describes itself to schemars, from the same constants, so that a type and its contract cannot
//! drift apart. The checks are the generated decoders' own (`rt::str_failure`, `rt::int_failure`,
//! `rt::items_failure`), failing through the runtime's typed channel, so `decode::<T>` locates a
//! refusal with the same code and JSON pointer as any generated PRP type.

use prp_codegen_runtime::{self as rt, Failure, Keyword};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{Deserialize, Deserializer};
use serde::{Serialize, Serializer};
use std::borrow::Cow;

/// A string of `MIN` to `MAX` characters (`minLength` is left out of the contract when `MIN` is 0).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Text<const MIN: u64, const MAX: u64>(String);

impl<const MIN: u64, const MAX: u64> Text<MIN, MAX> {
    const RULE: rt::StrRule = rt::StrRule {
        min: if MIN == 0 { None } else { Some(MIN) },
        max: Some(MAX),
        pattern: None,
        format: None,
    };

    /// Checks `s` against the bounds.
    pub fn new(s: impl Into<String>) -> Result<Self, Failure> {
        let s = s.into();
        rt::str_failure(&Self::RULE, &s)?;
        Ok(Text(s))
    }
    /// The string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<const MIN: u64, const MAX: u64> std::ops::Deref for Text<MIN, MAX> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl<const MIN: u64, const MAX: u64> TryFrom<&str> for Text<MIN, MAX> {
    type Error = Failure;
    fn try_from(s: &str) -> Result<Self, Failure> {
        Text::new(s)
    }
}

impl<'de, const MIN: u64, const MAX: u64> Deserialize<'de> for Text<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Text::new(s).map_err(Failure::into_error)
    }
}

impl<const MIN: u64, const MAX: u64> Serialize for Text<MIN, MAX> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<const MIN: u64, const MAX: u64> JsonSchema for Text<MIN, MAX> {
    fn schema_name() -> Cow<'static, str> {
        format!("Text{MIN}To{MAX}").into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        if MIN == 0 {
            json_schema!({"type": "string", "maxLength": MAX})
        } else {
            json_schema!({"type": "string", "minLength": MIN, "maxLength": MAX})
        }
    }
}

/// The key by which a type that admits `null` itself marks its schema, so that [`super::contract`]
/// keeps that `null`; it never reaches a contract.
pub const NULLABLE_MARK: &str = "x-prp-nullable";

/// A string of at most `MAX` characters, or `null`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NullableText<const MAX: u64>(pub Option<Text<0, MAX>>);

impl<'de, const MAX: u64> Deserialize<'de> for NullableText<MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<Text<0, MAX>>::deserialize(d).map(NullableText)
    }
}

impl<const MAX: u64> Serialize for NullableText<MAX> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<const MAX: u64> JsonSchema for NullableText<MAX> {
    fn schema_name() -> Cow<'static, str> {
        format!("NullableText{MAX}").into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": ["string", "null"], "maxLength": MAX, "x-prp-nullable": true})
    }
}

/// An integer from `MIN` to `MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Int<const MIN: i64, const MAX: i64>(i64);

impl<const MIN: i64, const MAX: i64> Int<MIN, MAX> {
    const RULE: rt::IntRule = rt::IntRule {
        min: Some(MIN),
        max: Some(MAX),
        values: None,
    };

    /// Checks `v` against the bounds.
    pub fn new(v: i64) -> Result<Self, Failure> {
        rt::int_failure(&Self::RULE, v)?;
        Ok(Int(v))
    }
    /// The integer.
    pub fn get(self) -> i64 {
        self.0
    }
}

impl<'de, const MIN: i64, const MAX: i64> Deserialize<'de> for Int<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // An integer in JSON Schema's sense: `2.0` is one, `2.5` is not.
        let n = serde_json::Number::deserialize(d)?;
        let v = match (n.as_i64(), n.as_f64()) {
            (Some(v), _) => v,
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 9.2e18 => f as i64,
            (None, Some(f)) if f.fract() == 0.0 => {
                let k = if f > 0.0 {
                    Keyword::Maximum
                } else {
                    Keyword::Minimum
                };
                return Err(rt::fail(k, "", format_args!("{n} is out of range")));
            }
            _ => {
                return Err(rt::fail(
                    Keyword::Type,
                    "",
                    format_args!("{n} is not an integer"),
                ));
            }
        };
        Int::new(v).map_err(Failure::into_error)
    }
}

impl<const MIN: i64, const MAX: i64> Serialize for Int<MIN, MAX> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(self.0)
    }
}

impl<const MIN: i64, const MAX: i64> JsonSchema for Int<MIN, MAX> {
    fn schema_name() -> Cow<'static, str> {
        format!("Int{MIN}To{MAX}").into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        if MAX == i64::MAX {
            json_schema!({"type": "integer", "minimum": MIN})
        } else {
            json_schema!({"type": "integer", "minimum": MIN, "maximum": MAX})
        }
    }
}

/// Distinct non-empty strings, at most `MAX` of them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct IdList<const MAX: u64>(Vec<Text<1, { u64::MAX }>>);

impl<const MAX: u64> IdList<MAX> {
    /// The ids.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|t| t.as_str())
    }
}

impl<'de, const MAX: u64> Deserialize<'de> for IdList<MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = Vec::<Text<1, { u64::MAX }>>::deserialize(d)?;
        rt::items_failure(&items, None, Some(MAX), true).map_err(Failure::into_error)?;
        Ok(IdList(items))
    }
}

impl<const MAX: u64> Serialize for IdList<MAX> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<const MAX: u64> JsonSchema for IdList<MAX> {
    fn schema_name() -> Cow<'static, str> {
        format!("IdList{MAX}").into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "array",
            "items": {"type": "string", "minLength": 1},
            "maxItems": MAX,
            "uniqueItems": true
        })
    }
}
