//! Differential test: a mutation corpus built from every reference fixture node and every project
//! sample document, judged by the generated types and by the `jsonschema` oracle over the reference
//! schemas. Every disagreement is a bug unless it is listed, with its reason, in `ALLOWED`.

mod support;

use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use support::*;

/// Known, explained disagreements: (schema key substring, mutation label substring, why). Printed by
/// the test. The target is an empty list.
const ALLOWED: &[(&str, &str, &str)] = &[];

/// At most this many distinct bases per schema key: every key keeps its variety, the run stays short.
const BASES_PER_KEY: usize = 6;
/// Mutations reach this deep below a base; deeper values are bases of their own schemas.
const DEPTH: usize = 3;

fn strings_for(s: &str) -> Vec<(String, Value)> {
    let mut out = vec![
        ("append".to_owned(), json!(format!("{s}x"))),
        ("empty".to_owned(), json!("")),
        (
            "version bump".to_owned(),
            json!(s.replace("v1", "v2").replace("v2.", "v9.")),
        ),
    ];
    for n in [
        1usize, 80, 81, 120, 121, 160, 161, 240, 241, 1024, 1025, 4000, 4001,
    ] {
        out.push((format!("ascii x{n}"), json!("a".repeat(n))));
    }
    // Code points at the limit, bytes and UTF-16 units over it.
    for n in [160usize, 161, 240, 241] {
        out.push((format!("latin x{n}"), json!("é".repeat(n))));
    }
    for n in [80usize, 120, 160, 161, 240, 241] {
        out.push((format!("emoji x{n}"), json!("😀".repeat(n))));
    }
    for p in [
        "../x",
        "a/../b",
        "a/..",
        "..",
        "/abs",
        "a\rb",
        "a\nb",
        "a\u{2028}b",
        "-bad",
        "Upper",
        "a b",
        "https://example.test/x",
        "http:/x",
        "ftp://x",
    ] {
        out.push((format!("pattern {p:?}"), json!(p)));
    }
    out.push((
        "digest ok".into(),
        json!(format!("sha256:{}", "a".repeat(64))),
    ));
    out.push((
        "digest upper".into(),
        json!(format!("sha256:{}", "A".repeat(64))),
    ));
    for d in [
        "2026-01-01T00:00:00Z",
        "2026-01-01T00:00:00.000Z",
        "2026-01-01T00:00:00+02:00",
        "2026-01-01T00:00:00.1Z",
        "2026-01-01T00:00:00.1234Z",
        "2026-01-01t00:00:00z",
        "2026-02-30T25:61:61Z",
        "٢٠٢٦-01-01T00:00:00Z",
    ] {
        out.push((format!("date {d}"), json!(d)));
    }
    out
}

fn numbers_for(n: &serde_json::Number) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    if let Some(i) = n.as_i64() {
        for (label, v) in [("-1", i - 1), ("+1", i + 1)] {
            out.push((format!("n{label}"), json!(v)));
        }
        out.push(("as float".into(), json!(i as f64)));
        out.push(("plus half".into(), json!(i as f64 + 0.5)));
    }
    for v in [
        -1i64,
        0,
        1,
        2,
        3,
        90,
        256,
        257,
        4000,
        4001,
        86400,
        86401,
        9_007_199_254_740_991,
        9_007_199_254_740_992,
    ] {
        out.push((format!("int {v}"), json!(v)));
    }
    out.push(("2^63".into(), json!(9_223_372_036_854_775_808u64)));
    out.push((
        "2^64".into(),
        serde_json::from_str("18446744073709551616").unwrap(),
    ));
    out.push(("1e300".into(), serde_json::from_str("1e300").unwrap()));
    out
}

/// String values seen under each member name across the corpus, so that a mutation can swap in a
/// value that is valid somewhere else (another `eventType`, `phase`, `schema`, ...).
type Seen = BTreeMap<String, BTreeSet<String>>;

