//! The semantic action catalog (PROTOCOL §3): the inventory file byte for byte, the facts the
//! reference inventory states, and every input contract against the reference's on a generated
//! corpus, with the jsonschema crate as the oracle and the typed decoding agreeing with both.

use prp_testkit as support;

use prp_peer::catalog::{self, catalog, lookup};
use serde_json::{Value, json};
use support::corpus_dir;

fn reference() -> Option<Vec<Value>> {
    let path = corpus_dir()?.join("generated/semantic-action-catalog.json");
    let v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    Some(v.as_array().unwrap().clone())
}

fn oracle(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
        .unwrap_or_else(|e| panic!("the contract does not compile: {e}\n{schema:#}"))
}

#[test]
fn the_inventory_file_is_the_catalog_byte_for_byte() {
    let path = support::project_dir().join(catalog::INVENTORY_PATH);
    let file = std::fs::read(&path).expect("generated/semantic-action-catalog.json exists");
    assert!(
        file == catalog::inventory().as_bytes(),
        "{} is stale: run `prp catalog`",
        path.display()
    );
    let v: Value = serde_json::from_slice(&file).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 29);
}

#[test]
fn every_contract_compiles_and_no_declaration_has_execution_keys() {
    const KEYS: &[&str] = &[
        "schema",
        "operationId",
        "version",
        "title",
        "description",
        "placement",
        "effect",
        "requiredClaims",
        "allowedModes",
        "allowedRoles",
        "inputSchema",
        "outputSchema",
    ];
    for d in catalog() {
        let v = d.to_json();
        for k in v.as_object().unwrap().keys() {
            assert!(
                KEYS.contains(&k.as_str()),
                "{}: unexpected key {k}",
                d.operation_id
            );
        }
        oracle(&v["inputSchema"]);
        oracle(&v["outputSchema"]);
    }
}

