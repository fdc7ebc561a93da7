//! Helpers shared by the workspace's tests: where the shared corpora are, and a visible skip (or,
//! under `CI=true`, a failure) when they are missing; loading schema directories; and a
//! `jsonschema`-based oracle configured the way the reference validator is (draft 2020-12,
//! asserted PRP `date-time`, ECMAScript `pattern`).
//!
//! Every test that reads `../shared` finds it through [`shared_dir`]: one variable,
//! `PRP_SHARED_DIR`, moves all of them at once (CI sets it to a missing folder for a pass that sees
//! the workspace as a fresh clone does).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use jsonschema::paths::Location;
use jsonschema::{
    Draft, Keyword, Registry, Resource, ValidationError, ValidationOptions, Validator,
};
use serde_json::{Map, Value};

/// The JSON Schema dialect every PRP schema declares.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Environment variable that overrides where the reference corpus is looked for.
pub const CORPUS_ENV: &str = "PRP_REFERENCE_DIR";
/// Overrides where the current (v3) reference contract is.
pub const CONTRACT_ENV: &str = "PRP_REFERENCE_V3_DIR";

/// Environment variable that says where the shared folder is (default: `../shared` beside the
/// workspace).
pub const SHARED_ENV: &str = "PRP_SHARED_DIR";

/// The workspace's root (where `schemas/`, `fixtures/` and `tests/` live).
pub fn project_dir() -> PathBuf {
    let testkit = Path::new(env!("CARGO_MANIFEST_DIR"));
    testkit
        .parent()
        .expect("testkit/ is inside the workspace")
        .to_owned()
}

/// The shared folder of read-only test input: `$PRP_SHARED_DIR`, else `../shared` beside the
/// workspace.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os(SHARED_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => project_dir().join("../shared"),
    }
}

/// Whether `CI=true`, where a missing corpus is a failure rather than a skip.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| value.eq_ignore_ascii_case("true"))
}

/// `dir` if it is a directory; otherwise `None`, after saying on stderr that `what` was skipped
/// (under `CI=true` it panics instead, naming `override_env` when there is one).
pub fn required(dir: PathBuf, what: &str) -> Option<PathBuf> {
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        !in_ci(),
        "{what} not found at {} (required when CI=true; {SHARED_ENV} says where ../shared is)",
        dir.display()
    );
    eprintln!("skipped: {what} not found at {}", dir.display());
    None
}

/// `shared/NAME`, or `$OVERRIDE` when that variable is set and not empty.
pub fn shared_path(name: &str, override_env: &str) -> PathBuf {
    match std::env::var_os(override_env) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => shared_dir().join(name),
    }
}

/// The project's own schema directory.
pub fn project_schema_dir() -> PathBuf {
    project_dir().join("schemas")
}

/// The reference corpus (`shared/prp-reference`, or `$PRP_REFERENCE_DIR`).
///
/// Returns `None`, after printing why, when the corpus is missing; the caller then returns early
/// so the test reports a skip. With `CI=true` a missing corpus is a failure instead.
pub fn corpus_dir() -> Option<PathBuf> {
    required(shared_path("prp-reference", CORPUS_ENV), "reference corpus")
}

/// Upstream's current contract (`shared/prp-reference-v3`, or `$PRP_REFERENCE_V3_DIR`): the schema
/// directory the project's `schemas/` follow, and the one v3 fixture whose content changed. Its
/// schemas are the reference every typed verdict is compared with; the fixtures of
/// [`corpus_dir`] (v1/v2) still hold under it.
///
/// `None` after a visible skip when missing (a failure under `CI=true`).
pub fn contract_dir() -> Option<PathBuf> {
    required(
        shared_path("prp-reference-v3", CONTRACT_ENV),
        "current reference contract (v3)",
    )
}

