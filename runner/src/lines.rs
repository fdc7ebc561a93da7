//! A bounded line reader (PROTOCOL §6.5): a line longer than the limit is discarded up to its
//! newline and reading resumes after it, so that one flood neither grows memory nor ends the stream.
//! A trailing `\r` is stripped; a line that is not UTF-8 is reported as such.

use std::io::{self, BufRead};

/// One line, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A whole line, without its `\n` (or `\r\n`).
    Line(String),
    /// A line longer than the limit, discarded.
    TooLong {
        /// The limit, in bytes.
        limit: usize,
    },
    /// A line within the limit that is not UTF-8.
    InvalidUtf8,
}

/// Reads [`Frame`]s of at most `limit` bytes from `input`.
pub struct BoundedLines<R> {
    input: R,
    limit: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> BoundedLines<R> {
    /// A reader of lines up to `limit` bytes (the newline not counted).
    pub fn new(input: R, limit: usize) -> Self {
        BoundedLines {
            input,
            limit,
            buf: Vec::new(),
        }
    }

    /// The next frame, or `None` at the end of the input. A last line without a newline counts.
    pub fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        self.buf.clear();
        let mut overflow = false;
        let mut any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let (part, done) = match memchr(chunk) {
                Some(i) => (&chunk[..i], Some(i + 1)),
                None => (chunk, None),
            };
            if !overflow {
                // One byte of slack keeps a `\r` before the newline from counting.
                if self.buf.len() + part.len() > self.limit + 1 {
                    overflow = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(part);
                }
            }
            let used = done.unwrap_or(chunk.len());
            self.input.consume(used);
            if done.is_some() {
                break;
            }
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if overflow || self.buf.len() > self.limit {
            return Ok(Some(Frame::TooLong { limit: self.limit }));
        }
        match String::from_utf8(std::mem::take(&mut self.buf)) {
            Ok(s) => Ok(Some(Frame::Line(s))),
            Err(_) => Ok(Some(Frame::InvalidUtf8)),
        }
    }
}

fn memchr(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8], limit: usize) -> Vec<Frame> {
        let mut r = BoundedLines::new(io::BufReader::with_capacity(4, input), limit);
        let mut out = Vec::new();
        while let Some(f) = r.next_frame().unwrap() {
            out.push(f);
        }
        out
    }

    #[test]
    fn long_lines_are_dropped_and_reading_resumes() {
        let line = |s: &str| Frame::Line(s.to_owned());
        assert_eq!(
            frames(b"abc\r\n0123456789\nxy\n\xff\nlast", 5),
            vec![
                line("abc"),
                Frame::TooLong { limit: 5 },
                line("xy"),
                Frame::InvalidUtf8,
                line("last")
            ]
        );
        // Exactly the limit fits, with or without a carriage return; one more does not.
        assert_eq!(
            frames(b"12345\n12345\r\n123456\r\n", 5)[..2],
            [line("12345"), line("12345")]
        );
        assert_eq!(frames(b"123456\r\n", 5), [Frame::TooLong { limit: 5 }]);
        assert_eq!(frames(b"", 5), []);
        assert_eq!(frames(b"\n\n", 5), [line(""), line("")]);
    }
}
