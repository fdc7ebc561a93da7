//! `prp_compat::compare` on a table of edits, each made on a copy of the project's `schemas/`,
//! with the directions each must break in (and those it must not). Every witness is checked
//! again here, against both sides, by checkers compiled apart from the comparison. The
//! meaning-preserving rewrites and the directory against itself give no finding.

use prp_codegen::{Format, Options, SchemaSet};
use prp_codegen_runtime::eval::Program;
use prp_compat::{Direction, Finding, Report, Side, compare, policy};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn options() -> Options {
    Options::new().format("date-time", Format::DateTime)
}

/// The project's sample documents, the search's corpus.
fn corpus() -> Vec<Value> {
    let mut out = Vec::new();
    let mut dirs = vec![root().join("fixtures/documents")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "json")
                && let Ok(v) = serde_json::from_str(&std::fs::read_to_string(&p).unwrap())
            {
                out.push(v);
            }
        }
    }
    out
}

fn copy_schemas(to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    let mut stack = vec![(root().join("schemas"), to.to_path_buf())];
    while let Some((from, to)) = stack.pop() {
        std::fs::create_dir_all(&to).unwrap();
        for e in std::fs::read_dir(&from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push((e.path(), to.join(e.file_name())));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
}

/// The schemas with `edit` made on `file`, compared with `schemas/`, the search starting from
/// the project's sample documents.
fn run(name: &str, file: &str, edit: impl FnOnce(&mut Value)) -> (Report, SchemaSet, SchemaSet) {
    run_with(name, file, edit, &corpus())
}

/// As [`run`], the search starting from `corpus`.
fn run_with(
    name: &str,
    file: &str,
    edit: impl FnOnce(&mut Value),
    corpus: &[Value],
) -> (Report, SchemaSet, SchemaSet) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("compat")
        .join(name);
    copy_schemas(&dir);
    let path = dir.join(file);
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let old = SchemaSet::load(&root().join("schemas")).unwrap();
    let new = SchemaSet::load(&dir).unwrap();
    let o = options();
    let report = compare(&Side::new(&old, &o), &Side::new(&new, &o), corpus).unwrap();
    (report, old, new)
}

/// Checks `f`'s witness against both sides with checkers of its own.
fn recheck(f: &Finding, old: &SchemaSet, new: &SchemaSet) {
    let w = f.witness.as_ref().expect("a witness");
    let uri = match &f.defs {
        Some(d) => prp_vocabulary::uri::definition(&f.id, d),
        None => f.id.clone(),
    };
    let mut checkers = Vec::new();
    for (set, want) in [(old, &f.old), (new, &f.new)] {
        // The canonical URI as the file spells it (`#/definitions/…` in a draft-07 file).
        let c = prp_codegen::compile_checker(set, &set.spelled(&uri), &options()).unwrap();
        let p = Program::parse(&c.text).unwrap();
        assert_eq!(p.check(c.entry, w).is_ok(), want.valid, "{uri}: {w}");
        checkers.push((p, c.entry));
    }
    assert_ne!(f.old.valid, f.new.valid);
    // Small: no one member or item can go and leave both verdicts as they are.
    for smaller in one_less(w) {
        let same = checkers
            .iter()
            .zip([f.old.valid, f.new.valid])
            .all(|((p, entry), valid)| p.check(*entry, &smaller).is_ok() == valid);
        assert!(!same, "{uri}: {w} shrinks to {smaller}");
    }
}

/// `v` with one member or item removed, for each member and item at any depth.
fn one_less(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    match v {
        Value::Object(o) => {
            for (k, child) in o {
                let mut without = o.clone();
                without.shift_remove(k);
                out.push(Value::Object(without));
                for c in one_less(child) {
                    let mut with = o.clone();
                    with[k] = c;
                    out.push(Value::Object(with));
                }
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                let mut without = a.clone();
                without.remove(i);
                out.push(Value::Array(without));
                for c in one_less(child) {
                    let mut with = a.clone();
                    with[i] = c;
                    out.push(Value::Array(with));
                }
            }
        }
        _ => {}
    }
    out
}

/// The directions with a witness, for the schema `id` (its root).
fn broken(report: &Report, old: &SchemaSet, new: &SchemaSet, id: &str) -> Vec<Direction> {
    let mut out = Vec::new();
    for f in &report.findings {
        if f.witness.is_some() {
            recheck(f, old, new);
            if f.id.ends_with(id) && f.defs.is_none() {
                out.push(f.direction);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

const B: Direction = Direction::Backward;
const F: Direction = Direction::Forward;
const V1: &str = "/v1/";

fn id(file: &str) -> String {
    format!("{V1}{file}")
}

#[test]
fn each_edit_breaks_in_its_direction_with_a_checked_witness() {
    type Edit = fn(&mut Value);
    let table: &[(&str, &str, Edit, &[Direction])] = &[
        (
            "closed-member",
            "usage.schema.json",
            |v| {
                v["properties"]["region"] = json!({"type": "string"});
            },
            &[F],
        ),
        (
            "made-required",
            "identity.schema.json",
            |v| {
                v["required"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!("providerSessionId"));
            },
            &[B],
        ),
        (
            "enum-value-added",
            "terminal.schema.json",
            |v| {
                v["properties"]["turnTerminalState"]["enum"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!("paused"));
            },
            &[F],
        ),
        (
            "enum-value-removed",
            "terminal.schema.json",
            |v| {
                v["properties"]["turnTerminalState"]["enum"]
                    .as_array_mut()
                    .unwrap()
                    .remove(0);
            },
            &[B],
        ),
        (
            "bound-widened",
            "command.schema.json",
            |v| {
                v["properties"]["commandId"]["maxLength"] = json!(400);
            },
            &[F],
        ),
        (
            "bound-narrowed",
            "command.schema.json",
            |v| {
                v["properties"]["commandId"]["maxLength"] = json!(20);
            },
            &[B],
        ),
        (
            "pattern-changed",
            "identity.schema.json",
            |v| {
                v["properties"]["companyId"] = json!({"type": "string", "pattern": "^[0-9]+$"});
            },
            &[B, F],
        ),
        (
            "type-widened",
            "stop-reason.schema.json",
            |v| {
                v["properties"]["retryable"]["type"] = json!(["boolean", "string"]);
            },
            &[F],
        ),
        (
            "type-narrowed",
            "stop-reason.schema.json",
            |v| {
                v["properties"]["code"]["type"] = json!("integer");
            },
            &[B, F],
        ),
        (
            "closed-object",
            "identity.schema.json",
            |v| {
                v["additionalProperties"] = json!(false);
            },
            &[B],
        ),
        (
            "opened-object",
            "usage.schema.json",
            |v| {
                v["additionalProperties"] = json!(true);
            },
            &[F],
        ),
        (
            "const-changed",
            "identity.schema.json",
            |v| {
                v["properties"]["schema"]["const"] = json!("paperclip.prp.identity.v9");
            },
            &[B, F],
        ),
        (
            "conditional-added",
            "terminal.schema.json",
            |v| {
                v["allOf"] = json!([{
                    "if": {"properties": {"runTerminalState": {"const": "failed"}}, "required": ["runTerminalState"]},
                    "then": {"required": ["stopReason"]}
                }]);
            },
            &[B],
        ),
    ];
    let mut failures = Vec::new();
    // With the sample documents to start from, and from the schemas alone.
    for corpus in [corpus(), Vec::new()] {
        for (name, file, edit, want) in table {
            let (report, old, new) = run_with(name, file, *edit, &corpus);
            let got = broken(&report, &old, &new, &id(file));
            if got != *want {
                let findings = &report.findings;
                failures.push(format!(
                    "{name} ({} documents): want {want:?}, got {got:?}: {findings:#?}",
                    corpus.len()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn one_of_alternatives_and_ref_targets() {
    // A `oneOf` alternative removed: the documents it alone accepted break backward.
    let (r, old, new) = run("alternative-removed", "request.schema.json", |v| {
        v["oneOf"].as_array_mut().unwrap().pop();
    });
    assert_eq!(broken(&r, &old, &new, &id("request.schema.json")), [B]);
    // Added: forward.
    let (r, old, new) = run("alternative-added", "request.schema.json", |v| {
        let mut alt = v["oneOf"][0].clone();
        alt["properties"]["schema"] = json!({"const": "paperclip.runtime_request.v9"});
        v["oneOf"].as_array_mut().unwrap().push(alt);
    });
    assert_eq!(broken(&r, &old, &new, &id("request.schema.json")), [F]);
    // A `$ref` pointed elsewhere: the terminal's stop reason becomes an identity. Stop reasons
    // break backward, identities forward; the pointer is the reference.
    let (r, old, new) = run("ref-target", "terminal.schema.json", |v| {
        v["properties"]["stopReason"] =
            json!({"$ref": "https://paperclip.dev/schemas/prp/v1/identity.schema.json"});
    });
    assert_eq!(broken(&r, &old, &new, &id("terminal.schema.json")), [B, F]);
    let terminal = r
        .findings
        .iter()
        .find(|f| f.id.ends_with("/terminal.schema.json"))
        .unwrap();
    assert_eq!(terminal.schema_pointer, "/properties/stopReason/$ref");
    // The schemas that embed it reach it through an event whose `then` picks the terminal
    // payload: their witnesses are built along that route, and nothing is left suspected.
    for embedding in [
        "fixture.schema.json",
        "event.schema.json",
        "native-execution.schema.json",
    ] {
        let got = broken(&r, &old, &new, &id(embedding));
        assert_eq!(got, [B, F], "{embedding}: {:#?}", r.findings);
    }
    assert!(
        r.findings.iter().all(|f| f.witness.is_some()),
        "{:#?}",
        r.findings
    );
}

#[test]
fn a_member_added_to_an_open_object_is_compatible_both_ways() {
    let (r, old, new) = run("open-member", "identity.schema.json", |v| {
        v["properties"]["traceId"] = json!({"type": "string", "maxLength": 80});
    });
    // A document that used the undeclared name with another value shows the difference; it is
    // reported as additive, and fails no mode.
    assert_eq!(broken(&r, &old, &new, &id("identity.schema.json")), [B]);
    assert!(!r.findings.is_empty());
    for f in &r.findings {
        let v = policy::judge(&old, &new, f);
        assert_eq!(v, policy::Verdict::Additive, "{f:#?}");
        for mode in [
            policy::Mode::Policy,
            policy::Mode::Backward,
            policy::Mode::Forward,
            policy::Mode::Full,
        ] {
            assert!(!policy::fails(mode, f, v), "{mode:?}");
        }
    }
}

#[test]
fn a_break_under_a_new_version_keeps_the_policy() {
    let (r, old, new) = run("new-version", "stop-reason.schema.json", |v| {
        v["properties"]["code"]["type"] = json!("integer");
        v["properties"]["schemaVersion"] = json!({"const": 2});
    });
    assert!(!r.findings.is_empty());
    for f in r.findings.iter().filter(|f| f.witness.is_some()) {
        assert_eq!(policy::judge(&old, &new, f), policy::Verdict::NewVersion);
        assert!(!policy::fails(
            policy::Mode::Policy,
            f,
            policy::Verdict::NewVersion
        ));
        assert!(policy::fails(
            policy::Mode::Full,
            f,
            policy::Verdict::NewVersion
        ));
    }
}

#[test]
fn rewrites_and_the_same_directory_report_nothing() {
    let (r, _, _) = run("same", "identity.schema.json", |_| {});
    assert!(r.findings.is_empty() && r.added.is_empty() && r.removed.is_empty());
    // Keyword order, a subschema moved behind a `$ref`, a redundant `type`, `const` as `enum`.
    let (r, _, _) = run("rewritten", "terminal.schema.json", |v| {
        let o = v.as_object_mut().unwrap();
        let reversed: Vec<(String, Value)> = std::mem::take(o).into_iter().rev().collect();
        o.extend(reversed);
        let state = o["properties"]["turnTerminalState"].take();
        o.insert("$defs".into(), json!({ "turnState": state }));
        o["properties"]["turnTerminalState"] = json!({"$ref": "#/$defs/turnState"});
        let schema = o["properties"]["schema"]["const"].take();
        o["properties"]["schema"] = json!({ "enum": [schema] });
    });
    assert!(r.findings.is_empty(), "{:#?}", r.findings);
    // The definition the move added is listed as added, and nothing else.
    assert_eq!(r.added.len(), 1, "{:?}", r.added);
    let (r, _, _) = run("redundant-type", "event-v2.schema.json", |v| {
        for rule in v["allOf"].as_array_mut().unwrap() {
            rule["if"]["type"] = json!("object");
            rule["then"]["type"] = json!("object");
        }
    });
    assert!(r.findings.is_empty(), "{:#?}", r.findings);
}

#[test]
fn a_change_no_document_shows_is_suspected_and_fails_no_mode() {
    // A pattern written anew that takes every string the bounds allow: the meaning text differs,
    // no witness exists.
    let (r, old, new) = run("suspected", "usage.schema.json", |v| {
        v["properties"]["provider"]["pattern"] = json!("^(?:a|[^a]|a.*|[^a].*)$");
    });
    assert!(!r.findings.is_empty());
    for f in &r.findings {
        assert!(f.witness.is_none(), "{f:#?}");
        let v = policy::judge(&old, &new, f);
        assert_eq!(v, policy::Verdict::Suspected);
        for mode in [
            policy::Mode::Policy,
            policy::Mode::Backward,
            policy::Mode::Forward,
            policy::Mode::Full,
        ] {
            assert!(!policy::fails(mode, f, v), "{mode:?}");
        }
    }
}

/// One schema file, `$id` `https://example.test/s.json`, from its JSON.
fn single(schema: Value) -> SchemaSet {
    let mut schema = schema;
    schema["$id"] = json!(SYNTHETIC);
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    let file = SchemaSet::parse_with_base("s.json".into(), &schema.to_string(), "file:///")
        .expect("the schema parses");
    SchemaSet::from_files(vec![file]).expect("the schema loads")
}

const SYNTHETIC: &str = "https://example.test/s.json";

/// OLD against NEW, no format asserted: the directions broken at the root, each witness
/// rechecked.
fn directions(old: Value, new: Value) -> Vec<Direction> {
    let (old, new) = (single(old), single(new));
    let o = Options::new();
    let r = compare(&Side::new(&old, &o), &Side::new(&new, &o), &[]).unwrap();
    broken(&r, &old, &new, SYNTHETIC)
}

/// An edit of one keyword: each direction a document shows is found, with a witness built from
/// the edit, and no other (the table first, then one row per keyword).
#[test]
fn each_single_keyword_edit_shows_its_witness() {
    let rows: Vec<(Value, Value, &[Direction])> = vec![
        (
            json!({"type": "array"}),
            json!({"type": "array", "maxItems": 2}),
            &[B],
        ),
        (
            json!({"type": "array"}),
            json!({"type": "array", "items": {"type": "number"}}),
            &[B],
        ),
        (
            json!({"minProperties": 5}),
            json!({"minProperties": 10}),
            &[B],
        ),
        (
            json!({"additionalProperties": true}),
            json!({"additionalProperties": false}),
            &[B],
        ),
        (
            json!({"type": "string"}),
            json!({"type": "string", "pattern": "^a+$"}),
            &[B],
        ),
        (
            json!({"type": "object", "additionalProperties": true}),
            json!({"type": "object", "additionalProperties": true, "properties": {"a": {"type": "string"}}}),
            &[B],
        ),
        (
            json!({"type": "object", "additionalProperties": {"type": "integer"}}),
            json!({"type": "object", "additionalProperties": {"type": "integer"}, "properties": {"a": {"type": "string"}}}),
            &[B, F],
        ),
        (
            json!({"anyOf": [{"const": 1}, {"const": 2}]}),
            json!({"anyOf": [{"const": 1}]}),
            &[B],
        ),
        (
            json!({"type": "string"}),
            json!({"type": ["string", "null"]}),
            &[F],
        ),
        (
            json!({"enum": ["a", "b"]}),
            json!({"enum": ["a", "b", "c"]}),
            &[F],
        ),
        (json!({"minimum": 0}), json!({"exclusiveMinimum": 0}), &[B]),
        (json!({"maximum": 10}), json!({"maximum": 10.5}), &[F]),
        (json!({"multipleOf": 2}), json!({"multipleOf": 4}), &[B]),
        (
            json!({"type": "string", "minLength": 1}),
            json!({"type": "string", "minLength": 3}),
            &[B],
        ),
        (
            json!({"type": "string", "maxLength": 3}),
            json!({"type": "string", "maxLength": 5}),
            &[F],
        ),
        (
            json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}),
            json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}]}),
            &[B, F],
        ),
        (
            json!({"type": "array"}),
            json!({"type": "array", "contains": {"const": 1}}),
            &[B],
        ),
        (
            json!({"type": "array", "minItems": 1}),
            json!({"type": "array", "minItems": 1, "uniqueItems": true}),
            &[B],
        ),
        (
            json!({"type": "object"}),
            json!({"type": "object", "required": ["a"]}),
            &[B],
        ),
        (
            json!({"type": "object"}),
            json!({"type": "object", "patternProperties": {"^x-": {"type": "string"}}}),
            &[B],
        ),
        (
            json!({"type": "object"}),
            json!({"type": "object", "propertyNames": {"maxLength": 3}}),
            &[B],
        ),
        (
            json!({"maxProperties": 3}),
            json!({"maxProperties": 2}),
            &[B],
        ),
        (
            json!({"type": "object"}),
            json!({"type": "object", "dependentRequired": {"a": ["b"]}}),
            &[B],
        ),
        (
            json!({"type": "object"}),
            json!({"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}}),
            &[B],
        ),
        (
            json!({"type": "integer"}),
            json!({"type": "integer", "not": {"const": 0}}),
            &[B],
        ),
        (
            json!({"type": "object"}),
            json!({"type": "object", "if": {"required": ["a"]}, "then": {"properties": {"a": {"type": "string"}}}}),
            &[B],
        ),
        (
            json!({"type": "object", "if": {"properties": {"k": {"const": 1}}}, "then": {"required": ["a"]}}),
            json!({"type": "object", "if": {"properties": {"k": {"const": 1}}}, "then": {"required": ["a"]}, "else": {"required": ["b"]}}),
            &[B],
        ),
        (
            json!({"oneOf": [{"type": "integer"}]}),
            json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]}),
            &[B, F],
        ),
        (
            json!({"type": "number"}),
            json!({"allOf": [{"type": "number"}, {"maximum": 1}]}),
            &[B],
        ),
    ];
    for (old, new, want) in rows {
        let got = directions(old.clone(), new.clone());
        assert_eq!(got, want, "{old} -> {new}");
    }
}

/// A change in a definition shows on the root that reaches it: through a `oneOf` of `$ref`s,
/// through `prefixItems`, through two unions inside a list.
#[test]
fn a_definition_s_break_shows_on_every_schema_reaching_it() {
    let defs = |n: Value| {
        json!({
            "a": {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "a"}, "n": n}, "additionalProperties": false},
            "b": {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "b"}}, "additionalProperties": false},
            "p": {"anyOf": [{"$ref": "#/$defs/b"}, {"$ref": "#/$defs/a"}]}
        })
    };
    let roots = [
        json!({"oneOf": [{"$ref": "#/$defs/b"}, {"$ref": "#/$defs/a"}]}),
        json!({"type": "array", "prefixItems": [{"type": "string"}, {"$ref": "#/$defs/a"}]}),
        json!({"type": "array", "items": {"oneOf": [{"$ref": "#/$defs/b"}, {"type": "object", "required": ["payload"], "properties": {"payload": {"$ref": "#/$defs/p"}}}]}}),
    ];
    for root in roots {
        let mut old = root.clone();
        old["$defs"] = defs(json!({"type": "integer"}));
        let mut new = root.clone();
        new["$defs"] = defs(json!({"type": "integer", "maximum": 5}));
        assert_eq!(directions(old, new), [B], "{root}");
    }
}

