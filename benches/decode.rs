//! Decode and validate a realistic PRP event stream, three ways, in one run:
//! (a) the generated typed decode, every constraint checked;
//! (i) the same checks for the verdict alone (`prp_types::decode::accepts`: no value built), what
//!     `prp validate` runs on a document;
//! (b) `serde_json::Value` followed by the `jsonschema` crate on the reference schemas;
//! (c) `serde_json::Value` alone, the floor for anything that reads the JSON.
//!
//! and the parsers' floors: (j) the reader under the checks reading the text with nothing checked,
//! (f) serde_json's syntax check alone (`IgnoredAny`), and, with `--features simd-baselines`,
//! (g) sonic-rs (a SIMD parser) building its own `Value` and (k) simd-json (another) building its
//! tape, the flat list of tokens its other outputs are made from.
//!
//! Then encoding the decoded values: (d) `prp_types::encode` (validate, then serialize) beside
//! (e) plain `serde_json::to_vec` of the same values.
//!
//! Criterion measures each approach on its own. Because this shared machine's speed drifts by up to
//! 2x within minutes, the run then also times every approach in paired rounds (each round runs them
//! all back to back, in rotating order) and reports the median of the per-round ratios, which drift
//! cannot bias; then (a), (i) and the floors again on the small events and on the large ones apart.
//! Stream size: `PRP_BENCH_MB` (default 100); rounds: `PRP_BENCH_ROUNDS` (default 7, 0 to skip).

#[path = "support/rounds.rs"]
mod rounds;
#[path = "support/stream.rs"]
mod stream;
use prp_testkit as support;

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

