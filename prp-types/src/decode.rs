//! Bytes in, typed documents out: one pass over the input on the generated runtime's JSON reader
//! (`rt::reader`), with constraint checks inside the generated decoders; a refusal carries the
//! check's code and sentence and the JSON pointer of the value that failed. For a verdict alone
//! ([`accepts`], [`verify`]) the generated `rt::Verify` twins run the same checks on the same
//! reader and keep nothing. serde_json is asked only about text that is not JSON, for its
//! description of the syntax error.

use crate::issue::{Code, Issue};
use prp_codegen_runtime as rt;
use serde::de::DeserializeOwned;

/// The largest document, in bytes, that decoding accepts.
pub const MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;

/// The deepest nesting of arrays and objects that decoding accepts (serde_json's recursion limit).
pub const MAX_DEPTH: usize = 128;

/// Decodes one JSON document into `T`, checking every schema constraint.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Issue> {
    let text = decodable(bytes)?;
    match with_reader(text, |reader| T::deserialize(reader)) {
        Ok(value) => Ok(value),
        Err(refused) => Err(explain(refused.then(rt::reader::last_refusal), bytes)),
    }
}

/// `bytes` as text the reader can take: within the size limit and UTF-8. Apart from [`decode`]
/// since it does not depend on the decoded type.
fn decodable(bytes: &[u8]) -> Result<&str, Issue> {
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    // UTF-8 is checked once for the whole text (fast, vectorised) rather than string by string;
    // text that is not UTF-8 is not JSON, and serde_json says where.
    std::str::from_utf8(bytes).map_err(|_| {
        not_json(bytes).unwrap_or_else(|| {
            Issue::new(
                Code::InvalidJson,
                "",
                "not valid JSON: the text is not UTF-8",
            )
        })
    })
}

/// The issue for a document the reader refused (`None`: text after the value).
fn explain(refused: Option<rt::reader::Refusal>, bytes: &[u8]) -> Issue {
    // Text nested past the limit is too deep whatever else is wrong with it, and a schema
    // failure in text that is not JSON at all is reported as what it is.
    let depth = rt::nesting_depth(bytes);
    if depth > MAX_DEPTH {
        return too_deep(depth);
    }
    if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
        return classify(&e, String::new(), bytes);
    }
    match refused {
        Some(refused) if !refused.syntax => {
            let f = rt::refused_failure(refused);
            goal_command_v1(Issue::new(f.code.into(), f.rel, f.message), bytes)
        }
        // Not JSON in a way serde_json sees only when it reads the value (a number out of range).
        // The reader and serde_json accept the same texts (the reader tests and fuzz target hold
        // them to it); should they ever part, say so rather than guess.
        _ => not_json(bytes).unwrap_or_else(|| {
            Issue::new(
                Code::InvalidJson,
                "",
                "the reader refused text serde_json reads as JSON; this is a bug in prp-codegen-runtime",
            )
        }),
    }
}

/// The issue for text that is not JSON, in serde_json's words (or too deep, when that is why);
/// `None` if serde_json reads it. serde_json passes over an ignored string without checking its
/// UTF-8 and an ignored number without its range, so the text is read as a `Value` too, for the
/// words the contract stage gives the same bytes.
fn not_json(bytes: &[u8]) -> Option<Issue> {
    let error = serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
        .err()
        .or_else(|| serde_json::from_slice::<serde_json::Value>(bytes).err())?;
    Some(classify(&error, String::new(), bytes))
}

/// Whether the schema of `T` accepts `bytes`, decided without building the value (see
/// [`rt::Verify`]): the verdict of [`decode`], faster, with no error to say why.
pub fn accepts<T: rt::Verify>(bytes: &[u8]) -> bool {
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return false;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    with_reader(text, |reader| T::verify(reader)).is_ok()
}

/// Runs `read` on a reader over `text`; its answer if the text then ends (`Err(true)` when the
/// reader refused, `Err(false)` when something follows the value). Compiled once per decoded
/// type, so the work that does not depend on it lives in [`open_reader`] and [`close_reader`].
fn with_reader<'de, R>(
    text: &'de str,
    read: impl FnOnce(&mut rt::reader::Reader<'de>) -> Result<R, rt::reader::Refused>,
) -> Result<R, bool> {
    let mut reader = open_reader(text);
    let answer = read(&mut reader);
    let ended = close_reader(reader, answer.is_ok());
    match answer {
        Ok(value) if ended => Ok(value),
        Ok(_) => Err(false),
        Err(rt::reader::Refused) => Err(true),
    }
}

