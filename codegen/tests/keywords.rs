//! The schema checker one keyword at a time: each test compiles a schema with the generator's
//! `compile_checker`, runs the program with the runtime checker (`prp_codegen_runtime::eval`), and compares
//! verdicts, codes and pointers. Then the generator as a whole on the shapes that used to panic or
//! be refused: every one generates, or fails with a located error.

use prp_codegen_runtime as rt;

use prp_codegen::{Format, Options, SchemaSet};
use serde_json::{Value, json};

fn try_set_of(schemas: &[(&str, Value)]) -> prp_codegen::Result<SchemaSet> {
    let files = schemas
        .iter()
        .map(|(path, s)| {
            SchemaSet::parse_with_base(path.to_string(), &s.to_string(), "https://x.test/")
        })
        .collect::<prp_codegen::Result<_>>()?;
    SchemaSet::from_files(files)
}

fn set_of(schemas: &[(&str, Value)]) -> SchemaSet {
    try_set_of(schemas).unwrap()
}

struct Checker {
    program: rt::eval::Program,
    entry: usize,
}

impl Checker {
    /// The checker of the first of `schemas`.
    fn with_options(schemas: &[(&str, Value)], options: &Options) -> Checker {
        let set = set_of(schemas);
        let uri = format!("https://x.test/{}", schemas[0].0);
        let compiled = prp_codegen::compile_checker(&set, &uri, options).unwrap();
        Checker {
            program: rt::eval::Program::parse(&compiled.text).unwrap(),
            entry: compiled.entry,
        }
    }
    fn new(schema: Value) -> Checker {
        Self::with_options(&[("s.json", schema)], &Options::new())
    }
    fn ok(&self, v: Value) -> bool {
        self.program.check(self.entry, &v).is_ok()
    }
    /// Asserts each verdict.
    fn verdicts(&self, cases: &[(Value, bool)]) {
        for (v, want) in cases {
            assert_eq!(self.ok(v.clone()), *want, "{v}");
        }
    }
    /// The failure's code and pointer.
    fn failure(&self, v: Value) -> (String, String) {
        let f = self.program.check(self.entry, &v).expect_err("accepted");
        (f.code.as_str().to_owned(), f.rel)
    }
}

fn check(schema: Value, cases: &[(Value, bool)]) {
    Checker::new(schema).verdicts(cases);
}

#[test]
fn type_and_integers_by_value() {
    check(
        json!({"type": "integer"}),
        &[
            (json!(1), true),
            (json!(1.0), true),
            (json!(1.5), false),
            (json!("1"), false),
        ],
    );
    check(
        json!({"type": ["string", "null"]}),
        &[(json!(null), true), (json!("a"), true), (json!(0), false)],
    );
}

#[test]
fn enum_and_const_compare_as_json() {
    check(
        json!({"enum": [1, {"a": [true]}, null]}),
        &[
            (json!(1.0), true),
            (json!({"a": [true]}), true),
            (json!({"a": [1]}), false),
            (json!(null), true),
            (json!(false), false),
        ],
    );
    check(
        json!({"const": {"b": 2, "a": 1}}),
        &[(json!({"a": 1, "b": 2}), true)],
    );
    check(json!({"enum": []}), &[(json!(1), false)]);
}

#[test]
fn numbers_bounds_and_decimal_multiples() {
    check(
        json!({"multipleOf": 0.0001}),
        &[
            (json!(0.0075), true),
            (json!(0.00751), false),
            (json!("x"), true),
        ],
    );
    check(
        json!({"type": "integer", "multipleOf": 0.123456789}),
        &[(json!(1e308), false)],
    );
    check(
        json!({"multipleOf": 1e-8}),
        &[(json!(12391239123u64), true)],
    );
    check(
        json!({"minimum": 1.5, "exclusiveMaximum": 3}),
        &[
            (json!(1.5), true),
            (json!(1.4), false),
            (json!(3), false),
            (json!(2.9), true),
        ],
    );
    check(
        json!({"exclusiveMinimum": 0, "maximum": 9007199254740993u64}),
        &[
            (json!(0), false),
            (json!(9007199254740993u64), true),
            (json!(9007199254740994u64), false),
        ],
    );
    // Two bounds in `allOf` meet: the value between them passes.
    check(
        json!({"allOf": [{"maximum": 30}, {"minimum": 20}]}),
        &[(json!(25), true), (json!(35), false), (json!(15), false)],
    );
}

