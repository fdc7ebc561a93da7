//! prp-codegen on the official JSON-Schema-Test-Suite, every dialect it reads (draft-04, -06, -07,
//! 2019-09 and 2020-12): every group's schema is generated in a directory of its own, read in its
//! dialect (the suite's older files name none, so it is the default dialect the run asks for); the
//! groups that generate are compiled together into one checker crate, which decodes every test's
//! instance with the group's root type; each verdict is compared with the suite's, and the
//! verdict-only check (`rt::Verify`) must say what decoding says. A table per dialect and keyword
//! file and the totals are printed.
//!
//! The promise measured here is "loud or right": a group either generates types whose decoding
//! agrees with the suite, or fails with a located error. The test fails when the generator or a
//! decoder panics, when any verdict of a generated group is wrong, or when fewer than 99% of a
//! dialect's verdicts are right; how many groups generate and how many verdicts are right is
//! printed (and recorded in BENCHMARKS.md).
//!
//! Schemas are generated as given, beside the suite's remote documents they refer to (copied under
//! their path, the directory's base URI being `http://localhost:1234/` as the suite's README says):
//! a root without `$id` is known as `http://localhost:1234/root.schema.json`.

use prp_codegen::{Dialect, Format};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What became of one group.
enum Generated {
    /// The module's source.
    Code(String),
    /// A located generation error, as displayed.
    Refused(String),
    /// The generator panicked: the message.
    Panicked(String),
}

struct Group {
    dialect: Dialect,
    file: String,
    /// The root file's URI, when it generated.
    id: String,
    description: String,
    tests: Vec<(String, Value, bool)>,
    generated: Generated,
}

const REMOTE: &str = "http://localhost:1234/";

/// Copies the suite's remote documents for `dialect` (not another dialect's folder, nor the
/// metaschemas, which declare `$vocabulary` and refer to the official metaschema the generator
/// does not ship) beside a schema that refers to them, so that they load by their URIs.
fn copy_remotes(from: &Path, to: &Path, dialect: Dialect) {
    for path in prp_testkit::json_files(from) {
        let rel = path.strip_prefix(from).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let wanted = prp_testkit::suite_remote_for(&rel.to_string_lossy(), dialect);
        if wanted && !text.contains("\"$vocabulary\"") {
            std::fs::create_dir_all(to.join(rel).parent().unwrap()).unwrap();
            std::fs::write(to.join(rel), text).unwrap();
        }
    }
}

fn generate(remotes: &Path, dir: &Path, schema: &Value, dialect: Dialect) -> (Generated, String) {
    std::fs::create_dir_all(dir).unwrap();
    let text = schema.to_string();
    std::fs::write(dir.join("root.schema.json"), &text).unwrap();
    if text.contains(REMOTE) {
        copy_remotes(remotes, dir, dialect);
    }
    let options = prp_codegen::Options::new()
        .base_uri(REMOTE)
        .default_dialect(dialect);
    generate_in(dir, "root.schema.json", options)
}

/// The root type's name in a generated module: the type the schema table lists for `id`, the
/// root file's URI.
fn root_type(code: &str, id: &str) -> Option<String> {
    let key = format!("(\"{id}\",");
    let at = code.find(&key)? + key.len();
    let name: String = code[at..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Generates every group of `dialect`'s keyword files, in file order.
fn read_groups(suite: &Path, work: &Path, dialect: Dialect, groups: &mut Vec<Group>) {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(suite.join("tests").join(prp_testkit::suite_folder(dialect)))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
    files.sort();
    for path in &files {
        let file = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        for (g, group) in doc.as_array().unwrap().iter().enumerate() {
            let schema = group["schema"].clone();
            let (generated, id) = generate(
                &suite.join("remotes"),
                &work
                    .join("gen")
                    .join(prp_testkit::suite_folder(dialect))
                    .join(format!("{file}_{g}")),
                &schema,
                dialect,
            );
            let tests = group["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    (
                        t["description"].as_str().unwrap_or_default().to_owned(),
                        t["data"].clone(),
                        t["valid"].as_bool().unwrap(),
                    )
                })
                .collect();
            groups.push(Group {
                dialect,
                file: file.clone(),
                id,
                description: group["description"].as_str().unwrap_or_default().to_owned(),
                tests,
                generated,
            });
        }
    }
}

