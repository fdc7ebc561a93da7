//! Reduction of synthetic sessions of 10k, 100k and 1M events, beside merely decoding the same
//! events with the typed decoder: events per second, and the cost per event as the session grows.
//!
//! `reduce` folds a whole pre-decoded session of typed `Event`s in one batch, so at 1M events it
//! also reads about a gigabyte of input events from memory and pays for it. `reduce_streamed` is
//! the live case: events arrive in batches of 1,000 built just before they are applied (their construction is not timed,
//! nor is dropping the snapshot), so it measures what the growing session state costs per event.
//! `remember_streamed` is its baseline in the same run: the least any exactly-once reducer does per
//! event (a `HashSet` of the ids seen and a `Vec` entry per event), so that what the machine charges
//! for a growing working set (first-touch page faults, cache and TLB misses) can be told apart from
//! what the reducer adds.
//!
//! After criterion, paired rounds time `reduce_streamed` and `remember_streamed` back to back at
//! every size (the machine's speed drifts by up to 2x within minutes) and report median costs per
//! event and how each grows from 10k to 1M events. Each session of a round runs in a child process
//! of its own (this binary again, after an untimed 10k-event session of the same kind), so that
//! neither side inherits the heap the other left behind: a million freed small strings slow down
//! every later allocation of the process. Rounds: `PRP_BENCH_ROUNDS` (default 5, 0 to skip).

#[path = "../../benches/support/rounds.rs"]
mod rounds;

use criterion::{BenchmarkId, Criterion, Throughput};
use prp_peer::reducer::Snapshot;
use prp_types::types::Event;
use rounds::{env_usize, median};
use serde_json::json;
use std::collections::HashSet;
use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};

/// A session of `n` events from one runner: turns of item deltas, tool executions and completions.
fn session(n: usize) -> Vec<Event> {
    session_range(0..n)
}

/// Events `range` of that session.
fn session_range(range: std::ops::Range<usize>) -> Vec<Event> {
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
            prp_types::decode(&serde_json::to_vec(&e).unwrap()).expect("a valid event")
        })
        .collect()
}

/// Events per batch in `reduce_streamed`.
const BATCH: usize = 1_000;

/// One event as `remember` keeps it: id, sequence, type, emission time.
type Remembered = (String, u64, String, String);

/// The baseline: remembers each new id and keeps an entry for it, as a hand-written reducer that
/// only deduplicates and logs would.
fn remember(ids: &mut HashSet<String>, log: &mut Vec<Remembered>, batch: &[Event]) {
    for e in batch {
        let id = e.source_event_id.as_str();
        if ids.insert(id.to_owned()) {
            log.push((
                id.to_owned(),
                e.source_seq as u64,
                e.event_type.as_str().to_owned(),
                e.emitted_at.as_str().to_owned(),
            ));
        }
    }
}

/// Times `step` over one session of `n` events fed in batches of [`BATCH`], each built just
/// before it is applied, from the state `start` makes; neither building nor dropping is timed.
fn streamed<S>(
    n: usize,
    start: impl FnOnce() -> S,
    mut step: impl FnMut(&mut S, &[Event]),
) -> Duration {
    let mut total = Duration::ZERO;
    let mut state = start();
    for first in (0..n).step_by(BATCH) {
        let batch = session_range(first..(first + BATCH).min(n));
        let t = Instant::now();
        step(&mut state, &batch);
        total += t.elapsed();
    }
    black_box(&state);
    total
}

/// Session sizes.
const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

/// `reduce_streamed` for one session of `n` events.
fn reduce_streamed(n: usize) -> Duration {
    streamed(
        n,
        || Snapshot::new("bench", json!({}), json!({})),
        |snapshot, batch| {
            snapshot.reduce(batch).expect("valid events");
        },
    )
}

