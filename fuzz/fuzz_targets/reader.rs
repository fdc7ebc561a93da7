//! Arbitrary text into the runtime's reader (`rt::reader`) and into serde_json:
//! ignoring a value, reading it as a `Value`, as a `RawValue` and with the strict any-value seed,
//! the two must accept the same texts and hand over the same values.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prp_types::types::rt::{self, reader::Reader};
use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny};
use serde_json::{Value, value::RawValue};

fn by_reader<T: DeserializeOwned>(text: &str) -> Option<T> {
    let mut reader = Reader::new(text);
    let value = T::deserialize(&mut reader).ok()?;
    reader.end().then_some(value)
}

fn strict(text: &str) -> (Option<Value>, Option<Value>) {
    let mut reader = Reader::new(text);
    let ours = rt::AnyValue.deserialize(&mut reader).ok().filter(|_| reader.end());
    let mut de = serde_json::Deserializer::from_str(text);
    let theirs = rt::AnyValue.deserialize(&mut de).ok().filter(|_| de.end().is_ok());
    (ours, theirs)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    assert_eq!(
        by_reader::<IgnoredAny>(text).is_some(),
        serde_json::from_str::<IgnoredAny>(text).is_ok()
    );
    assert_eq!(by_reader::<Value>(text), serde_json::from_str::<Value>(text).ok());
    assert_eq!(
        by_reader::<Box<RawValue>>(text).map(|r| r.get().to_owned()),
        serde_json::from_str::<Box<RawValue>>(text).ok().map(|r| r.get().to_owned())
    );
    let (ours, theirs) = strict(text);
    assert_eq!(ours, theirs);
});
