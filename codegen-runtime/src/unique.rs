//! Arrays' item counts and `uniqueItems`: equality under JSON Schema's rules (`1` equals `1.0`,
//! member order ignored), found by hashing each item's text.

use crate::__private::*;

/// The first way an array breaks its item count or uniqueness rule, if any.
pub fn items_failure<T: serde::Serialize>(
    items: &[T],
    min: Option<u64>,
    max: Option<u64>,
    unique: bool,
) -> Result<(), Failure> {
    let n = items.len();
    if let Some(min) = min.filter(|&m| (n as u64) < m) {
        return Err(Failure::new(
            Keyword::MinItems,
            "",
            format!("array has {n} items; at least {min} required"),
        ));
    }
    if let Some(max) = max.filter(|&m| (n as u64) > m) {
        return Err(Failure::new(
            Keyword::MaxItems,
            "",
            format!("array has {n} items; at most {max} allowed"),
        ));
    }
    if unique && let Some((i, j)) = first_duplicate(items) {
        return Err(Failure::new(
            Keyword::UniqueItems,
            "",
            format!("items {i} and {j} are equal"),
        ));
    }
    Ok(())
}

/// `value` as a JSON tree, written by the compact text encoder and read back. A generated type's
/// encoder is then compiled for that one serializer, not also for `serde_json::to_value`'s tree
/// builder, which doubled every struct's encoding code in a generated crate. The round trip is
/// exact (integers as written, floats as their shortest round-trip text), at the cost of a text
/// buffer on paths that are not hot (a snapshot's payloads, a rule's check of a built value).
pub fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<serde_json::Value> {
    tree(&serde_json::to_vec(value)?)
}

/// The JSON tree of a text this crate's encoder wrote.
fn tree(text: &[u8]) -> serde_json::Result<serde_json::Value> {
    let mut reader = serde_json::Deserializer::from_slice(text);
    // The text was written from a value already in memory: any depth it has is the value's own.
    reader.disable_recursion_limit();
    let tree = serde::Deserialize::deserialize(&mut reader)?;
    reader.end()?;
    Ok(tree)
}

/// Finds two equal items under JSON equality (key order ignored, `1 == 1.0`). The items are
/// written as text ([`to_json`]'s reason: one encoder per type) and hashed as text, by a hash equal
/// for equal values; only when two hashes meet are the items compared as trees.
pub fn first_duplicate<T: serde::Serialize>(items: &[T]) -> Option<(usize, usize)> {
    if items.len() < 2 {
        return None;
    }
    let texts: Vec<Vec<u8>> = items
        .iter()
        .map(|item| serde_json::to_vec(item).unwrap_or_else(|_| b"null".to_vec()))
        .collect();
    first_equal_text(&texts)
}

/// [`first_duplicate`] over the items' compact texts.
fn first_equal_text(texts: &[Vec<u8>]) -> Option<(usize, usize)> {
    let mut hashes: Vec<u64> = texts.iter().map(|t| text_hash(t, &mut 0)).collect();
    hashes.sort_unstable();
    if hashes.windows(2).all(|w| w[0] != w[1]) {
        return None;
    }
    let values: Vec<serde_json::Value> = texts
        .iter()
        .map(|t| tree(t).unwrap_or(serde_json::Value::Null))
        .collect();
    first_equal(&values)
}

