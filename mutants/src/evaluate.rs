//! The four steps for a list of candidate directories (a run's mutants, or a shrink's
//! reductions): generate each, give its schemas documents and the oracles' verdicts on them,
//! compile the generated modules together, run every document and splice through the checker
//! binaries, and compare.

use crate::batch::{self, Module};
use crate::documents::documents;
use crate::oracle::Oracle;
use crate::rng::Rng;
use crate::source::{File, Source};
use prp_codegen::SchemaSet;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// A directory to put through the steps.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The source it was made from (an index into the sources).
    pub source: usize,
    /// The directory.
    pub files: Vec<File>,
    /// Seeds the choice of documents.
    pub seed: u64,
    /// Documents to try besides the samples, by schema URI (a failure's, while it is shrunk).
    pub extra: Vec<(String, Value)>,
}

/// One way a candidate fails.
#[derive(Debug, Clone)]
pub struct Failure {
    /// What failed: `panic`, `internal`, `compile`, `decode-accepts-invalid`, ... (see
    /// `compare`); a shrink keeps a reduction only if it fails the same way.
    pub class: String,
    /// The schema whose type failed, for a document's failure.
    pub uri: Option<String>,
    /// The document, for a document's failure.
    pub document: Option<Value>,
    /// The oracles' verdict on it.
    pub valid: Option<bool>,
    /// What was seen.
    pub detail: String,
}

impl Failure {
    fn new(class: &str, detail: impl Into<String>) -> Failure {
        Failure {
            class: class.into(),
            uri: None,
            document: None,
            valid: None,
            detail: detail.into(),
        }
    }

    fn on(class: &str, uri: &str, doc: &Value, valid: bool, detail: impl Into<String>) -> Failure {
        Failure {
            uri: Some(uri.into()),
            document: Some(doc.clone()),
            valid: Some(valid),
            ..Failure::new(class, detail)
        }
    }
}

/// What became of a candidate.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// The generator refused it with a located error.
    Refused {
        /// The error's code.
        code: String,
        /// The error, displayed.
        message: String,
    },
    /// Generated, compiled, and every check agreed.
    Checked(Tally),
    /// Something disagreed or broke (the first failure of each class).
    Failed(Vec<Failure>),
}

/// What was checked.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    /// Schemas (roots and definitions) tried.
    pub types: usize,
    /// Documents tried, and how many the oracles accept.
    pub documents: usize,
    /// Of those, the valid ones.
    pub valid: usize,
    /// Values built by splicing two decoded values.
    pub splices: usize,
    /// Schemas for which only the schema program gave verdicts.
    pub without_independent: usize,
}

impl Tally {
    /// Adds `o`'s counts.
    pub fn add(&mut self, o: &Tally) {
        self.types += o.types;
        self.documents += o.documents;
        self.valid += o.valid;
        self.splices += o.splices;
        self.without_independent += o.without_independent;
    }
}

/// Where and how the steps run.
pub struct Env<'s> {
    /// The sources candidates were made from.
    pub sources: &'s [Source],
    /// A scratch directory (the checker workspace and its target directory).
    pub work: PathBuf,
    /// Checker crates per build (cores).
    pub crates: usize,
    /// Documents per schema.
    pub documents: usize,
    /// Splices per schema.
    pub splices: usize,
    /// Only compile (`cargo check`), run nothing: what shrinking a compile error needs.
    pub check_only: bool,
}

/// A schema's documents, the oracles' verdicts on them, and the splices to try.
struct TypeCase {
    key: String,
    uri: String,
    docs: Vec<Value>,
    valid: Vec<bool>,
    splices: Vec<(usize, usize, u64)>,
}

/// A generated candidate, ready to build.
struct Prepared {
    code: String,
    oracle: Option<Oracle>,
    cases: Vec<TypeCase>,
    tally: Tally,
    failures: Vec<Failure>,
}

