//! The project's `schemas/` against upstream's current schemas (`prp-reference-v3`).
//!
//! The project writes its own schema documents; these tests prove they state the same contract:
//! the same documents (`$id`, `title`, file name), the same constraints node for node once
//! descriptions are set aside, descriptions in the project's own words, and the same verdict from
//! every root and `$defs` validator on every object and array inside every reference fixture.

use prp_testkit as support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{Value, json};
use support::{Oracle, SchemaDoc};

/// `$id` prefix of the PRP schema directory (the provider schema lives elsewhere).
const PRP_ID_PREFIX: &str = "https://paperclip.dev/schemas/prp/";
/// Number of documents in the PRP schema directory: v1/v2's 25 and the three `-v3` schemas.
const PRP_SCHEMA_COUNT: usize = 28;
/// `$id` of the one provider schema kept outside the PRP directory.
const SIDECAR_ID: &str = "https://paperclip.dev/schemas/acpx-sidecar/v2/message.schema.json";

const FIXTURE_ID: &str = "https://paperclip.dev/schemas/prp/v1/fixture.schema.json";
const COMMAND_ID: &str = "https://paperclip.dev/schemas/prp/v1/command.schema.json";
const PROVIDER_EVENT_ID: &str = "https://paperclip.dev/schemas/prp/v1/provider-event.schema.json";

/// Where a schema document sits relative to its schema directory, for the reference mapped to
/// the project's layout (`provider-schemas/x` becomes `provider/x`).
fn layout_name(doc: &SchemaDoc, base: &Path) -> String {
    let relative = doc
        .path
        .strip_prefix(base)
        .unwrap_or_else(|_| panic!("{} is not below {}", doc.path.display(), base.display()));
    let mut parts: Vec<String> = relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.first().map(String::as_str) == Some("schemas") {
        parts.remove(0);
    } else if parts.first().map(String::as_str) == Some("provider-schemas") {
        parts[0] = "provider".to_owned();
    }
    parts.join("/")
}

struct SchemaSets {
    contract: PathBuf,
    project: BTreeMap<String, SchemaDoc>,
    reference: BTreeMap<String, SchemaDoc>,
}

fn by_id(docs: Vec<SchemaDoc>) -> BTreeMap<String, SchemaDoc> {
    docs.into_iter().map(|doc| (doc.id.clone(), doc)).collect()
}

fn schema_sets() -> Option<SchemaSets> {
    let contract = support::contract_dir()?;
    let project = by_id(support::load_schemas(&[support::project_schema_dir()]));
    let reference = by_id(support::load_schemas(&support::reference_schema_dirs(
        &contract,
    )));
    Some(SchemaSets {
        contract,
        project,
        reference,
    })
}

struct Oracles {
    project: Oracle,
    reference: Oracle,
}

/// Both oracles, built once per test binary; the reference one from the contract's schemas.
fn oracles(contract: &Path) -> &'static Oracles {
    static ORACLES: OnceLock<Oracles> = OnceLock::new();
    ORACLES.get_or_init(|| {
        let (project, reference) = std::thread::scope(|scope| {
            let project = scope.spawn(|| Oracle::from_dirs(&[support::project_schema_dir()]));
            let reference = Oracle::from_dirs(&support::reference_schema_dirs(contract));
            (
                project.join().expect("building the project oracle"),
                reference,
            )
        });
        Oracles { project, reference }
    })
}

#[test]
fn same_documents_ids_and_titles_as_reference() {
    let Some(sets) = schema_sets() else { return };

    for (name, docs) in [("project", &sets.project), ("reference", &sets.reference)] {
        let prp = docs
            .keys()
            .filter(|id| id.starts_with(PRP_ID_PREFIX))
            .count();
        assert_eq!(prp, PRP_SCHEMA_COUNT, "{name}: PRP schema documents");
        assert!(
            docs.contains_key(SIDECAR_ID),
            "{name}: the ACPX sidecar schema is missing"
        );
        assert_eq!(
            docs.len(),
            PRP_SCHEMA_COUNT + 1,
            "{name}: schema documents in all"
        );
    }

    let project_ids: BTreeSet<&String> = sets.project.keys().collect();
    let reference_ids: BTreeSet<&String> = sets.reference.keys().collect();
    assert_eq!(
        project_ids, reference_ids,
        "the project's `$id`s differ from the reference's"
    );

    let project_base = support::project_schema_dir();
    let reference_base = sets.contract.join("protocol");
    for (id, reference) in &sets.reference {
        let project = &sets.project[id];
        let title = reference.title.as_deref().unwrap_or_default();
        assert!(!title.is_empty(), "{id}: the reference has no title");
        assert_eq!(project.title, reference.title, "{id}: title");
        assert_eq!(
            layout_name(project, &project_base),
            layout_name(reference, &reference_base),
            "{id}: file name"
        );
    }
}

