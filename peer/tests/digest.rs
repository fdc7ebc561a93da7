//! Digests and redaction (PROTOCOL §4.11) as properties: no secret survives redaction, redaction
//! is idempotent within the limits, and a digest does not depend on key order.

use proptest::prelude::*;
use prp_peer::digest::{self, MAX_ITEMS, MAX_KEYS, canonical_json, digest, inspect, redact};
use serde_json::{Map, Value, json};

/// Secrets as the rules define them: the text and the part of it that must not survive.
fn secret() -> impl Strategy<Value = (String, String)> {
    let tail = "[A-Za-z0-9_-]{8,20}";
    prop_oneof![
        tail.prop_map(|t| (format!("Bearer {t}"), t)),
        ("(sk|pk|pcgw|ghp|github_pat)", tail).prop_map(|(p, t)| (format!("{p}_{t}"), t)),
        (tail, tail, tail).prop_map(|(a, b, c)| (format!("eyJ{a}.{b}.{c}"), format!("{b}.{c}"))),
        (
            "(code|key|secret|state|token|api_key|access-token)",
            "[a-z0-9]{6,12}"
        )
            .prop_map(|(k, v)| (format!("https://h.test/p?{k}={v}"), format!("={v}"))),
    ]
}

/// JSON values with ordinary text, secrets inside text, and sensitive keys.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(|x| json!(x)),
        any::<i32>().prop_map(Value::from),
        "[ a-zé😀.?&=_-]{0,16}".prop_map(Value::from),
        ("[a-z ]{0,6}", secret(), "[a-z ]{0,6}")
            .prop_map(|(a, (s, _), b)| Value::from(format!("{a} {s} {b}"))),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::vec(
                (
                    prop_oneof![
                        "[a-z]{1,8}",
                        Just("password".to_owned()),
                        Just("x-api-key".to_owned())
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// The same value with every object's keys in reverse order.
fn reversed(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .rev()
                .map(|(k, x)| (k.clone(), reversed(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(reversed).collect()),
        other => other.clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn no_secret_survives_redaction(
        (s, core) in secret(),
        prefix in "[a-z ]{0,8}",
        key in "[a-z]{1,8}",
    ) {
        let v = json!({ key.clone(): format!("{prefix} {s}"), "list": [s.clone()] });
        let text = canonical_json(&redact(&v));
        prop_assert!(!text.contains(&core), "{core} left in {text}");
        prop_assert!(digest::looks_secret(&s));
        prop_assert!(inspect(&v).contains_protected_data);
    }

    #[test]
    fn redaction_is_idempotent_within_the_limits(v in value()) {
        let once = redact(&v);
        prop_assert_eq!(redact(&once), once);
    }

    #[test]
    fn a_digest_does_not_depend_on_key_order(v in value()) {
        prop_assert_eq!(digest(&v), digest(&reversed(&v)));
        prop_assert_eq!(canonical_json(&redact(&v)), canonical_json(&redact(&reversed(&v))));
    }
}

#[test]
fn at_the_key_limit_redaction_is_not_idempotent() {
    // The added truncation key counts as a key, and sorts first: a second pass drops another.
    let wide: Map<String, Value> = (0..MAX_KEYS + 1)
        .map(|i| (format!("k{i:04}"), json!(i)))
        .collect();
    let once = redact(&Value::Object(wide));
    let twice = redact(&once);
    assert_ne!(twice, once);
    assert!(once.get("k0511").is_some() && twice.get("k0511").is_none());
    // An array cut at the item limit ends in the marker, which the second pass writes again.
    let long: Vec<u32> = (0..MAX_ITEMS as u32 + 1).collect();
    let once = redact(&json!(long));
    assert_eq!(redact(&once), once);
}

#[test]
fn a_sensitive_member_is_redacted_whatever_it_holds() {
    let v = json!({"clientSecret": {"nested": [1, 2, {"deep": "x"}]}, "ok": "fine"});
    assert_eq!(
        redact(&v),
        json!({"clientSecret": "[REDACTED]", "ok": "fine"})
    );
    // printf '{"clientSecret":"[REDACTED]","ok":"fine"}' | sha256sum
    assert_eq!(
        digest(&v),
        "sha256:10724984fea09b9697bf4417a8e55546345f2a773ba6c457670f71889ebab657"
    );
}
