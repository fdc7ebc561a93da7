//! Validation as the `prp validate` contract reports it: a document's findings (code, JSON pointer,
//! sentence), the schema chosen by `--schema` or by the document's own `schema` member, and a JSONL
//! reader whose memory is bounded by the longest line.
//!
//! A replay fixture gets the whole contract pipeline of PROTOCOL §1.7 (version checks, schema, binding
//! checks) and every issue it finds; other documents are verified without building their value
//! ([`decode::verify`]), and a refused one gets the typed decode's first error.

use crate::contract::Contract;
use crate::decode::{self, Checker};
use crate::issue::{Code, Issue};
use crate::types::Fixture;
use prp_codegen_runtime::Document as _;
use std::io::BufRead;

/// A schema picked by name: its key in the checker table and its checker.
#[derive(Clone, Copy)]
pub struct Selected {
    /// The schema's key: its `$id`, with a `#/$defs/NAME` fragment for a definition.
    pub id: &'static str,
    /// Checks bytes against it: the verdict, and the decoder's error for a refused document.
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
    // The fragment read as written (escaped or not) and written back the one way the table
    // names a place.
    let (file, fragment) = prp_vocabulary::uri::split_fragment(name);
    let fragment = fragment?;
    let info = crate::SCHEMAS
        .iter()
        .find(|s| s.id == file || s.path == file || s.path.rsplit('/').next() == Some(file))?;
    let key = if fragment.is_empty() {
        info.id.to_owned()
    } else {
        prp_vocabulary::uri::at(info.id, &fragment)
    };
    by_key(&key)
}

/// The `schema` value that marks a replay fixture.
const FIXTURE_DISCRIMINATOR: &str = "paperclip.prp.fixture.v1";

/// Whether a document is a replay fixture by its own `schema` member. Only text that mentions the
/// discriminator at all is parsed; other documents are read once, by the verdict-only check.
fn declares_fixture(bytes: &[u8]) -> bool {
    // The searcher is built once: building it per document cost more than the search.
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(FIXTURE_DISCRIMINATOR));
    bytes.len() <= decode::MAX_DOCUMENT_BYTES
        && FINDER.find(bytes).is_some()
        && serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|v| {
            v.get("schema").and_then(serde_json::Value::as_str) == Some(FIXTURE_DISCRIMINATOR)
        })
}

/// Every issue of one document; empty when it is valid. A replay fixture goes through `contract`
/// (its protocol range decides stage 1); any other document is checked against the schema its
/// `schema` member (or `--schema`) names, whatever the range.
pub fn check(bytes: &[u8], schema: Option<Selected>, contract: Contract) -> Vec<Issue> {
    let fixture_pipeline = || contract.validate_fixture_bytes(bytes).issues;
    let verdict = match schema {
        Some(s) if s.id == Fixture::SCHEMA.id && bytes.len() <= decode::MAX_DOCUMENT_BYTES => {
            return fixture_pipeline();
        }
        Some(s) => (s.checker)(bytes).map_err(decode::fail_closed_on_versions),
        // The document's own `schema` picks the type; a fixture (valid, or failing while declaring
        // itself one) gets the whole contract pipeline instead. Other documents are only verified;
        // the fixture discriminator is looked for by a byte search, and parsed only where found.
        None => match decode::verify_document(bytes) {
            Ok(()) if declares_fixture(bytes) => return fixture_pipeline(),
            Ok(()) => Ok(()),
            Err(_) if declares_fixture(bytes) => return fixture_pipeline(),
            Err(e) => Err(
                // The document union failing on its discriminator means no schema fits it.
                if e.code == Code::Keyword(prp_types::Keyword::OneOf)
                    && (e.pointer.is_empty() || e.pointer == "/schema")
                {
                    Issue {
                        code: Code::UnknownSchema,
                        ..e
                    }
                } else {
                    e
                },
            ),
        },
    };
    match verdict {
        Ok(()) => outside_range(bytes, contract).into_iter().collect(),
        Err(e) => vec![e],
    }
}

/// A capabilities, command or event document of a protocol version outside `contract`'s range,
/// which fails closed as a fixture of that version does. Looked for only under a range narrower
/// than what this build reads, so the default costs nothing.
fn outside_range(bytes: &[u8], contract: Contract) -> Option<Issue> {
    let range = contract.protocol();
    if range == crate::contract::known() {
        return None;
    }
    #[derive(serde::Deserialize)]
    struct Named<'a> {
        #[serde(borrow)]
        schema: Option<std::borrow::Cow<'a, str>>,
    }
    let named: Named = serde_json::from_slice(bytes).ok()?;
    let schema = named.schema?;
    let kind = schema.strip_prefix("paperclip.prp.")?.split_once(".v")?.0;
    if !["capabilities", "command", "event"].contains(&kind) {
        return None;
    }
    let version = crate::versions::tag_version(&schema)?;
    (!range.contains(version)).then(|| {
        Issue::new(
            Code::UnsupportedRequiredVersion,
            "/schema",
            format!(
                "`{schema}` is PRP v{version}; this implementation supports {}-{}",
                range.min(),
                range.max()
            ),
        )
    })
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
    /// A line whose first `limit` bytes hold no line ending is too long.
    limit: u64,
}