/// Puts every candidate through the steps; one outcome per candidate, in order.
pub fn evaluate(env: &Env, candidates: &[Candidate]) -> Vec<Outcome> {
    let mut outcomes: Vec<Option<Outcome>> = vec![None; candidates.len()];
    let mut prepared: Vec<Option<Prepared>> = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        prepared.push(None);
        match generate(&env.sources[c.source], &c.files) {
            Generated::Code(code, _) if env.check_only => {
                prepared[i] = Some(Prepared::unchecked(code));
            }
            Generated::Code(code, set) => prepared[i] = Some(prepare(env, c, &set, code)),
            Generated::Refused(code, message) if code == "internal" => {
                outcomes[i] = Some(Outcome::Failed(vec![Failure::new("internal", message)]));
            }
            Generated::Refused(code, message) => {
                outcomes[i] = Some(Outcome::Refused { code, message })
            }
            Generated::Panicked(message) => {
                outcomes[i] = Some(Outcome::Failed(vec![Failure::new("panic", message)]));
            }
        }
    }
    let modules: Vec<Module> = prepared
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            Some(Module {
                id: i,
                code: p.as_ref()?.code.clone(),
            })
        })
        .collect();
    if modules.is_empty() {
        return outcomes.into_iter().map(Option::unwrap).collect();
    }
    let (dir, target) = (env.work.join("checkers"), env.work.join("target"));
    let built = match batch::build(&dir, &target, &modules, env.crates, env.check_only) {
        Ok(b) => b,
        Err(e) => panic!(
            "cannot write or build the checker crates in {}: {e}",
            env.work.display()
        ),
    };
    for (id, errors) in &built.failed {
        let mut fs = prepared[*id].take().map(|p| p.failures).unwrap_or_default();
        fs.insert(0, Failure::new("compile", errors.clone()));
        outcomes[*id] = Some(Outcome::Failed(fs));
    }
    for (binary, ids) in &built.binaries {
        run_checker(binary, ids, &mut prepared, &env.work);
    }
    for (i, p) in prepared.into_iter().enumerate() {
        if let Some(p) = p {
            outcomes[i] = Some(if p.failures.is_empty() {
                Outcome::Checked(p.tally)
            } else {
                Outcome::Failed(p.failures)
            });
        }
    }
    outcomes
        .into_iter()
        .map(|o| o.expect("every candidate has an outcome"))
        .collect()
}

enum Generated {
    Code(String, SchemaSet),
    Refused(String, String),
    Panicked(String),
}

/// Generates a directory on a thread of its own (a deep recursion is a panic too), catching
/// panics.
fn generate(source: &Source, files: &[File]) -> Generated {
    let set = match source.schema_set(files) {
        Ok(s) => s,
        Err(e) => return Generated::Refused(e.code.as_str().to_owned(), e.to_string()),
    };
    let options = source.options(&set);
    let outcome = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || std::panic::catch_unwind(|| prp_codegen::generate(set, &options)))
        .expect("a thread")
        .join();
    match outcome {
        Ok(Ok(Ok(out))) => Generated::Code(out.code, out.schemas),
        Ok(Ok(Err(e))) => Generated::Refused(e.code.as_str().to_owned(), e.to_string()),
        Ok(Err(p)) | Err(p) => Generated::Panicked(
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default(),
        ),
    }
}

/// Every schema of the directory: the harness's key (as the generated table spells it) and its
/// URI, both in the file's own spelling (`#/definitions/NAME` in a draft-07 file).
fn schemas(set: &SchemaSet) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for f in &set.files {
        out.push((f.id.clone(), f.id.clone()));
        for name in f
            .root
            .get("$defs")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            let uri = set.spelled(&prp_vocabulary::uri::definition(&f.id, name));
            out.push((uri.clone(), uri));
        }
    }
    out
}

