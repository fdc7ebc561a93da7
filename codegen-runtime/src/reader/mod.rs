//! A JSON reader for generated decoders: a serde `Deserializer` over a whole text that accepts
//! exactly the texts serde_json accepts and makes the same visitor calls, and refuses with the
//! sentence serde_json would give and the JSON pointer of the value that failed. Typed decoding,
//! the verdict-only checks (`Verify`) and the replay of captured members all run on it, so a
//! generated decoder is compiled for this one deserializer (what a user decodes with serde_json
//! directly is compiled in the user's crate). What must agree with serde_json is what is accepted,
//! the values handed to visitors and the errors a schema check or a type mismatch raises (the
//! reader tests, the differential tests and the `reader` and `decode_document` fuzz targets hold
//! them to it); a syntax error is only marked as one, and the caller asks serde_json for its words.
//!
//! It is faster where serde_json is general: the input is a `&str` already checked as UTF-8, so a
//! string is a search for its closing quote, 8 bytes per step, borrowed from the text unless it
//! has escapes, which are decoded into one buffer the caller can keep across documents. A number
//! with a fraction, an exponent or more digits than 64 bits hold is handed to serde_json itself,
//! which keeps its rounding and range errors exact. The words and path of a refusal cost nothing
//! until there is one: they are kept on the thread, not in the error, and each array and object a
//! refusal leaves adds its index or member name on the way out.
//!
//! It reads the whole serde data model as serde_json does: generated code asks for any value,
//! strings, numbers, booleans, null, options, arrays, objects and serde_json's `RawValue`; enums
//! and member names read as numbers or booleans are read here too, for the hand-written types
//! `decode` is also given; byte strings and 128-bit integers are handed to serde_json.

use crate::Failure;
use serde::de::{self, DeserializeSeed, Expected, Unexpected, Visitor};
use std::fmt;

/// serde_json's nesting limit: an array or object opened at this depth is refused.
const DEPTH: u8 = 128;

/// The name under which serde_json's `RawValue` asks a deserializer for the raw text of a value.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// Why the reader stopped: the text is not JSON, or a check on a value refused it. The error
/// itself carries nothing, so that a decoder's `Result` is as small as its value's: the refusal's
/// sentence, path and typed failure are kept beside it, on the thread ([`last_refusal`]), written
/// only when something is refused. (Issue 51 measured the other way, the record boxed inside the
/// error: with no refusal on valid input, its size alone costs valid decoding about 5% more
/// instructions, typed and verdict-only alike; see BENCHMARKS.md.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

/// What the reader last said on this thread, for [`last_refusal`].
#[derive(Debug, Default)]
struct Why {
    /// The sentence (empty for a syntax error: serde_json's own words are the ones to show).
    message: String,
    syntax: bool,
    /// Where, innermost step first: each container adds its own on the way out.
    path: Vec<Step>,
    /// The check's failure, when a check refused: handed over by [`crate::fail`] as it builds
    /// the error, never matched back by the sentence.
    failure: Option<Failure>,
}

#[derive(Debug)]
enum Step {
    Key(String),
    Index(usize),
}

std::thread_local! {
    static WHY: std::cell::RefCell<Why> = std::cell::RefCell::new(Why::default());
}

/// A refusal in words: read with [`last_refusal`] right after the reader refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The sentence: serde_json's for a type mismatch, a check's own for a failed check.
    pub message: String,
    /// Whether the text itself is not JSON (the reader says no more: serde_json's error on the
    /// same text says where and why).
    pub syntax: bool,
    /// The JSON pointer of the value that failed ("" for the whole text).
    pub pointer: String,
    /// The check's typed failure (its code, its pointer relative to `pointer`, its sentence) when
    /// a check refused; `None` for a type mismatch or a syntax error.
    pub failure: Option<Failure>,
}

