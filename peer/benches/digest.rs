//! Digests (PROTOCOL §4.11: redact, canonical JSON, SHA-256) of a typical 2 KiB tool input and of a
//! 1 MiB one, beside `serde_json::to_vec` of the same value in the same run as the baseline: what
//! a digest costs over merely writing the value out.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

/// A `write_document`-like tool input of about `bytes` bytes: a few ids, a title, a markdown body
/// (with a URL carrying a query secret and a bearer token, as tool inputs sometimes do), and
/// nested metadata.
fn tool_input(bytes: usize) -> Value {
    let line = "- step: read the failing test, then fix the pager (see https://ci.test/run?id=42&token=abc123)\n";
    let body = line.repeat(bytes / line.len());
    json!({
        "idempotencyKey": "idem-7f3a9c",
        "key": "design-notes",
        "title": "Pager fix: design notes",
        "body": body,
        "baseRevisionId": "rev-0012",
        "changeSummary": null,
        "meta": {
            "labels": ["pager", "ci", "flaky"],
            "headers": {"Authorization": "Bearer abcdefghijklmnop", "accept": "text/markdown"},
            "sizes": [1, 2.5, 1e21, -0.0]
        }
    })
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("digest");
    for (name, bytes) in [("2KiB", 2 * 1024), ("1MiB", 1024 * 1024)] {
        let value = tool_input(bytes);
        let size = serde_json::to_vec(&value).unwrap().len() as u64;
        group.throughput(Throughput::Bytes(size));
        group.bench_with_input(BenchmarkId::new("digest", name), &value, |b, v| {
            b.iter(|| black_box(prp_peer::digest::digest(v)))
        });
        group.bench_with_input(BenchmarkId::new("to_vec", name), &value, |b, v| {
            b.iter(|| black_box(serde_json::to_vec(v).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
