//! The harness's log tail (PROTOCOL §6.5): the newest lines, evicting the oldest past a line count
//! or a byte total. A single line longer than the byte limit is cut at a character boundary.

use std::collections::VecDeque;

use serde_json::{Value, json};

/// A bounded tail of log lines.
#[derive(Debug, Clone)]
pub struct LogTail {
    max_lines: usize,
    max_bytes: usize,
    lines: VecDeque<String>,
    bytes: usize,
    dropped: u64,
}

impl LogTail {
    /// A tail of at most `max_lines` lines and `max_bytes` bytes.
    pub fn new(max_lines: usize, max_bytes: usize) -> Self {
        LogTail {
            max_lines,
            max_bytes,
            lines: VecDeque::new(),
            bytes: 0,
            dropped: 0,
        }
    }

    /// Adds a line, evicting the oldest as needed.
    pub fn push(&mut self, mut line: String) {
        if line.len() > self.max_bytes {
            let mut cut = self.max_bytes;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line.truncate(cut);
        }
        self.bytes += line.len();
        self.lines.push_back(line);
        while self.lines.len() > self.max_lines || self.bytes > self.max_bytes {
            let Some(old) = self.lines.pop_front() else {
                break;
            };
            self.bytes -= old.len();
            self.dropped += 1;
        }
    }

    /// The kept lines, oldest first.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().map(String::as_str)
    }

    /// The bytes the kept lines hold.
    pub fn retained_bytes(&self) -> usize {
        self.bytes
    }

    /// How many lines were evicted.
    pub fn dropped_lines(&self) -> u64 {
        self.dropped
    }

    /// `{lines, retainedBytes, droppedLines}`, as `harness.exited` reports it.
    pub fn to_json(&self) -> Value {
        json!({
            "lines": self.lines,
            "retainedBytes": self.bytes,
            "droppedLines": self.dropped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_is_bounded_by_lines_and_bytes() {
        let mut t = LogTail::new(3, 10);
        for l in ["a", "bb", "ccc", "dddd"] {
            t.push(l.into());
        }
        assert_eq!(t.lines().collect::<Vec<_>>(), ["bb", "ccc", "dddd"]);
        assert_eq!((t.retained_bytes(), t.dropped_lines()), (9, 1));
        t.push("eeeee".into());
        assert_eq!(t.lines().collect::<Vec<_>>(), ["dddd", "eeeee"]);
        assert_eq!((t.retained_bytes(), t.dropped_lines()), (9, 3));
        // One line over the byte limit is cut at a character boundary, and alone.
        t.push("éééééé".into());
        assert_eq!(t.lines().collect::<Vec<_>>(), ["ééééé"]);
        assert_eq!(t.retained_bytes(), 10);
    }
}