/// `format` is an annotation unless asserted: `uuid` to `date-time` changes nothing a plain
/// draft 2020-12 reader checks; asserted, it breaks.
#[test]
fn formats_count_only_where_asserted() {
    let (old, new) = (
        single(json!({"type": "string", "format": "uuid"})),
        single(json!({"type": "string", "format": "date-time"})),
    );
    let plain = Options::new();
    let r = compare(&Side::new(&old, &plain), &Side::new(&new, &plain), &[]).unwrap();
    assert!(r.findings.is_empty(), "{:#?}", r.findings);
    let asserted = Options::new().format("date-time", Format::DateTime);
    let r = compare(
        &Side::new(&old, &asserted),
        &Side::new(&new, &asserted),
        &[],
    )
    .unwrap();
    assert_eq!(broken(&r, &old, &new, SYNTHETIC), [B]);
}

/// A suspected change is one no document shows: for a pattern written anew that takes what the
/// bounds already took, both checkers agree on every value of a small domain (each JSON type, and
/// every string of up to three characters over `a`, `b` and a line feed).
#[test]
fn suspected_means_no_document_in_a_small_domain_shows_a_break() {
    let old = json!({"type": "string", "minLength": 1});
    let new = json!({"type": "string", "pattern": "^(?:a|[^a])"});
    let (os, ns) = (single(old), single(new));
    let o = Options::new();
    let r = compare(&Side::new(&os, &o), &Side::new(&ns, &o), &[]).unwrap();
    assert!(!r.findings.is_empty());
    assert!(
        r.findings.iter().all(|f| f.witness.is_none()),
        "{:#?}",
        r.findings
    );
    let check = |set: &SchemaSet, v: &Value| {
        let c = prp_codegen::compile_checker(set, SYNTHETIC, &o).unwrap();
        Program::parse(&c.text).unwrap().check(c.entry, v).is_ok()
    };
    let mut domain = vec![
        json!(null),
        json!(true),
        json!(0),
        json!(1.5),
        json!({}),
        json!([]),
    ];
    let mut strings = vec![String::new()];
    for _ in 0..3 {
        let longer: Vec<String> = strings
            .iter()
            .flat_map(|s| ["a", "b", "\n"].map(|c| format!("{s}{c}")))
            .collect();
        strings.extend(longer);
    }
    strings.sort();
    strings.dedup();
    domain.extend(strings.into_iter().map(Value::from));
    assert!(domain.len() > 40);
    for v in &domain {
        assert_eq!(check(&os, v), check(&ns, v), "{v}");
    }
}

