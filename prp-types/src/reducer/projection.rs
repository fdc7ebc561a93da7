//! What each event type does to the snapshot (PROTOCOL §2.5). Types not named here are
//! timeline-only; the reducer ignores `semantic_tool` envelopes.

use std::borrow::Cow;

use indexmap::IndexMap;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use super::event::EventView;
use super::snapshot::{SessionState, Snapshot, TurnState};
use super::timeline::runtime_request;

/// `items[].status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemStatus {
    Running,
    Completed,
    Failed,
}

impl ItemStatus {
    /// The golden spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemStatus::Running => "running",
            ItemStatus::Completed => "completed",
            ItemStatus::Failed => "failed",
        }
    }
}

/// One item of the snapshot; its `itemId` is its key in [`Snapshot::items`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// `kind`: the last string `payload.kind`, `diagnostic` if none was ever given.
    pub kind: String,
    /// `status`.
    pub status: ItemStatus,
    /// `text`: deltas appended, replaced by a non-empty text of a start, completion or failure.
    pub text: String,
}

/// One runtime request of the snapshot; its `requestId` is its key in [`Snapshot::requests`].
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

impl Item {
    pub(super) fn golden<'a>(&'a self, id: &'a str) -> Golden<'a, Item> {
        Golden { id, value: self }
    }
}

impl Request {
    pub(super) fn golden<'a>(&'a self, id: &'a str) -> Golden<'a, Request> {
        Golden { id, value: self }
    }
}

/// An item or request with its id, in golden key order.
pub(super) struct Golden<'a, T> {
    id: &'a str,
    value: &'a T,
}

impl Serialize for Golden<'_, Item> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(4))?;
        m.serialize_entry("itemId", self.id)?;
        m.serialize_entry("kind", &self.value.kind)?;
        m.serialize_entry("status", self.value.status.as_str())?;
        m.serialize_entry("text", &self.value.text)?;
        m.end()
    }
}

impl Serialize for Golden<'_, Request> {
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

/// Applies the projection of `event` to `snapshot`.
pub(super) fn project(snapshot: &mut Snapshot, event: &EventView<'_>) {
    match event.event_type {
        "runtime.phase.changed" => {
            if let Some(phase) = event.payload_str("phase") {
                snapshot.run_phase = Cow::Owned(phase.to_owned());
            }
        }
        "session.started" | "session.resumed" => snapshot.session_state = SessionState::Running,
        "session.closed" => snapshot.session_state = SessionState::Closed,
        "session.failed" => snapshot.session_state = SessionState::Failed,
        "turn.started" => {
            snapshot.turn_state = TurnState::Running;
            snapshot.active_turn_id = event.turn_id.map(str::to_owned);
        }
        "turn.completed" => end_turn(snapshot, TurnState::Completed),
        "turn.failed" => end_turn(snapshot, TurnState::Failed),
        "turn.interrupted" => end_turn(snapshot, TurnState::Interrupted),
        "turn.cancelled" => end_turn(snapshot, TurnState::Cancelled),
        "item.started" => item(snapshot, event, ItemStatus::Running, false),
        "item.delta" => item(snapshot, event, ItemStatus::Running, true),
        "item.completed" => item(snapshot, event, ItemStatus::Completed, false),
        "item.failed" => item(snapshot, event, ItemStatus::Failed, false),
        "runtime_request.created" => create_request(snapshot, event),
        "runtime_request.resolved" => settle_request(snapshot, event, "resolved"),
        "runtime_request.expired" => settle_request(snapshot, event, "expired"),
        "runtime_request.cancelled" => settle_request(snapshot, event, "cancelled"),
        "run.result.proposed" => snapshot.proposed_result = Some(event.payload.clone()),
        "run.terminal" => {
            // The run's terminal states live in this payload only: session and turn states stay.
            snapshot.terminal = Some(event.payload.clone());
            snapshot.run_phase = Cow::Borrowed("terminal");
        }
        "plan.updated" => snapshot.plans.observe(event),
        _ => {}
    }
}

fn end_turn(snapshot: &mut Snapshot, state: TurnState) {
    snapshot.turn_state = state;
    snapshot.active_turn_id = None;
}

fn item(snapshot: &mut Snapshot, event: &EventView<'_>, status: ItemStatus, append: bool) {
    let Some(item_id) = event.item_id else {
        return;
    };
    let kind = event.payload_str("kind");
    let text = event.payload_str("text");
    match snapshot.streaming.find(&snapshot.items, item_id) {
        Some(index) => {
            let item = &mut snapshot.items[index];
            if let Some(kind) = kind {
                kind.clone_into(&mut item.kind);
            }
            item.status = status;
            if append {
                item.text.push_str(text.unwrap_or(""));
            } else if let Some(text) = text.filter(|t| !t.is_empty()) {
                text.clone_into(&mut item.text);
            }
        }
        None => {
            let item = Item {
                kind: kind.unwrap_or("diagnostic").to_owned(),
                status,
                text: text.unwrap_or("").to_owned(),
            };
            let (index, _) = snapshot.items.insert_full(item_id.to_owned(), item);
            snapshot.streaming.touch(index);
        }
    }
}

/// The items touched last, most recent first: deltas stream into a few items at a time, and
/// finding those here spares a probe of the item table, which in a long session no longer fits
/// the CPU caches. Item indexes are stable because items are never removed.
#[derive(Debug, Clone, Default)]
pub(super) struct RecentItems {
    indexes: [Option<usize>; RECENT_ITEMS],
}

/// How many recently touched items [`RecentItems`] remembers.
const RECENT_ITEMS: usize = 4;

impl RecentItems {
    /// The index of `id` in `items`, which is then the most recent.
    fn find(&mut self, items: &IndexMap<String, Item>, id: &str) -> Option<usize> {
        let hit = self.indexes.iter().position(|slot| {
            slot.and_then(|i| items.get_index(i))
                .is_some_and(|(key, _)| key == id)
        });
        let index = match hit {
            Some(position) => self.indexes[position]?,
            None => items.get_index_of(id)?,
        };
        self.touch(index);
        Some(index)
    }

    /// Makes the item at `index` the most recent.
    fn touch(&mut self, index: usize) {
        let position = self
            .indexes
            .iter()
            .position(|slot| *slot == Some(index))
            .unwrap_or(RECENT_ITEMS - 1);
        self.indexes.copy_within(0..position, 1);
        self.indexes[0] = Some(index);
    }
}

fn create_request(snapshot: &mut Snapshot, event: &EventView<'_>) {
    let r = runtime_request(event);
    let field = |name: &str, default: &str| {
        r.and_then(|r| r.get(name))
            .and_then(Value::as_str)
            .unwrap_or(default)
            .to_owned()
    };
    let Some(id) = r
        .and_then(|r| r.get("requestId"))
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
    else {
        return;
    };
    if snapshot.requests.contains_key(id) {
        return;
    }
    let request = Request {
        request_kind: field("requestKind", "runtime"),
        request_type: field("type", "runtime"),
        status: field("status", "pending"),
        prompt: field("prompt", ""),
    };
    snapshot.requests.insert(id.to_owned(), request);
}

fn settle_request(snapshot: &mut Snapshot, event: &EventView<'_>, status: &str) {
    if let Some(request) = event
        .payload_str("requestId")
        .and_then(|id| snapshot.requests.get_mut(id))
    {
        status.clone_into(&mut request.status);
    }
}
