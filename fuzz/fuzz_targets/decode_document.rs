//! Arbitrary bytes into every decoder that takes input: the document union, the replay fixture
//! contract pipeline, and one schema by `$id`. None may panic, overflow the stack or run away, the
//! verdict-only check must say what the typed decode says, and a refused document must be located
//! as serde_json with its path tracked locates it (the design the reader's own pointers replaced).
#![no_main]

use libfuzzer_sys::fuzz_target;
use prp_types::issue::{Code, Issue};
use prp_types::types::rt;

fuzz_target!(|data: &[u8]| {
    let decoded = prp_types::decode_document(data);
    match (&decoded, tracked(data)) {
        (_, None) => {}
        (Ok(_), Some(Ok(()))) => {}
        (Err(issue), Some(Err(expected))) => {
            assert_eq!(issue.code, expected.code, "code differs from the tracked decode");
            assert_eq!(issue.pointer, expected.pointer, "pointer differs from the tracked decode");
            // (Text that is not JSON: the line and column may name another number out of range.)
            if issue.code != Code::InvalidJson && !issue.message.starts_with("session goal commands") {
                assert_eq!(issue.message, expected.message, "message differs");
            }
        }
        (got, Some(expected)) => panic!("verdicts differ: {:?} vs tracked {expected:?}", got.as_ref().map(|_| ())),
    }
    let _ = prp_peer::contract::validate_fixture_bytes(data);
    let _ = prp_peer::contract::validate_event_bytes(data);
    if let Some(&first) = data.first() {
        let i = first as usize % prp_types::decode::CHECKERS.len();
        let (_, check) = prp_types::decode::CHECKERS[i];
        let (_, decode) = prp_types::decode::DECODERS[i];
        let (_, accepts) = prp_types::decode::ACCEPTORS[i];
        let decoded = decode(&data[1..]);
        assert_eq!(accepts(&data[1..]), decoded.is_ok(), "verdict and decode differ");
        assert_eq!(check(&data[1..]), decoded, "the checker and decode differ");
    }
});

/// The issue serde_json, with serde_path_to_error tracking the path, gives a document whose text
/// is JSON (`None` for text that is not, or too large or deep).
fn tracked(data: &[u8]) -> Option<Result<(), Issue>> {
    // (serde_json's tracked decode could call text that is not UTF-8 a type error; it is not
    // JSON, and `decode` says so as the contract stage does.)
    std::str::from_utf8(data).ok()?;
    serde_json::from_slice::<serde::de::IgnoredAny>(data).ok()?;
    if data.len() > prp_types::decode::MAX_DOCUMENT_BYTES
        || rt::nesting_depth(data) > prp_types::decode::MAX_DEPTH
    {
        return None;
    }
    rt::clear_failure();
    let mut de = serde_json::Deserializer::from_slice(data);
    let mut track = serde_path_to_error::Track::new();
    let d = serde_path_to_error::Deserializer::new(&mut de, &mut track);
    let e = match <prp_types::Document as serde::Deserialize>::deserialize(d) {
        Ok(_) => return Some(Ok(())),
        Err(e) => e,
    };
    let mut pointer = String::new();
    for segment in track.path().iter() {
        match segment {
            serde_path_to_error::Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
            serde_path_to_error::Segment::Map { key } => {
                pointer.push('/');
                pointer.push_str(&rt::escape_token(key));
            }
            _ => {}
        }
    }
    if !e.is_data() {
        // The old design's words for text serde_json finds is not JSON only as it reads a value.
        return Some(Err(Issue::new(Code::InvalidJson, "", format!("not valid JSON: {e}"))));
    }
    let text = e.to_string();
    let issue = match rt::take_failure(&text) {
        Some(f) => Issue::new(f.code.into(), format!("{pointer}{}", f.rel), f.message),
        None => Issue::new(Code::Keyword(prp_types::Keyword::Type), pointer, rt::strip_position(&text)),
    };
    Some(Err(prp_types::decode::fail_closed_on_versions(issue)))
}
