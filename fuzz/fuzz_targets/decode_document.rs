//! Arbitrary bytes into every decoder that takes input: the document union, the replay fixture
//! contract pipeline, and one schema by `$id`. None may panic, overflow the stack or run away.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = prp_types::decode_document(data);
    let _ = prp_types::contract::validate_fixture_bytes(data);
    let _ = prp_types::contract::validate_event_bytes(data);
    if let Some(&first) = data.first() {
        let (_, check) = prp_types::decode::CHECKERS[first as usize % prp_types::decode::CHECKERS.len()];
        let _ = check(&data[1..]);
    }
});