fn seen_strings(value: &Value, out: &mut Seen) {
    match value {
        Value::Object(m) => {
            for (k, v) in m {
                if let Value::String(s) = v {
                    out.entry(k.clone()).or_default().insert(s.clone());
                }
                seen_strings(v, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| seen_strings(v, out)),
        _ => {}
    }
}

/// Every mutation of `root`: (label, mutated document).
fn mutations(root: &Value, seen: &Seen) -> Vec<(String, Value)> {
    let mut locations = Vec::new();
    collect(root, String::new(), 0, &mut locations);
    let mut out = Vec::new();
    for (pointer, value) in locations {
        let mut replacements: Vec<(String, Value)> = [
            ("null", json!(null)),
            ("true", json!(true)),
            ("zero", json!(0)),
            ("float", json!(1.5)),
            ("string", json!("x")),
            ("array", json!([])),
            ("object", json!({})),
        ]
        .into_iter()
        .map(|(l, v)| (l.to_owned(), v))
        .collect();
        match &value {
            Value::String(s) => {
                replacements.extend(strings_for(s));
                let member = pointer.rsplit('/').next().unwrap_or("");
                if let Some(values) = seen.get(member) {
                    // Spread over the values seen (event types run to a hundred).
                    let step = (values.len() / 12).max(1);
                    for other in values.iter().filter(|v| *v != s).step_by(step).take(12) {
                        replacements.push((format!("swap {other:?}"), json!(other)));
                    }
                }
            }
            Value::Number(n) => replacements.extend(numbers_for(n)),
            Value::Bool(b) => replacements.push(("flip".into(), json!(!b))),
            Value::Array(items) => {
                if let Some(first) = items.first() {
                    let mut dup = items.clone();
                    dup.push(first.clone());
                    replacements.push(("duplicate item".into(), Value::Array(dup)));
                    // JSON equality ignores key order: a reordered copy is still a duplicate.
                    if let Value::Object(m) = first {
                        let reversed: serde_json::Map<String, Value> = m
                            .iter()
                            .rev()
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect();
                        let mut dup = items.clone();
                        dup.push(Value::Object(reversed));
                        replacements.push(("reordered duplicate".into(), Value::Array(dup)));
                    }
                    for n in [64usize, 65, 256, 257] {
                        let mut many: Vec<Value> = (0..n).map(|_| first.clone()).collect();
                        if let Some(Value::Object(m)) = many.first().cloned() {
                            // Distinct copies, so that only the count is at stake.
                            many = (0..n)
                                .map(|i| {
                                    let mut m = m.clone();
                                    m.insert("zzCopy".into(), json!(i));
                                    Value::Object(m)
                                })
                                .collect();
                        }
                        replacements.push((format!("{n} items"), Value::Array(many)));
                    }
                }
            }
            Value::Object(m) => {
                for key in m.keys() {
                    let mut dropped = m.clone();
                    dropped.remove(key);
                    replacements.push((format!("drop {key}"), Value::Object(dropped)));
                }
                let mut extra = m.clone();
                extra.insert("zzUnknown".into(), json!(1));
                replacements.push(("unknown member".into(), Value::Object(extra)));
            }
            Value::Null => {}
        }
        for (label, replacement) in replacements {
            let mut doc = root.clone();
            if pointer.is_empty() {
                doc = replacement;
            } else if let Some(slot) = doc.pointer_mut(&pointer) {
                *slot = replacement;
            }
            out.push((format!("{pointer} {label}"), doc));
        }
    }
    out
}

fn collect(value: &Value, pointer: String, depth: usize, out: &mut Vec<(String, Value)>) {
    out.push((pointer.clone(), value.clone()));
    if depth == DEPTH {
        return;
    }
    match value {
        Value::Object(m) => {
            for (k, v) in m {
                collect(
                    v,
                    format!("{pointer}/{}", escape_pointer_token(k)),
                    depth + 1,
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate().take(3) {
                collect(v, format!("{pointer}/{i}"), depth + 1, out);
            }
        }
        _ => {}
    }
}

/// Every node of a document, scalars included (scalar `$defs` need scalar bases).
fn walk_all(value: &Value, visit: &mut dyn FnMut(&Value)) {
    visit(value);
    match value {
        Value::Object(m) => m.values().for_each(|v| walk_all(v, visit)),
        Value::Array(a) => a.iter().for_each(|v| walk_all(v, visit)),
        _ => {}
    }
}

fn project_documents() -> Vec<Value> {
    json_files(&project_dir().join("fixtures/documents"))
        .iter()
        .map(|p| read_json(p))
        .collect()
}

#[test]
fn typed_decoding_agrees_with_the_oracle_on_mutations() {
    let Some(corpus) = corpus_dir() else { return };
    let oracle = Oracle::from_dirs(&reference_schema_dirs(&corpus));
    // Bases: every container node of the reference fixtures and of the project's own documents,
    // grouped under every schema that accepts them.
    let mut bases: BTreeMap<&str, BTreeMap<String, Value>> = BTreeMap::new();
    let mut docs: Vec<Value> = json_files(&reference_fixture_dir(&corpus))
        .iter()
        .map(|p| read_json(p))
        .collect();
    docs.extend(project_documents());
    for doc in &docs {
        walk_all(doc, &mut |node| {
            for (key, validator) in oracle.validators() {
                if validator.is_valid(node) {
                    let canonical = node.to_string();
                    let slot = bases
                        .entry(
                            prp_types::decode::CHECKERS
                                .iter()
                                .find(|(k, _)| *k == key)
                                .map_or("", |(k, _)| k),
                        )
                        .or_default();
                    if slot.len() < BASES_PER_KEY {
                        slot.insert(canonical, node.clone());
                    }
                }
            }
        });
    }
    bases.remove("");
    let mut seen = Seen::new();
    docs.iter().for_each(|d| seen_strings(d, &mut seen));
    let mut compared = 0usize;
    let mut rejected = 0usize;
    let mut disagreements = Vec::new();
    let mut allowed_hits: BTreeSet<String> = BTreeSet::new();
    for (key, nodes) in &bases {
        let check = prp_types::decode::checker(key).expect("keys come from the checker table");
        let validator = oracle.validator(key);
        for node in nodes.values() {
            for (label, doc) in mutations(node, &seen) {
                let bytes = serde_json::to_vec(&doc).expect("a Value serializes");
                let typed = check(&bytes);
                let expected = validator.is_valid(&doc);
                compared += 1;
                rejected += usize::from(!expected);
                if typed.is_ok() != expected {
                    if let Some((_, _, why)) = ALLOWED
                        .iter()
                        .find(|(k, l, _)| key.contains(k) && label.contains(l))
                    {
                        allowed_hits.insert(format!("{key} {label}: {why}"));
                        continue;
                    }
                    disagreements
                        .push(format!("{key} {label}: oracle {expected}, typed {typed:?}"));
                }
            }
        }
    }
    let keys_without_base: Vec<&str> = prp_types::decode::CHECKERS
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| !bases.contains_key(k))
        .collect();
    println!(
        "{} schema keys with bases, {compared} mutations compared, {rejected} rejected by the oracle",
        bases.len()
    );
    println!("allowed disagreements ({}):", allowed_hits.len());
    for a in &allowed_hits {
        println!("  {a}");
    }
    println!("keys without a base: {keys_without_base:?}");
    let shown: Vec<&String> = disagreements
        .iter()
        .filter(|d| !d.contains("integer_range"))
        .take(60)
        .collect();
    assert!(
        disagreements.is_empty(),
        "{} disagreements, first {}:\n{}",
        disagreements.len(),
        shown.len(),
        shown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(compared > 100_000, "corpus too small: {compared}");
    assert!(
        keys_without_base.is_empty(),
        "schemas without a base document: {keys_without_base:?}"
    );
}

mod round_trip {
    //! Property: for values the oracle accepts, typed decoding accepts them too, encoding gives back
    //! the same JSON value (unknown members, nulls and numbers included), and decoding that again
    //! changes nothing.

    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};

    fn json_leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(|i| json!(i)),
            (-1.0e6f64..1.0e6).prop_map(|f| json!(f)),
            "[a-zA-Z0-9 é😀._:/-]{0,12}".prop_map(Value::String),
        ]
    }

    fn json_value() -> impl Strategy<Value = Value> {
        json_leaf().prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// An edit at the `n`-th location of a document.
    #[derive(Debug, Clone)]
    enum Edit {
        /// Add an unknown member to an object.
        Add(usize, String, Value),
        /// Replace a string leaf.
        Text(usize, String),
        /// Replace a number leaf.
        Number(usize, i64),
    }

    fn edit() -> impl Strategy<Value = Edit> {
        prop_oneof![
            (any::<usize>(), "zz[a-zA-Z]{0,6}", json_value())
                .prop_map(|(n, k, v)| Edit::Add(n, k, v)),
            (any::<usize>(), "[A-Za-z0-9][A-Za-z0-9._:é-]{0,10}")
                .prop_map(|(n, s)| Edit::Text(n, s)),
            (any::<usize>(), 0i64..100_000).prop_map(|(n, i)| Edit::Number(n, i)),
        ]
    }

    fn apply(doc: &mut Value, e: &Edit) {
        let mut pointers = Vec::new();
        fn all(v: &Value, p: String, out: &mut Vec<(String, u8)>) {
            let kind = match v {
                Value::Object(_) => 0,
                Value::String(_) => 1,
                Value::Number(_) => 2,
                _ => 3,
            };
            out.push((p.clone(), kind));
            match v {
                Value::Object(m) => m
                    .iter()
                    .for_each(|(k, c)| all(c, format!("{p}/{}", escape_pointer_token(k)), out)),
                Value::Array(a) => a
                    .iter()
                    .enumerate()
                    .for_each(|(i, c)| all(c, format!("{p}/{i}"), out)),
                _ => {}
            }
        }
        all(doc, String::new(), &mut pointers);
        let (want, n) = match e {
            Edit::Add(n, ..) => (0, *n),
            Edit::Text(n, _) => (1, *n),
            Edit::Number(n, _) => (2, *n),
        };
        let candidates: Vec<&String> = pointers
            .iter()
            .filter(|(_, k)| *k == want)
            .map(|(p, _)| p)
            .collect();
        if candidates.is_empty() {
            return;
        }
        let target = candidates[n % candidates.len()].clone();
        let Some(slot) = doc.pointer_mut(&target) else {
            return;
        };
        match (e, slot) {
            (Edit::Add(_, k, v), Value::Object(m)) => {
                m.insert(k.clone(), v.clone());
            }
            (Edit::Text(_, s), slot) => *slot = json!(s),
            (Edit::Number(_, i), slot) => *slot = json!(i),
            _ => {}
        }
    }

    fn canonical(v: &Value) -> String {
        prp_types::json::canonical(v)
    }

    #[test]
    fn accepted_values_round_trip() {
        let Some(corpus) = corpus_dir() else { return };
        let oracle = Oracle::from_dirs(&reference_schema_dirs(&corpus));
        let mut bases: Vec<(&str, Value)> = Vec::new();
        let mut docs: Vec<Value> = json_files(&reference_fixture_dir(&corpus))
            .iter()
            .map(|p| read_json(p))
            .collect();
        docs.extend(project_documents());
        for doc in &docs {
            walk_containers(doc, &mut |_, node| {
                for (key, _) in prp_types::decode::REENCODERS {
                    if oracle.get(key).is_some_and(|v| v.is_valid(node))
                        && bases.iter().filter(|(k, _)| k == key).count() < 4
                    {
                        bases.push((key, node.clone()));
                    }
                }
            });
        }
        let mut runner = TestRunner::new(Config {
            cases: 600,
            failure_persistence: None,
            ..Config::default()
        });
        let accepted = std::cell::Cell::new(0usize);
        let strategy = (0..bases.len(), prop::collection::vec(edit(), 1..5));
        runner
            .run(&strategy, |(i, edits)| {
                let (key, base) = &bases[i];
                let mut doc = base.clone();
                edits.iter().for_each(|e| apply(&mut doc, e));
                if !oracle.is_valid(key, &doc) {
                    return Ok(());
                }
                accepted.set(accepted.get() + 1);
                let reencode = prp_types::decode::REENCODERS
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, f)| *f)
                    .unwrap();
                let first = reencode(&serde_json::to_vec(&doc).unwrap());
                prop_assert!(
                    first.is_ok(),
                    "{key}: oracle accepts but typed rejects: {first:?}\n{doc}"
                );
                let first = first.unwrap();
                prop_assert_eq!(
                    canonical(&first),
                    canonical(&doc),
                    "{} changed on encode",
                    key
                );
                let second = reencode(&serde_json::to_vec(&first).unwrap()).unwrap();
                prop_assert_eq!(first, second);
                Ok(())
            })
            .unwrap();
        println!("{} accepted edited values round-tripped", accepted.get());
        assert!(
            accepted.get() > 100,
            "too few accepted cases: {}",
            accepted.get()
        );
    }
}

