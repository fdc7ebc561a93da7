//! Validation as the `prp validate` contract reports it: a document's findings (code, JSON pointer,
//! sentence), the schema chosen by `--schema` or by the document's own `schema` member, and a JSONL
//! reader whose memory is bounded by the longest line.
//!
//! A replay fixture gets the whole contract pipeline of PROTOCOL §1.7 (version checks, schema, binding
//! checks) and every issue it finds; other documents get the typed decode and its first error.

use crate::contract;
use crate::decode::{self, Checker};
use crate::issue::{Code, Issue};
use crate::types::Fixture;
use crate::types::rt::Document as _;
use std::io::BufRead;

/// A schema picked by name: its key in the checker table and its checker.
#[derive(Clone, Copy)]
pub struct Selected {
    /// The schema's key: its `$id`, with a `#/$defs/NAME` fragment for a definition.
    pub id: &'static str,
    /// Decodes bytes against it.
    pub checker: Checker,
}

impl std::fmt::Debug for Selected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Selected").field(&self.id).finish()
    }
}

/// A schema `$id` (with an optional `#/$defs/NAME`), or a schema file name such as
/// `event.schema.json` (with an optional fragment).
pub fn select_schema(name: &str) -> Option<Selected> {
    let by_key = |key: &str| {
        decode::CHECKERS
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(id, checker)| Selected {
                id,
                checker: *checker,
            })
    };
    if let Some(c) = by_key(name) {
        return Some(c);
    }
    let (file, fragment) = name.split_once('#').map_or((name, ""), |(f, r)| (f, r));
    let info = crate::SCHEMAS
        .iter()
        .find(|s| s.path == file || s.path.rsplit('/').next() == Some(file))?;
    let key = if fragment.is_empty() {
        info.id.to_owned()
    } else {
        format!("{}#{fragment}", info.id)
    };
    by_key(&key)
}

/// The `schema` value that marks a replay fixture.
const FIXTURE_DISCRIMINATOR: &str = "paperclip.prp.fixture.v1";

/// Whether a document is a replay fixture by its own `schema` member. Only text that mentions the
/// discriminator at all is parsed, so other documents are still read once, by the typed decode.
fn declares_fixture(bytes: &[u8]) -> bool {
    let needle = FIXTURE_DISCRIMINATOR.as_bytes();
    bytes.len() <= decode::MAX_DOCUMENT_BYTES
        && bytes.windows(needle.len()).any(|w| w == needle)
        && serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|v| {
            v.get("schema").and_then(serde_json::Value::as_str) == Some(FIXTURE_DISCRIMINATOR)
        })
}

/// Every issue of one document; empty when it is valid.
pub fn check(bytes: &[u8], schema: Option<Selected>) -> Vec<Issue> {
    let fixture = match schema {
        Some(s) => s.id == Fixture::SCHEMA.id,
        None => declares_fixture(bytes),
    };
    if fixture && bytes.len() <= decode::MAX_DOCUMENT_BYTES {
        return contract::validate_fixture_bytes(bytes).issues;
    }
    let verdict = match schema {
        Some(s) => (s.checker)(bytes).map_err(decode::fail_closed_on_versions),
        None => decode::decode_document(bytes).map(|_| ()).map_err(|e| {
            // The document union failing on its discriminator means no schema fits the document.
            if e.code == Code::OneOf && (e.pointer.is_empty() || e.pointer == "/schema") {
                Issue {
                    code: Code::UnknownSchema,
                    ..e
                }
            } else {
                e
            }
        }),
    };
    match verdict {
        Ok(()) => vec![],
        Err(e) => vec![e],
    }
}

/// One line of a JSONL stream.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A document (line ending and a trailing `\r` removed).
    Text(&'a [u8]),
    /// A line longer than [`decode::MAX_DOCUMENT_BYTES`], of this many bytes (line ending
    /// excluded); its bytes were skipped, not kept.
    TooLong(u64),
}

/// Reads a JSONL stream line by line, keeping at most one line (bounded by
/// [`decode::MAX_DOCUMENT_BYTES`]) in memory. Blank lines are skipped but counted.
pub struct JsonLines<R> {
    reader: R,
    buf: Vec<u8>,
    number: usize,
}

impl<R: BufRead> JsonLines<R> {
    /// Lines from `reader`.
    pub fn new(reader: R) -> Self {
        JsonLines {
            reader,
            buf: Vec::new(),
            number: 0,
        }
    }