thread_local! {
    // One escape buffer per thread, not one per document: an escaped 16 KiB tool output would
    // otherwise grow a fresh buffer a dozen times.
    static SCRATCH: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
}

/// A reader over `text` with the thread's escape buffer.
fn open_reader(text: &str) -> rt::reader::Reader<'_> {
    rt::reader::Reader::with_scratch(text, SCRATCH.take())
}

/// Whether the text ended after a value that was read (`read`), and the escape buffer kept for the
/// next document unless one huge escaped string grew it: a thread that read a 16 MiB string once
/// should not hold 16 MiB for ever.
fn close_reader(mut reader: rt::reader::Reader<'_>, read: bool) -> bool {
    let ended = read && reader.end();
    let scratch = reader.into_scratch();
    if scratch.capacity() <= 1 << 20 {
        SCRATCH.set(scratch);
    }
    ended
}

/// What [`decode`] says of `bytes`, without the value: a document the schema accepts is only
/// verified ([`accepts`]), and only a rejected one is decoded, for its
/// located error.
pub fn verify<T: rt::Verify + DeserializeOwned>(bytes: &[u8]) -> Result<(), Issue> {
    if accepts::<T>(bytes) {
        return Ok(());
    }
    decode::<T>(bytes)?;
    Ok(())
}

/// [`verify`] for any PRP document, versions failing closed as in [`decode_document`].
pub fn verify_document(bytes: &[u8]) -> Result<(), Issue> {
    verify::<crate::Document>(bytes).map_err(fail_closed_on_versions)
}

/// [`decode`] for text.
pub fn decode_str<T: DeserializeOwned>(text: &str) -> Result<T, Issue> {
    decode(text.as_bytes())
}

/// Decodes any PRP document, choosing its type by its `schema` member.
///
/// A version member outside the supported set fails closed with `unsupported_required_version`.
pub fn decode_document(bytes: &[u8]) -> Result<crate::Document, Issue> {
    decode(bytes).map_err(fail_closed_on_versions)
}

/// The issue for a document of `len` bytes, past the limit.
pub fn too_large(len: u64) -> Issue {
    Issue::new(
        Code::TooLarge,
        "",
        format!("the document is {len} bytes; the limit is {MAX_DOCUMENT_BYTES}"),
    )
}

/// The issue for text whose arrays and objects nest `depth` levels deep, past the limit.
pub fn too_deep(depth: usize) -> Issue {
    Issue::new(
        Code::Keyword(crate::Keyword::TooDeep),
        "",
        format!("arrays and objects nest {depth} levels deep; the limit is {MAX_DEPTH}"),
    )
}

/// The issue for a serde_json error met while decoding `bytes`. A check's failure is read from
/// the runtime's typed record ([`rt::take_failure`]), never from the error's text.
pub fn classify(e: &serde_json::Error, pointer: String, bytes: &[u8]) -> Issue {
    match e.classify() {
        serde_json::error::Category::Syntax
        | serde_json::error::Category::Eof
        | serde_json::error::Category::Io => {
            // serde_json reports its recursion limit as a syntax error: tell the two apart by the
            // input's own depth.
            let depth = rt::nesting_depth(bytes);
            if depth > MAX_DEPTH {
                too_deep(depth)
            } else {
                Issue::new(Code::InvalidJson, "", format!("not valid JSON: {e}"))
            }
        }
        serde_json::error::Category::Data => {
            let text = e.to_string();
            match rt::take_failure(&text) {
                Some(f) => Issue::new(f.code.into(), format!("{pointer}{}", f.rel), f.message),
                None => Issue::new(
                    Code::Keyword(crate::Keyword::Type),
                    pointer,
                    rt::strip_position(&text).to_owned(),
                ),
            }
        }
    }
}

/// The schema whose `type` enum lacks the session-goal commands.
const COMMAND_V1: &str = "paperclip.prp.command.v1";