/// The official JSON-Schema-Test-Suite (`shared/json-schema-test-suite`, or
/// `$JSON_SCHEMA_TEST_SUITE`), or `None` after a visible skip (a failure under `CI=true`).
pub fn suite_dir() -> Option<PathBuf> {
    let dir = shared_path("json-schema-test-suite", "JSON_SCHEMA_TEST_SUITE");
    required(dir.join("tests/draft2020-12"), "the JSON-Schema-Test-Suite").map(|_| dir)
}

/// SchemaStore's schemas of the older dialects with their positive and negative documents
/// (`../shared/schemastore-dev`, or `$SCHEMASTORE_DEV_DIR`).
pub fn schemastore_dir() -> Option<PathBuf> {
    let dir = shared_path("schemastore-dev", "SCHEMASTORE_DEV_DIR");
    required(dir.join("draft-07"), "the SchemaStore corpus").map(|_| dir)
}

/// The suite's folder of `dialect`'s tests (`tests/<folder>`) and remote documents.
pub fn suite_folder(dialect: prp_vocabulary::Dialect) -> &'static str {
    use prp_vocabulary::Dialect;
    match dialect {
        Dialect::Draft4 => "draft4",
        Dialect::Draft6 => "draft6",
        Dialect::Draft7 => "draft7",
        Dialect::Draft201909 => "draft2019-09",
        Dialect::Draft202012 => "draft2020-12",
    }
}

/// Whether the suite's remote document at `path` (relative to `remotes/`, `/`-separated) is one
/// a `dialect` group may refer to: not another dialect's folder, nor `v1/` (another
/// specification's).
pub fn suite_remote_for(path: &str, dialect: prp_vocabulary::Dialect) -> bool {
    match path.split_once('/') {
        Some((top, _)) => {
            top != "v1" && (!top.starts_with("draft") || top == suite_folder(dialect))
        }
        None => true,
    }
}

/// A reference corpus' schema directories (of [`corpus_dir`] or [`contract_dir`]): the PRP schemas
/// and the provider schemas.
pub fn reference_schema_dirs(corpus: &Path) -> Vec<PathBuf> {
    vec![
        corpus.join("protocol/schemas"),
        corpus.join("protocol/provider-schemas"),
    ]
}

/// The reference corpus' fixture directory.
pub fn reference_fixture_dir(corpus: &Path) -> PathBuf {
    corpus.join("protocol/fixtures")
}

/// Every `*.json` file below `dir` (recursively), sorted by path.
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries =
            fs::read_dir(dir).unwrap_or_else(|err| panic!("cannot list {}: {err}", dir.display()));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|err| panic!("cannot list {}: {err}", dir.display()))
                .path();
            if path.is_dir() {
                collect(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "json") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    collect(dir, &mut out);
    out.sort();
    out
}

/// Reads and parses a JSON file, panicking with the path on failure.
pub fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|err| panic!("{} is not valid JSON: {err}", path.display()))
}

/// One schema document and where it came from.
#[derive(Debug, Clone)]
pub struct SchemaDoc {
    pub path: PathBuf,
    pub id: String,
    pub title: Option<String>,
    pub value: Value,
}

impl SchemaDoc {
    /// The names of the document's top-level `$defs`, in document order.
    pub fn def_names(&self) -> Vec<String> {
        self.value
            .get("$defs")
            .and_then(Value::as_object)
            .map(|defs| defs.keys().cloned().collect())
            .unwrap_or_default()
    }
}

