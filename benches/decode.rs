//! Decode and validate a realistic PRP event stream, three ways, in one run:
//! (a) the generated typed decode, every constraint checked;
//! (b) `serde_json::Value` followed by the `jsonschema` crate on the reference schemas;
//! (c) `serde_json::Value` alone, the floor for anything that reads the JSON.
//! Stream size: `PRP_BENCH_MB` (default 100).

#[path = "support/stream.rs"]
mod stream;
#[path = "../tests/support/mod.rs"]
mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use prp_types::types::FixtureEventsItem;
use std::hint::black_box;
use std::path::Path;

fn bench(c: &mut Criterion) {
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mb: usize = std::env::var("PRP_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let data = stream::jsonl(project, mb * 1024 * 1024);
    let lines = stream::lines(&data);
    eprintln!("stream: {} events, {} bytes", lines.len(), data.len());

    let mut group = c.benchmark_group("decode_stream");
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.sample_size(10);

    group.bench_function("a_typed_decode", |b| {
        b.iter(|| {
            for line in &lines {
                let e = prp_types::decode::decode::<FixtureEventsItem>(line).expect("valid event");
                black_box(e);
            }
        })
    });

    let corpus = project.join("../shared/prp-reference");
    if corpus.is_dir() {
        let oracle = support::Oracle::from_dirs(&support::reference_schema_dirs(&corpus));
        let validator = oracle.compile(&serde_json::json!({"oneOf": [
            {"$ref": "https://paperclip.dev/schemas/prp/v1/event.schema.json"},
            {"$ref": "https://paperclip.dev/schemas/prp/v2/event.schema.json"}
        ]}));
        group.bench_function("b_value_then_jsonschema", |b| {
            b.iter(|| {
                for line in &lines {
                    let v: serde_json::Value = serde_json::from_slice(line).unwrap();
                    assert!(validator.is_valid(&v));
                    black_box(v);
                }
            })
        });
    } else {
        eprintln!(
            "skipped (b): reference corpus not found at {}",
            corpus.display()
        );
    }

    group.bench_function("c_value_only", |b| {
        b.iter(|| {
            for line in &lines {
                let v: serde_json::Value = serde_json::from_slice(line).unwrap();
                black_box(v);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
