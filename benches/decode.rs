//! Decode and validate a realistic PRP event stream, three ways, in one run:
//! (a) the generated typed decode, every constraint checked;
//! (b) `serde_json::Value` followed by the `jsonschema` crate on the reference schemas;
//! (c) `serde_json::Value` alone, the floor for anything that reads the JSON.
//!
//! Then encoding the decoded values: (d) `prp_types::encode` (validate, then serialize) beside
//! (e) plain `serde_json::to_vec` of the same values.
//!
//! Criterion measures each approach on its own. Because this shared machine's speed drifts by up to
//! 2x within minutes, the run then also times the three approaches in paired rounds (each round runs
//! a, b and c back to back, in rotating order) and reports the median of the per-round ratios, which
//! drift cannot bias. Stream size: `PRP_BENCH_MB` (default 100); rounds: `PRP_BENCH_ROUNDS`
//! (default 7, 0 to skip).

#[path = "support/rounds.rs"]
mod rounds;
#[path = "support/stream.rs"]
mod stream;
#[path = "../tests/support/mod.rs"]
mod support;

use criterion::{Criterion, Throughput};
use prp_types::types::FixtureEvent;
use rounds::{env_usize, median};
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

/// (a): every line decoded to the typed "any event" (v1 or v2 chosen by `schema`).
fn typed(lines: &[&[u8]]) {
    for line in lines {
        let e = prp_types::decode::decode::<FixtureEvent>(line).expect("valid event");
        black_box(e);
    }
}

/// (b): every line parsed to a `Value`, then validated against the v1-or-v2 event schema.
fn value_then_jsonschema(lines: &[&[u8]], validator: &jsonschema::Validator) {
    for line in lines {
        let v: serde_json::Value = serde_json::from_slice(line).unwrap();
        assert!(validator.is_valid(&v));
        black_box(v);
    }
}

/// (c): every line parsed to a `Value`, nothing else.
fn value_only(lines: &[&[u8]]) {
    for line in lines {
        let v: serde_json::Value = serde_json::from_slice(line).unwrap();
        black_box(v);
    }
}

/// (d): every value validated and serialized through `prp_types::encode`.
fn encode_checked(values: &[FixtureEvent]) {
    for v in values {
        black_box(prp_types::encode(v).expect("a decoded value encodes"));
    }
}

/// (e): every value serialized with `serde_json::to_vec`, nothing checked.
fn encode_plain(values: &[FixtureEvent]) {
    for v in values {
        black_box(serde_json::to_vec(v).unwrap());
    }
}

/// Times (d) and (e) back to back in each round; prints the median per-round ratio.
fn encode_rounds(values: &[FixtureEvent], rounds: usize) {
    let mut ratios = Vec::new();
    for round in 0..rounds {
        let mut t = [0.0f64; 2];
        for k in 0..2 {
            let which = (round + k) % 2;
            let start = Instant::now();
            if which == 0 {
                encode_checked(values)
            } else {
                encode_plain(values)
            }
            t[which] = start.elapsed().as_secs_f64() * 1e3;
        }
        eprintln!(
            "  encode round {round}: d {:7.1} ms  e {:7.1} ms   d/e {:.2}",
            t[0],
            t[1],
            t[0] / t[1]
        );
        ratios.push(t[0] / t[1]);
    }
    eprintln!(
        "median per-round ratio: encode (validate + serialize) costs {:.2}x to_vec",
        median(ratios)
    );
}

fn oracle(project: &Path) -> Option<jsonschema::Validator> {
    let corpus = project.join("../shared/prp-reference");
    if !corpus.is_dir() {
        eprintln!(
            "skipped (b): reference corpus not found at {}",
            corpus.display()
        );
        return None;
    }
    let oracle = support::Oracle::from_dirs(&support::reference_schema_dirs(&corpus));
    Some(oracle.compile(&serde_json::json!({"oneOf": [
        {"$ref": "https://paperclip.dev/schemas/prp/v1/event.schema.json"},
        {"$ref": "https://paperclip.dev/schemas/prp/v2/event.schema.json"}
    ]})))
}

/// Times a, b and c back to back in each round and prints the per-round ratios and their medians.
fn paired_rounds(lines: &[&[u8]], bytes: usize, validator: &jsonschema::Validator, rounds: usize) {
    let mut ms = [Vec::new(), Vec::new(), Vec::new()];
    eprintln!("\npaired rounds ({rounds}): ms for (a) typed, (b) Value+jsonschema, (c) Value only");
    for round in 0..rounds {
        for k in 0..3 {
            let which = (round + k) % 3;
            let start = Instant::now();
            match which {
                0 => typed(lines),
                1 => value_then_jsonschema(lines, validator),
                _ => value_only(lines),
            }
            ms[which].push(start.elapsed().as_secs_f64() * 1e3);
        }
        let (a, b, c) = (ms[0][round], ms[1][round], ms[2][round]);
        eprintln!(
            "  round {round}: a {a:7.1}  b {b:7.1}  c {c:7.1}   b/a {:.2}  c/a {:.2}",
            b / a,
            c / a
        );
    }
    let ratio = |x: &[f64]| median(x.iter().zip(&ms[0]).map(|(x, a)| x / a).collect());
    let mib_s = |t: f64| bytes as f64 / (1 << 20) as f64 / (t / 1e3);
    let [a, b, c] = ms.each_ref().map(|times| median(times.clone()));
    eprintln!(
        "median: a {a:.1} ms ({:.0} MiB/s), b {b:.1} ms ({:.0} MiB/s), c {c:.1} ms ({:.0} MiB/s)",
        mib_s(a),
        mib_s(b),
        mib_s(c),
    );
    eprintln!(
        "median per-round ratio: (a) is {:.2}x faster than (b), {:.2}x faster than (c)",
        ratio(&ms[1]),
        ratio(&ms[2])
    );
}

fn main() {
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let data = stream::jsonl(project, env_usize("PRP_BENCH_MB", 100) * 1024 * 1024);
    let lines = stream::lines(&data);
    eprintln!("stream: {} events, {} bytes", lines.len(), data.len());
    let validator = oracle(project);

    let mut c = Criterion::default().configure_from_args();
    {
        let mut group = c.benchmark_group("decode_stream");
        group.throughput(Throughput::Bytes(data.len() as u64));
        group.sample_size(10);
        group.bench_function("a_typed_decode", |b| b.iter(|| typed(&lines)));
        if let Some(validator) = &validator {
            group.bench_function("b_value_then_jsonschema", |b| {
                b.iter(|| value_then_jsonschema(&lines, validator))
            });
        }
        group.bench_function("c_value_only", |b| b.iter(|| value_only(&lines)));
        group.finish();
    }
    let values: Vec<FixtureEvent> = lines
        .iter()
        .map(|l| prp_types::decode(l).expect("valid event"))
        .collect();
    {
        let mut group = c.benchmark_group("encode_stream");
        group.throughput(Throughput::Bytes(data.len() as u64));
        group.sample_size(10);
        group.bench_function("d_encode_validated", |b| b.iter(|| encode_checked(&values)));
        group.bench_function("e_to_vec_only", |b| b.iter(|| encode_plain(&values)));
        group.finish();
    }
    c.final_summary();

    let rounds = env_usize("PRP_BENCH_ROUNDS", 7);
    if let Some(validator) = &validator
        && rounds > 0
        && rounds::benching()
    {
        paired_rounds(&lines, data.len(), validator, rounds);
    }
    if rounds > 0 && rounds::benching() {
        encode_rounds(&values, rounds);
    }
}
