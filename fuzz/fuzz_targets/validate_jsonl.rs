//! Arbitrary bytes as a `prp validate --jsonl` stream: the bounded line reader and the per-document
//! check that the CLI runs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prp_types::validation::{JsonLines, Line, check};

fuzz_target!(|data: &[u8]| {
    let mut lines = JsonLines::new(std::io::BufReader::new(data));
    while let Ok(Some((_, line))) = lines.next_line() {
        if let Line::Text(text) = line {
            let _ = check(text, None);
        }
    }
});
