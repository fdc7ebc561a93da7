//! Sessions built from arbitrary bytes, reduced in batches: each 4 bytes make one v2 event (whose
//! payloads are any object; type, id from a small pool so that ids repeat, sequence step so that
//! events go stale or leave gaps, item and text from small pools with empty and multibyte strings),
//! decoded as a peer's events would be. Checks that nothing panics and that what the snapshot
//! reports agrees with itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prp_peer::reducer::Snapshot;
use prp_types::types::EventV2;
use serde_json::json;

const TYPES: [&str; 16] = [
    "item.started",
    "item.delta",
    "item.delta",
    "item.delta",
    "item.completed",
    "item.failed",
    "turn.started",
    "turn.completed",
    "runtime.phase.changed",
    "runtime_request.created",
    "runtime_request.resolved",
    "runner.diagnostic",
    "run.result.proposed",
    "run.terminal",
    "session.started",
    "usage.reported",
];
const ITEMS: [&str; 8] = [
    "i0",
    "i1",
    "i2",
    "ü3",
    "😀",
    "a-much-longer-item-identifier-5",
    "i6",
    "i7",
];
const TEXTS: [&str; 8] = [
    "",
    "a",
    "more text ",
    "é",
    "😀😀",
    "_snake_case_",
    " \u{feff}",
    "x",
];

fn event(chunk: &[u8], seq: &mut u64) -> EventV2 {
    let [kind, id, step, pick] = [chunk[0], chunk[1], chunk[2], chunk[3]];
    // Mostly the next sequence number; sometimes a repeat, a step back or a gap.
    *seq = match step % 8 {
        0 => *seq,
        1 => seq.saturating_sub(u64::from(step / 8)).max(1),
        2 => *seq + u64::from(step),
        _ => *seq + 1,
    }
    .max(1);
    let event_type = TYPES[usize::from(kind) % TYPES.len()];
    let text = TEXTS[usize::from(pick >> 4) % TEXTS.len()];
    let payload = match kind / 16 % 4 {
        0 => json!({}),
        1 => json!({"text": text, "kind": text, "message": text, "phase": text}),
        2 => json!({"requestId": text, "prompt": text, "type": "approval", "code": text}),
        _ => json!({"request": {"requestId": text, "prompt": text}, "summary": text, "text": 7}),
    };
    let mut e = json!({
        "schema": "paperclip.prp.event.v2",
        "schemaVersion": 2,
        "priority": 1,
        "runId": "run",
        "sourceEventId": format!("e{}", id % 48),
        "sourceSeq": *seq,
        "sourceKind": "runner",
        "sourceInstanceId": if id >= 240 { "other" } else { "r" },
        "eventType": event_type,
        "emittedAt": "2026-11-29T00:00:00Z",
        "turnId": "t",
        "payload": payload,
    });
    if pick & 8 != 0 {
        e["itemId"] = json!(ITEMS[usize::from(pick) % ITEMS.len()]);
    }
    prp_types::decode(&serde_json::to_vec(&e).unwrap()).expect("a valid v2 event")
}

fuzz_target!(|data: &[u8]| {
    let Some((&batch_size, data)) = data.split_first() else {
        return;
    };
    let mut seq = 0;
    let events: Vec<EventV2> = data.chunks_exact(4).map(|c| event(c, &mut seq)).collect();
    let mut snapshot = Snapshot::new("fuzz", json!({}), json!({}));
    for batch in events.chunks(usize::from(batch_size).max(1)) {
        snapshot.reduce(batch).expect("well-formed events");
    }
    let timeline = snapshot.timeline();
    assert_eq!(timeline.len(), snapshot.processed_event_ids().len());
    for (entry, id) in timeline.iter().zip(snapshot.processed_event_ids()) {
        assert_eq!(entry.source_event_id(), id);
        assert!(snapshot.is_processed(id));
    }
    for item in snapshot.items().iter() {
        assert_eq!(snapshot.items().get(item.id), Some(item));
        assert!(!item.text.contains('\0'), "padding leaked into {item:?}");
    }
    let _ = snapshot.to_pretty();
    let _ = snapshot.summary();
});
