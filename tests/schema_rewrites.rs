//! Equivalent schemas, same Rust: every rewrite below keeps what PRP's schemas mean while changing
//! how they are spelled, and is applied by this test to every schema of `schemas/` at once. The
//! types are then generated from the rewritten copy with prp-types' own options and compared with
//! those of `schemas/` item by item, doc comments and the inputs' digests aside. Identical code
//! decides identical verdicts, so the comparison covers the public API (type names, member types,
//! builders) and every verdict at once; the test also fails if a rewrite leaves every schema
//! unchanged (a rewrite that does nothing proves nothing). Moving member schemas to `$defs` adds
//! definitions: there the new registry entries are allowed and every old item must be unchanged.

use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

include!("../prp-types/codegen_options.rs");

/// Keywords whose value maps names to subschemas.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "$defs",
    "patternProperties",
    "dependentSchemas",
];
/// Keywords whose value is one subschema.
const SCHEMA_ONE: &[&str] = &[
    "items",
    "additionalProperties",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contains",
];
/// Keywords whose value is a list of subschemas.
const SCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// Applies `f` to every schema object below and including `v`, children first.
fn each_schema(v: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Some(o) = v.as_object_mut() else { return };
    for (k, sub) in o.iter_mut() {
        if SCHEMA_MAPS.contains(&k.as_str()) {
            for s in sub.as_object_mut().into_iter().flat_map(|m| m.values_mut()) {
                each_schema(s, f);
            }
        } else if SCHEMA_ONE.contains(&k.as_str()) {
            each_schema(sub, f);
        } else if SCHEMA_LISTS.contains(&k.as_str()) {
            for s in sub.as_array_mut().into_iter().flatten() {
                each_schema(s, f);
            }
        }
    }
    f(o);
}

/// `type: object` repeated in every `if`, `then` and `allOf` member of an object schema.
fn redundant_type(o: &mut Map<String, Value>) {
    if o.get("type") != Some(&json!("object")) {
        return;
    }
    let add = |s: &mut Value| {
        if let Some(m) = s.as_object_mut() {
            m.entry("type").or_insert(json!("object"));
        }
    };
    for key in ["if", "then"] {
        if let Some(s) = o.get_mut(key) {
            add(s);
        }
    }
    for s in o
        .get_mut("allOf")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        add(s);
        for key in ["if", "then"] {
            if let Some(s) = s.get_mut(key) {
                add(s);
            }
        }
    }
}

/// Every schema object's keywords in reverse order (member and definition maps keep theirs).
fn keyword_order(o: &mut Map<String, Value>) {
    let entries: Vec<(String, Value)> = std::mem::take(o).into_iter().rev().collect();
    o.extend(entries);
}

/// `const: x` as `enum: [x]`.
fn const_as_enum(o: &mut Map<String, Value>) {
    if let Some(c) = o.remove("const") {
        o.insert("enum".into(), json!([c]));
    }
}

/// `type: [x, "null"]` as a `oneOf` of the `x` schema and `{"type": "null"}`.
fn nullable_as_one_of(o: &mut Map<String, Value>) {
    let Some(Value::Array(ts)) = o.get("type") else {
        return;
    };
    let others: Vec<&Value> = ts.iter().filter(|t| *t != "null").collect();
    if ts.len() != 2 || others.len() != 1 || o.contains_key("oneOf") {
        return;
    }
    let t = others[0].clone();
    let mut branch = Map::new();
    branch.insert("type".into(), t);
    for (k, v) in std::mem::take(o) {
        match k.as_str() {
            "type" => {}
            "description" | "title" | "$comment" | "$id" | "$schema" | "$defs" => {
                o.insert(k, v);
            }
            _ => {
                branch.insert(k, v);
            }
        }
    }
    o.insert(
        "oneOf".into(),
        json!([Value::Object(branch), { "type": "null" }]),
    );
}

/// An `allOf` of several members as its first member and an `allOf` of the others.
fn nested_all_of(o: &mut Map<String, Value>) {
    let Some(Value::Array(members)) = o.get_mut("allOf") else {
        return;
    };
    if members.len() < 2 {
        return;
    }
    let rest: Vec<Value> = members.drain(1..).collect();
    members.push(json!({ "allOf": rest }));
}

/// Member schemas of plain values (strings without `pattern`, numbers, booleans, without `enum`
/// or `const`, which would make named types) moved to the file's `$defs` under the member's name,
/// the member becoming a `$ref` to it. Members of the file's root and of its definitions are moved,
/// with the members of their members; those inside conditionals and alternatives stay.
fn members_to_defs(file: &mut Value) {
    let mut moved: Map<String, Value> = file
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let before = moved.len();
    move_members(file, &mut moved);
    let keys: Vec<String> = moved.keys().cloned().collect();
    for k in keys {
        let mut def = moved[&k].take();
        move_members(&mut def, &mut moved);
        moved[&k] = def;
    }
    if moved.len() > before {
        file["$defs"] = Value::Object(moved);
    }
}

/// Moves the plain members of `schema`, and of its object members, into `defs`.
fn move_members(schema: &mut Value, defs: &mut Map<String, Value>) {
    let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
        return;
    };
    for (name, sub) in props.iter_mut() {
        let plain = matches!(
            sub.get("type").and_then(Value::as_str),
            Some("string" | "integer" | "number" | "boolean")
        ) && ["enum", "const", "pattern"]
            .iter()
            .all(|k| sub.get(k).is_none());
        if plain && !defs.contains_key(name) {
            defs.insert(name.clone(), sub.take());
            *sub = json!({ "$ref": prp_vocabulary::uri::definition("", name) });
        } else {
            move_members(sub, defs);
        }
    }
}