/// The single-scan pattern matcher against `regress` (the engine it stands in for): every pattern of
/// the project's schemas and a set of synthetic ones probing the subset's edges, on every string of
/// the sample documents, its one-character edits and all short strings over the pattern's alphabet.
mod patterns {
    use super::*;
    use prp_types::types::rt::Pattern;

    const SYNTHETIC: &[&str] = &[
        "^",
        "^$",
        "^a?b$",
        "^a{0}b$",
        "^a{2,}b",
        "^x{3}",
        "^a{1,3}$",
        "^\\d{2,4}-\\w+$",
        "^[\\-.]+$",
        "^[a-]$",
        "^[-a]$",
        "^\\.\\*/$",
        "^[A-Z][a-z]*[0-9]?$",
        "^[a-c]*c$",
        "^a*a",
        "^a?a?b*$",
        "^(ab)+$",
        "^a*?$",
        "^[^a]$",
        "^a|b$",
        "a$",
        "^.$",
        "^[\\d-z]$",
        "^https?://",
        "^sha256:[a-f0-9]{4}$",
    ];

    fn schema_patterns(value: &Value, out: &mut BTreeSet<String>) {
        walk_all(value, &mut |v| {
            if let Some(p) = v.get("pattern").and_then(Value::as_str) {
                out.insert(p.to_owned());
            }
        });
    }