/// The misses of the recall runs on mutation pairs (`prp-mutants`' `compat_recall`), each cut
/// down by hand to the edit that caused it, with the seed that found it: each is found now.
#[test]
fn the_recall_runs_misses_stay_found() {
    let id_def = |id: Value| {
        json!({
            "type": "object", "required": ["x", "y"],
            "properties": {"x": {"$ref": "#/$defs/id"}, "y": {"$ref": "#/$defs/id"}},
            "$defs": {"id": id}
        })
    };
    let dynamic = |items: Value| {
        json!({
            "$ref": "list",
            "$defs": {
                "foo": {"$dynamicAnchor": "items", "type": "string"},
                "list": {"$id": "list", "type": "array", "items": {"$dynamicRef": "#/$defs/items"},
                         "$defs": {"items": items}}
            }
        })
    };
    let conditional = |tag: &str| {
        json!({"type": "object", "allOf": [{
            "if": {"properties": {"t": {"const": tag}}, "required": ["t"]},
            "then": {"properties": {"p": {"type": "object", "properties": {"q": {"type": "string"}}}}}
        }]})
    };
    let provider = |first: Value| {
        json!({
            "required": ["p", "d"],
            "properties": {"p": {"enum": ["a", "b"]}, "d": {"enum": ["x", "y"]}},
            "oneOf": [{"properties": first}, {"properties": {"p": {"const": "b"}, "d": {"const": "y"}}}]
        })
    };
    let variants = |title: Value, added: bool| {
        // The changed member three objects down, past the depth the root's values reach.
        let variant = |k: &str, title: &Value| {
            let nested = [0, 1, 2].iter().fold(
                title.clone(),
                |inner, _| json!({"type": "object", "required": ["n"], "properties": {"n": inner}}),
            );
            json!({"type": "object", "required": ["k", "t"],
                   "properties": {"k": {"const": k}, "t": nested}})
        };
        let mut alternatives = vec![json!({"$ref": "#/$defs/a"}), json!({"$ref": "#/$defs/b"})];
        if added {
            alternatives.push(json!({"type": "integer"}));
        }
        json!({
            "oneOf": alternatives,
            "$defs": {"a": variant("a", &title), "b": variant("b", &json!({"type": "string"}))}
        })
    };
    let rows: Vec<(&str, Value, Value, &[Direction])> = vec![
        (
            "10504: contains counted against maxContains",
            json!({"contains": {"const": 1}, "minContains": 0, "maxContains": 1}),
            json!({"contains": {"const": 2}, "minContains": 0, "maxContains": 1}),
            &[B, F],
        ),
        (
            "418: items after a prefix that uniqueItems keeps apart",
            json!({"prefixItems": [{"type": "boolean"}, {"type": "boolean"}], "uniqueItems": true}),
            json!({"prefixItems": [{"type": "boolean"}, {"type": "boolean"}], "uniqueItems": true, "items": {"type": "string"}}),
            &[B],
        ),
        (
            "10102: a member named for a patternProperties pattern",
            json!({"patternProperties": {"^.*bar$": {"type": "null"}}}),
            json!({"patternProperties": {"^.*bar$": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 0}]}}}),
            &[F],
        ),
        (
            "30007: a \\p{Letter} pattern",
            json!({"patternProperties": {"^\\p{Letter}+$": {"type": "null"}}}),
            json!({"patternProperties": {"^\\p{Letter}+$": {"type": ["null", "string"]}}}),
            &[F],
        ),
        (
            "20271: a \\u escape in a pattern",
            json!({"type": "string", "pattern": "^[a-z]+$"}),
            json!({"type": "string", "pattern": "\\u00e9|x"}),
            &[B, F],
        ),
        (
            "30252: a string longer than a pattern's count",
            json!({"type": "string"}),
            json!({"type": "string", "pattern": "^.{2,5}$"}),
            &[B],
        ),
        (
            "434: a definition a $dynamicRef lands on",
            dynamic(json!({"$dynamicAnchor": "items", "type": "number"})),
            dynamic(json!({"$dynamicAnchor": "items", "type": "number", "maximum": 2})),
            &[B],
        ),
        (
            "183: a definition two members share",
            id_def(json!({"type": "string"})),
            id_def(json!({"oneOf": [{"type": "string"}, true]})),
            &[B, F],
        ),
        (
            "10518: an if that no longer holds, and the then it guarded",
            conditional("a"),
            conditional("b"),
            &[B, F],
        ),
        (
            "42261: what a dependent schema asks once its trigger is there",
            json!({"dependentSchemas": {"bar": {"properties": {"bar": {"type": "integer"}}}}}),
            json!({"allOf": [{"dependentSchemas": {"bar": {"properties": {"aB": {"type": "integer"}}}}}]}),
            &[B, F],
        ),
        (
            "42021: an unevaluated member under a propertyNames limit",
            json!({"propertyNames": {"maxLength": 1}, "unevaluatedProperties": {"type": "number"}}),
            json!({"propertyNames": {"maxLength": 1}, "unevaluatedProperties": {"type": "number", "exclusiveMinimum": 0}}),
            &[B],
        ),
        (
            "43447: a string the other pattern takes without its letter",
            json!({"pattern": "a+"}),
            json!({"pattern": "^.{2,5}$"}),
            &[B, F],
        ),
        (
            "43057: an item an inner if's contains now evaluates, beside the outer if's",
            json!({"if": {"contains": {"const": "a"}},
                   "then": {"if": {"contains": {"const": "b"}}}, "unevaluatedItems": false}),
            json!({"if": {"contains": {"const": "a"}},
                   "then": {"if": {"contains": {"anyOf": [{"const": "b"}, {"type": "array"}]}}},
                   "unevaluatedItems": false}),
            &[F],
        ),
        (
            "40626: items after a prefix",
            json!({"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}),
            json!({"prefixItems": [{"type": "string"}], "items": {"type": "boolean"}}),
            &[B, F],
        ),
        (
            "40528: what a dependent schema now asks of its own trigger",
            json!({"properties": {"foo2": {}}, "dependentSchemas": {"foo2": {"properties": {"bar": {}}}},
                   "unevaluatedProperties": false}),
            json!({"properties": {"foo2": {}},
                   "dependentSchemas": {"foo2": {"properties": {"bar": {}},
                                                 "additionalProperties": {"type": ["string", "null"]}}},
                   "unevaluatedProperties": false}),
            &[B, F],
        ),
        (
            "47275: a member's value from the host's enum, beside the alternative that lost its const",
            provider(json!({"p": {"const": "a"}, "d": {"const": "x"}})),
            provider(json!({"p": {"const": "a"}})),
            &[F],
        ),
        (
            "44377: a definition an alternative refers to, when an alternative is added too",
            variants(json!({"type": ["string", "null"]}), false),
            variants(
                json!({"oneOf": [{"type": ["string", "null"]}, {"type": "null"}]}),
                true,
            ),
            &[B, F],
        ),
        (
            "49925: a changed additionalProperties under a propertyNames limit",
            json!({"propertyNames": {"maxLength": 5}, "additionalProperties": {"type": "number"}}),
            json!({"propertyNames": {"maxLength": 5}, "additionalProperties": {"type": ["number", "boolean"]}}),
            &[F],
        ),
    ];
    for (what, old, new, want) in rows {
        assert_eq!(
            directions(old.clone(), new.clone()),
            want,
            "{what}: {old} -> {new}"
        );
    }
    // 30144: an event type removed from PRP's 105, the witness an event of that type.
    let (r, old, new) = run("event-type-removed", "event.schema.json", |v| {
        let types = v["properties"]["eventType"]["enum"].as_array_mut().unwrap();
        types.retain(|t| t != "interaction.response.resolved");
    });
    assert_eq!(broken(&r, &old, &new, &id("event.schema.json")), [B]);
}

