//! What each event type does to the snapshot (PROTOCOL §2.5). Types not named here are
//! timeline-only; the reducer ignores `semantic_tool` envelopes.

use std::borrow::Cow;

use super::event::{EventView, non_empty, runtime_request, str_or};
use super::items::ItemStatus;
use super::snapshot::Snapshot;
use super::state::{Request, SessionState, TurnState};

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
        "run.result.proposed" => snapshot.proposed_result = event.kept.clone(),
        "run.terminal" => {
            // The run's terminal states live in this payload only: session and turn states stay.
            snapshot.terminal = event.kept.clone();
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
    let items = &mut snapshot.items;
    let position = match items.position(item_id) {
        Some(position) => {
            if let Some(kind) = kind {
                items.set_kind(position, kind);
            }
            position
        }
        None => items.insert(item_id, kind.unwrap_or("diagnostic")),
    };
    if append {
        items.append_text(position, text.unwrap_or(""));
    } else if let Some(text) = text.filter(|t| !t.is_empty()) {
        items.replace_text(position, text);
    }
    items.set_status(position, status);
}

fn create_request(snapshot: &mut Snapshot, event: &EventView<'_>) {
    let r = runtime_request(event);
    let field = |name: &str, default: &str| str_or(r, name, default).to_owned();
    let Some(id) = non_empty(r, "requestId") else {
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