    fn probes(pattern: &str, samples: &BTreeSet<String>) -> BTreeSet<String> {
        let mut alphabet: BTreeSet<char> = pattern.chars().filter(|c| c.is_ascii()).collect();
        alphabet.extend([
            'a', 'Z', '0', '_', '-', '.', '/', ':', ' ', '\n', '\r', 'é', '😀',
        ]);
        alphabet.insert('\u{2028}');
        let alphabet: Vec<char> = alphabet.into_iter().collect();
        let mut out: BTreeSet<String> = samples.clone();
        out.insert(String::new());
        let mut short: Vec<String> = vec![String::new()];
        for _ in 0..3 {
            short = short
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            out.extend(short.iter().cloned());
        }
        for s in samples {
            let chars: Vec<char> = s.chars().collect();
            for at in 0..=chars.len() {
                let (head, tail) = chars.split_at(at);
                let head: String = head.iter().collect();
                if let Some((_, rest)) = tail.split_first() {
                    out.insert(format!("{head}{}", rest.iter().collect::<String>()));
                }
                for c in ['a', '-', '/', '\n', 'é', '{'] {
                    out.insert(format!("{head}{c}{}", tail.iter().collect::<String>()));
                }
            }
        }
        out
    }

    #[test]
    fn the_scan_matcher_agrees_with_regress() {
        let mut patterns = BTreeSet::new();
        for path in json_files(&project_schema_dir()) {
            schema_patterns(&read_json(&path), &mut patterns);
        }
        assert!(!patterns.is_empty(), "no pattern found in schemas/");
        let mut samples = BTreeSet::new();
        for doc in project_documents() {
            walk_all(&doc, &mut |v| {
                if let Some(s) = v.as_str() {
                    samples.insert(s.to_owned());
                }
            });
        }
        samples.insert(format!("sha256:{}", "0123456789abcdef".repeat(4)));
        samples.insert("sha256:abcd".to_owned());

        let (mut scans, mut checked) = (0, 0usize);
        for source in patterns
            .iter()
            .map(String::as_str)
            .chain(SYNTHETIC.iter().copied())
        {
            let pattern = Pattern::new(Box::leak(source.to_owned().into_boxed_str()));
            let regex = regress::Regex::new(source).expect("pattern compiles");
            scans += usize::from(pattern.is_scan());
            for s in probes(source, &samples) {
                assert_eq!(
                    pattern.is_match(&s),
                    regex.find(&s).is_some(),
                    "pattern {source:?} on {s:?} (scan: {})",
                    pattern.is_scan()
                );
                checked += 1;
            }
        }
        println!(
            "{} patterns ({} schema), {scans} as scans, {checked} comparisons",
            patterns.len() + SYNTHETIC.len(),
            patterns.len()
        );
        // The identifier, digest and URL patterns of the schemas must not need regress.
        for source in [
            "^[A-Za-z0-9][A-Za-z0-9._:-]*$",
            "^sha256:[a-f0-9]{64}$",
            "^https?://",
        ] {
            assert!(
                Pattern::new(source).is_scan(),
                "{source} should run as a scan"
            );
        }
        assert!(!Pattern::new("^(ab)+$").is_scan());
        assert!(!Pattern::new("^[a-c]*c$").is_scan());
    }
}
