//! Arbitrary bytes into every decoder that takes input: the document union, the replay fixture
//! contract pipeline, and one schema by `$id`. None may panic, overflow the stack or run away, and
//! the verdict-only check must say what the typed decode says.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = prp_types::decode_document(data);
    let _ = prp_types::contract::validate_fixture_bytes(data);
    let _ = prp_types::contract::validate_event_bytes(data);
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
