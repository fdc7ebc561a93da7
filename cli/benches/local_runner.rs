//! Events per second through `prp local-runner` (PROTOCOL §6) from a fake harness that streams
//! `item.delta` events as fast as it writes, next to the same harness with its stdout going
//! straight to `/dev/null`, in one run; and the runner's peak RSS while it does so.
//!
//! Both sides run the same `prp fake-harness` process on the same generated script, so the ratio
//! is what the runner adds: reading and bounding each line, stamping and checking each event as a
//! typed `Event`, and writing the stream.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::json;

const PRP: &str = env!("CARGO_BIN_EXE_prp");
const DELTAS: usize = 20_000;

fn script() -> PathBuf {
    let steps: Vec<_> = (0..DELTAS)
        .map(|i| {
            json!({"kind": "event", "event_type": "item.delta", "item_id": "item_bench",
                   "payload": {"text": format!("token {i} of the streamed answer ")}})
        })
        .chain([json!({"kind": "exit", "code": 0})])
        .collect();
    let doc =
        json!({"schema": "paperclip.fake_harness.script.v1", "name": "flood", "steps": steps});
    let path = std::env::temp_dir().join(format!("prp-bench-flood-{}.json", std::process::id()));
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

fn command(seq: u64, type_: &str, payload: serde_json::Value) -> String {
    format!(
        "{}\n",
        json!({"schema": "paperclip.prp.command.v1", "commandId": format!("cmd_{seq}"),
               "controllerSeq": seq, "type": type_, "issuedAt": "2026-08-07T21:00:00Z",
               "payload": payload})
    )
}

/// The harness alone: its two preamble commands in, its stdout to /dev/null.
fn harness_alone(script: &Path) {
    let mut child = Command::new(PRP)
        .args(["fake-harness", "--delay-ms", "0"])
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let open = r#"{"schema":"paperclip.fake_harness.command.v1","commandId":"c1","type":"session.open","payload":{}}"#;
    let start = r#"{"schema":"paperclip.fake_harness.command.v1","commandId":"c2","type":"turn.start","payload":{}}"#;
    writeln!(stdin, "{open}\n{start}").unwrap();
    assert!(child.wait().unwrap().success());
}

/// The runner over the harness: prepare, open, start; read the stream to its end. Returns the
/// number of events and the runner's peak RSS in KiB, as last sampled from /proc.
fn through_runner(script: &Path, sample_rss: bool) -> (usize, u64) {
    let mut child = Command::new(PRP)
        .args([
            "local-runner",
            "--run-id",
            "run_bench",
            "--session-id",
            "session_bench",
        ])
        .args([
            "--runner-id",
            "runner_bench",
            "--",
            PRP,
            "fake-harness",
            "--delay-ms",
            "0",
        ])
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let sampler = sample_rss.then(|| {
        std::thread::spawn(move || {
            let mut peak = 0;
            while let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
                if let Some(kib) = status
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                {
                    peak = peak.max(kib);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            peak
        })
    });
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(
            (command(1, "run.prepare", json!({}))
                + &command(2, "session.open", json!({}))
                + &command(3, "turn.start", json!({"turnId": "turn_bench"})))
                .as_bytes(),
        )
        .unwrap();
    stdin.flush().unwrap();
    let mut events = 0;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        if line.unwrap().contains(r#""kind":"event""#) {
            events += 1;
        }
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    (events, sampler.map_or(0, |s| s.join().unwrap()))
}

fn bench(c: &mut Criterion) {
    let script = script();
    let (events, peak) = through_runner(&script, true);
    assert!(events > DELTAS, "every delta went through ({events})");
    eprintln!("local runner: {events} events, peak RSS {peak} KiB (VmHWM, sampled every 5 ms)");
    let mut group = c.benchmark_group("local_runner");
    group.sample_size(10);
    group.throughput(Throughput::Elements(DELTAS as u64));
    group.bench_function("harness_to_dev_null", |b| b.iter(|| harness_alone(&script)));
    group.bench_function("through_runner", |b| {
        b.iter(|| through_runner(&script, false))
    });
    group.finish();
    let _ = std::fs::remove_file(script);
}

criterion_group!(benches, bench);
criterion_main!(benches);
