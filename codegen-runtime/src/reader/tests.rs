//! The reader against serde_json, the reader's definition of right: the same verdict and the
//! same `Value` for JSON texts written from arbitrary values (compact and pretty), and the same
//! verdict for those texts cut short or with one byte changed.
use super::*;
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::Value;

fn by_reader(text: &str) -> Option<Value> {
    let mut reader = Reader::new(text);
    let value = Value::deserialize(&mut reader).ok()?;
    reader.end().then_some(value)
}

fn by_serde_json(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok()
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON has no NaN or infinity", |f| f.is_finite())
            .prop_map(Value::from),
        "(?s).{0,12}".prop_map(Value::String),
        "[\"\\\\/\u{0}-\u{1f}a\u{e9}\u{1F600}]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-z\"\\\\]{0,4}", inner), 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn reads_what_serde_json_reads(v in json(), pretty in any::<bool>()) {
        let text = if pretty {
            serde_json::to_string_pretty(&v).unwrap()
        } else {
            serde_json::to_string(&v).unwrap()
        };
        prop_assert_eq!(by_reader(&text), by_serde_json(&text));
        prop_assert!(by_reader(&text).is_some());
    }

    #[test]
    fn refuses_what_serde_json_refuses(v in json(), cut in any::<prop::sample::Index>(), byte in 0x20u8..0x7f, change in any::<bool>()) {
        let mut text = serde_json::to_string(&v).unwrap().into_bytes();
        let at = cut.index(text.len() + 1);
        if change && at < text.len() {
            text[at] = byte;
        } else {
            text.truncate(at);
        }
        // A changed byte may split a character: only UTF-8 texts reach the reader.
        if let Ok(text) = String::from_utf8(text) {
            prop_assert_eq!(by_reader(&text).is_some(), by_serde_json(&text).is_some(), "{}", text);
            prop_assert_eq!(by_reader(&text), by_serde_json(&text));
        }
    }
}

#[test]
fn refusals_are_located() {
    // A type mismatch: serde_json's sentence, and the pointer of the value.
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        b: bool,
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        a: Vec<Inner>,
    }
    let text = r#"{"a": [{"b": true}, {"b": 1}]}"#;
    assert!(Outer::deserialize(&mut Reader::new(text)).is_err());
    let refusal = last_refusal();
    assert_eq!(
        (refusal.pointer.as_str(), refusal.syntax),
        ("/a/1/b", false)
    );
    assert!(
        refusal
            .message
            .starts_with("invalid type: integer `1`, expected a boolean")
    );
    let words = serde_json::from_str::<Outer>(text).unwrap_err().to_string();
    assert!(words.starts_with(&refusal.message), "{words}");
    // A syntax error is only marked as one.
    assert!(Value::deserialize(&mut Reader::new(r#"{"a/~": [tru]}"#)).is_err());
    assert!(last_refusal().syntax);
    assert_eq!(
        by_reader("18446744073709551616"),
        by_serde_json("18446744073709551616")
    );
    assert_eq!(by_reader(" [1e400] "), None);
}

/// A string that refuses more than two characters, as a generated check does: through `fail`.
struct Short;

impl<'de> Deserialize<'de> for Short {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Short, D::Error> {
        let s = String::deserialize(d)?;
        if s.chars().count() > 2 {
            return Err(crate::fail(crate::Keyword::MaxLength, "", "too long"));
        }
        Ok(Short)
    }
}

/// The reader's record of a refusal holds the check's typed failure, located where the reader
/// stopped, and nothing is left for `take_failure`. serde_json's error holds text only, so there
/// the failure is read back beside it.
#[test]
fn a_check_s_failure_is_in_the_reader_s_record() {
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        names: Vec<Short>,
    }
    crate::clear_failure();
    let text = r#"{"names": ["ab", "abc"]}"#;
    assert!(Outer::deserialize(&mut Reader::new(text)).is_err());
    let refusal = last_refusal();
    let failure = refusal.failure.expect("the check's failure");
    assert_eq!(
        (
            refusal.pointer.as_str(),
            failure.code,
            failure.message.as_str()
        ),
        ("/names/1", crate::Keyword::MaxLength, "too long")
    );
    assert_eq!(
        crate::take_failure("too long"),
        None,
        "nothing beside the error"
    );
    let error = serde_json::from_str::<Outer>(text).map(|_| ()).unwrap_err();
    let failure = crate::take_failure(&error.to_string()).expect("recorded beside the error");
    assert_eq!(failure.code, crate::Keyword::MaxLength);
    // A type mismatch is no check's failure.
    assert!(Outer::deserialize(&mut Reader::new(r#"{"names": [1]}"#)).is_err());
    assert_eq!(last_refusal().failure, None);
}