/// A hash of the value that starts at `*at` in `text` (compact JSON as serde_json writes it),
/// passing over it. Values [`json_eq`] finds equal hash alike: an object's members are summed in
/// any order, and a number is hashed as [canonical](prp_vocabulary::canonical) writes it (`1.0` as `1`); a string has one
/// spelling, so its bytes serve.
fn text_hash(text: &[u8], at: &mut usize) -> u64 {
    const OBJECT: u64 = 0x6f62_6a65_6374;
    const ARRAY: u64 = 0x0061_7272_6179;
    // serde_json writes no whitespace, but a raw value kept as written might.
    let ws = |at: &mut usize| {
        while text.get(*at).is_some_and(u8::is_ascii_whitespace) {
            *at += 1;
        }
    };
    ws(at);
    let hash = match text.get(*at) {
        Some(b'{') => {
            *at += 1;
            let mut sum = 0u64;
            ws(at);
            while text.get(*at).is_some_and(|&b| b != b'}') {
                let key = text_hash(text, at);
                *at += 1; // the colon
                sum = sum.wrapping_add(mix(key, text_hash(text, at)));
                if text.get(*at) == Some(&b',') {
                    *at += 1;
                    ws(at);
                }
            }
            *at += 1;
            mix(OBJECT, sum)
        }
        Some(b'[') => {
            *at += 1;
            let mut h = ARRAY;
            ws(at);
            while text.get(*at).is_some_and(|&b| b != b']') {
                h = mix(h, text_hash(text, at));
                if text.get(*at) == Some(&b',') {
                    *at += 1;
                    ws(at);
                }
            }
            *at += 1;
            mix(h, ARRAY)
        }
        Some(b'"') => {
            let start = *at;
            *at += 1;
            while let Some(&b) = text.get(*at) {
                *at += if b == b'\\' { 2 } else { 1 };
                if b == b'"' {
                    break;
                }
            }
            bytes_hash(text.get(start..*at).unwrap_or(&text[start..]))
        }
        _ => {
            let start = *at;
            while text.get(*at).is_some_and(|b| {
                !matches!(b, b',' | b']' | b'}' | b':') && !b.is_ascii_whitespace()
            }) {
                *at += 1;
            }
            number_hash(text.get(start..*at).unwrap_or_default())
        }
    };
    ws(at);
    hash
}

/// The hash of a number or literal token, a float with no fraction written as [canonical](prp_vocabulary::canonical)
/// writes it.
fn number_hash(token: &[u8]) -> u64 {
    if token.iter().any(|b| matches!(b, b'.' | b'e' | b'E'))
        && let Some(f) = std::str::from_utf8(token)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
        && f.fract() == 0.0
        && f.abs() < 1e21
    {
        return bytes_hash(format!("{:.0}", f + 0.0).as_bytes());
    }
    bytes_hash(token)
}