/// `remember_streamed` for one session of `n` events.
fn remember_streamed(n: usize) -> Duration {
    streamed(
        n,
        || (HashSet::new(), Vec::new()),
        |(ids, log), batch| remember(ids, log, batch),
    )
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("reduce");
    group.sample_size(10);
    for n in SIZES {
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
            b.iter_custom(|iters| (0..iters).map(|_| reduce_streamed(n)).sum())
        });
        group.bench_with_input(BenchmarkId::new("remember_streamed", n), &n, |b, &n| {
            b.iter_custom(|iters| (0..iters).map(|_| remember_streamed(n)).sum())
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

/// Reduction and its baseline back to back at every size, in rotating order, each session in a
/// child process; prints the median cost per event of each and how it grows from the smallest
/// session to the largest.
fn paired_rounds(rounds: usize) {
    // us per event, by [reduce, remember][size].
    let mut us: [[Vec<f64>; SIZES.len()]; 2] = Default::default();
    eprintln!("\npaired rounds ({rounds}): us per event, reduce_streamed / remember_streamed");
    for round in 0..rounds {
        let mut line = format!("  round {round}:");
        for (k, &n) in SIZES.iter().enumerate() {
            for which in [round % 2, 1 - round % 2] {
                let Some(time) = in_child(which, n) else {
                    return;
                };
                us[which][k].push(time.as_secs_f64() * 1e6 / n as f64);
            }
            line += &format!("  {n}: {:.3} / {:.3}", us[0][k][round], us[1][k][round]);
        }
        eprintln!("{line}");
    }
    let last = SIZES.len() - 1;
    for (which, name) in [(0, "reduce_streamed"), (1, "remember_streamed")] {
        let medians: Vec<String> = us[which]
            .iter()
            .zip(SIZES)
            .map(|(v, n)| format!("{n}: {:.3} us", median(v.clone())))
            .collect();
        // Growth within each round, so that drift between rounds cancels out.
        let growth = median(
            us[which][last]
                .iter()
                .zip(&us[which][0])
                .map(|(big, small)| big / small)
                .collect(),
        );
        eprintln!(
            "median {name}: {}; {} -> {} growth {growth:.2}x",
            medians.join(", "),
            SIZES[0],
            SIZES[last]
        );
    }
}

/// Set in a paired round's child process: `<0 for reduce, 1 for remember>:<events>`.
const CHILD: &str = "PRP_BENCH_REDUCE_CHILD";

/// Times one session in a child process; `None`, after saying why, if the child failed.
fn in_child(which: usize, n: usize) -> Option<Duration> {
    let run = |exe| {
        Command::new(exe)
            .env(CHILD, format!("{which}:{n}"))
            .output()
    };
    let output = std::env::current_exe().and_then(run);
    let seconds = output.as_ref().ok().and_then(|o| {
        let text = String::from_utf8_lossy(&o.stdout);
        text.trim()
            .parse::<f64>()
            .ok()
            .filter(|_| o.status.success())
    });
    if seconds.is_none() {
        eprintln!("paired rounds stopped: the child for {which}:{n} failed: {output:?}");
    }
    seconds.map(Duration::from_secs_f64)
}

/// The child's side: a warm-up session, then the timed one, whose seconds go to stdout.
fn child(spec: &str) {
    let parsed = spec
        .split_once(':')
        .and_then(|(w, n)| Some((w.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
    let Some((which, n)) = parsed else {
        eprintln!("{CHILD}={spec}: expected <0|1>:<events>");
        std::process::exit(2);
    };
    let session = if which == 0 {
        reduce_streamed
    } else {
        remember_streamed
    };
    session(SIZES[0]);
    println!("{}", session(n).as_secs_f64());
}

fn main() {
    if let Ok(spec) = std::env::var(CHILD) {
        return child(&spec);
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
    let rounds = env_usize("PRP_BENCH_ROUNDS", 5);
    if rounds > 0 && rounds::benching() {
        paired_rounds(rounds);
    }
}
