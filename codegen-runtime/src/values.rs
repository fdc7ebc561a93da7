//! [`Tri`]: a member that may be absent, `null` or a value, each kept apart.

use crate::__private::*;

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