#[test]
fn the_official_suite_loud_or_right() {
    let Some(suite) = prp_testkit::suite_dir() else {
        return;
    };
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("json-schema-suite");
    let _ = std::fs::remove_dir_all(work.join("gen"));
    let mut groups = Vec::new();
    for dialect in Dialect::ALL {
        read_groups(&suite, &work, dialect, &mut groups);
    }

    // One checker crate over every group that generated with a root type.
    let mut modules = Vec::new();
    let mut checked: BTreeMap<usize, usize> = BTreeMap::new();
    // Groups whose root is a typed struct, enum or value rather than checked JSON.
    let mut typed = std::collections::BTreeSet::new();
    for (i, g) in groups.iter().enumerate() {
        if let Generated::Code(code) = &g.generated
            && let Some(root) = root_type(code, &g.id)
        {
            if !code.contains(&format!("pub struct {root}(serde_json::Value);")) {
                typed.insert(i);
            }
            modules.push((i, code.as_str(), root));
            checked.insert(i, checked.len());
        }
    }
    let mut cases = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        if checked.contains_key(&i) {
            for (_, data, _) in &g.tests {
                cases.push((i, data.to_string()));
            }
        }
    }
    let mut verdicts = run_checker(&work, &modules, &cases).into_iter();

    // Per dialect and file: groups, generated, verdicts right (of all), wrong among generated.
    let mut rows: BTreeMap<(Dialect, &str), Row> = BTreeMap::new();
    let mut panics = Vec::new();
    let mut wrongs = Vec::new();
    let mut splits = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let row = rows.entry((g.dialect, &g.file)).or_default();
        let at = format!("{} {} / {}", g.dialect, g.file, g.description);
        row.groups += 1;
        row.tests += g.tests.len();
        if let Generated::Panicked(m) = &g.generated {
            panics.push(format!("{at}: {m}"));
        }
        if !checked.contains_key(&i) {
            continue;
        }
        row.generated += 1;
        row.typed += usize::from(typed.contains(&i));
        for (description, _, valid) in &g.tests {
            let verdict = verdicts.next().unwrap();
            if verdict == "panic" {
                panics.push(format!("{at} / {description}: the decoder panicked"));
            }
            if verdict == "split" {
                splits.push(format!("{at} / {description}"));
            }
            if (verdict == "valid") == *valid && verdict != "panic" {
                row.right += 1;
            } else {
                row.wrong += 1;
                let expected = if *valid { "valid" } else { "invalid" };
                wrongs.push(format!("{at} / {description}: expected {expected}"));
            }
        }
    }
    let totals = print_table(&rows);
    for (i, g) in groups.iter().enumerate() {
        let at = format!("{} {} / {}", g.dialect, g.file, g.description);
        match &g.generated {
            Generated::Refused(e) => eprintln!("refused: {at}: {e}"),
            Generated::Code(_) if !checked.contains_key(&i) => eprintln!("no root type: {at}"),
            _ => {}
        }
    }
    for w in &wrongs {
        eprintln!("wrong: {w}");
    }
    assert!(
        panics.is_empty(),
        "the generator or a decoder panicked:\n{}",
        panics.join("\n")
    );
    assert!(
        splits.is_empty(),
        "the verdict-only check and decoding disagree:\n{}",
        splits.join("\n")
    );
    for (dialect, total) in &totals {
        assert_eq!(
            total.wrong, 0,
            "{dialect}: wrong verdicts among generated groups (listed above): the generator must be loud or right"
        );
        assert!(
            total.right * 100 >= total.tests * 99,
            "{dialect}: {} of {} verdicts right, under 99%",
            total.right,
            total.tests
        );
    }
}