#[test]
fn strings_count_code_points_and_patterns_are_unicode() {
    check(
        json!({"minLength": 2, "maxLength": 2}),
        &[
            (json!("\u{1F4A9}\u{1F4A9}"), true),
            (json!("a"), false),
            (json!(12), true),
        ],
    );
    check(
        json!({"pattern": "^\\p{Letter}+$"}),
        &[
            (json!("π"), true),
            (json!("123"), false),
            (json!(true), true),
        ],
    );
    // Not anchored: a match anywhere is enough.
    check(
        json!({"pattern": "a+"}),
        &[(json!("xxaxx"), true), (json!("xx"), false)],
    );
}

#[test]
fn formats_are_annotations_unless_asserted() {
    let schema = json!({"format": "date-time"});
    Checker::new(schema.clone()).verdicts(&[(json!("not a date"), true)]);
    let c = Checker::with_options(
        &[("s.json", schema.clone())],
        &Options::new().format("date-time", Format::DateTime),
    );
    c.verdicts(&[
        (json!("2026-02-29T00:00:00Z"), false),
        (json!("2028-02-29T23:59:59.5+01:00"), true),
        (json!(7), true),
    ]);
    let c = Checker::with_options(
        &[("s.json", schema)],
        &Options::new().format("date-time", Format::Pattern("^[0-9]{4}-".into())),
    );
    c.verdicts(&[(json!("2026-"), true), (json!("26-"), false)]);
    assert_eq!(c.failure(json!("x")).0, "format");
}

#[test]
fn arrays_counts_uniqueness_and_contains() {
    let c = Checker::new(json!({"uniqueItems": true, "maxItems": 3}));
    c.verdicts(&[
        (json!([1, "1", [1]]), true),
        (json!([{"a": 1, "b": 2}, {"b": 2, "a": 1}]), false),
        (json!([1, 2, 3, 4]), false),
        (json!({"not": "an array"}), true),
    ]);
    assert_eq!(
        c.failure(json!([0, 1, 1.0])),
        ("unique_items".into(), "/2".into())
    );
    check(
        json!({"contains": {"const": 1}, "minContains": 2, "maxContains": 3}),
        &[
            (json!([1, 1]), true),
            (json!([1, 2]), false),
            (json!([1, 1, 1, 1]), false),
        ],
    );
    check(
        json!({"contains": {"const": 1}, "minContains": 0}),
        &[(json!([]), true)],
    );
    check(
        json!({"contains": false}),
        &[(json!([]), false), (json!("x"), true)],
    );
}