/// Loads every schema below the given directories (recursively), sorted by `$id`.
///
/// Panics when a document has no `$id`, declares another dialect, or repeats an `$id`.
pub fn load_schemas(dirs: &[PathBuf]) -> Vec<SchemaDoc> {
    let mut by_id: BTreeMap<String, SchemaDoc> = BTreeMap::new();
    for dir in dirs {
        for path in json_files(dir) {
            let value = read_json(&path);
            let id = value
                .get("$id")
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("{} has no string `$id`", path.display()))
                .to_owned();
            let dialect = value.get("$schema").and_then(Value::as_str);
            assert_eq!(
                dialect,
                Some(DRAFT_2020_12),
                "{} does not declare draft 2020-12",
                path.display()
            );
            let title = value
                .get("title")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let doc = SchemaDoc {
                path,
                id: id.clone(),
                title,
                value,
            };
            if let Some(previous) = by_id.insert(id.clone(), doc) {
                panic!(
                    "`$id` {id} is declared twice (second time in {})",
                    previous.path.display()
                );
            }
        }
    }
    by_id.into_values().collect()
}

static PRP_DATE_TIME: LazyLock<regress::Regex> = LazyLock::new(|| {
    regress::Regex::new(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{3})?Z$")
        .expect("the PRP date-time regex compiles")
});

/// The `date-time` format as PRP asserts it: a fixed regex with ASCII digits, not RFC 3339.
pub fn is_prp_date_time(value: &str) -> bool {
    PRP_DATE_TIME.find(value).is_some()
}

/// Compiles a `pattern` with ECMAScript semantics (`u` flag; it makes no difference for PRP).
pub fn ecma_regex(pattern: &str) -> Result<regress::Regex, regress::Error> {
    regress::Regex::with_flags(pattern, "u")
}

/// The `pattern` keyword backed by `regress`: matches anywhere unless anchored, strings only.
struct EcmaPattern {
    source: String,
    regex: regress::Regex,
}

impl EcmaPattern {
    fn matches(&self, instance: &Value) -> bool {
        instance
            .as_str()
            .is_none_or(|text| self.regex.find(text).is_some())
    }
}

impl<'i> Keyword<'i> for EcmaPattern {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        if self.matches(instance) {
            Ok(())
        } else {
            Err(ValidationError::custom(format!(
                "{instance} does not match the ECMAScript pattern {:?}",
                self.source
            )))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        self.matches(instance)
    }
}

fn ecma_pattern_factory<'a>(
    _parent: &'a Map<String, Value>,
    value: &'a Value,
    _path: Location,
) -> Result<Box<dyn for<'i> Keyword<'i>>, ValidationError<'a>> {
    let source = value
        .as_str()
        .ok_or_else(|| ValidationError::schema("`pattern` must be a string"))?;
    let regex = ecma_regex(source).map_err(|err| {
        ValidationError::schema(format!(
            "`pattern` {source:?} is not an ECMAScript regex: {err}"
        ))
    })?;
    Ok(Box::new(EcmaPattern {
        source: source.to_owned(),
        regex,
    }))
}

/// Validation options matching the reference validator, resolving `$ref`s through `registry`.
pub fn oracle_options<'r>(registry: &'r Registry<'r>) -> ValidationOptions<'r> {
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .with_registry(registry)
        .offline()
        .should_validate_formats(true)
        .with_format("date-time", is_prp_date_time)
        .with_keyword("pattern", ecma_pattern_factory)
}

/// A validator per schema root (keyed by `$id`) and per `$defs` entry (keyed by
/// `<$id>#/$defs/<name>`), all sharing one registry of the loaded documents.
pub struct Oracle {
    registry: Registry<'static>,
    validators: BTreeMap<String, Validator>,
}

impl Oracle {
    /// Loads every schema below `dirs` and builds the oracle over them.
    pub fn from_dirs(dirs: &[PathBuf]) -> Self {
        Self::new(&load_schemas(dirs))
    }

    /// Builds the oracle over already loaded documents.
    pub fn new(docs: &[SchemaDoc]) -> Self {
        let registry = Registry::new()
            .extend(
                docs.iter()
                    .map(|doc| (doc.id.as_str(), Resource::from_contents(doc.value.clone()))),
            )
            .and_then(|builder| builder.prepare())
            .unwrap_or_else(|err| panic!("cannot build the schema registry: {err}"));
        let mut oracle = Self {
            registry,
            validators: BTreeMap::new(),
        };
        for doc in docs {
            let mut keys = vec![doc.id.clone()];
            keys.extend(doc.def_names().iter().map(|name| def_key(&doc.id, name)));
            for key in keys {
                let validator = oracle.compile(&serde_json::json!({ "$ref": key }));
                oracle.validators.insert(key, validator);
            }
        }
        oracle
    }

