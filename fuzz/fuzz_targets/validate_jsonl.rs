//! Arbitrary bytes as a `prp validate --jsonl` stream: the bounded line reader and the per-document
//! check that the CLI runs, and the block reader of `--jobs` giving the same numbered lines.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prp_peer::validation::{Block, JsonBlocks, JsonLines, Line, block_lines, check};

fuzz_target!(|data: &[u8]| {
    let mut lines = JsonLines::new(std::io::BufReader::new(data));
    let mut one = Vec::new();
    while let Ok(Some((n, line))) = lines.next_line() {
        match line {
            Line::Text(text) => {
                let _ = check(text, None, Default::default());
                one.push((n, Ok(text.to_vec())));
            }
            Line::TooLong(len) => one.push((n, Err(len))),
        }
    }
    let mut blocks = JsonBlocks::new(data);
    let mut other = Vec::new();
    let mut buf = Vec::new();
    while let Ok(Some(b)) = blocks.next_block(&mut buf, 64) {
        match b {
            Block::Lines { first } => {
                other.extend(block_lines(&buf, first).map(|(n, t)| (n, Ok(t.to_vec()))))
            }
            Block::TooLong { number, len } => other.push((number, Err(len))),
        }
    }
    assert_eq!(one, other, "the block reader and the line reader disagree");
});
