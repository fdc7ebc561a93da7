//! The verdict-only twins of the decoders ([`Verify`]): the same rules on the same parser calls,
//! keeping only what a later rule reads; and the struct decoders' entry points.

use crate::__private::*;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

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