/// What the reader said when it last refused on this thread. Every refusal starts a new record
/// and each container it passes on the way out adds its step, so this is the refusal that ended
/// the read (a later read on the thread replaces it).
pub fn last_refusal() -> Refusal {
    WHY.with(|why| {
        let why = why.borrow();
        let mut pointer = String::new();
        for step in why.path.iter().rev() {
            pointer.push('/');
            match step {
                Step::Key(k) => pointer.push_str(&crate::escape_token(k)),
                Step::Index(i) => pointer.push_str(&i.to_string()),
            }
        }
        Refusal {
            message: why.message.clone(),
            syntax: why.syntax,
            pointer,
            failure: why.failure.clone(),
        }
    })
}

/// Starts the record of a new refusal.
#[cold]
fn refuse(message: String, syntax: bool, failure: Option<Failure>) -> Refused {
    WHY.with(|why| {
        let mut why = why.borrow_mut();
        why.message = message;
        why.syntax = syntax;
        why.path.clear();
        why.failure = failure;
    });
    Refused
}

impl Refused {
    /// Text that is not JSON at the reader's position.
    #[cold]
    fn syntax() -> Self {
        refuse(String::new(), true, None)
    }

    #[cold]
    fn within(self, step: Step) -> Self {
        WHY.with(|why| why.borrow_mut().path.push(step));
        self
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the document is refused (see `last_refusal`)")
    }
}

impl std::error::Error for Refused {}

impl de::Error for Refused {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        // A check's failure is handed over by `fail`, which is building this error.
        refuse(msg.to_string(), false, crate::failure::handed_over())
    }

    // serde_json words two of serde's errors its own way (`null`, not `unit value`; a float as
    // it would write it): the same words here.
    #[cold]
    fn invalid_type(unexp: Unexpected, exp: &dyn Expected) -> Self {
        de::Error::custom(format_args!(
            "invalid type: {}, expected {exp}",
            AsJson(unexp)
        ))
    }

    #[cold]
    fn invalid_value(unexp: Unexpected, exp: &dyn Expected) -> Self {
        de::Error::custom(format_args!(
            "invalid value: {}, expected {exp}",
            AsJson(unexp)
        ))
    }
}

/// An unexpected value named as serde_json names it in an error.
struct AsJson<'a>(Unexpected<'a>);

impl fmt::Display for AsJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.0 {
            Unexpected::Unit => f.write_str("null"),
            Unexpected::Float(x) => match serde_json::to_string(&x) {
                Ok(text) => write!(f, "floating point `{text}`"),
                Err(_) => fmt::Display::fmt(&self.0, f),
            },
            other => fmt::Display::fmt(&other, f),
        }
    }
}

type Result<T> = std::result::Result<T, Refused>;

/// A deserializer over one JSON text. After the value, [`Reader::end`] says whether only
/// whitespace follows.
pub struct Reader<'de> {
    text: &'de str,
    at: usize,
    /// serde_json's remaining depth: entering an array or object at 1 is refused.
    depth: u8,
    /// Decoded escapes of the string being read.
    scratch: String,
}

impl<'de> Reader<'de> {
    /// A reader over `text`, with a scratch buffer of its own.
    pub fn new(text: &'de str) -> Self {
        Self::with_scratch(text, String::new())
    }

    /// A reader that decodes escapes into `scratch` (emptied first), so that a caller reading
    /// many documents can keep one buffer: [`into_scratch`](Self::into_scratch) gives it back.
    pub fn with_scratch(text: &'de str, mut scratch: String) -> Self {
        scratch.clear();
        Reader {
            text,
            at: 0,
            depth: DEPTH,
            scratch,
        }
    }

    /// The escape buffer, for the next reader.
    pub fn into_scratch(self) -> String {
        self.scratch
    }

    /// Whether nothing but whitespace is left.
    pub fn end(&mut self) -> bool {
        self.ws().is_none()
    }

