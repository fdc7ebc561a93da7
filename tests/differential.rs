//! Differential test: a mutation corpus built from every reference fixture node and every project
//! sample document, judged by the generated types and by the `jsonschema` oracle over the reference
//! schemas. Every disagreement is a bug unless it is listed, with its reason, in `ALLOWED`.

use prp_testkit as support;

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

/// The function a schema table holds for `key`.
fn entry<F: Copy>(table: &[(&str, F)], key: &str) -> F {
    table
        .iter()
        .find(|(k, _)| *k == key)
        .map(|e| e.1)
        .expect("every table has every schema key")
}

#[test]
fn typed_decoding_agrees_with_the_oracle_on_mutations() {
    let Some(corpus) = corpus_dir() else { return };
    let Some(contract) = contract_dir() else {
        return;
    };
    let oracle = Oracle::from_dirs(&reference_schema_dirs(&contract));
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
    let mut verdict_mismatches = Vec::new();
    let mut allowed_hits: BTreeSet<String> = BTreeSet::new();
    for (key, nodes) in &bases {
        let check = prp_types::decode::checker(key).expect("keys come from the checker table");
        let decode = entry(prp_types::decode::DECODERS, key);
        let accept = entry(prp_types::decode::ACCEPTORS, key);
        let validator = oracle.validator(key);
        for node in nodes.values() {
            for (label, doc) in mutations(node, &seen) {
                let bytes = serde_json::to_vec(&doc).expect("a Value serializes");
                let typed = check(&bytes);
                let expected = validator.is_valid(&doc);
                // The verdict alone, and the checker built on it, say exactly what the full
                // typed decode says, error included.
                let decoded = decode(&bytes);
                if accept(&bytes) != decoded.is_ok() || typed != decoded {
                    verdict_mismatches.push(format!(
                        "{key} {label}: decode {decoded:?}, accepts {}, check {typed:?}",
                        accept(&bytes)
                    ));
                }
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
    assert!(
        verdict_mismatches.is_empty(),
        "{} verdicts differ from the typed decode's, first:\n{}",
        verdict_mismatches.len(),
        verdict_mismatches[..verdict_mismatches.len().min(40)].join("\n")
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
        prp_vocabulary::canonical::to_string(v)
    }

    #[test]
    fn accepted_values_round_trip() {
        let Some(corpus) = corpus_dir() else { return };
        let Some(contract) = contract_dir() else {
            return;
        };
        let oracle = Oracle::from_dirs(&reference_schema_dirs(&contract));
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
    use prp_codegen_runtime::__private::Pattern;

    const SYNTHETIC: &[&str] = &[
        "^",
        "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{3})?Z$",
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$",
        "^a(?:bc)?d$",
        "^a(?:bc)?",
        "^x*(?:-\\d{2})?y$",
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
            // Patterns are ECMA-262 in Unicode mode, as the generator compiles them; a synthetic
            // pattern that mode refuses (`[\\d-z]`) can never reach the matcher.
            let Ok(regex) = regress::Regex::with_flags(source, "u") else {
                assert!(
                    !patterns.contains(source),
                    "schema pattern {source:?} does not compile in Unicode mode"
                );
                continue;
            };
            let pattern = Pattern::new(Box::leak(source.to_owned().into_boxed_str()));
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
        for date_time in [
            "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{3})?Z$",
            "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{3})?Z$",
        ] {
            assert!(
                Pattern::new(date_time).is_scan(),
                "{date_time} should run as a scan"
            );
        }
        assert!(!Pattern::new("^(ab)+$").is_scan());
        assert!(
            !Pattern::new("^(?:ab)?a$").is_scan(),
            "greed could go wrong"
        );
        assert!(!Pattern::new("^(?:a+)?b$").is_scan());
        assert!(!Pattern::new("^[a-c]*c$").is_scan());
    }
}

/// Edits made through the typed API (fields set to boundary and random values, optionals removed,
/// enum values and payloads swapped between events, items pushed, duplicated and dropped, unknown
/// members added) must get from `validate` the verdict the oracle gives the value's JSON; `encode`
/// refuses exactly what `validate` refuses, and what it writes decodes to the same value.
mod typed_edits {
    use super::support::*;
    use prp_types::types::{Event, EventPayload, EventType, EventTypeV2, EventV2};
    use prp_types::{SchemaDocument, Validate, decode, encode};
    use serde_json::json;

    /// A small deterministic generator (xorshift64*), so that a failure names a reproducible case.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
            &items[self.below(items.len())]
        }
    }

    fn strings(rng: &mut Rng) -> prp_types::Str {
        let fixed = [
            String::new(),
            "a".into(),
            "x".repeat(160),
            "x".repeat(161),
            "x".repeat(240),
            "x".repeat(241),
            "é".repeat(160),
            "é".repeat(161),
            "2026-01-01T00:00:00Z".into(),
            "2026-01-01T00:00:00.123Z".into(),
            "2026-01-01 00:00:00Z".into(),
            "2026-01-01T00:00:00+01:00".into(),
            "not a date".into(),
            "run-1".into(),
        ];
        if rng.below(4) == 0 {
            let len = rng.below(12);
            (0..len)
                .map(|_| *rng.pick(&['a', 'Z', '0', '-', ' ', 'é', '/', '.']))
                .collect::<String>()
                .into()
        } else {
            rng.pick(&fixed).as_str().into()
        }
    }

    const INTS: &[i64] = &[
        -1,
        0,
        1,
        2,
        3,
        7,
        99,
        9_007_199_254_740_991,
        9_007_199_254_740_992,
    ];

    /// A member value its type refused to hold: the member's pointer, the JSON value, the code.
    type Refused = (&'static str, serde_json::Value, &'static str);

    /// Sets a constrained member through its type; a value the type refuses is returned instead.
    macro_rules! try_set {
        ($ptr:expr, $raw:expr, |$v:ident| $assign:expr) => {{
            let raw = $raw;
            match TryInto::try_into(raw.clone()) {
                Ok($v) => {
                    $assign;
                    None
                }
                Err(f) => {
                    let f: prp_codegen_runtime::Failure = f;
                    Some(($ptr, json!(raw), f.code.as_str()))
                }
            }
        }};
    }

    /// One edit of an event of either version (the two share their field names).
    macro_rules! edit_event {
        ($e:expr, $rng:expr, $pool:expr, $ty:ty, $kind:ty) => {{
            let e: &mut $ty = $e;
            let rng: &mut Rng = $rng;
            let s = strings(rng);
            let some = rng.below(3) > 0;
            let refused: Option<Refused> = match rng.below(16) {
                0 => try_set!("/sourceEventId", s.as_str(), |v| e.source_event_id = v),
                1 => try_set!("/sourceInstanceId", s.as_str(), |v| e.source_instance_id = v),
                2 => try_set!("/runId", s.as_str(), |v| e.run_id = v),
                3 => try_set!("/emittedAt", s.as_str(), |v| e.emitted_at = v),
                4 if !some => {
                    e.observed_at = None;
                    None
                }
                4 => try_set!("/observedAt", s.as_str(), |v| e.observed_at = Some(v)),
                5 if !some => {
                    e.turn_id = None;
                    None
                }
                5 => try_set!("/turnId", s.as_str(), |v| e.turn_id = Some(v)),
                6 if !some => {
                    e.item_id = None;
                    None
                }
                6 => try_set!("/itemId", s.as_str(), |v| e.item_id = Some(v)),
                7 if !some => {
                    e.normalized_session_id = None;
                    None
                }
                7 => try_set!("/normalizedSessionId", s.as_str(), |v| e
                    .normalized_session_id = Some(v)),
                8 => {
                    e.source_seq = *rng.pick(INTS);
                    None
                }
                9 => try_set!("/schemaVersion", *rng.pick(INTS), |v| e.schema_version = v),
                10 => try_set!("/priority", *rng.pick(INTS), |v| e.priority = v),
                11 => {
                    e.event_type = *rng.pick(<$kind>::ALL);
                    None
                }
                12 => {
                    e.payload = rng.pick($pool).payload.clone();
                    None
                }
                13 => {
                    let other = rng.pick($pool);
                    e.event_type = other.event_type;
                    None
                }
                14 => {
                    e.debug = (rng.below(2) == 0).then(Default::default);
                    None
                }
                _ => {
                    if rng.below(2) == 0 {
                        e.extra.clear();
                    } else {
                        e.extra.insert(format!("later{}", rng.below(3)), json!({"k": rng.below(2)}));
                    }
                    None
                }
            };
            refused
        }};
    }

    /// Steps of a plan payload pushed, duplicated or dropped, its bounds crossed; members of the
    /// generic payload set and cleared.
    fn edit_plan(e: &mut Event, rng: &mut Rng) -> Option<Refused> {
        if let EventPayload::Other(other) = &mut e.payload {
            other.provider_phase = (rng.below(2) == 0).then(|| strings(rng));
        }
        if let EventPayload::Plan(plan) = &mut e.payload {
            match rng.below(5) {
                0 if !plan.steps.is_empty() => {
                    let s = plan.steps[0].clone();
                    let n = rng.below(300);
                    plan.steps.extend(std::iter::repeat_n(s, n));
                }
                1 => plan.steps.clear(),
                2 => plan.revision = (*rng.pick(INTS)).into(),
                3 if !plan.steps.is_empty() => {
                    let s = strings(rng);
                    return try_set!("/payload/steps/0/body", s.as_str(), |v| plan.steps[0]
                        .body = v);
                }
                _ => plan.explanation = prp_types::Tri::Null,
            }
        }
        None
    }

    /// A value a member's type refused: the schema refuses the document holding it there too, and
    /// when the rest of the document is valid, decoding names the same code and pointer.
    fn refusal<T>(key: &str, value: &T, refused: Refused, oracle: &Oracle)
    where
        T: Validate + serde::Serialize + serde::de::DeserializeOwned,
    {
        let (ptr, raw, code) = refused;
        let mut json = serde_json::to_value(value).unwrap();
        let valid_before = value.validate().is_ok();
        let (parent, member) = ptr.rsplit_once('/').unwrap();
        json.pointer_mut(parent)
            .and_then(serde_json::Value::as_object_mut)
            .expect("the member's object exists")
            .insert(member.to_owned(), raw);
        assert!(
            !oracle.is_valid(key, &json),
            "{key}: the type refused {ptr}, the oracle accepts\n{json}"
        );
        let err = decode::<T>(&serde_json::to_vec(&json).unwrap())
            .err()
            .expect("decoding accepts what the type refused");
        if valid_before {
            assert_eq!((err.code.as_str(), err.pointer.as_str()), (code, ptr));
        }
    }

    /// Checks one edited value; returns whether the oracle accepted it.
    fn verdicts<T>(key: &str, value: &T, oracle: &Oracle) -> bool
    where
        T: Validate + serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let json = serde_json::to_value(value).unwrap();
        let expected = oracle.is_valid(key, &json);
        let got = value.validate();
        assert_eq!(
            got.is_ok(),
            expected,
            "{key}: validate says {got:?}, the oracle {expected}, on\n{json}"
        );
        match encode(value) {
            Ok(bytes) => {
                assert!(got.is_ok());
                // The same JSON comes back. (A payload held in a variant other than the one its
                // event type selects is accepted when its JSON fits the selected schema, and
                // decodes as the selected variant.)
                let back: T = decode(&bytes).unwrap();
                assert_eq!(serde_json::to_value(&back).unwrap(), json);
            }
            Err(e) => assert_eq!(Err(e), got),
        }
        expected
    }

    #[test]
    fn validate_agrees_with_the_oracle_on_typed_edits() {
        let corpus = corpus_dir();
        let dirs = match contract_dir() {
            Some(c) => reference_schema_dirs(&c),
            None => vec![project_schema_dir()],
        };
        let oracle = Oracle::from_dirs(&dirs);
        let mut v1: Vec<Event> = Vec::new();
        let mut v2: Vec<EventV2> = Vec::new();
        let mut dirs = vec![project_dir().join("fixtures")];
        dirs.extend(corpus.as_ref().map(|c| reference_fixture_dir(c)));
        for dir in &dirs {
            for file in json_files(dir) {
                walk_containers(&read_json(&file), &mut |_, node| {
                    let bytes = serde_json::to_vec(node).unwrap();
                    if let Ok(e) = decode::<Event>(&bytes) {
                        v1.push(e);
                    } else if let Ok(e) = decode::<EventV2>(&bytes) {
                        v2.push(e);
                    }
                });
            }
        }
        assert!(
            v1.len() > 20 && v2.len() > 3,
            "{} v1 and {} v2 events",
            v1.len(),
            v2.len()
        );
        let (k1, k2) = (Event::SCHEMA.id, EventV2::SCHEMA.id);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut edits, mut accepted, mut cases) = (0usize, 0usize, 0usize);
        let (mut shadowed, mut refused) = (0usize, 0usize);
        while edits < 100_000 {
            cases += 1;
            let n = 1 + rng.below(4);
            edits += n;
            let shadow = rng.below(50) == 0;
            if rng.below(4) > 0 {
                let mut e = rng.pick(&v1).clone();
                for _ in 0..n {
                    let r = if rng.below(6) == 0 {
                        edit_plan(&mut e, &mut rng)
                    } else {
                        edit_event!(&mut e, &mut rng, &v1, Event, EventType)
                    };
                    if let Some(r) = r {
                        refusal(k1, &e, r, &oracle);
                        refused += 1;
                    }
                }
                if shadow && e.validate().is_ok() {
                    e.extra.insert("runId".into(), json!("run-9"));
                    assert_eq!(e.validate().unwrap_err().code, "duplicate_key");
                    assert!(encode(&e).is_err());
                    shadowed += 1;
                    continue;
                }
                accepted += usize::from(verdicts(k1, &e, &oracle));
            } else {
                let mut e = rng.pick(&v2).clone();
                for _ in 0..n {
                    if let Some(r) = edit_event!(&mut e, &mut rng, &v2, EventV2, EventTypeV2) {
                        refusal(k2, &e, r, &oracle);
                        refused += 1;
                    }
                }
                accepted += usize::from(verdicts(k2, &e, &oracle));
            }
        }
        println!(
            "{edits} typed edits in {cases} cases: {accepted} accepted, {} refused, {shadowed} shadowing refused; {refused} member values refused by their types",
            cases - accepted - shadowed
        );
        assert!(
            refused > 1000,
            "only {refused} member values refused by their types"
        );
        assert!(
            accepted > cases / 10 && accepted < cases * 9 / 10,
            "{accepted} of {cases} accepted"
        );
    }
}