impl<R: BufRead> JsonLines<R> {
    /// Lines from `reader`.
    pub fn new(reader: R) -> Self {
        JsonLines {
            reader,
            buf: Vec::new(),
            number: 0,
            limit: LINE_LIMIT as u64,
        }
    }

    /// The next non-blank line and its 1-based number, or `None` at the end.
    pub fn next_line(&mut self) -> std::io::Result<Option<(usize, Line<'_>)>> {
        use std::io::Read;
        loop {
            self.buf.clear();
            let limit = self.limit;
            let read = (&mut self.reader)
                .take(limit)
                .read_until(b'\n', &mut self.buf)?;
            if read == 0 {
                return Ok(None);
            }
            self.number += 1;
            if !self.buf.ends_with(b"\n") && read as u64 == limit {
                // Skip the rest of the oversized line without keeping it, counting its bytes.
                let mut len = read as u64;
                let mut last = self.buf.last().copied();
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
                self.buf.clear();
                return Ok(Some((self.number, Line::TooLong(len))));
            }
            let text = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let len = text.len();
            return Ok(Some((self.number, Line::Text(&self.buf[..len]))));
        }
    }
}

/// A line whose first this many bytes hold no line ending is too long to keep: one byte more than
/// a document may have, and its `\r`, so that a line just over the limit is still named by its
/// real size when decoded.
const LINE_LIMIT: usize = decode::MAX_DOCUMENT_BYTES + 2;

/// Where a block of [`JsonBlocks`] starts, or the one line too long to keep.
#[derive(Debug, PartialEq, Eq)]
pub enum Block {
    /// Whole lines (split them with [`block_lines`]).
    Lines {
        /// The number of the block's first line.
        first: usize,
    },
    /// A line too long to keep, skipped.
    TooLong {
        /// Its number.
        number: usize,
        /// Its length in bytes, line ending excluded.
        len: u64,
    },
}

/// A JSONL stream read in blocks of whole lines, for readers that hand lines out in batches:
/// each block is one read into the caller's buffer, cut after its last line ending, so no line is
/// copied on its own. [`block_lines`] then gives exactly the lines [`JsonLines`] would, with
/// their numbers; at most one block and one line (bounded by the document limit) are held.
pub struct JsonBlocks<R> {
    reader: R,
    carry: Vec<u8>,
    number: usize,
    done: bool,
    limit: usize,
}

impl<R: std::io::Read> JsonBlocks<R> {
    /// Blocks from `reader`.
    pub fn new(reader: R) -> Self {
        JsonBlocks {
            reader,
            carry: Vec::new(),
            number: 0,
            done: false,
            limit: LINE_LIMIT,
        }
    }

    /// The next block: `out` is cleared and filled with whole lines, at least `target` bytes
    /// unless the stream ends first; `None` at the end.
    pub fn next_block(
        &mut self,
        out: &mut Vec<u8>,
        target: usize,
    ) -> std::io::Result<Option<Block>> {
        out.clear();
        out.append(&mut self.carry);
        // Bytes before `start` are whole lines, each shorter than the limit.
        let mut start = 0;
        loop {
            // Past the whole lines; stop at a line that is too long or at the unfinished rest.
            let long = loop {
                match memchr::memchr(b'\n', &out[start..]) {
                    Some(i) if i < self.limit => start += i + 1,
                    Some(_) => break true,
                    None => break out.len() - start >= self.limit,
                }
            };
            if long {
                if start > 0 {
                    // The lines before it go first; the long one is the next call's.
                    self.carry.extend_from_slice(&out[start..]);
                    out.truncate(start);
                    break;
                }
                return self.skip_long(out).map(Some);
            }
            if start >= target || (self.done && start == out.len()) {
                self.carry.extend_from_slice(&out[start..]);
                out.truncate(start);
                break;
            }
            if self.done {
                // The last line, without a line ending.
                break;
            }
            let len = out.len();
            out.resize(len + target.clamp(4096, 256 * 1024), 0);
            let read = self.reader.read(&mut out[len..]);
            out.truncate(len + *read.as_ref().unwrap_or(&0));
            match read {
                Ok(0) => self.done = true,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if out.is_empty() {
            return Ok(None);
        }
        let first = self.number + 1;
        self.number += memchr::memchr_iter(b'\n', out).count() + usize::from(!out.ends_with(b"\n"));
        Ok(Some(Block::Lines { first }))
    }

    /// Skips the line that starts `out` and is already too long, counting its bytes.
    fn skip_long(&mut self, out: &mut Vec<u8>) -> std::io::Result<Block> {
        let mut len = out.len() as u64;
        let mut last = out.last().copied();
        loop {
            if let Some(i) = memchr::memchr(b'\n', out) {
                len -= (out.len() - i) as u64;
                last = if i > 0 { Some(out[i - 1]) } else { last };
                self.carry.extend_from_slice(&out[i + 1..]);
                break;
            }
            last = out.last().copied().or(last);
            out.clear();
            out.resize(64 * 1024, 0);
            let n = match self.reader.read(out) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
                    out.clear();
                    continue;
                }
                r => r?,
            };
            out.truncate(n);
            if n == 0 {
                self.done = true;
                break;
            }
            len += n as u64;
        }
        out.clear();
        if last == Some(b'\r') {
            len -= 1;
        }
        self.number += 1;
        Ok(Block::TooLong {
            number: self.number,
            len,
        })
    }
}

