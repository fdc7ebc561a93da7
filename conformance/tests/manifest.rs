//! The conformance manifest (PROTOCOL §7, PROTOCOL-V3 §6): the reference corpus' manifest
//! reproduced byte for byte under 1..2, a v3 protocol directory under the default 1..3, and
//! `--check` naming what went stale in a copy of the protocol directory.

use prp_testkit as support;

use prp_conformance::manifest::{self, Check};
use prp_peer::contract::Contract;
use prp_types::Code;
use std::fs;
use std::path::{Path, PathBuf};
use support::corpus_dir;

fn reference_protocol() -> Option<PathBuf> {
    Some(corpus_dir()?.join("protocol"))
}

/// The range of the v1/v2 corpus: its manifest is a v1/v2 checker's.
fn v1_2() -> Contract {
    "1..2".parse().unwrap()
}

/// A scratch directory removed when dropped (the workspace has no tempfile dependency).
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("prp-manifest-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
            // The corpus is read-only; the copy must be writable to be edited.
            let mut perms = fs::metadata(&target).unwrap().permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            fs::set_permissions(&target, perms).unwrap();
        }
    }
}

/// A writable copy of the reference protocol directory.
fn protocol_copy(name: &str) -> Option<TempDir> {
    let protocol = reference_protocol()?;
    let tmp = TempDir::new(name);
    copy_dir(&protocol, &tmp.0);
    Some(tmp)
}

#[test]
fn reference_manifest_is_reproduced_byte_for_byte() {
    let Some(protocol) = reference_protocol() else {
        return;
    };
    let generated = manifest::generate(&protocol, v1_2()).unwrap_or_else(|e| panic!("{e}"));
    let expected = fs::read_to_string(protocol.join("manifest.json")).unwrap();
    let got = generated.to_pretty();
    if got != expected {
        let line = got
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "manifest differs at line {}:\n  got:      {:?}\n  expected: {:?}",
            line + 1,
            got.lines().nth(line),
            expected.lines().nth(line)
        );
    }
    assert_eq!(manifest::check(&protocol, v1_2()).unwrap(), Check::Fresh);
}

#[test]
fn reference_manifest_lists_25_schemas_and_54_fixtures() {
    let Some(protocol) = reference_protocol() else {
        return;
    };
    let m = manifest::generate(&protocol, v1_2()).unwrap();
    assert_eq!(m.value["schemas"].as_array().unwrap().len(), 25);
    assert_eq!(m.value["fixtures"].as_array().unwrap().len(), 54);
}