    #[inline(always)]
    fn bytes(&self) -> &'de [u8] {
        self.text.as_bytes()
    }

    /// Skips whitespace; the byte after it, if any.
    #[inline(always)]
    fn ws(&mut self) -> Option<u8> {
        let bytes = self.bytes();
        while let Some(&b) = bytes.get(self.at) {
            match b {
                b' ' | b'\n' | b'\t' | b'\r' => self.at += 1,
                _ => return Some(b),
            }
        }
        None
    }

    /// Passes the literal whose first byte is at `at`.
    #[inline]
    fn literal(&mut self, word: &[u8]) -> Result<()> {
        let end = self.at + word.len();
        if self.bytes().get(self.at..end) == Some(word) {
            self.at = end;
            Ok(())
        } else {
            Err(Refused::syntax())
        }
    }

    /// Reads the string whose opening quote is at `at`: borrowed when it has no escapes.
    #[inline(always)]
    fn string(&mut self) -> Result<Text<'de, '_>> {
        let bytes = self.bytes();
        let start = self.at + 1;
        let i = stop(bytes, start);
        match bytes.get(i) {
            Some(b'"') => {
                self.at = i + 1;
                Ok(Text::Borrowed(&self.text[start..i]))
            }
            Some(b'\\') => self.escaped(start, i).map(Text::Copied),
            _ => Err(Refused::syntax()),
        }
    }

    /// The rest of a string from its first escape, at `i`, decoded into the scratch buffer.
    #[cold]
    #[inline(never)]
    fn escaped(&mut self, start: usize, mut i: usize) -> Result<&str> {
        let bytes = self.bytes();
        self.scratch.clear();
        let mut from = start;
        loop {
            // `i` is at a backslash; every cut is at an ASCII byte, so each slice is whole text.
            self.scratch.push_str(&self.text[from..i]);
            i = self.unescape(i + 1)?;
            from = i;
            i = stop(bytes, i);
            match bytes.get(i) {
                Some(b'"') => break,
                Some(b'\\') => {}
                _ => return Err(Refused::syntax()),
            }
        }
        self.scratch.push_str(&self.text[from..i]);
        self.at = i + 1;
        Ok(&self.scratch)
    }

    /// Decodes the escape whose letter is at `i` into the scratch buffer; the index after it.
    /// A `\u` escape must be a scalar value: a surrogate only as the first of a pair.
    #[inline]
    fn unescape(&mut self, i: usize) -> Result<usize> {
        let c = match self.bytes().get(i) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let n = hex4(self.bytes(), i + 1)?;
                let (c, next) = match n {
                    0xDC00..=0xDFFF => return Err(Refused::syntax()),
                    0xD800..=0xDBFF => {
                        if self.bytes().get(i + 5..i + 7) != Some(&b"\\u"[..]) {
                            return Err(Refused::syntax());
                        }
                        let low = hex4(self.bytes(), i + 7)?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return Err(Refused::syntax());
                        }
                        let c =
                            0x1_0000 + ((u32::from(n - 0xD800) << 10) | u32::from(low - 0xDC00));
                        (c, i + 11)
                    }
                    n => (u32::from(n), i + 5),
                };
                self.scratch
                    .push(char::from_u32(c).ok_or_else(Refused::syntax)?);
                return Ok(next);
            }
            _ => return Err(Refused::syntax()),
        };
        self.scratch.push(c);
        Ok(i + 1)
    }

    /// Passes the string whose opening quote is at `at` without decoding it, as serde_json
    /// ignores one: escapes must be well formed, but a `\u` escape may be a lone surrogate.
    fn pass_string(&mut self) -> Result<()> {
        let bytes = self.bytes();
        let mut i = self.at + 1;
        loop {
            i = stop(bytes, i);
            match bytes.get(i) {
                Some(b'"') => {
                    self.at = i + 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    i = match bytes.get(i + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i + 2,
                        Some(b'u') => hex4(bytes, i + 2).map(|_| i + 6)?,
                        _ => return Err(Refused::syntax()),
                    };
                }
                _ => return Err(Refused::syntax()),
            }
        }
    }

    /// Reads the number that starts at `at` (a `-` or a digit) and visits it as serde_json does:
    /// an integer as `u64` or, when negative, `i64`; `-0` and anything else as `f64`.
    #[inline]
    fn number<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        let bytes = self.bytes();
        let start = self.at;
        let negative = bytes[start] == b'-';
        let mut i = start + usize::from(negative);
        let mut n: u64 = 0;
        match bytes.get(i) {
            Some(b'0') => i += 1,
            Some(&d @ b'1'..=b'9') => {
                n = u64::from(d - b'0');
                i += 1;
                while let Some(&d @ b'0'..=b'9') = bytes.get(i) {
                    match n
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(u64::from(d - b'0')))
                    {
                        Some(m) => n = m,
                        None => return self.number_by_serde_json(v),
                    }
                    i += 1;
                }
            }
            _ => return Err(Refused::syntax()),
        }
        match bytes.get(i) {
            Some(b'0'..=b'9') => Err(Refused::syntax()),
            Some(b'.' | b'e' | b'E') => self.number_by_serde_json(v),
            _ => {
                self.at = i;
                if !negative {
                    v.visit_u64(n)
                } else {
                    let m = (n as i64).wrapping_neg();
                    if m >= 0 {
                        v.visit_f64(-(n as f64))
                    } else {
                        v.visit_i64(m)
                    }
                }
            }
        }
    }

    /// The number at `at`, read by serde_json from its own text.
    #[cold]
    fn number_by_serde_json<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        let start = self.at;
        let end = number_end(self.bytes(), start).ok_or_else(Refused::syntax)?;
        self.at = end;
        let mut de = serde_json::Deserializer::from_str(&self.text[start..end]);
        de::Deserializer::deserialize_any(&mut de, v).map_err(from_serde_json)
    }

    /// The value at `at` read by serde_json from its own text: for what generated code never
    /// asks for (byte strings, 128-bit integers), so that `decode` reads any serde type.
    #[cold]
    fn by_serde_json<T>(
        &mut self,
        read: impl FnOnce(
            &mut serde_json::Deserializer<serde_json::de::StrRead<'de>>,
        ) -> serde_json::Result<T>,
    ) -> Result<T> {
        self.ws();
        let start = self.at;
        self.pass()?;
        let mut de = serde_json::Deserializer::from_str(&self.text[start..self.at]);
        let value = read(&mut de).map_err(from_serde_json)?;
        // serde_json stops where the kind it was asked for ends (`1` of `1.5` for an i128) and
        // would then refuse the rest as syntax.
        de.end().map_err(from_serde_json)?;
        Ok(value)
    }

    /// [`invalid_type`](Self::invalid_type) out of line, taking the visitor by value, so that the
    /// hot reads keep their shape (a visitor whose address is taken lives in memory).
    #[cold]
    #[inline(never)]
    fn mismatch<V: Visitor<'de>>(&mut self, v: V) -> Refused {
        self.invalid_type(&v)
    }

    /// The error serde_json gives a visitor asked for one kind of value where the text holds
    /// another: `invalid type: <what is there>, expected <what the visitor reads>`.
    #[cold]
    #[inline(never)]
    fn invalid_type(&mut self, exp: &dyn Expected) -> Refused {
        let at = self.at;
        let found = match self.ws() {
            Some(b'n') => self.literal(b"null").map(|()| Found::Unit),
            Some(b't') => self.literal(b"true").map(|()| Found::Bool(true)),
            Some(b'f') => self.literal(b"false").map(|()| Found::Bool(false)),
            Some(b'-' | b'0'..=b'9') => self.found_number(),
            Some(b'"') => self.string().map(|s| Found::Str(s.as_str().to_owned())),
            Some(b'[') => Ok(Found::Seq),
            Some(b'{') => Ok(Found::Map),
            _ => Err(Refused::syntax()),
        };
        self.at = at;
        match found {
            Ok(found) => de::Error::invalid_type(found.unexpected(), exp),
            Err(e) => e,
        }
    }

    /// The number at `at` as serde_json names it in an error: unsigned, negative, or float.
    fn found_number(&mut self) -> Result<Found> {
        let start = self.at;
        let end = number_end(self.bytes(), start).ok_or_else(Refused::syntax)?;
        let n: serde_json::Number =
            serde_json::from_str(&self.text[start..end]).map_err(|_| Refused::syntax())?;
        Ok(match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Found::Unsigned(u),
            (None, Some(i), _) => Found::Signed(i),
            (None, None, Some(f)) => Found::Float(f),
            (None, None, None) => return Err(Refused::syntax()),
        })
    }

    /// Passes any value as serde_json ignores one: numbers checked for their syntax alone, strings
    /// as [`pass_string`](Self::pass_string), repeated member names allowed, no depth limit.
    fn pass(&mut self) -> Result<()> {
        // The open arrays and objects, innermost last.
        let mut open: Vec<u8> = Vec::new();
        loop {
            match self.ws() {
                Some(b'n') => self.literal(b"null")?,
                Some(b't') => self.literal(b"true")?,
                Some(b'f') => self.literal(b"false")?,
                Some(b'-' | b'0'..=b'9') => {
                    self.at = number_end(self.bytes(), self.at).ok_or_else(Refused::syntax)?
                }
                Some(b'"') => self.pass_string()?,
                Some(b @ (b'[' | b'{')) => {
                    self.at += 1;
                    let close = if b == b'[' { b']' } else { b'}' };
                    if self.ws() == Some(close) {
                        self.at += 1;
                    } else {
                        open.push(b);
                        if b == b'{' {
                            self.member_name()?;
                        }
                        continue;
                    }
                }
                _ => return Err(Refused::syntax()),
            }
            // A value ended: close what it ends, then expect the next one.
            loop {
                let Some(&inner) = open.last() else {
                    return Ok(());
                };
                match self.ws() {
                    Some(b',') => {
                        self.at += 1;
                        if inner == b'{' {
                            self.member_name()?;
                        }
                        break;
                    }
                    Some(b']') if inner == b'[' => {}
                    Some(b'}') if inner == b'{' => {}
                    _ => return Err(Refused::syntax()),
                }
                self.at += 1;
                open.pop();
            }
        }
    }

    /// Passes a member name of an ignored object and its colon.
    fn member_name(&mut self) -> Result<()> {
        if self.ws() != Some(b'"') {
            return Err(Refused::syntax());
        }
        self.pass_string()?;
        self.colon()
    }

    #[inline]
    fn colon(&mut self) -> Result<()> {
        if self.ws() == Some(b':') {
            self.at += 1;
            Ok(())
        } else {
            Err(Refused::syntax())
        }
    }

    /// Enters the array or object whose bracket is at `at`, within the depth limit.
    #[inline]
    fn enter(&mut self) -> Result<()> {
        if self.depth == 1 {
            return Err(Refused::syntax());
        }
        self.depth -= 1;
        self.at += 1;
        Ok(())
    }

    /// Leaves an array or object; its closing bracket must come next.
    #[inline]
    fn leave(&mut self, close: u8) -> Result<()> {
        self.depth += 1;
        if self.ws() == Some(close) {
            self.at += 1;
            Ok(())
        } else {
            Err(Refused::syntax())
        }
    }

    fn seq<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        self.enter()?;
        // A refused item ends the read here: leaving would refuse again and overwrite its words.
        let value = v.visit_seq(Members::new(self))?;
        self.leave(b']')?;
        Ok(value)
    }

    fn map<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        self.enter()?;
        // A refused item ends the read here: leaving would refuse again and overwrite its words.
        let value = v.visit_map(Members::new(self))?;
        self.leave(b'}')?;
        Ok(value)
    }
}