/// Documents for every schema, the oracles' verdicts on them (a split between the two oracles
/// is a failure of its own), and the splices to try among the valid ones.
fn prepare(env: &Env, c: &Candidate, set: &SchemaSet, code: String) -> Prepared {
    let source = &env.sources[c.source];
    let options = source.options(set);
    let list = schemas(set);
    let uris: Vec<String> = list.iter().map(|(_, u)| u.clone()).collect();
    let oracle = Oracle::new(source, set, &c.files, &options, &uris);
    let mut rng = Rng::new(c.seed ^ 0x5eed_d0c5);
    let mut p = Prepared {
        oracle: None,
        ..Prepared::unchecked(code)
    };
    let mut split = BTreeSet::new();
    for (key, uri) in list {
        let mut docs = documents(set, &uri, &source.documents, &mut rng, env.documents);
        docs.extend(
            c.extra
                .iter()
                .filter(|(u, _)| *u == uri)
                .map(|(_, d)| d.clone()),
        );
        let mut kept = Vec::new();
        let mut valid = Vec::new();
        let mut independent = true;
        if !oracle.knows(&uri) {
            let detail = "prp-codegen generated the schema, but compiles no checker program for it";
            p.failures
                .push(Failure::new("no-program", format!("{uri}: {detail}")));
            continue;
        }
        for d in docs {
            let Some(v) = oracle.verdicts(&uri, &d) else {
                break;
            };
            independent &= v.independent.is_some();
            if v.independent.is_some_and(|j| j != v.program) && split.insert(uri.clone()) {
                let detail = format!(
                    "the schema program says {}, jsonschema says {}",
                    v.program, !v.program
                );
                p.failures
                    .push(Failure::on("oracle-split", &uri, &d, v.program, detail));
            }
            kept.push(d);
            valid.push(v.program);
        }
        if kept.is_empty() {
            continue;
        }
        p.tally.types += 1;
        p.tally.documents += kept.len();
        p.tally.valid += valid.iter().filter(|v| **v).count();
        p.tally.without_independent += usize::from(!independent);
        let objects: Vec<usize> = (0..kept.len())
            .filter(|&i| valid[i] && kept[i].is_object())
            .collect();
        let splices = if objects.len() < 2 {
            Vec::new()
        } else {
            (0..env.splices)
                .map(|_| (*rng.pick(&objects), *rng.pick(&objects), rng.next_u64()))
                .collect()
        };
        p.cases.push(TypeCase {
            key,
            uri,
            docs: kept,
            valid,
            splices,
        });
    }
    if batch::has_document_union(&p.code)
        && let Some(case) = document_case(set, &p.cases)
    {
        p.tally.documents += case.docs.len();
        p.tally.valid += case.docs.len();
        p.cases.push(case);
    }
    p.oracle = Some(oracle);
    p
}

/// The documents `validate` would read through the document union: every valid document of a
/// root whose `schema` member names it alone, decoded by its `schema` member rather than by the
/// root's type. The union must pick the root's type and accept each; a document whose value
/// several roots claim is left out, since the union follows the first of them.
fn document_case(set: &SchemaSet, cases: &[TypeCase]) -> Option<TypeCase> {
    let mut owners: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for f in &set.files {
        for value in schema_values(&f.root) {
            owners.entry(value).or_default().push(&f.id);
        }
    }
    let mut docs = Vec::new();
    for case in cases.iter().filter(|c| !c.uri.contains('#')) {
        for (doc, valid) in case.docs.iter().zip(&case.valid) {
            let named = doc.get("schema").and_then(Value::as_str);
            let alone = named.and_then(|n| owners.get(n)).map(Vec::as_slice);
            if *valid && alone == Some(&[case.uri.as_str()][..]) {
                docs.push(doc.clone());
            }
        }
    }
    (!docs.is_empty()).then(|| TypeCase {
        key: "#document".into(),
        uri: "#document".into(),
        valid: vec![true; docs.len()],
        docs,
        splices: Vec::new(),
    })
}

/// The string constants a root schema gives its `schema` member (`const`, or an `enum` of one),
/// itself or in each of its `oneOf` alternatives.
fn schema_values(root: &Value) -> Vec<String> {
    let own = |s: &Value| -> Option<String> {
        let member = s.get("properties")?.get("schema")?;
        let value = match member.get("enum").and_then(Value::as_array) {
            Some(one) if one.len() == 1 => one.first(),
            _ => member.get("const"),
        };
        Some(value?.as_str()?.to_owned())
    };
    let alternatives = root.get("oneOf").and_then(Value::as_array);
    own(root)
        .into_iter()
        .chain(alternatives.into_iter().flatten().filter_map(own))
        .collect()
}

impl Prepared {
    /// A generated module with no documents to run (yet).
    fn unchecked(code: String) -> Prepared {
        Prepared {
            code,
            oracle: None,
            cases: Vec::new(),
            tally: Tally::default(),
            failures: Vec::new(),
        }
    }
}