/// Says why a v1 command with a `session.goal.*` type fails (PROTOCOL §5.3 rule 6): the value is
/// right, the schema is wrong. The code stays `enum`; only the sentence says more.
fn goal_command_v1(mut issue: Issue, bytes: &[u8]) -> Issue {
    let Some(parent) = issue.pointer.strip_suffix("/type") else {
        return issue;
    };
    if issue.code != Code::Keyword(crate::Keyword::Enum) {
        return issue;
    }
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        return issue;
    };
    let Some(command) = doc.pointer(parent) else {
        return issue;
    };
    if command.get("schema").and_then(serde_json::Value::as_str) == Some(COMMAND_V1)
        && let Some(ty) = command.get("type").and_then(serde_json::Value::as_str)
        && ty.starts_with("session.goal.")
    {
        issue.message = format!(
            "session goal commands require the paperclip.prp.command.v2 schema: `{ty}` is not a \
             {COMMAND_V1} type"
        );
    }
    issue
}

/// A check of bytes against one schema, chosen at run time: `Ok`, or the first located issue.
pub type Checker = fn(&[u8]) -> Result<(), Issue>;

/// Decodes bytes against one schema and encodes the typed value back to JSON.
pub type Reencoder = fn(&[u8]) -> Result<serde_json::Value, Issue>;

/// The verdict alone ([`accepts`]) of one schema.
pub type Acceptor = fn(&[u8]) -> bool;

mod table {
    use super::{Acceptor, Checker, Reencoder, accepts, decode, verify};
    use crate::issue::{Code, Issue};
    #[allow(unused_imports)]
    use crate::types::*;

    /// [`decode`] for the table: the verdict, the value dropped.
    fn decodes<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<(), Issue> {
        decode::<T>(bytes)?;
        Ok(())
    }

    /// Decodes, then encodes again through [`crate::encode()`].
    fn reencode<T>(bytes: &[u8]) -> Result<serde_json::Value, Issue>
    where
        T: serde::de::DeserializeOwned + serde::Serialize + crate::Validate,
    {
        reread(&crate::encode(&decode::<T>(bytes)?)?)
    }

    /// An encoder's output read back as a JSON tree.
    fn reread(bytes: &[u8]) -> Result<serde_json::Value, Issue> {
        serde_json::from_slice(bytes)
            .map_err(|e| Issue::new(Code::Keyword(crate::Keyword::Encode), "", e.to_string()))
    }

    macro_rules! checkers {
        ($(($id:expr, $t:ty)),* $(,)?) => {
            /// Every schema root (`$id`) and named definition (`$id#/$defs/NAME`) with its checker.
            /// Its verdict comes from [`verify`]: the decoder's own error for a rejected document.
            pub static CHECKERS: &[(&str, Checker)] = &[$(($id, verify::<$t>)),*];
            /// The same table checking by a full typed [`decode`] (the value is built, then dropped).
            pub static DECODERS: &[(&str, Checker)] = &[$(($id, decodes::<$t>)),*];
            /// The same table giving the verdict alone ([`accepts`]).
            pub static ACCEPTORS: &[(&str, Acceptor)] = &[$(($id, accepts::<$t>)),*];
            /// The same table, decoding and then encoding the typed value again through
            /// [`crate::encode()`] (which validates it first): for round-trip tests and tools that
            /// normalise documents.
            pub static REENCODERS: &[(&str, Reencoder)] = &[$(($id, reencode::<$t>)),*];
        };
    }
    crate::types::for_each_schema_type!(checkers);
}

pub use table::{ACCEPTORS, CHECKERS, DECODERS, REENCODERS};

/// The checker for a schema `$id` (optionally with a `#/$defs/NAME` fragment).
pub fn checker(id: &str) -> Option<Checker> {
    CHECKERS.iter().find(|(k, _)| *k == id).map(|(_, c)| *c)
}

/// Members that carry a required version: a value outside the supported set fails closed.
const VERSION_MEMBERS: &[&str] = &["protocolVersion", "fixtureVersion", "schemaVersion"];

/// Marks a failed `const`/`enum` check on a version member as `unsupported_required_version`.
pub fn fail_closed_on_versions(mut e: Issue) -> Issue {
    let last = e.pointer.rsplit('/').next().unwrap_or("");
    if matches!(
        e.code,
        Code::Keyword(crate::Keyword::Const) | Code::Keyword(crate::Keyword::Enum)
    ) && VERSION_MEMBERS.contains(&last)
    {
        e.message = format!(
            "{last} is unsupported by this implementation: {}",
            e.message
        );
        e.code = Code::UnsupportedRequiredVersion;
    }
    e
}