    /// Compiles an arbitrary schema against the oracle's registry and options.
    pub fn compile(&self, schema: &Value) -> Validator {
        oracle_options(&self.registry)
            .build(schema)
            .unwrap_or_else(|err| panic!("cannot compile {schema}: {err}"))
    }

    /// Every validator key: each `$id`, then each `$id#/$defs/name`, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.validators.keys().map(String::as_str)
    }

    /// Every validator with its key, sorted by key.
    pub fn validators(&self) -> impl Iterator<Item = (&str, &Validator)> {
        self.validators.iter().map(|(key, v)| (key.as_str(), v))
    }

    /// The validator for a key, if there is one.
    pub fn get(&self, key: &str) -> Option<&Validator> {
        self.validators.get(key)
    }

    /// The validator for a key; panics if there is none.
    pub fn validator(&self, key: &str) -> &Validator {
        self.get(key)
            .unwrap_or_else(|| panic!("the oracle has no validator for {key}"))
    }

    /// The verdict of the validator for `key` on `instance`.
    pub fn is_valid(&self, key: &str, instance: &Value) -> bool {
        self.validator(key).is_valid(instance)
    }
}

/// The oracle key of a `$defs` entry.
pub fn def_key(id: &str, name: &str) -> String {
    prp_vocabulary::uri::definition(id, name)
}

/// Keywords whose value is a map from names to subschemas.
const SCHEMA_MAP_KEYWORDS: &[&str] = &[
    "$defs",
    "definitions",
    "properties",
    "patternProperties",
    "dependentSchemas",
];
/// Keywords whose value is one subschema (or, for `items`, possibly an array of them).
const SCHEMA_KEYWORDS: &[&str] = &[
    "additionalProperties",
    "propertyNames",
    "items",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];
/// Keywords whose value is an array of subschemas.
const SCHEMA_ARRAY_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// A copy of `schema` without any `description` keyword at a schema position. A property that
/// happens to be named `description` (inside `properties`, `required`, …) is kept.
pub fn strip_descriptions(schema: &Value) -> Value {
    let Value::Object(object) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in object {
        let key_str = key.as_str();
        let stripped = if key_str == "description" {
            continue;
        } else if SCHEMA_MAP_KEYWORDS.contains(&key_str) {
            match value {
                Value::Object(map) => Value::Object(
                    map.iter()
                        .map(|(name, sub)| (name.clone(), strip_descriptions(sub)))
                        .collect(),
                ),
                other => other.clone(),
            }
        } else if SCHEMA_KEYWORDS.contains(&key_str) || SCHEMA_ARRAY_KEYWORDS.contains(&key_str) {
            match value {
                Value::Array(items) => Value::Array(items.iter().map(strip_descriptions).collect()),
                other => strip_descriptions(other),
            }
        } else {
            value.clone()
        };
        out.insert(key.clone(), stripped);
    }
    Value::Object(out)
}

