//! A struct's members while decoding and encoding: keys, once-only slots, required members,
//! duplicates, shadowing, and the [`Check`] of a built value.

use crate::__private::*;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

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
    buffer_into(object, map)
}

/// Collects an object whose first member, the string `tag` = `value`, is read already: for a
/// tagged union whose variant is a union of its own, which reads the object whole.
pub fn buffer_rest_after<'de, A: MapAccess<'de>>(
    tag: &str,
    value: &str,
    map: &mut A,
) -> Result<Box<serde_json::value::RawValue>, A::Error> {
    let mut object = serde_json::Map::new();
    object.insert(tag.to_owned(), serde_json::Value::from(value));
    buffer_into(object, map)
}

/// The members left in `map` added to `object`, as JSON text; a repeated member is refused.
fn buffer_into<'de, A: MapAccess<'de>>(
    mut object: serde_json::Map<String, serde_json::Value>,
    map: &mut A,
) -> Result<Box<serde_json::value::RawValue>, A::Error> {
    while let Some(k) = map.next_key::<Key<'de>>()? {
        if object.contains_key(k.as_str()) {
            return Err(duplicate(map, k.as_str()));
        }
        let v = map.next_value_seed(AnyValue)?;
        object.insert(k.0.into_owned(), v);
    }
    serde_json::value::to_raw_value(&object).map_err(|e| fail(Keyword::Type, "", e))
}