#[test]
fn get_task_context_takes_nothing() {
    let d = lookup("get_task_context").unwrap();
    let err = (d.check_input)(br#"{"companyId": "c"}"#).unwrap_err();
    assert_eq!(
        (err.code.as_str(), err.pointer.as_str()),
        ("additional_properties", "/companyId")
    );
    assert!(!oracle(&d.input_schema).is_valid(&json!({"companyId": "c"})));
    assert_eq!((d.check_input)(b"{}"), Ok(()));
}

#[test]
fn decoding_names_the_code_and_pointer() {
    let d = lookup("write_document").unwrap();
    let base = json!({"idempotencyKey": "k1", "key": "notes", "title": "T", "body": "B",
                      "baseRevisionId": null});
    assert_eq!((d.check_input)(base.to_string().as_bytes()), Ok(()));
    let cases = [
        (json!({"title": ""}), "min_length", "/title"),
        (
            json!({"baseRevisionId": "x".repeat(241)}),
            "max_length",
            "/baseRevisionId",
        ),
        (json!({"changeSummary": 3}), "type", "/changeSummary"),
        (json!({"extra": 1}), "additional_properties", "/extra"),
    ];
    for (patch, code, pointer) in cases {
        let mut v = base.clone();
        for (k, x) in patch.as_object().unwrap() {
            v[k] = x.clone();
        }
        let err = (d.check_input)(v.to_string().as_bytes()).unwrap_err();
        assert_eq!(
            (err.code.as_str(), err.pointer.as_str()),
            (code, pointer),
            "{v}"
        );
    }
    let mut v = base.clone();
    v.as_object_mut().unwrap().remove("baseRevisionId");
    let err = (d.check_input)(v.to_string().as_bytes()).unwrap_err();
    assert_eq!(err.code.as_str(), "required");
    let err = (d.check_input)(br#"{"idempotencyKey":"a","idempotencyKey":"b"}"#).unwrap_err();
    assert_eq!(
        (err.code.as_str(), err.pointer.as_str()),
        ("duplicate_key", "/idempotencyKey")
    );
    // call_api: exactly one of artifactId and path, a rule schemars cannot state.
    let call = lookup("call_api").unwrap();
    let both = json!({"operationId": "GET /x", "files": [{"artifactId": "a", "path": "p"}]});
    let err = (call.check_input)(both.to_string().as_bytes()).unwrap_err();
    assert_eq!(
        (err.code.as_str(), err.pointer.as_str()),
        ("one_of", "/files/0")
    );
}

#[test]
fn the_facts_match_the_reference_inventory() {
    let Some(reference) = reference() else { return };
    let ids: Vec<&str> = reference
        .iter()
        .map(|d| d["operationId"].as_str().unwrap())
        .collect();
    let ours: Vec<&str> = catalog().iter().map(|d| d.operation_id).collect();
    assert_eq!(ours, ids, "operation ids in catalog order");
    for (r, d) in reference.iter().zip(catalog()) {
        let o = d.to_json();
        let id = d.operation_id;
        for key in [
            "schema",
            "version",
            "placement",
            "effect",
            "requiredClaims",
            "allowedModes",
            "allowedRoles",
        ] {
            assert_eq!(o.get(key), r.get(key), "{id}: {key}");
        }
        let names = |s: &Value| -> Vec<String> {
            let mut v: Vec<String> = s["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default();
            v.sort();
            v
        };
        let required = |s: &Value| -> Vec<String> {
            let mut v: Vec<String> = s["required"]
                .as_array()
                .map(|r| r.iter().map(|x| x.as_str().unwrap().to_owned()).collect())
                .unwrap_or_default();
            v.sort();
            v
        };
        for side in ["inputSchema", "outputSchema"] {
            assert_eq!(
                names(&o[side]),
                names(&r[side]),
                "{id}: {side} property names"
            );
            assert_eq!(
                required(&o[side]),
                required(&r[side]),
                "{id}: {side} required"
            );
            assert_eq!(
                o[side]["additionalProperties"], r[side]["additionalProperties"],
                "{id}: {side} closed or open"
            );
        }
    }
}

/// Values for one property schema: valid ones, boundaries on both sides, and wrong types.
fn candidates(s: &Value) -> Vec<Value> {
    let mut out = vec![
        json!(null),
        json!(true),
        json!(7),
        json!("s"),
        json!([]),
        json!({}),
        json!(1.5),
    ];
    let types: Vec<&str> = match &s["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if types.contains(&"string") {
        let min = s["minLength"].as_u64().unwrap_or(0) as usize;
        let max = s["maxLength"].as_u64().map(|m| m as usize);
        out.push(json!(""));
        out.push(json!("a".repeat(min.max(1))));
        if min > 1 {
            out.push(json!("a".repeat(min - 1)));
        }
        if let Some(max) = max {
            out.push(json!("a".repeat(max)));
            out.push(json!("é".repeat(max)));
            out.push(json!("a".repeat(max + 1)));
            out.push(json!("😀".repeat(max + 1)));
        }
        if s.get("pattern").is_some() {
            out.extend([
                json!("ab".repeat(32)),
                json!("AB".repeat(32)),
                json!("a".repeat(63)),
                json!("g".repeat(64)),
            ]);
        }
    }
    if types.contains(&"integer") {
        let min = s["minimum"].as_i64().unwrap_or(0);
        let max = s["maximum"].as_i64().unwrap_or(1000);
        out.extend([
            json!(min),
            json!(max),
            json!(min - 1),
            json!(max + 1),
            json!(min as f64),
            json!("3"),
            json!(1e300),
        ]);
    }
    if let Some(e) = s["enum"].as_array() {
        out.extend(e.iter().cloned());
        out.push(json!("not_one_of_them"));
    }
    if s.get("enum").is_none() && s["items"].get("enum").is_some() {
        let e = s["items"]["enum"].as_array().unwrap();
        out.extend([
            json!([e[0]]),
            json!([e[0], e[0]]),
            json!(["nope"]),
            Value::Array(e.clone()),
        ]);
        let mut eight = e.clone();
        eight.push(e[0].clone());
        out.push(Value::Array(eight));
    }
    if types.contains(&"array") && s["items"]["type"] == "string" {
        let many: Vec<String> = (0..201).map(|i| format!("t{i}")).collect();
        out.extend([
            json!(["a"]),
            json!(["a", "a"]),
            json!([""]),
            json!([1]),
            json!(many),
            json!(many[..200]),
        ]);
    }
    if types.contains(&"array") && s["items"]["type"] == "object" {
        out.extend([
            json!([{"artifactId": "a"}]),
            json!([{"path": "p", "field": "f"}]),
            json!([{"artifactId": "a", "path": "p"}]),
            json!([{}]),
            json!([{"field": "f"}]),
            json!([{"artifactId": "a", "x": 1}]),
            json!([{"artifactId": 1}]),
            json!(vec![json!({"path": "p"}); 11]),
            json!(vec![json!({"path": "p"}); 10]),
        ]);
    }
    if types.contains(&"object") {
        out.extend([json!({"a": "b"}), json!({"a": 1}), json!({"a": {"b": [1]}})]);
    }
    out
}

/// A valid value for a property schema (the first candidate the schema accepts).
fn valid(s: &Value) -> Value {
    let v = oracle(s);
    candidates(s)
        .into_iter()
        .find(|c| v.is_valid(c))
        .unwrap_or_else(|| panic!("no valid value for {s}"))
}

/// Inputs for one reference input schema: the minimal valid one, each required member left out,
/// unknown members, every candidate for every member, and inputs that are not objects.
fn corpus(schema: &Value) -> Vec<Value> {
    let props = schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let required: Vec<String> = schema["required"]
        .as_array()
        .map(|r| r.iter().map(|x| x.as_str().unwrap().to_owned()).collect())
        .unwrap_or_default();
    let mut base = serde_json::Map::new();
    for r in &required {
        base.insert(r.clone(), valid(&props[r]));
    }
    let mut out = vec![
        Value::Object(base.clone()),
        json!([]),
        json!("x"),
        json!(null),
        json!(1),
    ];
    for r in &required {
        let mut v = base.clone();
        v.remove(r);
        out.push(Value::Object(v));
    }
    for (i, name) in ["companyId", "zz", "", "idempotency_key", "Key"]
        .iter()
        .enumerate()
    {
        let mut v = base.clone();
        v.insert((*name).to_owned(), json!(i));
        out.push(Value::Object(v));
    }
    for (name, s) in &props {
        for c in candidates(s) {
            let mut v = base.clone();
            v.insert(name.clone(), c);
            out.push(Value::Object(v));
        }
    }
    // Up to 50 inputs for operations with few members: more unknown members.
    let mut i = 0;
    while out.len() < 50 {
        let mut v = base.clone();
        v.insert(format!("unknown{i}"), json!(i));
        out.push(Value::Object(v));
        i += 1;
    }
    out
}

#[test]
fn every_contract_agrees_with_the_reference_on_a_generated_corpus() {
    let Some(reference) = reference() else { return };
    let mut total = 0;
    for (r, d) in reference.iter().zip(catalog()) {
        let theirs = oracle(&r["inputSchema"]);
        let ours = oracle(&d.input_schema);
        let inputs = corpus(&r["inputSchema"]);
        assert!(
            inputs.len() >= 50,
            "{}: {} inputs",
            d.operation_id,
            inputs.len()
        );
        let mut accepted = 0;
        for input in &inputs {
            let want = theirs.is_valid(input);
            assert_eq!(
                ours.is_valid(input),
                want,
                "{}: our contract on {input}",
                d.operation_id
            );
            let typed = (d.check_input)(input.to_string().as_bytes());
            assert_eq!(
                typed.is_ok(),
                want,
                "{}: typed decoding on {input}: {typed:?}",
                d.operation_id
            );
            accepted += usize::from(want);
        }
        assert!(accepted >= 1, "{}: nothing accepted", d.operation_id);
        total += inputs.len();
    }
    println!(
        "{total} inputs over 29 operations: the reference contract, ours and the typed decoding agree"
    );
}