#[test]
fn prefix_items_then_items() {
    let c =
        Checker::new(json!({"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}));
    c.verdicts(&[
        (json!(["a", 1, 2]), true),
        (json!([]), true),
        (json!([1]), false),
    ]);
    assert_eq!(
        c.failure(json!(["a", 1, "b"])),
        ("type".into(), "/2".into())
    );
}

#[test]
fn objects_members_and_names() {
    let c = Checker::new(json!({
        "properties": {"a": {"type": "integer"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": false,
        "required": ["a"],
        "minProperties": 1,
        "maxProperties": 2
    }));
    c.verdicts(&[
        (json!({"a": 1, "x-y": "z"}), true),
        (json!({"x-y": "z"}), false),
        (json!([1]), true),
        (json!("not an object"), true),
    ]);
    assert_eq!(
        c.failure(json!({"a": 1, "b": 2})),
        ("additional_properties".into(), "/b".into())
    );
    assert_eq!(c.failure(json!({"a": "1"})), ("type".into(), "/a".into()));
    assert_eq!(
        c.failure(json!({"a": 1, "x-1": "", "x-2": ""})).0,
        "max_properties"
    );
    let c = Checker::new(json!({"propertyNames": {"maxLength": 2}}));
    c.verdicts(&[(json!({"ab": 1}), true), (json!({"abc": 1}), false)]);
    assert_eq!(
        c.failure(json!({"abc": 1})),
        ("max_length".into(), "/abc".into())
    );
}

#[test]
fn dependencies() {
    check(
        json!({"dependentRequired": {"a": ["b"]}}),
        &[
            (json!({"a": 1, "b": 1}), true),
            (json!({"a": 1}), false),
            (json!({"b": 1}), true),
        ],
    );
    check(
        json!({"dependentSchemas": {"a": {"required": ["c"]}}}),
        &[
            (json!({"a": 1, "c": 1}), true),
            (json!({"a": 1}), false),
            (json!(["a"]), true),
        ],
    );
}

#[test]
fn combinators() {
    check(
        json!({"anyOf": [{"type": "string"}, {"minimum": 2}]}),
        &[(json!("a"), true), (json!(3), true), (json!(1), false)],
    );
    // A `false` alternative never matches.
    check(
        json!({"oneOf": [false, {"type": "integer"}, {"minimum": 10}]}),
        &[
            (json!(1), true),
            (json!(11), false),
            (json!(1.5), false),
            (json!(12.5), true),
        ],
    );
    check(
        json!({"not": {"type": "null"}}),
        &[(json!(null), false), (json!(0), true)],
    );
    check(
        json!({"if": {"minimum": 10}, "then": {"multipleOf": 2}, "else": {"maximum": 0}}),
        &[
            (json!(12), true),
            (json!(11), false),
            (json!(-1), true),
            (json!(5), false),
        ],
    );
    // `then` without `if` does nothing.
    check(json!({"then": false}), &[(json!(1), true)]);
}

#[test]
fn unevaluated_members_and_items_see_through_subschemas() {
    let c = Checker::new(json!({
        "allOf": [{"properties": {"a": true}}],
        "anyOf": [{"properties": {"b": true}, "required": ["b"]}, {"properties": {"c": true}}],
        "unevaluatedProperties": false
    }));
    c.verdicts(&[
        (json!({"a": 1, "b": 1}), true),
        (json!({"a": 1, "c": 1}), true),
        (json!({"a": 1, "d": 1}), false),
    ]);
    assert_eq!(
        c.failure(json!({"d": 1})),
        ("unevaluated_properties".into(), "/d".into())
    );
    // The annotations of a failing subschema do not count.
    check(
        json!({"not": {"not": {"properties": {"a": true}}}, "unevaluatedProperties": false}),
        &[(json!({"a": 1}), false)],
    );
    let c = Checker::new(json!({
        "prefixItems": [true],
        "contains": {"type": "string"},
        "unevaluatedItems": {"type": "integer"}
    }));
    c.verdicts(&[
        (json!([null, "s", 3]), true),
        (json!([null, "s", null]), false),
    ]);
    assert_eq!(
        c.failure(json!([null, "s", null])),
        ("type".into(), "/2".into())
    );
}

#[test]
fn references_recursion_and_identifiers() {
    let tree = json!({
        "type": "object",
        "properties": {"value": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#"}}}
    });
    let c = Checker::new(tree);
    c.verdicts(&[
        (
            json!({"value": 1, "kids": [{"value": 2, "kids": [{"value": 3}]}]}),
            true,
        ),
        (json!({"kids": [{"kids": [{"value": "x"}]}]}), false),
    ]);
    assert_eq!(
        c.failure(json!({"kids": [{"kids": [{"value": "x"}]}]})).1,
        "/kids/0/kids/0/value"
    );
    // A schema that reaches itself for the same instance (alone, or through an alternative:
    // found by the schema mutants, seed 108127) would never finish checking: the directory is
    // refused where the loop closes. Recursion into members and items (the tree above) is fine.
    for looping in [
        json!({"$ref": "#"}),
        json!({"$defs": {"int": {"oneOf": [{"type": "integer"}, {"type": "null"}, {"$ref": "#/$defs/int"}]}},
               "properties": {"foo": {"$ref": "#/$defs/int"}}}),
        json!({"allOf": [{"if": {"$ref": "#/$defs/a"}}], "$defs": {"a": {"not": {"$ref": "#"}}}}),
    ] {
        let e = try_set_of(&[("s.json", looping.clone())]).expect_err("refused");
        assert_eq!(e.code, "invalid_schema", "{looping}: {e}");
        assert!(e.message.contains("never finish"), "{e}");
    }
    // `$id`, `$anchor` and URNs, with relative references resolved against the base.
    let c = Checker::new(json!({
        "$id": "urn:uuid:7c2f6e0a-0000-4000-8000-000000000001",
        "properties": {"a": {"$ref": "#positive"}, "b": {"$ref": "https://x.test/dir/inner.json#/$defs/small"}},
        "$defs": {
            "p": {"$anchor": "positive", "exclusiveMinimum": 0},
            "inner": {"$id": "https://x.test/dir/inner.json", "$defs": {"small": {"maximum": 3}}}
        }
    }));
    c.verdicts(&[(json!({"a": 1, "b": 3}), true), (json!({"a": 0}), false)]);
}

#[test]
fn a_dynamic_reference_lands_on_the_outermost_anchor() {
    let schemas = [
        (
            "strict.json",
            json!({
                "$id": "https://x.test/strict.json",
                "$dynamicAnchor": "node",
                "$ref": "tree.json",
                "unevaluatedProperties": false
            }),
        ),
        (
            "tree.json",
            json!({
                "$id": "https://x.test/tree.json",
                "$dynamicAnchor": "node",
                "type": "object",
                "properties": {"data": true, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}
            }),
        ),
    ];
    let c = Checker::with_options(&schemas, &Options::new());
    c.verdicts(&[
        (json!({"children": [{"data": 1}]}), true),
        (json!({"children": [{"daat": 1}]}), false),
    ]);
}

#[test]
fn boolean_schemas() {
    check(json!(true), &[(json!(1), true)]);
    let c = Checker::new(json!(false));
    assert_eq!(c.failure(json!(null)).0, "false_schema");
}

/// Generates `schemas` (path, schema) as one directory would.
fn generate(schemas: &[(&str, Value)]) -> prp_codegen::Result<String> {
    prp_codegen::generate(try_set_of(schemas)?, &Options::new()).map(|o| o.code)
}

#[test]
fn shapes_that_once_failed_now_generate() {
    for schema in [
        json!({"allOf": [{"type": "object"}, {"type": "object"}]}),
        json!({"properties": {"foo": {"$ref": "#"}}}),
        json!({"$ref": "#/$defs/a", "$defs": {"a": {"type": "integer"}}}),
        json!({"$id": "urn:example:root", "type": "string"}),
        json!({"maxItems": 2, "items": {"maxLength": 3}}),
        json!(false),
    ] {
        generate(&[("s.json", schema.clone())]).unwrap_or_else(|e| panic!("{schema}: {e}"));
    }
    // A typed struct keeps its typed members and checks the one no shape says.
    let code = generate(&[(
        "identity.json",
        json!({
            "type": "object",
            "properties": {"id": {"type": "string"}, "tags": {"maxItems": 2, "items": {"maxLength": 3}}}
        }),
    )])
    .unwrap();
    assert!(code.contains("pub struct Identity {"), "{code}");
    assert!(
        code.contains("pub struct IdentityTags(serde_json::Value)"),
        "{code}"
    );
}

#[test]
fn malformed_schemas_are_located_errors() {
    for (schema, code, pointer) in [
        (
            json!({"anyOf": [{"pattern": "("}]}),
            "invalid_pattern",
            "/anyOf/0/pattern",
        ),
        (
            json!({"anyOf": [{"items": [true]}]}),
            "invalid_schema",
            "/anyOf/0/items",
        ),
        (
            json!({"anyOf": [{"$ref": "missing.json"}]}),
            "unresolved_reference",
            "/anyOf/0",
        ),
        (
            json!({"anyOf": [{"minLength": -1}]}),
            "invalid_schema",
            "/anyOf/0/minLength",
        ),
        (
            json!({"anyOf": [{"type": "text"}]}),
            "invalid_schema",
            "/anyOf/0/type",
        ),
        (
            json!({"$defs": {"a": {"$id": "x.json#frag"}}}),
            "invalid_schema_id",
            "/$defs/a/$id",
        ),
    ] {
        let e = generate(&[("s.json", schema.clone())]).expect_err(&schema.to_string());
        assert_eq!(
            (e.code.as_str(), e.pointer.as_str(), e.file.as_str()),
            (code, pointer, "s.json"),
            "{schema}: {e}"
        );
    }
}

/// The text a program is written into generated code as reads back as the same program, for
/// every schema and definition of PRP's directory and of the official suite's groups that
/// compile: what generated code carries always parses.
#[test]
fn every_compiled_program_reads_back_from_its_text() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut sets = vec![(
        SchemaSet::load(&root.join("schemas")).unwrap(),
        Options::new().format("date-time", Format::DateTime),
    )];
    let suite = prp_testkit::suite_dir();
    for path in suite.iter().flat_map(|dir| {
        let groups = dir.join("tests/draft2020-12");
        std::fs::read_dir(groups)
            .unwrap()
            .map(|e| e.unwrap().path())
    }) {
        let groups: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for g in groups.as_array().unwrap() {
            if let Ok(set) = try_set_of(&[("root.json", g["schema"].clone())]) {
                sets.push((set, Options::new()));
            }
        }
    }
    let mut checked = Vec::new();
    for (set, options) in &sets {
        checked.push(0);
        for f in &set.files {
            let defs = f.root.get("$defs").and_then(Value::as_object);
            let names = defs
                .into_iter()
                .flatten()
                .map(|(k, _)| prp_vocabulary::uri::definition(&f.id, k));
            for uri in std::iter::once(f.id.clone()).chain(names) {
                let Ok(c) = prp_codegen::compile_checker(set, &uri, options) else {
                    continue;
                };
                let read =
                    rt::eval::Program::parse(&c.text).unwrap_or_else(|e| panic!("{uri}: {e}"));
                assert_eq!(read, c.program, "{uri}");
                assert_eq!(read.encode(), c.text, "{uri}");
                *checked.last_mut().unwrap() += 1;
            }
        }
    }
    // PRP's directory alone has 73 programs; the suite's groups add more than 300.
    assert!(checked[0] >= 70, "{} programs of PRP's schemas", checked[0]);
    let suite_programs: usize = checked[1..].iter().sum();
    assert!(
        suite.is_none() || suite_programs > 300,
        "{suite_programs} programs of the suite"
    );
}
