//! The values the reducer's rooms share: the session's and turn's states, integrity and gaps, a
//! runtime request, and the serializers of optional values and sequences. A leaf: it uses no
//! other room of the reducer, so every other room may use it.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// `sessionState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SessionState {
    /// No session event applied yet.
    NotStarted,
    /// `session.started` or `session.resumed`.
    Running,
    /// `session.closed`.
    Closed,
    /// `session.failed`.
    Failed,
}

impl SessionState {
    /// The golden spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionState::NotStarted => "not_started",
            SessionState::Running => "running",
            SessionState::Closed => "closed",
            SessionState::Failed => "failed",
        }
    }
}

/// `turnState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnState {
    /// No turn started yet.
    NotStarted,
    /// `turn.started`, not yet ended.
    Running,
    /// `turn.completed`.
    Completed,
    /// `turn.failed`.
    Failed,
    /// `turn.interrupted`.
    Interrupted,
    /// `turn.cancelled`.
    Cancelled,
}

impl TurnState {
    /// The golden spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            TurnState::NotStarted => "not_started",
            TurnState::Running => "running",
            TurnState::Completed => "completed",
            TurnState::Failed => "failed",
            TurnState::Interrupted => "interrupted",
            TurnState::Cancelled => "cancelled",
        }
    }
}

/// `integrity`: whether every source stream was seen without holes or reordering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Integrity {
    /// Every source stream contiguous and in order so far.
    Complete,
    /// A gap or a stale / out-of-order event was seen.
    GapDetected,
}

impl Integrity {
    /// The golden spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Integrity::Complete => "complete",
            Integrity::GapDetected => "gap_detected",
        }
    }
}

/// The most missing sequence numbers a gap lists.
pub const MAX_GAP_MISSING: u64 = 256;

/// A hole in one source stream: `expected` was next, `received` arrived.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Gap {
    /// `sourceKind:sourceInstanceId`.
    pub source_key: String,
    /// The cursor + 1.
    pub expected: u64,
    /// The `sourceSeq` that arrived instead.
    pub received: u64,
    /// `received − expected`.
    pub missing_count: u64,
    /// `expected, expected + 1, …`, at most [`MAX_GAP_MISSING`] numbers.
    pub missing: Vec<u64>,
    /// Whether `missing` lists fewer than `missing_count` numbers.
    pub truncated: bool,
}

/// One runtime request of the snapshot; its `requestId` is its key in
/// [`Snapshot::requests`](super::Snapshot::requests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `requestKind`.
    pub request_kind: String,
    /// `type`.
    pub request_type: String,
    /// `status`: as created (`pending` by default), then `resolved`, `expired` or `cancelled`.
    pub status: String,
    /// `prompt`.
    pub prompt: String,
}

impl Request {
    pub(super) fn golden<'a>(&'a self, id: &'a str) -> GoldenRequest<'a> {
        GoldenRequest { id, value: self }
    }
}

/// A request with its id, in golden key order.
pub(super) struct GoldenRequest<'a> {
    id: &'a str,
    value: &'a Request,
}

impl Serialize for GoldenRequest<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(5))?;
        m.serialize_entry("requestId", self.id)?;
        m.serialize_entry("requestKind", &self.value.request_kind)?;
        m.serialize_entry("type", &self.value.request_type)?;
        m.serialize_entry("status", &self.value.status)?;
        m.serialize_entry("prompt", &self.value.prompt)?;
        m.end()
    }
}

/// Writes `value` or `null`.
pub(super) struct OrNull<T>(pub(super) Option<T>);

impl<T: Serialize> Serialize for OrNull<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Some(v) => v.serialize(s),
            None => s.serialize_unit(),
        }
    }
}

/// Writes an iterator as a JSON array.
pub(super) struct Seq<I>(pub(super) I);

impl<I> Serialize for Seq<I>
where
    I: Iterator + Clone,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone())
    }
}