/// A string read: a slice of the text, or the scratch buffer when it had escapes.
enum Text<'de, 's> {
    Borrowed(&'de str),
    Copied(&'s str),
}

/// A serde_json error as the reader's: a visitor's sentence without serde_json's position, or
/// a syntax error.
#[cold]
fn from_serde_json(e: serde_json::Error) -> Refused {
    match e.classify() {
        serde_json::error::Category::Data => {
            de::Error::custom(crate::strip_position(&e.to_string()))
        }
        _ => Refused::syntax(),
    }
}

/// A value found where another kind was asked for, owned for the error that names it.
enum Found {
    Unit,
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Str(String),
    Seq,
    Map,
}

impl Found {
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Found::Unit => Unexpected::Unit,
            Found::Bool(b) => Unexpected::Bool(*b),
            Found::Unsigned(u) => Unexpected::Unsigned(*u),
            Found::Signed(i) => Unexpected::Signed(*i),
            Found::Float(f) => Unexpected::Float(*f),
            Found::Str(s) => Unexpected::Str(s),
            Found::Seq => Unexpected::Seq,
            Found::Map => Unexpected::Map,
        }
    }
}

impl<'de> Text<'de, '_> {
    fn as_str(&self) -> &str {
        match self {
            Text::Borrowed(s) => s,
            Text::Copied(s) => s,
        }
    }

    /// Hands the string to `v` as serde_json does: borrowed when it is a slice of the text.
    #[inline(always)]
    fn visit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self {
            Text::Borrowed(s) => v.visit_borrowed_str(s),
            Text::Copied(s) => v.visit_str(s),
        }
    }
}