/// Calls `visit` with the JSON Pointer and value of every schema node of `schema` (the root,
/// then every subschema reached through an applicator or `$defs`), parents before children.
pub fn for_each_schema(schema: &Value, visit: &mut dyn FnMut(&str, &Value)) {
    fn walk(schema: &Value, pointer: &mut String, visit: &mut dyn FnMut(&str, &Value)) {
        visit(pointer, schema);
        let Value::Object(object) = schema else {
            return;
        };
        for (key, value) in object {
            let key_str = key.as_str();
            let mut children: Vec<(String, &Value)> = Vec::new();
            if SCHEMA_MAP_KEYWORDS.contains(&key_str) {
                if let Value::Object(map) = value {
                    children.extend(map.iter().map(|(name, sub)| {
                        (format!("/{key}/{}", escape_pointer_token(name)), sub)
                    }));
                }
            } else if SCHEMA_KEYWORDS.contains(&key_str) || SCHEMA_ARRAY_KEYWORDS.contains(&key_str)
            {
                match value {
                    Value::Array(items) => children.extend(
                        items
                            .iter()
                            .enumerate()
                            .map(|(index, sub)| (format!("/{key}/{index}"), sub)),
                    ),
                    sub => children.push((format!("/{key}"), sub)),
                }
            }
            for (suffix, sub) in children {
                let len = pointer.len();
                pointer.push_str(&suffix);
                walk(sub, pointer, visit);
                pointer.truncate(len);
            }
        }
    }
    walk(schema, &mut String::new(), visit);
}

/// Every `description` keyword of `schema` at a schema position, keyed by the JSON Pointer of
/// the schema node that carries it.
pub fn schema_descriptions(schema: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for_each_schema(schema, &mut |pointer, node| {
        if let Some(text) = node.get("description").and_then(Value::as_str) {
            out.insert(pointer.to_owned(), text.to_owned());
        }
    });
    out
}

/// Escapes one JSON Pointer reference token (RFC 6901).
pub fn escape_pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Calls `visit` with the JSON Pointer and value of every object and array node of `value`,
/// the root (pointer `""`) included, parents before children.
pub fn walk_containers(value: &Value, visit: &mut dyn FnMut(&str, &Value)) {
    fn walk(value: &Value, pointer: &mut String, visit: &mut dyn FnMut(&str, &Value)) {
        let children: Vec<(String, &Value)> = match value {
            Value::Object(map) => map
                .iter()
                .map(|(key, child)| (escape_pointer_token(key), child))
                .collect(),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(index, child)| (index.to_string(), child))
                .collect(),
            _ => return,
        };
        visit(pointer, value);
        for (token, child) in children {
            let len = pointer.len();
            pointer.push('/');
            pointer.push_str(&token);
            walk(child, pointer, visit);
            pointer.truncate(len);
        }
    }
    walk(value, &mut String::new(), visit);
}

/// The first place where two JSON values differ, ignoring object key order, or `None` when they
/// are equal. Numbers compare as serde_json does, so `1` and `1.0` differ.
pub fn first_difference(left: &Value, right: &Value) -> Option<String> {
    fn go(left: &Value, right: &Value, pointer: &mut String) -> Option<String> {
        match (left, right) {
            (Value::Object(l), Value::Object(r)) => {
                for key in l.keys() {
                    if !r.contains_key(key) {
                        return Some(format!(
                            "{pointer}/{}: only on the left",
                            escape_pointer_token(key)
                        ));
                    }
                }
                for key in r.keys() {
                    if !l.contains_key(key) {
                        return Some(format!(
                            "{pointer}/{}: only on the right",
                            escape_pointer_token(key)
                        ));
                    }
                }
                for (key, lv) in l {
                    let len = pointer.len();
                    let _ = write!(pointer, "/{}", escape_pointer_token(key));
                    let found = go(lv, &r[key], pointer);
                    pointer.truncate(len);
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
            (Value::Array(l), Value::Array(r)) => {
                if l.len() != r.len() {
                    return Some(format!(
                        "{pointer}: {} items on the left, {} on the right",
                        l.len(),
                        r.len()
                    ));
                }
                for (index, (lv, rv)) in l.iter().zip(r).enumerate() {
                    let len = pointer.len();
                    let _ = write!(pointer, "/{index}");
                    let found = go(lv, rv, pointer);
                    pointer.truncate(len);
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
            _ if left == right => None,
            _ => Some(format!(
                "{pointer}: {left} on the left, {right} on the right"
            )),
        }
    }
    go(left, right, &mut String::new())
}