/// Runs one checker binary over the cases of its modules and compares what it says with the
/// oracles.
fn run_checker(
    binary: &std::path::Path,
    ids: &[usize],
    prepared: &mut [Option<Prepared>],
    work: &std::path::Path,
) {
    let mut input = String::new();
    for &id in ids {
        for case in &prepared[id].as_ref().expect("a built module").cases {
            let docs: Vec<String> = case.docs.iter().map(Value::to_string).collect();
            let line = json!({ "uri": case.key, "docs": docs, "splices": case.splices });
            input.push_str(&format!("{id}\t{line}\n"));
        }
    }
    let cases_file = work.join("cases.jsonl");
    std::fs::write(&cases_file, input).expect("the cases file is written");
    let out = std::process::Command::new(binary)
        .arg(&cases_file)
        .output()
        .expect("the checker runs");
    let mut lines = std::str::from_utf8(&out.stdout).unwrap_or_default().lines();
    for &id in ids {
        let p = prepared[id].as_mut().expect("a built module");
        if !out.status.success() {
            let detail = format!(
                "the checker crashed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            p.failures.push(Failure::new("crash", detail));
            continue;
        }
        let cases = std::mem::take(&mut p.cases);
        for case in &cases {
            let Some(Ok(said)) = lines.next().map(serde_json::from_str::<Value>) else {
                p.failures
                    .push(Failure::new("crash", "the checker's output ended early"));
                break;
            };
            compare(p, case, &said);
        }
        p.cases = cases;
    }
}

/// Adds the failures of one schema's answers: each document's decode against the oracle, the
/// verdict-only check against the decode, `Check` and the round trip on each decoded value, and
/// each splice's builder and decode against the oracles on its JSON.
fn compare(p: &mut Prepared, case: &TypeCase, said: &Value) {
    if said.get("unknown").is_some() {
        let f = Failure::on(
            "unlisted",
            &case.uri,
            &case.docs[0],
            case.valid[0],
            "the generated module lists no type for the schema",
        );
        push(p, f);
        return;
    }
    let docs = said["docs"].as_array().cloned().unwrap_or_default();
    for ((doc, valid), got) in case.docs.iter().zip(&case.valid).zip(&docs) {
        for f in doc_failures(&case.uri, doc, *valid, got) {
            push(p, f);
        }
    }
    let splices = said["splices"].as_array().cloned().unwrap_or_default();
    for s in splices.iter().filter(|s| !s.is_null()) {
        p.tally.splices += 1;
        for f in splice_failures(p, &case.uri, s) {
            push(p, f);
        }
    }
}

/// Keeps the first failure of each class.
fn push(p: &mut Prepared, f: Failure) {
    if !p.failures.iter().any(|g| g.class == f.class) {
        p.failures.push(f);
    }
}

fn doc_failures(uri: &str, doc: &Value, valid: bool, got: &Value) -> Vec<Failure> {
    let mut out = Vec::new();
    if let Some(panic) = got.get("panic") {
        out.push(Failure::on("panic", uri, doc, valid, panic.to_string()));
        return out;
    }
    let decoded = got["d"].as_bool().unwrap_or(false);
    let error = got["error"].as_str().unwrap_or_default();
    if decoded && !valid {
        out.push(Failure::on(
            "decode-accepts-invalid",
            uri,
            doc,
            valid,
            "decoded a document the schema refuses",
        ));
    }
    if !decoded && valid {
        out.push(Failure::on(
            "decode-refuses-valid",
            uri,
            doc,
            valid,
            format!("refused: {error}"),
        ));
    }
    if got["v"].as_bool() != Some(decoded) {
        out.push(Failure::on(
            "verify-split",
            uri,
            doc,
            valid,
            format!("decode says {decoded}, the verdict-only check the other"),
        ));
    }
    if let Some(problem) = got["problems"].as_array().and_then(|p| p.first()) {
        out.push(Failure::on(
            "round-trip",
            uri,
            doc,
            valid,
            problem.as_str().unwrap_or_default(),
        ));
    }
    out
}

fn splice_failures(p: &Prepared, uri: &str, s: &Value) -> Vec<Failure> {
    if let Some(panic) = s.get("panic") {
        return vec![Failure::new("panic", format!("splicing: {panic}"))];
    }
    let Some(json) = s["json"]
        .as_str()
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
    else {
        return Vec::new();
    };
    let Some(v) = p.oracle.as_ref().and_then(|o| o.verdicts(uri, &json)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if v.independent.is_some_and(|j| j != v.program) {
        out.push(Failure::on(
            "oracle-split",
            uri,
            &json,
            v.program,
            "the oracles disagree on a spliced document",
        ));
    }
    let built = s["built"].as_bool().unwrap_or(false);
    if built && !v.program {
        out.push(Failure::on(
            "build-accepts-invalid",
            uri,
            &json,
            false,
            "the builder made a value the schema refuses",
        ));
    }
    if !built && v.program {
        let e = s["error"].as_str().unwrap_or_default();
        out.push(Failure::on(
            "build-refuses-valid",
            uri,
            &json,
            true,
            format!("the builder refused: {e}"),
        ));
    }
    if s["encodes_as_json"] == json!(false) {
        out.push(Failure::on(
            "build-encoding",
            uri,
            &json,
            v.program,
            "the built value does not encode as the members it was given",
        ));
    }
    out.extend(doc_failures(uri, &json, v.program, &s["doc"]));
    out
}