/// Whether a string byte needs no attention: not a quote, a backslash or a control character.
#[inline(always)]
fn plain(b: u8) -> bool {
    b >= 0x20 && b != b'"' && b != b'\\'
}

/// The index of the first byte at or after `i` that is not [`plain`], or the text's length.
/// Eight bytes at a time, in a register: the lowest flagged byte of a word is exact (a borrow
/// only runs upward). Vector compares were measured too and gained nothing here: most strings
/// are short, and their cost is in entering and leaving them, not in the search.
#[inline(always)]
fn stop(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    while let Some(word) = bytes.get(i..i + 8) {
        let w = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        let control = w.wrapping_sub(ONES * 0x20) & !w;
        let q = w ^ (ONES * u64::from(b'"'));
        let quote = q.wrapping_sub(ONES) & !q;
        let s = w ^ (ONES * u64::from(b'\\'));
        let slash = s.wrapping_sub(ONES) & !s;
        let flagged = (control | quote | slash) & (ONES << 7);
        if flagged != 0 {
            return i + (flagged.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if !plain(b) {
            break;
        }
        i += 1;
    }
    i
}

/// Four hex digits at `i`, as a UTF-16 code unit.
#[inline]
fn hex4(bytes: &[u8], i: usize) -> Result<u16> {
    let digits = bytes.get(i..i + 4).ok_or_else(Refused::syntax)?;
    let mut n = 0u16;
    for &d in digits {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => return Err(Refused::syntax()),
        };
        n = (n << 4) | u16::from(v);
    }
    Ok(n)
}

/// The end of the number that starts at `i`, if its syntax is JSON's:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, not followed by a digit.
fn number_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    let digits = |mut i: usize| {
        while digit(i) {
            i += 1;
        }
        i
    };
    if bytes.get(i) == Some(&b'-') {
        i += 1;
    }
    match bytes.get(i) {
        Some(b'0') => {
            i += 1;
            if digit(i) {
                return None;
            }
        }
        Some(b'1'..=b'9') => i = digits(i + 1),
        _ => return None,
    }
    if bytes.get(i) == Some(&b'.') {
        if !digit(i + 1) {
            return None;
        }
        i = digits(i + 1);
    }
    if let Some(b'e' | b'E') = bytes.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = bytes.get(i) {
            i += 1;
        }
        if !digit(i) {
            return None;
        }
        i = digits(i);
    }
    Some(i)
}

mod access;
use access::Members;

#[cfg(test)]
mod tests;
