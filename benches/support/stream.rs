//! A realistic PRP event stream for the benchmarks: the events of the reference replay fixtures and of
//! the project's sample documents, cycled with fresh ids and sequence numbers, with a share of large
//! tool outputs, as JSON Lines.

use serde_json::{Value, json};
use std::path::Path;

fn events_in(dir: &Path, out: &mut Vec<Value>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            events_in(&path, out);
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(doc) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        match doc.get("schema").and_then(Value::as_str) {
            Some("paperclip.prp.fixture.v1")
                if doc["protocolVersion"] == 1 || doc["protocolVersion"] == 2 =>
            {
                out.extend(doc["events"].as_array().cloned().unwrap_or_default());
            }
            Some("paperclip.prp.event.v1" | "paperclip.prp.event.v2") => out.push(doc),
            _ => {}
        }
    }
}

/// The distinct events the stream is made of.
pub fn event_pool(project: &Path) -> Vec<Value> {
    let mut pool = Vec::new();
    events_in(
        &project.join("../shared/prp-reference/protocol/fixtures/replay"),
        &mut pool,
    );
    events_in(&project.join("fixtures/documents"), &mut pool);
    events_in(&project.join("fixtures/replay"), &mut pool);
    // Only events that are valid on their own (the reference's rejected fixtures are skipped above).
    pool.retain(|e| {
        prp_types::decode::decode::<prp_types::types::FixtureEvent>(&serde_json::to_vec(e).unwrap())
            .is_ok()
    });
    pool
}

/// About `bytes` of JSON Lines: the pool cycled with unique `sourceEventId`s and increasing
/// `sourceSeq`; every 40th event is a completed tool execution with a 16 KiB output.
pub fn jsonl(project: &Path, bytes: usize) -> Vec<u8> {
    let pool = event_pool(project);
    assert!(!pool.is_empty(), "no events found for the benchmark stream");
    let big_output = "test output line with some detail\n".repeat(16 * 1024 / 34);
    let mut out = Vec::with_capacity(bytes + 64 * 1024);
    let mut i = 0usize;
    while out.len() < bytes {
        let mut e = pool[i % pool.len()].clone();
        e["sourceEventId"] = json!(format!("bench-{i}"));
        e["sourceSeq"] = json!(i + 1);
        if i % 40 == 39 {
            e["eventType"] = json!("tool.execution.completed");
            e["payload"] = json!({
                "schema": "paperclip.tool.execution.v1",
                "executionId": format!("exec-{i}"),
                "transport": "process",
                "operation": "execute",
                "name": "cargo test",
                "target": "crates/core",
                "status": "completed",
                "durationMs": 4210,
                "exitCode": 0,
                "output": big_output,
                "outputBytes": big_output.len(),
                "outputTruncated": false,
                "outputDigest": null
            });
        }
        serde_json::to_writer(&mut out, &e).unwrap();
        out.push(b'\n');
        i += 1;
    }
    out
}

/// The lines of a JSON Lines buffer.
pub fn lines(stream: &[u8]) -> Vec<&[u8]> {
    stream
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect()
}
