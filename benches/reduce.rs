//! Reduction of synthetic sessions of 10k, 100k and 1M events, beside merely decoding the same
//! events with the typed decoder: events per second, and the cost per event as the session grows.
//!
//! `reduce` folds a whole pre-parsed session in one batch, so at 1M events it also reads a gigabyte
//! of input `Value`s from memory and pays for them. `reduce_streamed` is the live case: events
//! arrive in batches of 1,000 built just before they are applied (their construction is not timed,
//! nor is dropping the snapshot), so it measures what the growing session state costs per event.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use prp_types::reducer::Snapshot;
use serde_json::{Value, json};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A session of `n` events from one runner: turns of item deltas, tool executions and completions.
fn session(n: usize) -> Vec<Value> {
    session_range(0..n)
}

/// Events `range` of that session.
fn session_range(range: std::ops::Range<usize>) -> Vec<Value> {
    range
        .map(|i| {
            let seq = i + 1;
            let turn = format!("turn-{}", i / 50);
            let (event_type, item, payload) = match i % 50 {
                0 => ("turn.started", None, json!({})),
                49 => ("turn.completed", None, json!({"channel": "summary"})),
                k if k % 10 == 5 => (
                    "tool.execution.completed",
                    None,
                    json!({
                        "schema": "paperclip.tool.execution.v1", "executionId": format!("exec-{i}"),
                        "transport": "process", "operation": "execute", "status": "completed",
                        "output": "ok", "outputBytes": 2, "outputTruncated": false, "outputDigest": null
                    }),
                ),
                k => ("item.delta", Some(format!("item-{}-{}", i / 50, k % 3)), json!({"kind": "assistant_message", "text": "more text "})),
            };
            let mut e = json!({
                "schema": "paperclip.prp.event.v1",
                "sourceEventId": format!("evt-{seq}"),
                "sourceSeq": seq,
                "sourceInstanceId": "runner-bench",
                "sourceKind": "runner",
                "runId": "run-bench",
                "turnId": turn,
                "eventType": event_type,
                "schemaVersion": 1,
                "priority": 1,
                "emittedAt": "2026-11-29T10:00:00.000Z",
                "payload": payload
            });
            if let Some(item) = item {
                e["itemId"] = json!(item);
            }
            e
        })
        .collect()
}

/// Events per batch in `reduce_streamed`.
const BATCH: usize = 1_000;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("reduce");
    group.sample_size(10);
    for n in [10_000usize, 100_000, 1_000_000] {
        let events = session(n);
        let bytes: Vec<Vec<u8>> = events
            .iter()
            .map(|e| serde_json::to_vec(e).unwrap())
            .collect();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("reduce", n), &events, |b, events| {
            b.iter(|| {
                let mut snapshot = Snapshot::new("bench", json!({}), json!({}));
                snapshot.reduce(events).expect("valid events");
                black_box(snapshot.timeline().len())
            })
        });
        group.bench_with_input(BenchmarkId::new("reduce_streamed", n), &n, |b, &n| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let mut snapshot = Snapshot::new("bench", json!({}), json!({}));
                    for start in (0..n).step_by(BATCH) {
                        let batch = session_range(start..(start + BATCH).min(n));
                        let t = Instant::now();
                        snapshot.reduce(&batch).expect("valid events");
                        total += t.elapsed();
                    }
                    black_box(snapshot.timeline().len());
                }
                total
            })
        });
        group.bench_with_input(BenchmarkId::new("typed_decode", n), &bytes, |b, bytes| {
            b.iter(|| {
                for e in bytes {
                    black_box(
                        prp_types::decode::decode::<prp_types::types::Event>(e)
                            .expect("valid event"),
                    );
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