#[test]
fn same_constraints_as_reference() {
    let Some(sets) = schema_sets() else { return };
    let mut failures = Vec::new();
    for (id, reference) in &sets.reference {
        let Some(project) = sets.project.get(id) else {
            failures.push(format!("{id}: missing from the project"));
            continue;
        };
        let left = support::strip_descriptions(&project.value);
        let right = support::strip_descriptions(&reference.value);
        if let Some(difference) = support::first_difference(&left, &right) {
            failures.push(format!(
                "{id} ({}): project vs reference at {difference}",
                project.path.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "schemas differ from the reference once descriptions are removed:\n{}",
        failures.join("\n")
    );
}

#[test]
fn descriptions_are_in_the_projects_own_words() {
    let Some(sets) = schema_sets() else { return };
    let mut failures = Vec::new();
    for (id, reference) in &sets.reference {
        let Some(project) = sets.project.get(id) else {
            continue;
        };
        let ours = support::schema_descriptions(&project.value);
        for (pointer, theirs) in support::schema_descriptions(&reference.value) {
            match ours.get(&pointer) {
                None => failures.push(format!("{id}#{pointer}: description missing")),
                Some(text) if text.trim() == theirs.trim() => {
                    failures.push(format!("{id}#{pointer}: description copied verbatim"));
                }
                Some(_) => {}
            }
        }
        let project_text = std::fs::read(&project.path).expect("reading a project schema");
        let reference_text = std::fs::read(&reference.path).expect("reading a reference schema");
        if project_text == reference_text {
            failures.push(format!(
                "{id}: the file is a verbatim copy of the reference"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn same_verdicts_as_reference_on_every_fixture_node() {
    let Some(corpus) = support::corpus_dir() else {
        return;
    };
    let Some(contract) = support::contract_dir() else {
        return;
    };
    let oracles = oracles(&contract);

    let project_keys: BTreeSet<&str> = oracles.project.keys().collect();
    let reference_keys: BTreeSet<&str> = oracles.reference.keys().collect();
    assert_eq!(
        project_keys, reference_keys,
        "the project's root and `$defs` validators differ from the reference's"
    );

    // The v1/v2 corpus' fixtures, the v3 one, and the project's own (which hold v3 documents).
    let mut fixtures = support::json_files(&support::reference_fixture_dir(&corpus));
    assert!(!fixtures.is_empty(), "no fixtures found in the corpus");
    fixtures.extend(support::json_files(&support::reference_fixture_dir(
        &contract,
    )));
    fixtures.extend(support::json_files(
        &support::project_dir().join("fixtures"),
    ));

    let mut nodes = 0usize;
    let mut checks = 0usize;
    let mut accepted: BTreeMap<&str, usize> = BTreeMap::new();
    let mut mismatches = Vec::new();
    for path in &fixtures {
        let document = support::read_json(path);
        support::walk_containers(&document, &mut |pointer, node| {
            nodes += 1;
            for (key, reference) in oracles.reference.validators() {
                let expected = reference.is_valid(node);
                let actual = oracles.project.validator(key).is_valid(node);
                checks += 1;
                if expected {
                    *accepted.entry(key).or_default() += 1;
                }
                if actual != expected {
                    mismatches.push(format!(
                        "{} at {}, against {key}: project says {actual}, reference says {expected}",
                        path.display(),
                        if pointer.is_empty() { "/" } else { pointer }
                    ));
                }
            }
        });
    }
    eprintln!(
        "{} fixture files, {nodes} nodes, {checks} verdicts compared, {} of {} validators accept at least one node",
        fixtures.len(),
        accepted.len(),
        reference_keys.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} verdicts differ from the reference; the first ones:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The comparison is only meaningful if the fixtures exercise the main document types.
    for key in [
        FIXTURE_ID,
        COMMAND_ID,
        "https://paperclip.dev/schemas/prp/v1/event.schema.json",
        "https://paperclip.dev/schemas/prp/v1/identity.schema.json",
        "https://paperclip.dev/schemas/prp/v1/result.schema.json",
        "https://paperclip.dev/schemas/prp/v1/semantic-tool.schema.json",
        "https://paperclip.dev/schemas/prp/v3/capabilities.schema.json",
        "https://paperclip.dev/schemas/prp/v3/command.schema.json",
        "https://paperclip.dev/schemas/prp/v3/event.schema.json",
    ] {
        assert!(
            accepted.get(key).copied().unwrap_or_default() > 0,
            "no fixture node is valid against {key}"
        );
    }
}

#[test]
fn oracle_accepts_and_rejects_the_known_replay_fixtures() {
    let Some(corpus) = support::corpus_dir() else {
        return;
    };
    let Some(contract) = support::contract_dir() else {
        return;
    };
    let oracles = oracles(&contract);
    let replay = support::reference_fixture_dir(&corpus).join("replay");
    let happy = support::read_json(&replay.join("happy-path.json"));
    // protocolVersion 4, which a v3 consumer must refuse.
    let unsupported = support::read_json(
        &support::reference_fixture_dir(&contract).join("replay/unsupported-required-version.json"),
    );

    for (name, oracle) in [
        ("project", &oracles.project),
        ("reference", &oracles.reference),
    ] {
        let fixture = oracle.validator(FIXTURE_ID);
        if let Err(error) = fixture.validate(&happy) {
            panic!(
                "{name}: happy-path.json is rejected at {}: {error}",
                error.instance_path()
            );
        }
        let errors: Vec<String> = fixture
            .iter_errors(&unsupported)
            .map(|error| error.instance_path().to_string())
            .collect();
        assert!(
            errors.iter().any(|path| path == "/protocolVersion"),
            "{name}: unsupported-required-version.json must fail at /protocolVersion, got {errors:?}"
        );
    }
}

#[test]
fn oracle_asserts_prp_date_time_and_ecmascript_patterns() {
    let Some(corpus) = support::corpus_dir() else {
        return;
    };
    let Some(contract) = support::contract_dir() else {
        return;
    };
    let oracles = oracles(&contract);
    let replay = support::reference_fixture_dir(&corpus).join("replay");
    let happy = support::read_json(&replay.join("happy-path.json"));
    let command = happy["commands"][0].clone();
    let safe_path = support::def_key(PROVIDER_EVENT_ID, "safePath");
    let safe_url = support::def_key(PROVIDER_EVENT_ID, "safeUrl");

    let with_issued_at = |value: &str| {
        let mut command = command.clone();
        command["issuedAt"] = json!(value);
        command
    };
    // (validator key, instance, expected verdict)
    let cases: Vec<(&str, Value, bool)> = vec![
        (COMMAND_ID, command.clone(), true),
        (COMMAND_ID, with_issued_at("2026-08-07T12:00:00Z"), true),
        // The format is a regex, not a calendar: impossible values pass.
        (COMMAND_ID, with_issued_at("2026-02-30T25:61:61Z"), true),
        (
            COMMAND_ID,
            with_issued_at("2026-08-07T12:00:00+02:00"),
            false,
        ),
        (COMMAND_ID, with_issued_at("2026-08-07T12:00:00.1Z"), false),
        (
            COMMAND_ID,
            with_issued_at("2026-08-07T12:00:00.0000Z"),
            false,
        ),
        (COMMAND_ID, with_issued_at("2026-08-07t12:00:00z"), false),
        (
            COMMAND_ID,
            with_issued_at("\u{0662}026-08-07T12:00:00Z"),
            false,
        ),
        (safe_path.as_str(), json!("src/lib.rs"), true),
        (safe_path.as_str(), json!(""), true),
        (safe_path.as_str(), Value::Null, true),
        (safe_path.as_str(), json!("/etc/passwd"), false),
        (safe_path.as_str(), json!("a/../b"), false),
        (safe_path.as_str(), json!(".."), false),
        (safe_path.as_str(), json!("a..b/c"), true),
        // ECMAScript `.` stops at every line terminator; fancy-regex's would not.
        (safe_path.as_str(), json!("a\rb"), false),
        (safe_path.as_str(), json!("a\u{2028}b"), false),
        (safe_path.as_str(), json!("a\nb"), false),
        // Anchored at the start only.
        (
            safe_url.as_str(),
            json!("https://example.invalid/ any tail"),
            true,
        ),
        (
            safe_url.as_str(),
            json!("see https://example.invalid/"),
            false,
        ),
    ];
    for (name, oracle) in [
        ("project", &oracles.project),
        ("reference", &oracles.reference),
    ] {
        for (key, instance, expected) in &cases {
            assert_eq!(
                oracle.is_valid(key, instance),
                *expected,
                "{name}: {key} on {instance}"
            );
        }
    }
}