/// Compiles `modules` (a number, a generated module's source, its root type) into one checker
/// crate under `work` and decodes each case (a module's number, a JSON text) with that module's
/// root type: `valid`, `invalid`, `split` (decoding and the verdict-only check disagree) or
/// `panic`, one per case.
fn run_checker(
    work: &Path,
    modules: &[(usize, &str, String)],
    cases: &[(usize, String)],
) -> Vec<String> {
    let krate = work.join("checker");
    let _ = std::fs::remove_dir_all(krate.join("src"));
    std::fs::create_dir_all(krate.join("src")).unwrap();
    let mut main = String::from("use prp_codegen_runtime as rt;\nuse rt::serde_json;\n");
    let mut arms = String::new();
    for (i, code, root) in modules {
        let file = krate.join("src").join(format!("g{i}.rs"));
        std::fs::write(&file, code).unwrap();
        main.push_str(&format!(
            "#[allow(dead_code, unused, clippy::all, non_camel_case_types)]\nmod g{i} {{ include!(\"g{i}.rs\"); }}\n"
        ));
        arms.push_str(&format!(
            "        {i} => (serde_json::from_str::<g{i}::{root}>(data).is_ok(), verified::<g{i}::{root}>(data)),\n"
        ));
    }
    main.push_str(&format!(
        r#"
/// The verdict-only check (`rt::Verify`) on the verdict reader, which must agree with decoding.
fn verified<T: rt::Verify>(data: &str) -> bool {{
    let mut reader = rt::reader::Reader::new(data);
    T::verify(&mut reader).is_ok() && reader.end()
}}

/// Whether decoding accepts `data`, and whether the verdict-only check does.
fn check(group: usize, data: &str) -> (bool, bool) {{
    match group {{
{arms}        _ => unreachable!(),
    }}
}}

fn main() {{
    let cases: Vec<(usize, String)> =
        serde_json::from_slice(&std::fs::read(std::env::args().nth(1).unwrap()).unwrap()).unwrap();
    for (group, data) in cases {{
        let verdict = match std::panic::catch_unwind(|| check(group, &data)) {{
            Ok((true, true)) => "valid",
            Ok((false, false)) => "invalid",
            Ok(_) => "split",
            Err(_) => "panic",
        }};
        println!("{{verdict}}");
    }}
}}
"#
    ));
    std::fs::write(krate.join("src/main.rs"), main).unwrap();
    // The generated code's one dependency: the runtime crate.
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../codegen-runtime");
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            r#"[package]
name = "suite-checker"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
prp-codegen-runtime = {{ path = "{}" }}
"#,
            runtime.display()
        ),
    )
    .unwrap();
    // The workspace's lock file pins the versions already in the local registry cache.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock"),
        krate.join("Cargo.lock"),
    )
    .unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let build = Command::new(&cargo)
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(krate.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", work.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "the generated groups do not compile:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let cases_file = work.join("cases.json");
    std::fs::write(&cases_file, serde_json::to_vec(&cases).unwrap()).unwrap();
    let run = Command::new(work.join("target/debug/suite-checker"))
        .arg(&cases_file)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// One line of the table: a keyword file's groups, how many generated (and how many of those
/// have a typed root), its tests, and how many verdicts are right and wrong.
#[derive(Default)]
struct Row {
    groups: usize,
    generated: usize,
    typed: usize,
    tests: usize,
    right: usize,
    wrong: usize,
}

impl Row {
    fn add(&mut self, r: &Row) {
        self.groups += r.groups;
        self.generated += r.generated;
        self.typed += r.typed;
        self.tests += r.tests;
        self.right += r.right;
        self.wrong += r.wrong;
    }

    fn print(&self, name: &str) {
        eprintln!(
            "{name:<36} {:>7} {:>10} {:>6} {:>6} {:>6} {:>6}",
            self.groups, self.generated, self.typed, self.tests, self.right, self.wrong
        );
    }
}

/// Prints the rows, each dialect's total after its files; returns the totals.
fn print_table(rows: &BTreeMap<(Dialect, &str), Row>) -> BTreeMap<Dialect, Row> {
    eprintln!(
        "{:<36} {:>7} {:>10} {:>6} {:>6} {:>6} {:>6}",
        "dialect / file", "groups", "generated", "typed", "tests", "right", "wrong"
    );
    let mut totals: BTreeMap<Dialect, Row> = BTreeMap::new();
    for ((dialect, file), r) in rows {
        r.print(&format!("{dialect} {file}"));
        totals.entry(*dialect).or_default().add(r);
    }
    for (dialect, total) in &totals {
        total.print(&format!("{dialect} total"));
    }
    totals
}

/// One SchemaStore schema of `../shared/schemastore-dev`, generated with `format` an annotation
/// and, when a document's verdict needs an asserted `format`, again with that format asserted.
struct Store {
    dialect: String,
    name: String,
    /// The module with `format` an annotation, and the URI its root type is listed under.
    generated: (Generated, String),
    /// The module with the formats `asserted` names asserted, when a document needs one.
    asserted: Option<(Generated, String)>,
    /// (`valid/…` or `invalid/…`, the document's text, the format its folder's verdict needs).
    documents: Vec<(String, String, Option<String>)>,
}

/// An RFC 3339 full date, as the one format SchemaStore's documents here need asserted.
const FULL_DATE: &str = r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$";

/// Reads INDEX.json's entries and generates each schema in a directory of its own.
fn read_store(store: &Path, work: &Path) -> Vec<Store> {
    let index: Value =
        serde_json::from_slice(&std::fs::read(store.join("INDEX.json")).unwrap()).unwrap();
    let mut out = Vec::new();
    for entry in index.as_array().unwrap() {
        let text = |k: &str| entry[k].as_str().unwrap().to_owned();
        let (dialect, name) = (text("draft"), text("name"));
        let schema_dir = store.join(text("schema_path"));
        let schema_dir = schema_dir.parent().unwrap();
        assert!(
            entry["ref_files"].as_object().unwrap().is_empty(),
            "{name}: refs to place"
        );
        let dir = work.join("store").join(&name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(schema_dir.join("schema.json"), dir.join("schema.json")).unwrap();
        let mut documents = Vec::new();
        for folder in ["valid", "invalid"] {
            for file in entry[folder].as_array().unwrap() {
                let key = format!("{folder}/{}", file.as_str().unwrap());
                let data = std::fs::read_to_string(schema_dir.join(&key)).unwrap();
                // INDEX.json says where a verdict needs an asserted format: `format-only: "date" …`.
                let format = entry["disagree_reason"]
                    .get(&key)
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix("format-only: \""))
                    .and_then(|r| r.split('"').next())
                    .map(str::to_owned);
                documents.push((key, data, format));
            }
        }
        let generated = generate_in(&dir, "schema.json", prp_codegen::Options::new());
        let needed: BTreeSet<&String> = documents.iter().filter_map(|d| d.2.as_ref()).collect();
        let asserted = (!needed.is_empty()).then(|| {
            let mut options = prp_codegen::Options::new();
            for format in needed {
                assert_eq!(format, "date", "{name}: a format this test cannot assert");
                options = options.format(format, Format::Pattern(FULL_DATE.to_owned()));
            }
            generate_in(&dir, "schema.json", options)
        });
        out.push(Store {
            dialect,
            name,
            generated,
            asserted,
            documents,
        });
    }
    out
}

/// Generates the schemas of `dir` on a thread of its own (a deep recursion is a panic too: a
/// normal stack, both caught): the code (or why not) and the URI of the file at `root`.
fn generate_in(dir: &Path, root: &str, options: prp_codegen::Options) -> (Generated, String) {
    let dir = dir.to_path_buf();
    let outcome = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || std::panic::catch_unwind(|| prp_codegen::generate_dir(&dir, &options)))
        .unwrap()
        .join();
    match outcome {
        Ok(Ok(Ok(out))) => {
            let file = out.schemas.files.iter().find(|f| f.path == root);
            let id = file.map(|f| f.id.clone()).unwrap_or_default();
            (Generated::Code(out.code), id)
        }
        Ok(Ok(Err(e))) => (Generated::Refused(e.to_string()), String::new()),
        Ok(Err(p)) | Err(p) => (
            Generated::Panicked(
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default(),
            ),
            String::new(),
        ),
    }
}