#[test]
fn check_names_a_changed_fixture() {
    let Some(tmp) = protocol_copy("changed") else {
        return;
    };
    let path = tmp.0.join("fixtures/replay/happy-path.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("Happy path", "Happy path, edited")).unwrap();
    assert_eq!(
        manifest::check(&tmp.0, v1_2()).unwrap(),
        Check::Stale(vec![
            "fixtures/replay/happy-path.json: `sha256` changed".into()
        ])
    );
    // Writing regenerates it; the check then passes.
    manifest::write(&tmp.0, v1_2()).unwrap();
    assert_eq!(manifest::check(&tmp.0, v1_2()).unwrap(), Check::Fresh);
}

#[test]
fn check_names_added_and_removed_files() {
    let Some(tmp) = protocol_copy("added") else {
        return;
    };
    fs::remove_file(tmp.0.join("fixtures/evals/harness-driver-conformance.json")).unwrap();
    fs::write(tmp.0.join("fixtures/evals/extra.json"), "{\"note\": 1}\n").unwrap();
    let Check::Stale(parts) = manifest::check(&tmp.0, v1_2()).unwrap() else {
        panic!("a changed directory was reported fresh");
    };
    assert_eq!(
        parts,
        vec![
            "fixtures/evals/extra.json: not listed".to_owned(),
            "fixtures/evals/harness-driver-conformance.json: listed but no longer among the fixtures"
                .to_owned(),
        ]
    );
}

#[test]
fn check_treats_a_missing_manifest_as_empty() {
    let Some(tmp) = protocol_copy("missing") else {
        return;
    };
    fs::remove_file(tmp.0.join("manifest.json")).unwrap();
    assert_eq!(
        manifest::check(&tmp.0, v1_2()).unwrap(),
        Check::Stale(vec!["manifest.json is missing or empty".into()])
    );
}

#[test]
fn check_compares_bytes_not_values() {
    let Some(tmp) = protocol_copy("crlf") else {
        return;
    };
    let path = tmp.0.join("manifest.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace('\n', "\r\n")).unwrap();
    assert_eq!(
        manifest::check(&tmp.0, v1_2()).unwrap(),
        Check::Stale(vec!["the text is not the generated pretty JSON".into()])
    );
}

#[test]
fn fixture_hashes_ignore_crlf() {
    let Some(tmp) = protocol_copy("fixture-crlf") else {
        return;
    };
    let path = tmp.0.join("fixtures/replay/source-gap.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace('\n', "\r\n")).unwrap();
    assert_eq!(manifest::check(&tmp.0, v1_2()).unwrap(), Check::Fresh);
}

/// The problems `generate` reports for a copy of the corpus changed by `edit`.
fn problems_after(name: &str, edit: impl FnOnce(&Path)) -> Option<Vec<String>> {
    let tmp = protocol_copy(name)?;
    edit(&tmp.0);
    match manifest::generate(&tmp.0, v1_2()) {
        Ok(_) => Some(vec![]),
        Err(manifest::Error::Invalid(problems)) => Some(
            problems
                .iter()
                .map(|p| format!("{}: {}", p.code, p.message))
                .collect(),
        ),
        Err(e) => panic!("{e}"),
    }
}

fn edit_json(path: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut value: serde_json::Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
    edit(&mut value);
    fs::write(path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
}

#[test]
fn an_expected_rejection_that_passes_fails_the_run() {
    let Some(problems) = problems_after("reject-passes", |dir| {
        // Give the "unsupported" fixture a supported version and a schema-valid shape: take a valid one.
        fs::copy(
            dir.join("fixtures/replay/happy-path.json"),
            dir.join("fixtures/replay/unsupported-required-version.json"),
        )
        .unwrap();
    }) else {
        return;
    };
    assert_eq!(
        problems,
        vec![
            "invalid_fixture: fixtures/replay/unsupported-required-version.json did not fail closed"
        ]
    );
}

#[test]
fn an_accepted_replay_fixture_must_use_v1_events() {
    let Some(problems) = problems_after("v2-event", |dir| {
        edit_json(&dir.join("fixtures/replay/happy-path.json"), |v| {
            v["events"][1]["schema"] = "paperclip.prp.event.v2".into();
            v["events"][1]["schemaVersion"] = 2.into();
        });
    }) else {
        return;
    };
    assert_eq!(
        problems,
        vec![
            "unsupported_required_schema: fixtures/replay/happy-path.json: events[1].schema requires paperclip.prp.event.v1"
        ]
    );
}

#[test]
fn an_accepted_replay_fixture_must_pass_the_binding_checks() {
    let Some(problems) = problems_after("binding", |dir| {
        edit_json(&dir.join("fixtures/replay/happy-path.json"), |v| {
            v["events"][0]["runId"] = "run_elsewhere".into();
        });
    }) else {
        return;
    };
    assert_eq!(
        problems,
        vec![
            "invalid_fixture: fixtures/replay/happy-path.json: binding_mismatch at /events/0/runId: event runId must match identity.runId"
        ]
    );
}

#[test]
fn schema_catalog_problems_are_named() {
    let Some(problems) = problems_after("catalog", |dir| {
        edit_json(&dir.join("schemas/usage.schema.json"), |v| {
            v["title"] = "".into();
            v["$schema"] = "http://json-schema.org/draft-07/schema#".into();
        });
        edit_json(&dir.join("schemas/terminal.schema.json"), |v| {
            v["properties"]["stopReason"]["$ref"] =
                "https://paperclip.dev/schemas/prp/v1/nowhere.schema.json".into();
        });
        edit_json(&dir.join("schemas/identity.schema.json"), |v| {
            v["properties"]["runId"] = serde_json::json!({"$ref": "#/$defs/missing"});
        });
    }) else {
        return;
    };
    let codes: Vec<&str> = problems
        .iter()
        .map(|p| p.split(':').next().unwrap())
        .collect();
    assert_eq!(
        codes,
        vec![
            "unsupported_schema_dialect",
            "missing_schema_title",
            "schema_compile_error",
            "unresolved_schema_fragment",
            "unresolved_schema_reference",
        ],
        "{problems:#?}"
    );
    // The generator cannot read the untitled document: said with its place, and that its
    // references went unchecked.
    assert!(
        problems[2].starts_with("schema_compile_error: schemas/usage.schema.json at /title: ")
            && problems[2].ends_with("so its `$ref`s are not checked"),
        "{}",
        problems[2]
    );
}

/// A `$ref` resolves as the generator resolves it: to an anchor, and through an embedded `$id`
/// (relative to the document's own); only what names nothing is a problem, said with its kind.
#[test]
fn schema_references_resolve_through_anchors_and_embedded_ids() {
    let Some(problems) = problems_after("anchors", |dir| {
        edit_json(&dir.join("schemas/identity.schema.json"), |v| {
            v["$defs"]["named"] = serde_json::json!({"$anchor": "named", "type": "string"});
            v["$defs"]["inner"] = serde_json::json!({
                "$id": "inner.schema.json",
                "$defs": {"leaf": {"type": "string"}, "back": {"$ref": "#/$defs/leaf"}}
            });
            v["$defs"]["a"] = serde_json::json!({"$ref": "#named"});
            v["$defs"]["b"] = serde_json::json!({"$ref": "inner.schema.json#/$defs/leaf"});
            v["$defs"]["c"] = serde_json::json!({"$ref": "#nowhere"});
            v["$defs"]["d"] = serde_json::json!({"$ref": "inner.schema.json#/$defs/gone"});
        });
    }) else {
        return;
    };
    assert_eq!(problems.len(), 2, "{problems:#?}");
    for (problem, at) in problems.iter().zip(["/$defs/c", "/$defs/d"]) {
        assert!(
            problem.starts_with("unresolved_schema_fragment: schemas/identity.schema.json at ")
                && problem.contains(&format!("at {at}:")),
            "{problem}"
        );
    }
}

#[test]
fn conformance_pair_must_describe_one_run() {
    let Some(problems) = problems_after("conformance", |dir| {
        edit_json(
            &dir.join("fixtures/conformance-expected-output.json"),
            |v| {
                v["runIdentity"]["sessionId"] = "session_other".into();
                v["result"]["summary"] = "Something else.".into();
            },
        );
    }) else {
        return;
    };
    let codes: Vec<&str> = problems
        .iter()
        .map(|p| p.split(':').next().unwrap())
        .collect();
    assert_eq!(
        codes,
        vec![
            "conformance_identity_mismatch",
            "conformance_result_mismatch"
        ]
    );
}

#[test]
fn question_fixtures_get_generic_and_adapter_checks() {
    let Some(problems) = problems_after("questions", |dir| {
        edit_json(&dir.join("fixtures/questions/codex.json"), |v| {
            v["nativeRequest"]["method"] = "item/other".into();
            v["canonicalResponse"]["answers"]["environment"]["selectedOptionIds"] =
                serde_json::json!(["option-1", "option-9"]);
        });
        edit_json(&dir.join("fixtures/questions/opencode.json"), |v| {
            v["adapter"] = "someone-else".into();
        });
    }) else {
        return;
    };
    assert_eq!(
        problems,
        vec![
            "invalid_question_adapter_fixture: fixtures/questions/codex.json: answer environment: option option-9 is not an option of the question",
            "invalid_question_adapter_fixture: fixtures/questions/codex.json: answer environment: a single_select question takes at most one option",
            "invalid_codex_question_fixture: fixtures/questions/codex.json: nativeRequest.method must be item/tool/requestUserInput",
            "unsupported_provider: fixtures/questions/opencode.json: adapter someone-else is not a known question adapter",
        ]
    );
}

#[test]
fn unparseable_fixtures_are_named() {
    let Some(problems) = problems_after("invalid-json", |dir| {
        fs::write(dir.join("fixtures/evals/broken.json"), "{").unwrap();
    }) else {
        return;
    };
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].starts_with("invalid_json: fixtures/evals/broken.json: "),
        "{problems:?}"
    );
}

#[test]
fn provider_schemas_stay_out_of_the_project_manifest() {
    // The project's schemas/ keeps the ACPX sidecar schema in a subdirectory; only the 28 PRP
    // schemas beside it (v1/v2's 25 and the three of v3) are listed, and a missing fixtures/ is an
    // I/O error, not an empty list.
    let tmp = TempDir::new("project-schemas");
    copy_dir(&support::project_schema_dir(), &tmp.0.join("schemas"));
    fs::create_dir_all(tmp.0.join("fixtures")).unwrap();
    let m = manifest::generate(&tmp.0, Contract::default()).unwrap_or_else(|e| panic!("{e}"));
    let schemas = m.value["schemas"].as_array().unwrap();
    assert_eq!(schemas.len(), 28);
    assert!(
        schemas
            .iter()
            .all(|s| s["id"].as_str().unwrap().starts_with(manifest::ID_PREFIX))
    );
    fs::remove_dir_all(tmp.0.join("fixtures")).unwrap();
    assert!(matches!(
        manifest::generate(&tmp.0, Contract::default()),
        Err(manifest::Error::Io { .. })
    ));
}

#[test]
fn problem_codes_print_snake_case() {
    assert_eq!(
        Code::UnresolvedSchemaFragment.to_string(),
        "unresolved_schema_fragment"
    );
}

/// The project's own protocol directory (this repository: `schemas/`, `fixtures/`, `manifest.json`)
/// passes every check and its checked-in manifest is fresh (`prp manifest .` regenerates it).
#[test]
fn the_projects_manifest_is_fresh() {
    let root = prp_testkit::project_dir();
    match manifest::check(&root, Contract::default()) {
        Ok(Check::Fresh) => {}
        Ok(Check::Stale(parts)) => {
            panic!("manifest.json is stale, run `prp manifest .`: {parts:?}")
        }
        Err(e) => panic!("the project's fixtures fail the manifest checks: {e}"),
    }
}

/// A v3 protocol directory as PROTOCOL-V3 §6 describes it: the v3 corpus' 28 schemas and its
/// changed fixture over the v1/v2 corpus' fixtures (the v3 content of one eval is not stored; it is
/// only hashed, so the v1/v2 file stands in for it).
fn v3_protocol_copy(name: &str) -> Option<TempDir> {
    let v3 = support::contract_dir()?.join("protocol");
    let tmp = protocol_copy(name)?;
    fs::remove_dir_all(tmp.0.join("schemas")).unwrap();
    copy_dir(&v3.join("schemas"), &tmp.0.join("schemas"));
    copy_dir(&v3.join("fixtures"), &tmp.0.join("fixtures"));
    Some(tmp)
}

#[test]
fn a_v3_directory_gets_a_protocol_version_3_manifest() {
    let (Some(tmp), Some(v1_2_dir)) = (v3_protocol_copy("v3"), reference_protocol()) else {
        return;
    };
    let m = manifest::generate(&tmp.0, Contract::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.value["protocolVersion"], 3);
    let schemas = m.value["schemas"].as_array().unwrap();
    assert_eq!(schemas.len(), 28);
    // The three v3 files sort between the -v2 files and the unversioned one.
    let at = |p: &str| schemas.iter().position(|s| s["path"] == p).unwrap();
    assert!(at("schemas/event-v2.schema.json") < at("schemas/event-v3.schema.json"));
    assert!(at("schemas/event-v3.schema.json") < at("schemas/event.schema.json"));
    // The same fixture paths, expectations and compatibility cases as v1/v2.
    let old = manifest::generate(&v1_2_dir, v1_2()).unwrap();
    let cases = |m: &manifest::Manifest| -> Vec<(String, String, String)> {
        m.value["fixtures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let s = |k: &str| f[k].as_str().unwrap().to_owned();
                (s("path"), s("expectation"), s("compatibilityCase"))
            })
            .collect()
    };
    assert_eq!(cases(&m), cases(&old));
    manifest::write(&tmp.0, Contract::default()).unwrap();
    assert_eq!(
        manifest::check(&tmp.0, Contract::default()).unwrap(),
        Check::Fresh
    );
    // The same directory read as a v1/v2 one records protocolVersion 2: the range decides.
    let Check::Stale(parts) = manifest::check(&tmp.0, v1_2()).unwrap() else {
        panic!("a v1/v2 reading of a v3 manifest was fresh");
    };
    assert_eq!(parts, vec!["`protocolVersion` differs".to_owned()]);
}

/// A v1/v2 directory checked as v3: its expected rejection (protocolVersion 3) is a version v3
/// knows, so it no longer fails closed; pinning 1..2 is what keeps it a rejection.
#[test]
fn a_v1_v2_directory_needs_its_range() {
    let Some(protocol) = reference_protocol() else {
        return;
    };
    let Err(manifest::Error::Invalid(problems)) =
        manifest::generate(&protocol, Contract::default())
    else {
        panic!("the v1/v2 corpus passed as a v3 directory");
    };
    let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        messages,
        ["fixtures/replay/unsupported-required-version.json did not fail closed"]
    );
}

