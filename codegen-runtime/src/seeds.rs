//! The seeds every generated decoder composes: booleans, `null`, objects, arrays, nullables, refined
//! values, any value, `false`, and tags.

use crate::__private::*;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

pub(crate) fn type_error<E: de::Error>(expected: &str, got: de::Unexpected) -> E {
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
