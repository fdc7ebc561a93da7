//! The generated types against the reference validator: every document and sub-document of the
//! reference fixtures gets the same verdict from typed decoding as from the `jsonschema` oracle over
//! the reference schemas, and every accepted value round-trips.

use prp_testkit as support;

use prp_codegen_runtime as rt;
use prp_types::decode::{CHECKERS, checker};
use serde_json::Value;
use support::*;

fn canonical(v: &Value) -> String {
    prp_vocabulary::canonical::to_string(v)
}

#[test]
fn every_fixture_node_gets_the_oracle_verdict() {
    let Some(corpus) = corpus_dir() else { return };
    let Some(contract) = contract_dir() else {
        return;
    };
    let oracle = Oracle::from_dirs(&reference_schema_dirs(&contract));
    let mut compared = 0usize;
    let mut accepted = 0usize;
    let mut disagreements = Vec::new();
    for file in json_files(&reference_fixture_dir(&corpus)) {
        let doc = read_json(&file);
        walk_containers(&doc, &mut |pointer, node| {
            let bytes = serde_json::to_vec(node).expect("a Value serializes");
            for (key, check) in CHECKERS {
                let Some(validator) = oracle.get(key) else {
                    continue;
                };
                let expected = validator.is_valid(node);
                let got = check(&bytes);
                compared += 1;
                accepted += usize::from(got.is_ok());
                if got.is_ok() != expected {
                    disagreements.push(format!(
                        "{}#{pointer} as {key}: oracle {expected}, typed {got:?}",
                        file.display()
                    ));
                }
            }
        });
    }
    println!("compared {compared} verdicts, {accepted} accepted");
    assert!(compared > 50_000, "too few comparisons: {compared}");
    assert!(accepted > 100, "too few accepted: {accepted}");
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

#[test]
fn every_schema_type_has_a_checker() {
    // The checker table is generated: every root and every `$defs` entry of the reference must be in it.
    let Some(contract) = contract_dir() else {
        return;
    };
    let oracle = Oracle::from_dirs(&reference_schema_dirs(&contract));
    let missing: Vec<&str> = oracle.keys().filter(|k| checker(k).is_none()).collect();
    assert!(missing.is_empty(), "no typed checker for {missing:?}");
    assert_eq!(
        CHECKERS.len(),
        oracle.keys().count(),
        "the checker table has entries the oracle lacks"
    );
}

#[test]
fn every_accepted_node_round_trips() {
    let Some(corpus) = corpus_dir() else { return };
    let mut checked = 0usize;
    let mut failures = Vec::new();
    for file in json_files(&reference_fixture_dir(&corpus)) {
        let doc = read_json(&file);
        walk_containers(&doc, &mut |pointer, node| {
            let bytes = serde_json::to_vec(node).expect("a Value serializes");
            for (key, reencode) in prp_types::decode::REENCODERS {
                let Ok(again) = reencode(&bytes) else {
                    continue;
                };
                checked += 1;
                // Same JSON value: key order aside, unknown members, nulls and numbers included.
                if canonical(&again) != canonical(node) {
                    failures.push(format!(
                        "{}#{pointer} as {key}:\n  in:  {}\n  out: {}",
                        file.display(),
                        canonical(node),
                        canonical(&again)
                    ));
                }
            }
        });
    }
    println!("{checked} accepted values re-encoded");
    assert!(checked > 300, "too few accepted values: {checked}");
    assert!(
        failures.is_empty(),
        "{} values changed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn bad_input_gets_a_code_and_no_panic() {
    use prp_types::decode_document;
    let code = |bytes: &[u8]| decode_document(bytes).map(|_| ()).unwrap_err().code;
    assert_eq!(code(b"{\"schema\": "), "invalid_json");
    assert_eq!(code(b"not json"), "invalid_json");
    assert_eq!(code(b"{} trailing"), "invalid_json");
    // Not JSON, though serde_json passes over it unread: a number out of range, bytes that are
    // not UTF-8 in a string.
    assert_eq!(code(b"7e666"), "invalid_json");
    assert_eq!(
        code(br#"{"schema": "paperclip.prp.event.v1", "sourceSeq": 1e999}"#),
        "invalid_json"
    );
    assert_eq!(code(b"\"\xa2\""), "invalid_json");
    assert_eq!(code(br#"{"schema": "paperclip.nothing.v9"}"#), "one_of");
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let wrapped = format!(r#"{{"schema":"paperclip.prp.event.v1","debug":{{"x":{deep}}}}}"#);
    assert_eq!(code(wrapped.as_bytes()), "too_deep");
    let huge = vec![b' '; prp_types::decode::MAX_DOCUMENT_BYTES + 1];
    assert_eq!(code(&huge), "too_large");
}

#[test]
fn a_version_from_the_future_fails_closed() {
    let text =
        std::fs::read_to_string(project_dir().join("fixtures/documents/event-plan-updated.json"))
            .unwrap();
    let future = text.replace("\"schemaVersion\": 1", "\"schemaVersion\": 7");
    let e = prp_types::decode_str::<prp_types::types::Event>(&future).unwrap_err();
    let e = prp_types::decode::fail_closed_on_versions(e);
    assert_eq!(
        (e.code.as_str(), e.pointer.as_str()),
        ("unsupported_required_version", "/schemaVersion")
    );
}

#[test]
fn constraint_failures_point_at_the_value() {
    let text =
        std::fs::read_to_string(project_dir().join("fixtures/documents/event-tool-execution.json"))
            .unwrap();
    let cases = [
        (
            "\"exec-9\"",
            "\"-bad id\"",
            "pattern",
            "/payload/executionId",
        ),
        (
            "\"crates/pager\"",
            "\"../etc/passwd\"",
            "pattern",
            "/payload/target",
        ),
        (
            "\"durationMs\": 5120",
            "\"durationMs\": -1",
            "minimum",
            "/payload/durationMs",
        ),
        (
            "\"status\": \"completed\"",
            "\"status\": \"done\"",
            "enum",
            "/payload/status",
        ),
        (
            "\"exitCode\": 0",
            "\"exitCode\": 0, \"extra\": 1",
            "additional_properties",
            "/payload/extra",
        ),
        (
            "\"2026-11-29T10:15:02Z\"",
            "\"2026-11-29T10:15:02+00:00\"",
            "format",
            "/emittedAt",
        ),
        (
            "\"sourceSeq\": 8",
            "\"sourceSeq\": 9007199254740992",
            "maximum",
            "/sourceSeq",
        ),
        ("\"sourceSeq\": 8", "\"sourceSeq\": 8.0", "", ""),
        ("\"outputBytes\": 26,", "", "required", "/payload"),
        (
            "\"eventType\": \"tool.execution.completed\"",
            "\"eventType\": \"plan.updated\"",
            "const",
            "/payload/schema",
        ),
    ];
    for (from, to, code, pointer) in cases {
        assert!(text.contains(from), "{from}");
        let changed = text.replacen(from, to, 1);
        let got = prp_types::decode_str::<prp_types::types::Event>(&changed);
        match got {
            Ok(_) => assert_eq!(code, "", "{to} was accepted"),
            Err(e) => assert_eq!(
                (e.code.as_str(), e.pointer.as_str()),
                (code, pointer),
                "{to}: {e}"
            ),
        }
    }
}

/// The verdict-only check keeps what narrowings read, unknown members of an open payload
/// included: `semantic_tool.result` narrows the payload's `channel` and `providerPhase`.
#[test]
fn the_verdict_reads_the_members_narrowings_check() {
    use prp_types::decode::{accepts, verify};
    use prp_types::types::Event;
    let text = std::fs::read_to_string(
        project_dir().join("fixtures/rejected/binding/05-semantic-envelope-repeated.json"),
    )
    .unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let event = fixture["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["eventType"] == "semantic_tool.result")
        .expect("the fixture has a semantic_tool.result event")
        .to_string();
    let open = "\"payload\":{";
    assert!(event.contains(open), "{event}");
    let cases = [
        ("", ""),
        ("\"channel\":\"final\",", ""),
        ("\"channel\":\"bogus\",", "enum /payload/channel"),
        ("\"providerPhase\":\"x\",", ""),
        ("\"providerPhase\":3,", "type /payload/providerPhase"),
        (
            "\"channel\":\"final\",\"channel\":\"final\",",
            "duplicate_key /payload/channel",
        ),
        ("\"other\":1,\"other\":2,", "duplicate_key /payload/other"),
    ];
    for (members, expected) in cases {
        let doc = event.replacen(open, &format!("{open}{members}"), 1);
        let decoded = prp_types::decode_str::<Event>(&doc)
            .err()
            .map_or(String::new(), |e| format!("{} {}", e.code, e.pointer));
        assert_eq!(decoded, expected, "{members}");
        assert_eq!(
            accepts::<Event>(doc.as_bytes()),
            expected.is_empty(),
            "{members}"
        );
        let verified = verify::<Event>(doc.as_bytes())
            .err()
            .map_or(String::new(), |e| format!("{} {}", e.code, e.pointer));
        assert_eq!(verified, expected, "{members}");
    }
}

#[test]
fn reference_fixtures_meet_the_manifest_expectation() {
    use prp_types::types::{
        ConformanceFixture, ConformanceOutput, Fixture, NativeExecution, QuestionAdapterFixture,
    };
    let Some(corpus) = corpus_dir() else { return };
    let Some(contract) = contract_dir() else {
        return;
    };
    let protocol = corpus.join("protocol");
    let manifest = read_json(&protocol.join("manifest.json"));
    let mut checked = 0;
    for entry in manifest["fixtures"]
        .as_array()
        .expect("manifest lists fixtures")
    {
        let path = entry["path"].as_str().unwrap();
        // The v3 manifest lists the same paths; where the v3 content differs (the
        // unsupported-version fixture, now at protocolVersion 4), the current one is read.
        let current = contract.join("protocol").join(path);
        let bytes = std::fs::read(if current.is_file() {
            current
        } else {
            protocol.join(path)
        })
        .unwrap();
        // Which schema validates a fixture is decided by where it lives (the contract's rule).
        let verdict = if path.starts_with("fixtures/replay/golden/") {
            continue;
        } else if path.starts_with("fixtures/replay/") {
            prp_types::decode::<Fixture>(&bytes)
                .map(|_| ())
                .map_err(prp_types::decode::fail_closed_on_versions)
        } else if path.starts_with("fixtures/questions/") {
            prp_types::decode::<QuestionAdapterFixture>(&bytes).map(|_| ())
        } else if path.ends_with("conformance-minimal-run.json") {
            prp_types::decode::<ConformanceFixture>(&bytes).map(|_| ())
        } else if path.ends_with("conformance-expected-output.json") {
            prp_types::decode::<ConformanceOutput>(&bytes).map(|_| ())
        } else if path.ends_with("native-execution-seeded.json") {
            prp_types::decode::<NativeExecution>(&bytes).map(|_| ())
        } else {
            continue;
        };
        checked += 1;
        let expected_ok = entry["expectation"] == "accept";
        assert_eq!(verdict.is_ok(), expected_ok, "{path}: {verdict:?}");
    }
    assert!(checked >= 20, "only {checked} fixtures checked");
}

/// The runtime's reader (`rt::reader`) against serde_json: for each text, the same verdict when
/// ignoring a value, the same `Value` (so the same visitor calls, down to how each number is
/// visited), the same raw text for `RawValue`, and the same verdict and value for the strict
/// any-value seed that refuses repeated member names; and a refused document located and worded
/// as serde_json with its path tracked locates and words it.
mod reader {
    use super::*;
    use proptest::prelude::*;
    use rt::reader::Reader;
    use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny};
    use serde_json::value::RawValue;

    fn by_reader<T: DeserializeOwned>(text: &str) -> Option<T> {
        let mut reader = Reader::new(text);
        let value = T::deserialize(&mut reader).ok()?;
        reader.end().then_some(value)
    }

    fn strict_by_reader(text: &str) -> Option<Value> {
        let mut reader = Reader::new(text);
        let value = rt::AnyValue.deserialize(&mut reader).ok()?;
        reader.end().then_some(value)
    }

    fn strict_by_serde_json(text: &str) -> Option<Value> {
        let mut de = serde_json::Deserializer::from_str(text);
        let value = rt::AnyValue.deserialize(&mut de).ok()?;
        de.end().ok().map(|()| value)
    }

    /// Every way of reading `text` agrees; the first disagreement, if any.
    fn disagreement(text: &str) -> Option<String> {
        let ignored = (
            serde_json::from_str::<IgnoredAny>(text).is_ok(),
            by_reader::<IgnoredAny>(text).is_some(),
        );
        if ignored.0 != ignored.1 {
            return Some(format!(
                "IgnoredAny: serde_json {}, reader {}",
                ignored.0, ignored.1
            ));
        }
        let value = (
            serde_json::from_str::<Value>(text).ok(),
            by_reader::<Value>(text),
        );
        if value.0 != value.1 {
            return Some(format!(
                "Value: serde_json {:?}, reader {:?}",
                value.0, value.1
            ));
        }
        let raw = (
            serde_json::from_str::<Box<RawValue>>(text)
                .ok()
                .map(|r| r.get().to_owned()),
            by_reader::<Box<RawValue>>(text).map(|r| r.get().to_owned()),
        );
        if raw.0 != raw.1 {
            return Some(format!(
                "RawValue: serde_json {:?}, reader {:?}",
                raw.0, raw.1
            ));
        }
        let strict = (strict_by_serde_json(text), strict_by_reader(text));
        if strict.0 != strict.1 {
            return Some(format!(
                "AnyValue: serde_json {:?}, reader {:?}",
                strict.0, strict.1
            ));
        }
        None
    }

    fn assert_agree(texts: impl IntoIterator<Item = String>) -> usize {
        let mut n = 0;
        let mut wrong = Vec::new();
        for text in texts {
            n += 1;
            if let Some(d) = disagreement(&text) {
                wrong.push(format!("{text:?}: {d}"));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {n} texts read differently:\n{}",
            wrong.len(),
            wrong[..wrong.len().min(20)].join("\n")
        );
        n
    }

    /// Hand-picked texts at the edges of JSON's grammar and of serde_json's choices.
    fn edges() -> Vec<String> {
        let mut texts: Vec<String> = [
            "",
            " ",
            "null",
            " null ",
            "nul",
            "nulll",
            "true",
            "tru",
            "false",
            "falsey",
            "\u{feff}1",
            "0",
            "-0",
            "00",
            "01",
            "-01",
            "-",
            "+1",
            "1.",
            "1.5",
            ".5",
            "1e",
            "1e+",
            "1e-",
            "1E5",
            "2.5e-3",
            "1e400",
            "-1e400",
            "1e-400",
            "0e99999999999",
            "123456789012345678901234567890",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "9223372036854775807",
            "1.0",
            "-0.0",
            "1x",
            "[1,]",
            "[,1]",
            "[1 2]",
            "[]",
            "[ ]",
            "[[]]",
            "{}",
            "{ }",
            "{\"a\":1}",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "{\"a\":1 \"b\":2}",
            "{,\"a\":1}",
            "{1:2}",
            "{\"a\":1,\"a\":2}",
            "{\"a\":}",
            "[1]]",
            "{\"a\":1}}",
            "\"\"",
            "\"a",
            "\"a\\\"",
            "\"\\u0041\"",
            "\"\\u00e9\"",
            "\"\\uD83D\\uDE00\"",
            "\"\\uD83D\"",
            "\"\\uDE00\"",
            "\"\\uD83D\\u0041\"",
            "\"\\uD83Dx\"",
            "\"\\uD83D\\n\"",
            "\"\\uDE00\\uD83D\"",
            "\"\\u12\"",
            "\"\\u12G4\"",
            "\"\\x\"",
            "\"\\/\\b\\f\\n\\r\\t\"",
            "\"tab\there\"",
            "\"nl\nhere\"",
            "\"\u{1}\"",
            "\"\u{7f}\"",
            "\"é ü 中 😀\"",
            "[\"\\uD800\"]",
            "{\"k\\u0041\":1}",
            "{\"\\uDE00\":1}",
            "\t\n\r [ 1 , { \"a\" : [ ] } ] \r\n",
            "[1]x",
            "[1] [2]",
            "{\"a\":[1,{\"b\":null}],\"c\":\"d\"}",
            "[1e400]",
            "{\"a\":1e400}",
            "[true,false,null,-1,2.5,\"s\"]",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // The limit on nesting: serde_json refuses the 128th level (but not inside ignored values).
        for depth in [126, 127, 128, 129] {
            texts.push(format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
            texts.push(format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth)));
        }
        // Escapes, quotes and control characters at every offset of the 8-byte search.
        for offset in 0..24 {
            let pad = "x".repeat(offset);
            for tail in [
                "\"",
                "\\n\"",
                "\\u00e9\"",
                "\\q\"",
                "\u{1f}\"",
                "é\"",
                "\\uD800\"",
            ] {
                texts.push(format!("\"{pad}{tail}"));
                texts.push(format!("[\"{pad}{tail},1]"));
            }
        }
        texts
    }

    #[test]
    fn reads_the_edges_of_the_grammar_as_serde_json_does() {
        assert!(assert_agree(edges()) > 400);
    }

    /// Project documents cut short at every byte, and with one byte replaced at every place by
    /// two of a set of bytes that change the syntax (taken in turn along the text).
    #[test]
    fn reads_damaged_documents_as_serde_json_does() {
        const BYTES: [&str; 11] = ["\"", "\\", ",", "}", "]", " ", "0", "-", "x", "\u{1}", "e"];
        let mut texts = Vec::new();
        for file in json_files(&project_dir().join("fixtures/documents"))
            .iter()
            .take(30)
        {
            let text = serde_json::to_string(&read_json(file)).expect("a Value serializes");
            for cut in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
                texts.push(text[..cut].to_owned());
                if text.is_char_boundary(cut + 1) {
                    for b in [BYTES[cut % 11], BYTES[(cut + 5) % 11]] {
                        texts.push(format!("{}{b}{}", &text[..cut], &text[cut + 1..]));
                    }
                }
            }
            texts.push(text);
        }
        assert!(assert_agree(texts) > 15_000);
    }

    /// Hand-written serde types `decode` may also be given: every kind of enum variant, member
    /// names read as numbers and booleans, 128-bit integers, byte strings.
    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    enum Kinds {
        Unit,
        Newtype(i32),
        Tuple(u8, String),
        Struct { on: bool },
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Model {
        kinds: Vec<Kinds>,
        #[serde(default)]
        by_number: std::collections::BTreeMap<i16, Kinds>,
        #[serde(default)]
        by_flag: std::collections::BTreeMap<bool, u8>,
        #[serde(default)]
        wide: Option<(i128, u128)>,
        #[serde(default, with = "bytes")]
        raw: Vec<u8>,
    }

    mod bytes {
        pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
            struct V;
            impl serde::de::Visitor<'_> for V {
                type Value = Vec<u8>;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("bytes")
                }
                fn visit_bytes<E>(self, b: &[u8]) -> Result<Vec<u8>, E> {
                    Ok(b.to_vec())
                }
            }
            d.deserialize_bytes(V)
        }
    }

    /// The reader's verdict, value and sentence for a [`Model`], as serde_json's.
    #[test]
    fn reads_the_serde_data_model_as_serde_json_does() {
        let texts = [
            r#"{"kinds":["unit",{"newtype":3},{"tuple":[1,"a"]},{"struct":{"on":true}}]}"#,
            r#"{"kinds":[{"unit":null}]}"#,
            r#"{"kinds":["newtype"]}"#,
            r#"{"kinds":["other"]}"#,
            r#"{"kinds":[{"newtype":3,"unit":null}]}"#,
            r#"{"kinds":[{}]}"#,
            r#"{"kinds":[7]}"#,
            r#"{"kinds":[{"tuple":[300,"a"]}]}"#,
            r#"{"kinds":[{"struct":{"on":1}}]}"#,
            r#"{"kinds":[],"by_number":{"-3":"unit","12":{"newtype":-1}}}"#,
            r#"{"kinds":[],"by_number":{"x":"unit"}}"#,
            r#"{"kinds":[],"by_number":{"99999":"unit"}}"#,
            r#"{"kinds":[],"by_flag":{"true":1,"false":2}}"#,
            r#"{"kinds":[],"by_flag":{"yes":1}}"#,
            r#"{"kinds":[],"wide":[-170141183460469231731687303715884105728,340282366920938463463374607431768211455]}"#,
            r#"{"kinds":[],"wide":[1.5,2]}"#,
            r#"{"kinds":[],"raw":"abé"}"#,
            r#"{"kinds":[],"raw":[1,2,3]}"#,
        ];
        for text in texts {
            let mut reader = Reader::new(text);
            let ours = serde::Deserialize::deserialize(&mut reader)
                .map_err(|_: rt::reader::Refused| rt::reader::last_refusal().message);
            let theirs = serde_json::from_str::<Model>(text).map_err(|e| {
                let data = e.classify() == serde_json::error::Category::Data;
                (data, rt::strip_position(&e.to_string()).to_owned())
            });
            let ours: Result<Model, String> = ours;
            assert_eq!(
                ours.is_ok(),
                theirs.is_ok(),
                "{text}: {ours:?} / {theirs:?}"
            );
            match (&ours, &theirs) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
                // A type or value refused in the same words. (Where serde_json calls a wrong
                // kind of enum a syntax error, or names a boolean key `"yes"` as `"es"`, the
                // reader's sentence is its own.)
                (Err(a), Err((true, b))) if !text.contains("yes") => assert_eq!(a, b, "{text}"),
                _ => {}
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

        /// Random texts over JSON's punctuation, digits, escapes and a few letters.
        #[test]
        fn reads_random_texts_as_serde_json_does(
            text in "[\\[\\]{}\",: 0-9.eE+\\-\\\\nulrtfaseUuDd8\u{1}é]{0,40}"
        ) {
            prop_assert_eq!(disagreement(&text), None);
        }
    }

    /// Calls `visit` with every event (an object with an `eventType` and a `payload`) anywhere in
    /// the reference corpus's fixtures.
    fn for_each_reference_event(corpus: &std::path::Path, visit: &mut dyn FnMut(&Value)) {
        for file in json_files(&reference_fixture_dir(corpus)) {
            walk_containers(&read_json(&file), &mut |_, node| {
                if let Some(map) = node.as_object()
                    && map.contains_key("eventType")
                    && map.contains_key("payload")
                {
                    visit(node);
                }
            });
        }
    }

    /// Each object's members: as they are (`how` 0), reversed (1), the first moved last (2), the
    /// first repeated at the end (3), the first name with a letter more (4) or one less (5).
    fn arranged(how: usize, mut m: Vec<(String, &Value)>) -> Vec<(String, &Value)> {
        match (how, m.is_empty()) {
            (_, true) | (0, _) => {}
            (1, _) => m.reverse(),
            (2, _) => m.rotate_left(1),
            (3, _) => m.push(m[0].clone()),
            (4, _) => m[0].0.push('x'),
            _ => drop(m[0].0.pop()),
        }
        m
    }

    /// Writes `v` as JSON with every object's members [`arranged`] by `how` and every member name
    /// written by `name`.
    fn rewritten(v: &Value, how: usize, name: &dyn Fn(&str) -> String) -> String {
        match v {
            Value::Object(map) => {
                let members = arranged(how, map.iter().map(|(k, v)| (k.clone(), v)).collect());
                let members: Vec<String> = members
                    .iter()
                    .map(|(k, v)| format!("{}:{}", name(k), rewritten(v, how, name)))
                    .collect();
                format!("{{{}}}", members.join(","))
            }
            Value::Array(items) => {
                let items: Vec<String> = items.iter().map(|i| rewritten(i, how, name)).collect();
                format!("[{}]", items.join(","))
            }
            other => other.to_string(),
        }
    }

    /// The generated decoders on the reader, with each event's member names rearranged: whatever
    /// the order, escapes, repeats, near misses and unknown names, the reader's decode is
    /// serde_json's (the same verdict, the same value written back in the same member order) and
    /// the verdict-only check agrees.
    #[test]
    fn rearranged_member_names_decode_on_the_reader_as_on_serde_json() {
        use prp_types::decode::{accepts, decode};
        use prp_types::types::FixtureEvent;
        let Some(corpus) = corpus_dir() else { return };
        let quoted = |k: &str| Value::from(k).to_string();
        // The first letter as a `\u` escape: the same name, read through the escape path.
        let escaped = |k: &str| match k.chars().next() {
            Some(c) if c.is_ascii_alphanumeric() => {
                format!("\"\\u{:04x}{}", c as u32, &quoted(k)[2..])
            }
            _ => quoted(k),
        };
        let (mut checked, mut accepted) = (0, 0);
        for_each_reference_event(&corpus, &mut |node| {
            for how in 0..6 {
                for name in [&quoted as &dyn Fn(&str) -> String, &escaped] {
                    let text = rewritten(node, how, name);
                    let reader = decode::<FixtureEvent>(text.as_bytes());
                    let serde = serde_json::from_str::<FixtureEvent>(&text);
                    assert_eq!(reader.is_ok(), serde.is_ok(), "{text}: {reader:?}");
                    assert_eq!(
                        accepts::<FixtureEvent>(text.as_bytes()),
                        serde.is_ok(),
                        "{text}"
                    );
                    if let (Ok(a), Ok(b)) = (&reader, &serde) {
                        assert_eq!(
                            serde_json::to_string(a).unwrap(),
                            serde_json::to_string(b).unwrap(),
                            "{text}"
                        );
                        accepted += 1;
                    }
                    checked += 1;
                }
            }
        });
        assert!(
            checked > 500 && accepted > 200,
            "only {checked} texts ({accepted} accepted)"
        );
    }

    /// A payload read before the member that selects its schema is kept as a raw text: on the
    /// reader it is taken whole (however nested) and checked once the selector is known.
    #[test]
    fn a_payload_before_its_selector_is_checked_when_the_selector_comes() {
        use prp_types::decode::{accepts, decode};
        use prp_types::types::FixtureEvent;
        let Some(corpus) = corpus_dir() else { return };
        let mut checked = 0;
        for_each_reference_event(&corpus, &mut |node| {
            let map = node.as_object().expect("an event is an object");
            // The payload first, then everything else in order.
            let mut moved = serde_json::Map::new();
            moved.insert("payload".into(), map["payload"].clone());
            for (k, v) in map.iter().filter(|(k, _)| *k != "payload") {
                moved.insert(k.clone(), v.clone());
            }
            let good = serde_json::to_vec(&Value::Object(moved.clone())).unwrap();
            // And a payload whose nested text is valid JSON the payload's schema refuses.
            moved.insert(
                "payload".into(),
                serde_json::json!({"schema": [[[{"x": "\u{e9}"}]]]}),
            );
            let bad = serde_json::to_vec(&Value::Object(moved)).unwrap();
            for bytes in [good, bad] {
                assert_eq!(
                    accepts::<FixtureEvent>(&bytes),
                    decode::<FixtureEvent>(&bytes).is_ok(),
                    "{}",
                    String::from_utf8_lossy(&bytes)
                );
                checked += 1;
            }
        });
        assert!(
            checked > 100,
            "only {checked} events with a payload were found"
        );
    }

    /// A refused document is located and worded as serde_json with its path tracked would
    /// locate and word it (the design the reader's own pointers replaced): every value of every
    /// reference event, one at a time, swapped for a value of another kind, and every event with
    /// a member dropped.
    #[test]
    fn refusals_are_located_as_serde_json_tracks_them() {
        use prp_types::decode::decode;
        use prp_types::types::FixtureEvent;
        let Some(corpus) = corpus_dir() else { return };
        let mut checked = 0;
        for_each_reference_event(&corpus, &mut |node| {
            for pointer in pointers(node, String::new()) {
                for how in [Swap::Kind, Swap::Drop] {
                    let Some(text) = swapped(node, &pointer, how) else {
                        continue;
                    };
                    let got = decode::<FixtureEvent>(text.as_bytes()).map(|_| ());
                    assert_eq!(got, tracked::<FixtureEvent>(&text), "{text}");
                    checked += 1;
                }
            }
        });
        assert!(checked > 1_000, "only {checked} texts checked");
    }

    #[derive(Clone, Copy)]
    enum Swap {
        /// The value replaced by one of another kind.
        Kind,
        /// The member removed (array items are left alone).
        Drop,
    }

    /// Every value's pointer under `node`, `node` itself first.
    fn pointers(node: &Value, at: String) -> Vec<String> {
        let mut out = vec![at.clone()];
        match node {
            Value::Object(m) => {
                for (k, v) in m {
                    let token = k.replace('~', "~0").replace('/', "~1");
                    out.extend(pointers(v, format!("{at}/{token}")));
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    out.extend(pointers(v, format!("{at}/{i}")));
                }
            }
            _ => {}
        }
        out
    }

    fn swapped(node: &Value, pointer: &str, how: Swap) -> Option<String> {
        let mut doc = node.clone();
        match how {
            Swap::Kind => {
                let v = doc.pointer_mut(pointer)?;
                *v = match v {
                    Value::String(_) => Value::from(7),
                    Value::Number(_) => Value::from("x\u{e9}"),
                    Value::Bool(_) => Value::Null,
                    Value::Null => Value::Bool(true),
                    Value::Array(_) => serde_json::json!({"a": 1}),
                    Value::Object(_) => serde_json::json!([1.5, -2]),
                };
            }
            Swap::Drop => {
                let (parent, last) = pointer.rsplit_once('/')?;
                let key = last.replace("~1", "/").replace("~0", "~");
                doc.pointer_mut(parent)?.as_object_mut()?.remove(&key)?;
            }
        }
        Some(doc.to_string())
    }

    /// What `decode` said of a refused document before the reader located refusals itself:
    /// serde_json over the text with serde_path_to_error tracking the path.
    fn tracked<T: DeserializeOwned>(text: &str) -> Result<(), prp_types::Issue> {
        use prp_types::{Code, Issue};
        rt::clear_failure();
        let mut de = serde_json::Deserializer::from_str(text);
        let mut track = serde_path_to_error::Track::new();
        let Err(e) = T::deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track))
        else {
            return Ok(());
        };
        let mut pointer = String::new();
        for segment in track.path().iter() {
            match segment {
                serde_path_to_error::Segment::Seq { index } => {
                    pointer.push_str(&format!("/{index}"))
                }
                serde_path_to_error::Segment::Map { key } => {
                    pointer.push('/');
                    pointer.push_str(&rt::escape_token(key));
                }
                _ => {}
            }
        }
        let text = e.to_string();
        Err(match rt::take_failure(&text) {
            Some(f) => Issue::new(f.code.into(), format!("{pointer}{}", f.rel), f.message),
            None => Issue::new(
                Code::Keyword(prp_types::Keyword::Type),
                pointer,
                rt::strip_position(&text),
            ),
        })
    }
}