/// One schema file of `dialect` (its `$schema`), `$id` (or draft-04's `id`) [`SYNTHETIC`].
fn single_in(dialect: &str, schema: Value) -> SchemaSet {
    let mut schema = schema;
    let id = if dialect.contains("draft-04") {
        "id"
    } else {
        "$id"
    };
    schema[id] = json!(SYNTHETIC);
    schema["$schema"] = json!(dialect);
    let file = SchemaSet::parse_with_base("s.json".into(), &schema.to_string(), "file:///")
        .expect("the schema parses");
    SchemaSet::from_files(vec![file]).expect("the schema loads")
}

/// Older dialects compare with their own meaning, and a report names places as the files spell
/// them: a draft-07 `definitions` entry is `#/definitions/NAME`, array-form `items` is `/items/N`.
#[test]
fn older_dialects_compare_in_their_own_meaning_and_spelling() {
    const D7: &str = "http://json-schema.org/draft-07/schema#";
    let o = Options::new();
    let old = single_in(
        D7,
        json!({"type": "array", "items": [{"$ref": "#/definitions/n"}], "definitions": {"n": {"type": "integer"}}}),
    );
    let new = single_in(
        D7,
        json!({"type": "array", "items": [{"$ref": "#/definitions/n"}], "definitions": {"n": {"type": "integer", "maximum": 3}}}),
    );
    let r = compare(&Side::new(&old, &o), &Side::new(&new, &o), &[]).unwrap();
    let def = r
        .findings
        .iter()
        .find(|f| f.defs.as_deref() == Some("n") && f.witness.is_some())
        .expect("the tightened definition breaks");
    assert_eq!(def.direction, B);
    assert_eq!(def.schema_pointer, "/definitions/n/maximum");
    recheck(def, &old, &new);
    let root = r
        .findings
        .iter()
        .find(|f| f.defs.is_none() && f.witness.is_some())
        .expect("the root reaches it through items/0");
    assert_eq!(root.witness, Some(json!([4])));
    // A schema's own URI has no fragment to spell; a definition's is the file's own.
    assert_eq!(old.spelled(SYNTHETIC), SYNTHETIC);
    assert_eq!(
        old.spelled(&format!("{SYNTHETIC}#/$defs/n")),
        format!("{SYNTHETIC}#/definitions/n")
    );
    // Added and removed definitions are named in each side's spelling.
    let renamed = single_in(D7, json!({"definitions": {"m": {}}}));
    let r = compare(&Side::new(&old, &o), &Side::new(&renamed, &o), &[]).unwrap();
    assert_eq!(r.added, [format!("{SYNTHETIC}#/definitions/m")]);
    assert_eq!(r.removed, [format!("{SYNTHETIC}#/definitions/n")]);
    // Beside `$ref`, draft-07 ignores a sibling that 2019-09 applies.
    let sibling = |dialect| {
        single_in(
            dialect,
            json!({"$ref": "#/definitions/n", "maximum": 3, "definitions": {"n": {"type": "integer"}}}),
        )
    };
    let plain = single_in(
        D7,
        json!({"$ref": "#/definitions/n", "definitions": {"n": {"type": "integer"}}}),
    );
    let r7 = compare(&Side::new(&plain, &o), &Side::new(&sibling(D7), &o), &[]).unwrap();
    assert!(
        r7.findings
            .iter()
            .all(|f| f.defs.is_some() || f.witness.is_none()),
        "{:?}",
        r7.findings
    );
    let d19 = "https://json-schema.org/draft/2019-09/schema";
    let r19 = compare(&Side::new(&plain, &o), &Side::new(&sibling(d19), &o), &[]).unwrap();
    assert!(
        r19.findings
            .iter()
            .any(|f| f.defs.is_none() && f.witness.is_some()),
        "2019-09 applies `maximum` beside `$ref`"
    );
    // draft-04's boolean `exclusiveMaximum` is a bound made exclusive.
    let d4 = "http://json-schema.org/draft-04/schema#";
    let (a, b) = (
        single_in(d4, json!({"type": "number", "maximum": 3})),
        single_in(
            d4,
            json!({"type": "number", "maximum": 3, "exclusiveMaximum": true}),
        ),
    );
    let r4 = compare(&Side::new(&a, &o), &Side::new(&b, &o), &[]).unwrap();
    let f = r4
        .findings
        .iter()
        .find(|f| f.witness.is_some())
        .expect("a break");
    assert_eq!((f.direction, f.witness.clone()), (B, Some(json!(3))));
    assert_eq!(f.schema_pointer, "/maximum");
}