/// (i): every line checked against the same schema for its verdict only.
fn verdict(lines: &[&[u8]]) {
    for line in lines {
        assert!(
            prp_types::decode::accepts::<FixtureEvent>(line),
            "valid event"
        );
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

/// (f): every line checked for JSON syntax by serde_json, nothing built.
fn syntax_only(lines: &[&[u8]]) {
    for line in lines {
        let v: serde::de::IgnoredAny = serde_json::from_slice(line).unwrap();
        black_box(v);
    }
}

/// (j): every line read by the reader under the checks (`rt::reader`) with nothing checked or
/// built: what the parse alone costs the verdict and the typed decode.
fn reader_syntax_only(lines: &[&[u8]]) {
    use prp_codegen_runtime::reader::Reader;
    use serde::Deserialize;
    for line in lines {
        let text = std::str::from_utf8(line).unwrap();
        let mut reader = Reader::new(text);
        serde::de::IgnoredAny::deserialize(&mut reader).unwrap();
        assert!(reader.end(), "one JSON text per line");
    }
}

/// (g): every line parsed to sonic-rs's own `Value`.
#[cfg(feature = "simd-baselines")]
fn sonic_value(lines: &[&[u8]]) {
    for line in lines {
        let v: sonic_rs::Value = sonic_rs::from_slice(line).unwrap();
        black_box(v);
    }
}

/// (k): every line parsed to simd-json's tape. simd-json parses in place, so each line is first
/// copied into a buffer kept across lines (as a caller holding an immutable input must), and its
/// other buffers are kept across lines too.
#[cfg(feature = "simd-baselines")]
fn simd_json_tape(lines: &[&[u8]]) {
    let mut text = Vec::new();
    let mut buffers = simd_json::Buffers::default();
    for line in lines {
        text.clear();
        text.extend_from_slice(line);
        let tape = simd_json::to_tape_with_buffers(&mut text, &mut buffers).unwrap();
        black_box(tape.as_value());
    }
}

/// (h): the typed decode's visitors driven by sonic-rs's serde `Deserializer` instead of
/// serde_json's (an experiment: the fallback to serde_json for errors is not part of it).
#[cfg(feature = "simd-baselines")]
fn typed_on_sonic(lines: &[&[u8]]) -> usize {
    let mut failed = 0;
    for line in lines {
        match sonic_rs::from_slice::<FixtureEvent>(line) {
            Ok(e) => {
                black_box(e);
            }
            Err(_) => failed += 1,
        }
    }
    failed
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

fn oracle() -> Option<jsonschema::Validator> {
    let contract = support::shared_path("prp-reference-v3", support::CONTRACT_ENV);
    if !contract.is_dir() {
        eprintln!(
            "skipped (b): reference contract not found at {}",
            contract.display()
        );
        return None;
    }
    let oracle = support::Oracle::from_dirs(&support::reference_schema_dirs(&contract));
    Some(oracle.compile(&serde_json::json!({"oneOf": [
        {"$ref": "https://paperclip.dev/schemas/prp/v1/event.schema.json"},
        {"$ref": "https://paperclip.dev/schemas/prp/v2/event.schema.json"}
    ]})))
}

type Run<'a> = (&'a str, Box<dyn Fn() + 'a>);

/// The parsers' floors, (j), (f), and (g) and (k) when built with the SIMD parsers, on `lines`.
fn floors<'a>(lines: &'a [&'a [u8]]) -> Vec<Run<'a>> {
    #[allow(unused_mut)]
    let mut runs: Vec<Run> = vec![
        ("j reader alone", Box::new(|| reader_syntax_only(lines))),
        ("f IgnoredAny", Box::new(|| syntax_only(lines))),
    ];
    #[cfg(feature = "simd-baselines")]
    {
        runs.push(("g sonic-rs Value", Box::new(|| sonic_value(lines))));
        runs.push(("k simd-json tape", Box::new(|| simd_json_tape(lines))));
    }
    runs
}

/// Times every run back to back in each round (in rotating order) and prints the medians of the
/// per-round ratios of the runs to the first two, (a) and (i), and to (g) when it ran.
fn paired_rounds(label: &str, runs: &[Run], bytes: usize, rounds: usize) {
    let n = runs.len();
    let mut ms = vec![Vec::new(); n];
    let names: Vec<&str> = runs.iter().map(|r| r.0).collect();
    eprintln!(
        "\npaired rounds ({rounds}), {label}: ms for {}",
        names.join(", ")
    );
    for round in 0..rounds {
        for k in 0..n {
            let which = (round + k) % n;
            let start = Instant::now();
            (runs[which].1)();
            ms[which].push(start.elapsed().as_secs_f64() * 1e3);
        }
        let row: Vec<String> = (0..n)
            .map(|i| format!("{} {:7.1}", &names[i][..1], ms[i][round]))
            .collect();
        eprintln!("  round {round}: {}", row.join("  "));
    }
    let mib_s = |t: f64| bytes as f64 / (1 << 20) as f64 / (t / 1e3);
    let medians: Vec<String> = (0..n)
        .map(|i| {
            let t = median(ms[i].clone());
            format!("{} {t:.1} ms ({:.0} MiB/s)", names[i], mib_s(t))
        })
        .collect();
    eprintln!("median: {}", medians.join(", "));
    // Every run against (a), every baseline against (i), and every run against (g) when it ran
    // (the target's baseline): each base with the first run it is compared with.
    let sonic = names.iter().position(|name| name.starts_with("g "));
    for (base, first) in [(0, 1), (1, 2)].into_iter().chain(sonic.map(|g| (g, 0))) {
        let label = format!("({}) {}", &names[base][..1], &names[base][2..]);
        for i in (first..n).filter(|&i| i != base) {
            let r = median(ms[i].iter().zip(&ms[base]).map(|(x, b)| x / b).collect());
            let how = if r >= 1.0 {
                format!("{r:.2}x faster than")
            } else {
                format!("{:.2}x slower than", 1.0 / r)
            };
            eprintln!("median per-round ratio: {label} is {how} ({})", names[i]);
        }
    }
}

/// The whole stream: (a), (i), (b), (c), the floors, and (h) when built with sonic-rs.
fn stream_rounds(lines: &[&[u8]], bytes: usize, validator: &jsonschema::Validator, rounds: usize) {
    let mut runs: Vec<Run> = vec![
        ("a typed", Box::new(|| typed(lines))),
        ("i verdict only", Box::new(|| verdict(lines))),
        (
            "b Value+jsonschema",
            Box::new(|| value_then_jsonschema(lines, validator)),
        ),
        ("c Value", Box::new(|| value_only(lines))),
    ];
    runs.extend(floors(lines));
    #[cfg(feature = "simd-baselines")]
    {
        eprintln!(
            "(h) typed on sonic-rs: {} of {} lines refused",
            typed_on_sonic(lines),
            lines.len()
        );
        runs.push((
            "h typed on sonic-rs",
            Box::new(|| {
                black_box(typed_on_sonic(lines));
            }),
        ));
    }
    paired_rounds("the whole stream", &runs, bytes, rounds);
}

/// Where the time goes: (a), (i) and the floors on the stream's small events and on its large
/// tool outputs apart, so that parsing (j), checking (i - j) and building (a - i) can be told apart.
fn split_rounds(lines: &[&[u8]], rounds: usize) {
    let (large, small): (Vec<&[u8]>, Vec<&[u8]>) = lines.iter().partition(|l| l.len() > 8192);
    for (label, part) in [("events up to 8 KiB", &small), ("larger events", &large)] {
        let bytes = part.iter().map(|l| l.len()).sum::<usize>();
        eprintln!("\n{label}: {} events, {bytes} bytes", part.len());
        let mut runs: Vec<Run> = vec![
            ("a typed", Box::new(|| typed(part))),
            ("i verdict only", Box::new(|| verdict(part))),
        ];
        runs.extend(floors(part));
        paired_rounds(label, &runs, bytes, rounds);
    }
}

fn main() {
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let data = stream::jsonl(project, env_usize("PRP_BENCH_MB", 100) * 1024 * 1024);
    let lines = stream::lines(&data);
    eprintln!("stream: {} events, {} bytes", lines.len(), data.len());
    let validator = oracle();

    let mut c = Criterion::default().configure_from_args();
    {
        let mut group = c.benchmark_group("decode_stream");
        group.throughput(Throughput::Bytes(data.len() as u64));
        group.sample_size(10);
        group.bench_function("a_typed_decode", |b| b.iter(|| typed(&lines)));
        group.bench_function("i_verdict_only", |b| b.iter(|| verdict(&lines)));
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
        stream_rounds(&lines, data.len(), validator, rounds);
    }
    if rounds > 0 && rounds::benching() {
        split_rounds(&lines, rounds);
        encode_rounds(&values, rounds);
    }
}