/// The non-blank lines of a block, numbered from `first`, line endings and a trailing `\r`
/// removed: what [`JsonLines`] gives for the same bytes.
pub fn block_lines(block: &[u8], first: usize) -> impl Iterator<Item = (usize, &[u8])> {
    let body = block.strip_suffix(b"\n").unwrap_or(block);
    // Line ends found with memchr (vectorised): a byte-at-a-time split was a fifth of the time of
    // `validate --jsonl`.
    let mut rest = Some(body);
    std::iter::from_fn(move || {
        let text = rest?;
        match memchr::memchr(b'\n', text) {
            Some(end) => {
                rest = Some(&text[end + 1..]);
                Some(&text[..end])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
    .enumerate()
    .map(move |(i, line)| (first + i, line.strip_suffix(b"\r").unwrap_or(line)))
    .filter(|(_, line)| !line.iter().all(u8::is_ascii_whitespace))
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
        let findings = check(text, None, Contract::default());
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(
            (findings[0].code, findings[0].pointer.as_str()),
            (Code::Keyword(prp_types::Keyword::DuplicateKey), "/schema")
        );
    }

    /// Every line of `input` as [`JsonLines`] and as [`JsonBlocks`] give them, with a line limit of
    /// `limit` and blocks of `target` bytes.
    fn both_ways(input: &[u8], limit: usize, target: usize) -> (Vec<String>, Vec<String>) {
        let show = |n: usize, l: Result<&[u8], u64>| match l {
            Ok(t) => format!("{n}:{}", String::from_utf8_lossy(t)),
            Err(len) => format!("{n}: too long {len}"),
        };
        let mut lines = JsonLines::new(std::io::BufReader::with_capacity(3, input));
        lines.limit = limit as u64;
        let mut one = Vec::new();
        while let Some((n, l)) = lines.next_line().unwrap() {
            one.push(match l {
                Line::Text(t) => show(n, Ok(t)),
                Line::TooLong(len) => show(n, Err(len)),
            });
        }
        let mut blocks = JsonBlocks::new(input);
        blocks.limit = limit;
        let mut other = Vec::new();
        let mut buf = Vec::new();
        while let Some(b) = blocks.next_block(&mut buf, target).unwrap() {
            match b {
                Block::Lines { first } => {
                    other.extend(block_lines(&buf, first).map(|(n, t)| show(n, Ok(t))))
                }
                Block::TooLong { number, len } => other.push(show(number, Err(len))),
            }
        }
        (one, other)
    }

    #[test]
    fn blocks_give_the_lines_line_by_line_reading_gives() {
        let pieces: [&[u8]; 9] = [
            b"{}",
            b"\n",
            b"\r\n",
            b"  ",
            b"abcdefgh",
            b"xy",
            b"\n\n",
            b"123456789012",
            b"\r",
        ];
        // Every sequence of up to three pieces, at several limits and block sizes.
        let mut inputs: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..3 {
            let mut next = Vec::new();
            for i in &inputs {
                for p in pieces {
                    let mut j = i.clone();
                    j.extend_from_slice(p);
                    next.push(j);
                }
            }
            inputs.extend(next);
            inputs.sort();
            inputs.dedup();
        }
        let mut compared = 0;
        for input in &inputs {
            for limit in [4, 9, 13, 64] {
                for target in [1, 5, 40] {
                    let (a, b) = both_ways(input, limit, target);
                    assert_eq!(
                        a,
                        b,
                        "{:?} limit {limit} target {target}",
                        String::from_utf8_lossy(input)
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 5_000, "{compared}");
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