    /// The next non-blank line and its 1-based number, or `None` at the end.
    pub fn next_line(&mut self) -> std::io::Result<Option<(usize, Line<'_>)>> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let next = self.next_line_into(&mut buf);
        self.buf = buf;
        Ok(match next? {
            None => None,
            Some((n, Ok(range))) => Some((n, Line::Text(&self.buf[range]))),
            Some((n, Err(len))) => Some((n, Line::TooLong(len))),
        })
    }

    /// The next non-blank line appended to `out`: its 1-based number and where it is in `out`
    /// (line ending and a trailing `\r` removed), or `Err(len)` for a line over the limit, whose
    /// bytes were skipped; `None` at the end. What a reader that gathers lines in batches uses, so
    /// that each line is copied once.
    #[allow(clippy::type_complexity)]
    pub fn next_line_into(
        &mut self,
        out: &mut Vec<u8>,
    ) -> std::io::Result<Option<(usize, Result<std::ops::Range<usize>, u64>)>> {
        use std::io::Read;
        loop {
            let start = out.len();
            let limit = decode::MAX_DOCUMENT_BYTES as u64 + 2;
            let read = (&mut self.reader).take(limit).read_until(b'\n', out)?;
            if read == 0 {
                return Ok(None);
            }
            self.number += 1;
            if !out.ends_with(b"\n") && read as u64 == limit {
                // Skip the rest of the oversized line without keeping it, counting its bytes.
                let mut len = read as u64;
                let mut last = out.last().copied();
                out.truncate(start);
                loop {
                    let chunk = self.reader.fill_buf()?;
                    if chunk.is_empty() {
                        break;
                    }
                    match chunk.iter().position(|&b| b == b'\n') {
                        Some(i) => {
                            len += i as u64;
                            last = chunk[..i].last().copied().or(last);
                            self.reader.consume(i + 1);
                            break;
                        }
                        None => {
                            let n = chunk.len();
                            len += n as u64;
                            last = chunk.last().copied();
                            self.reader.consume(n);
                        }
                    }
                }
                if last == Some(b'\r') {
                    len -= 1;
                }
                return Ok(Some((self.number, Err(len))));
            }
            let mut end = out.len();
            if out[start..end].ends_with(b"\n") {
                end -= 1;
            }
            if out[start..end].ends_with(b"\r") {
                end -= 1;
            }
            if out[start..end].iter().all(u8::is_ascii_whitespace) {
                out.truncate(start);
                continue;
            }
            out.truncate(end);
            return Ok(Some((self.number, Ok(start..end))));
        }
    }
}

/// The issue for a line of `len` bytes, over the limit: `too_large`, as for a whole document.
pub fn too_long(len: u64) -> Issue {
    decode::too_large(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_member_is_its_own_code() {
        let text =
            br#"{"schema":"paperclip.prp.stop_reason.v1","schema":"paperclip.prp.stop_reason.v1"}"#;
        let findings = check(text, None);
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(
            (findings[0].code, findings[0].pointer.as_str()),
            (Code::DuplicateKey, "/schema")
        );
    }

    #[test]
    fn lines_are_bounded_and_numbered() {
        let big = "x".repeat(decode::MAX_DOCUMENT_BYTES + 10);
        let input = format!("{{}}\r\n\n  \n{big}\n{{\"a\":1}}");
        let mut lines = JsonLines::new(std::io::BufReader::new(input.as_bytes()));
        assert_eq!(lines.next_line().unwrap(), Some((1, Line::Text(b"{}"))));
        assert_eq!(
            lines.next_line().unwrap(),
            Some((4, Line::TooLong(big.len() as u64)))
        );
        assert_eq!(
            lines.next_line().unwrap(),
            Some((5, Line::Text(br#"{"a":1}"#)))
        );
        assert_eq!(lines.next_line().unwrap(), None);
        // The buffer held at most the limit's worth of the long line, never all of it.
        assert!(lines.buf.capacity() <= 2 * (decode::MAX_DOCUMENT_BYTES + 2));
    }

    #[test]
    fn schemas_are_selected_by_id_file_name_or_fragment() {
        assert!(select_schema("https://paperclip.dev/schemas/prp/v1/event.schema.json").is_some());
        assert!(select_schema("event.schema.json").is_some());
        assert!(select_schema("semantic-tool.schema.json#/$defs/stableId").is_some());
        assert!(select_schema("acpx-sidecar.schema.json").is_some());
        assert!(select_schema("nope.schema.json").is_none());
    }
}
