//! Writes the benchmark's event stream as JSON Lines, for `prp validate --jsonl` and the ajv script:
//! `cargo run --release --example event_stream -- OUT.jsonl [MB]`.

#[path = "../benches/support/stream.rs"]
mod stream;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(out) = args.next() else {
        eprintln!("usage: event_stream OUT.jsonl [MB]");
        std::process::exit(2);
    };
    let mb: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or(100);
    let data = stream::jsonl(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
        mb * 1024 * 1024,
    );
    if let Err(e) = std::fs::write(&out, &data) {
        eprintln!("cannot write {out}: {e}");
        std::process::exit(2);
    }
    eprintln!(
        "wrote {} bytes, {} events",
        data.len(),
        stream::lines(&data).len()
    );
}