/// FNV-1a.
fn bytes_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Two hashes as one, order mattering.
fn mix(a: u64, b: u64) -> u64 {
    (a.rotate_left(27) ^ b).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// [`first_duplicate`] over the items' trees: short lists (the usual case) pair by pair, long ones
/// through canonical texts.
fn first_equal(values: &[serde_json::Value]) -> Option<(usize, usize)> {
    if values.len() <= 16 {
        return (1..values.len()).find_map(|j| {
            (0..j)
                .find(|&i| json_eq(&values[i], &values[j]))
                .map(|i| (i, j))
        });
    }
    let mut seen = std::collections::HashMap::with_capacity(values.len());
    for (j, value) in values.iter().enumerate() {
        let mut key = String::new();
        prp_vocabulary::canonical::write(value, &mut key);
        if let Some(&i) = seen.get(&key) {
            return Some((i, j));
        }
        seen.insert(key, j);
    }
    None
}

/// JSON equality: the relation [canonical](prp_vocabulary::canonical) texts encode, without writing them.
pub fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| json_eq(v, w))
        }
        (Value::Number(x), Value::Number(y)) => {
            x == y || {
                let (mut p, mut q) = (String::new(), String::new());
                prp_vocabulary::canonical::write(a, &mut p);
                prp_vocabulary::canonical::write(b, &mut q);
                p == q
            }
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// `to_json` gives the tree `serde_json::to_value` gives: numbers exactly, members in order.
    #[test]
    fn to_json_is_to_value() {
        let samples = [
            json!({"z": 1, "a": [1.0, -0.0, 1e300, 0.1, 5e-324], "m": {"y": null, "b": true}}),
            json!([u64::MAX, i64::MIN, "é\n\"\u{1}", {}, []]),
            json!(2.5e-8),
        ];
        for sample in samples {
            let ours = to_json(&sample).unwrap();
            assert_eq!(ours, serde_json::to_value(&sample).unwrap());
            let order = |v: &Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>());
            assert_eq!(order(&ours), order(&sample));
        }
        assert_eq!(to_json(&f64::NAN).unwrap(), Value::Null);
    }

    /// `uniqueItems` equality is JSON equality: member order and number spelling aside.
    #[test]
    fn first_duplicate_is_json_equality() {
        assert_eq!(first_duplicate(&["a", "b", "a"]), Some((0, 2)));
        assert_eq!(first_duplicate(&["a", "A", "a ", "\"a\""]), None);
        assert_eq!(first_duplicate(&["e\u{301}", "é", "\u{e9}"]), Some((1, 2)));
        assert_eq!(
            first_duplicate(&[json!(1), json!("1"), json!(1.0)]),
            Some((0, 2))
        );
        assert_eq!(
            first_duplicate(&[json!(true), json!(null), json!(false)]),
            None
        );
        let raw = |t: &str| serde_json::value::RawValue::from_string(t.to_string()).unwrap();
        let spaced = [
            raw(r#"{"a": [1, 2], "b": {}}"#),
            raw(r#"{ "b" : { } , "a":[1,2.0] }"#),
        ];
        assert_eq!(first_duplicate(&spaced), Some((0, 1)));
        let objects = [json!({"a": 1, "b": [2]}), json!({"b": [2.0], "a": 1})];
        assert_eq!(first_duplicate(&objects), Some((0, 1)));
        let many: Vec<String> = (0..40).map(|i| format!("n{}", i % 33)).collect();
        assert_eq!(first_duplicate(&many), Some((0, 33)));
        let mut trees: Vec<Value> = (0..40).map(|i| json!({"k": i, "z": [i]})).collect();
        assert_eq!(first_duplicate(&trees), None);
        trees.push(json!({"z": [7.0], "k": 7}));
        assert_eq!(first_duplicate(&trees), Some((7, 40)));
    }

    /// Text the encoder would never write (cut short, unbalanced) is hashed without a panic.
    #[test]
    fn text_hash_survives_broken_text() {
        let whole = br#"{"a":[1,"x\"y",{"b":null}],"c":-2.5e3}"#;
        for cut in 0..=whole.len() {
            let texts = [
                whole[..cut].to_vec(),
                b"[7]".to_vec(),
                whole[..cut].to_vec(),
            ];
            // Equal texts always hash alike, so the pair is found (as trees, both `null` if broken).
            assert_eq!(
                super::first_equal_text(&texts),
                Some((0, 2)),
                "cut at {cut}"
            );
        }
    }

    /// The text hash agrees with the trees: equal values (members reordered, `1` written `1.0`)
    /// are found, unequal ones are not, on many generated lists.
    #[test]
    fn first_duplicate_by_hash_matches_trees() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        fn value(next: &mut impl FnMut(u64) -> u64, depth: u32) -> Value {
            match next(if depth > 2 { 6 } else { 8 }) {
                0 => json!(next(3)),
                1 => json!(next(3) as f64),
                2 => json!(-0.0),
                3 => json!(["x", "y", "x\"", "\\"][next(4) as usize]),
                4 => [json!(true), json!(false), json!(null)][next(3) as usize].clone(),
                5 => json!(0.5 * next(3) as f64),
                6 => Value::Array((0..next(3)).map(|_| value(next, depth + 1)).collect()),
                _ => {
                    let mut keys = vec!["a", "b", "c"];
                    keys.truncate(next(4) as usize);
                    if next(2) == 0 {
                        keys.reverse();
                    }
                    let members = keys
                        .into_iter()
                        .map(|k| (k.to_string(), value(next, depth + 1)));
                    Value::Object(members.collect())
                }
            }
        }
        let mut found = 0;
        for _ in 0..3000 {
            let n = 2 + next(5) as usize;
            let items: Vec<Value> = (0..n).map(|_| value(&mut next, 0)).collect();
            let expected = first_equal(&items);
            found += usize::from(expected.is_some());
            assert_eq!(first_duplicate(&items), expected, "{items:?}");
        }
        assert!(
            found > 300,
            "too few lists with equal items to test: {found}"
        );
    }

    /// A value deeper than serde_json's parsing limit (128) still converts: its depth is its own.
    #[test]
    fn to_json_keeps_deep_values() {
        let mut deep = json!("leaf");
        for _ in 0..300 {
            deep = json!([deep]);
        }
        assert_eq!(to_json(&deep).unwrap(), deep);
    }
}