/// The generated module's source and root type, or why there is none.
fn module(generated: &(Generated, String)) -> Result<(&str, String), String> {
    match &generated.0 {
        Generated::Code(code) => root_type(code, &generated.1)
            .map(|root| (code.as_str(), root))
            .ok_or_else(|| "no root type".to_owned()),
        Generated::Refused(e) | Generated::Panicked(e) => Err(e.clone()),
    }
}

/// Real schemas of draft-04, draft-07 and 2019-09 from SchemaStore: each generates, compiles,
/// accepts its positive documents and refuses its negative ones with `format` an annotation,
/// except a document whose refusal needs an asserted `format` (INDEX.json names it), which is
/// accepted then and refused when the schema is generated again with that format asserted. A
/// table per schema is printed.
#[test]
fn schemastore_schemas_generate_and_judge_their_documents() {
    let Some(store) = prp_testkit::schemastore_dir() else {
        return;
    };
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("schemastore");
    let stores = read_store(&store, &work);
    let mut modules = Vec::new();
    let mut cases = Vec::new();
    let mut failures = Vec::new();
    for (i, s) in stores.iter().enumerate() {
        let runs = std::iter::once(&s.generated).chain(&s.asserted);
        for (run, generated) in runs.enumerate() {
            match module(generated) {
                Ok((code, root)) => {
                    modules.push((2 * i + run, code, root));
                    cases.extend(s.documents.iter().map(|d| (2 * i + run, d.1.clone())));
                }
                Err(e) => failures.push(format!("{} {}: not generated: {e}", s.dialect, s.name)),
            }
        }
    }
    let mut verdicts = run_checker(&work, &modules, &cases).into_iter();
    let ran: BTreeSet<usize> = modules.iter().map(|m| m.0).collect();
    eprintln!(
        "{:<10} {:<36} {:>14} {:>16}  with format asserted",
        "dialect", "schema", "valid accepted", "invalid refused"
    );
    for (i, s) in stores.iter().enumerate() {
        // Per run: [valid accepted, invalid refused].
        let mut tally = [[0usize; 2]; 2];
        for run in (0..2).filter(|r| ran.contains(&(2 * i + r))) {
            for (key, _, format) in &s.documents {
                let verdict = verdicts.next().unwrap();
                let positive = key.starts_with("valid/");
                // With `format` an annotation, a verdict that needs it is the other one.
                let expected = positive != (run == 0 && format.is_some());
                if verdict == if expected { "valid" } else { "invalid" } {
                    tally[run][usize::from(!positive)] += usize::from(expected == positive);
                } else {
                    failures.push(format!(
                        "{} {} (run {run}): {key}: {verdict}",
                        s.dialect, s.name
                    ));
                }
            }
        }
        let (valid, invalid) = s
            .documents
            .iter()
            .partition::<Vec<_>, _>(|d| d.0.starts_with("valid/"));
        let asserted = match &s.asserted {
            Some(_) => format!(
                "{}/{} {}/{}",
                tally[1][0],
                valid.len(),
                tally[1][1],
                invalid.len()
            ),
            None => "-".to_owned(),
        };
        eprintln!(
            "{:<10} {:<36} {:>14} {:>16}  {asserted}",
            s.dialect,
            s.name,
            format!("{}/{}", tally[0][0], valid.len()),
            format!("{}/{}", tally[0][1], invalid.len()),
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
