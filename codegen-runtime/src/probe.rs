//! [`Probe`]: a member's JSON value seen through its typed field, so that rules across members
//! (conditionals, `dependentRequired`, `not`) read decoded values and JSON trees alike.

use crate::__private::*;

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