type Rewrite = fn(&mut Map<String, Value>);

const REWRITES: &[(&str, Rewrite)] = &[
    ("redundant type in if, then and allOf", redundant_type),
    ("keyword order", keyword_order),
    ("const as a one-value enum", const_as_enum),
    ("type [x, null] as a oneOf with null", nullable_as_one_of),
    ("allOf members nested in an allOf", nested_all_of),
    (MOVE_TO_DEFS, |_| {}),
];

/// The rewrite made on whole files rather than schema by schema.
const MOVE_TO_DEFS: &str = "member schemas moved to $defs behind a $ref";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `*.json` files below `dir`, relative to it.
fn schema_files(dir: &Path, under: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir.join(under)).unwrap() {
        let entry = entry.unwrap();
        let rel = under.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            schema_files(dir, &rel, out);
        } else if rel.extension().is_some_and(|e| e == "json") {
            out.push(rel);
        }
    }
}

/// The generated items, doc comments aside, keyed by their first line.
fn items(code: &str) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    for line in code.lines() {
        let t = line.trim_start();
        let line = &mask_program_nodes(line);
        // The inputs' digests change with their bytes, as they should.
        if t.starts_with("//")
            || t.starts_with("#[doc")
            || t.contains("sha256")
            || t.contains("SHA256")
        {
            continue;
        }
        if !line.starts_with(' ') && !line.starts_with('}') && !line.starts_with(')') {
            items.push(String::new());
        }
        if let Some(last) = items.last_mut() {
            last.push_str(line);
            last.push('\n');
        }
    }
    // A rule left to the schema program carries its schema as the author spelled it: the
    // program's data and its node numbers follow the spelling, the rules' places do not.
    items.retain(|item| !item.starts_with("fn __program()"));
    items
}

/// `line` with the schema program's node numbers masked: in `rt::program_rule(__program(), N` and
/// in a `nodes: &[N, ...]` list.
fn mask_program_nodes(line: &str) -> String {
    for (open, close) in [("program_rule(__program(), ", ','), ("nodes: &[", ']')] {
        if let Some(at) = line.find(open) {
            let start = at + open.len();
            let end = line[start..].find(close).map_or(line.len(), |n| start + n);
            return format!("{}N{}", &line[..start], &line[end..]);
        }
    }
    line.to_owned()
}

#[test]
fn meaning_preserving_rewrites_generate_the_same_rust() {
    let schemas = root().join("schemas");
    let mut files = Vec::new();
    schema_files(&schemas, Path::new(""), &mut files);
    let options = prp_options();
    let original = prp_codegen::generate_dir(&schemas, &options).unwrap().code;
    // PRP's schemas all have typed shapes: no checked JSON, before any rewrite.
    assert_eq!(
        original
            .matches("Checked as JSON against its schema")
            .count(),
        0
    );
    let want = items(&original);
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("schema-rewrites");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("original.rs.txt"), &original).unwrap();
    let mut failures = Vec::new();
    for (name, rewrite) in REWRITES {
        let dir = work.join(name.replace(' ', "-"));
        let _ = std::fs::remove_dir_all(&dir);
        let mut changed = 0;
        for rel in &files {
            let text = std::fs::read_to_string(schemas.join(rel)).unwrap();
            let mut v: Value = serde_json::from_str(&text).unwrap();
            let before = serde_json::to_string(&v).unwrap();
            if *name == MOVE_TO_DEFS {
                members_to_defs(&mut v);
            } else {
                each_schema(&mut v, &mut |o| rewrite(o));
            }
            // Compared as text: key order is invisible to `==`.
            changed += usize::from(serde_json::to_string(&v).unwrap() != before);
            std::fs::create_dir_all(dir.join(rel).parent().unwrap()).unwrap();
            std::fs::write(dir.join(rel), serde_json::to_string_pretty(&v).unwrap()).unwrap();
        }
        assert!(changed > 0, "{name}: no schema was rewritten");
        let code = match prp_codegen::generate_dir(&dir, &options) {
            Ok(o) => o.code,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        std::fs::write(dir.join("generated.rs.txt"), &code).unwrap();
        let got = items(&code);
        // Moving a schema to `$defs` adds a definition, addressable by its `$id` and fragment:
        // the registry lists it, and its hidden wrappers (`__SchemaN`) are numbered anew. Every
        // other item stays as it was; the new ones are the additions.
        let registry = |i: &String| {
            let first = i.lines().next().unwrap_or_default();
            first.contains("__Schema") || first.starts_with("macro_rules! for_each_schema_type")
        };
        let additive = *name == MOVE_TO_DEFS;
        let missing: Vec<&String> = want
            .iter()
            .filter(|i| !(got.contains(i) || additive && registry(i)))
            .collect();
        let extra: Vec<&String> = got
            .iter()
            .filter(|i| !want.contains(i) && !additive)
            .collect();
        if !missing.is_empty() || !extra.is_empty() {
            let first = |v: &[&String]| {
                v.first()
                    .map(|s| s.lines().take(3).collect::<Vec<_>>().join("\n"))
            };
            failures.push(format!(
                "{name} ({changed} files rewritten): {} items differ, e.g. expected\n{:?}\ngot\n{:?}",
                missing.len().max(extra.len()),
                first(&missing),
                first(&extra)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