/// PROTOCOL-V3 §6: a v3 directory's replay fixtures may hold envelopes of any known version, with
/// the event rules of PROTOCOL-V3 §1 (no newer than the fixture's protocol, `schema` naming it).
#[test]
fn a_v3_directory_checks_events_by_the_fixture_protocol() {
    let edit_event = |name: &'static str, protocol: u32, schema: &'static str, version: u32| {
        v3_protocol_copy(name).map(|tmp| {
            edit_json(&tmp.0.join("fixtures/replay/happy-path.json"), |v| {
                v["protocolVersion"] = protocol.into();
                v["events"][2]["schema"] = schema.into();
                v["events"][2]["schemaVersion"] = version.into();
            });
            match manifest::generate(&tmp.0, Contract::default()) {
                Ok(_) => vec![],
                Err(manifest::Error::Invalid(p)) => p
                    .iter()
                    .map(|p| format!("{}: {}", p.code, p.message))
                    .collect(),
                Err(e) => panic!("{e}"),
            }
        })
    };
    let Some(newer) = edit_event("v3-newer", 1, "paperclip.prp.event.v2", 2) else {
        return;
    };
    assert_eq!(
        newer,
        [
            "unsupported_required_version: fixtures/replay/happy-path.json: events[2].schemaVersion=2; supported=1"
        ]
    );
    let Some(mismatch) = edit_event("v3-mismatch", 2, "paperclip.prp.event.v1", 2) else {
        return;
    };
    assert_eq!(
        mismatch,
        [
            "unsupported_required_schema: fixtures/replay/happy-path.json: events[2].schema requires paperclip.prp.event.v2"
        ]
    );
    // A v2 `turn.started` in a protocolVersion 2 run is what a v3 checker accepts.
    let Some(accepted) = edit_event("v3-v2-event", 2, "paperclip.prp.event.v2", 2) else {
        return;
    };
    assert_eq!(accepted, Vec::<String>::new());
}
