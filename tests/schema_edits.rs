//! Additive schema edits never break the build: each edit below is made on a copy of `schemas/`,
//! prp-types is generated from the copy (`PRP_SCHEMA_DIR`, read by build.rs), and the whole
//! workspace with its tests must compile with no hand edit, its generated module free of checked
//! types. The edits are the ones protocol authors make: a new optional member, a new enum value, a
//! new event type with its payload rule, a new `oneOf` alternative, and a new protocol version
//! whose envelopes join the fixture's unions. With all of them at once, the contract, replay,
//! goals, encode and typed-API suites then run on the old documents and must pass as they do on
//! `schemas/` (the suites that compare verdicts with the reference schemas are left out: an edit
//! changes the contract, so they disagree by design: protocol version 3 becomes schema-valid).
//!
//! It runs cargo inside cargo (minutes), so it is ignored by default; `.ci/run` runs it:
//! `cargo test --test schema_edits -- --ignored`.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One edit, made in place on a copy of `schemas/`.
struct Edit {
    name: &'static str,
    apply: fn(&Path),
}

const EDITS: &[Edit] = &[
    Edit {
        name: "optional-member",
        apply: optional_member,
    },
    Edit {
        name: "enum-value",
        apply: enum_value,
    },
    Edit {
        name: "event-type",
        apply: event_type,
    },
    Edit {
        name: "one-of-alternative",
        apply: one_of_alternative,
    },
    Edit {
        name: "protocol-version",
        apply: protocol_version,
    },
];

fn read(dir: &Path, file: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn write(dir: &Path, file: &str, value: &Value) {
    std::fs::write(dir.join(file), serde_json::to_string_pretty(value).unwrap()).unwrap();
}

fn edit(dir: &Path, file: &str, change: impl FnOnce(&mut Value)) {
    let mut v = read(dir, file);
    change(&mut v);
    write(dir, file, &v);
}

/// A new optional member on the v2 event envelope.
fn optional_member(dir: &Path) {
    edit(dir, "event-v2.schema.json", |v| {
        v["properties"]["traceId"] = json!({ "type": "string", "minLength": 1, "maxLength": 160 });
    });
}

/// A new value of the v2 command `type` enum.
fn enum_value(dir: &Path) {
    edit(dir, "command-v2.schema.json", |v| {
        v["properties"]["type"]["enum"]
            .as_array_mut()
            .unwrap()
            .push(json!("session.pause"));
    });
}

/// A new v2 event type whose payload a conditional gives a schema of its own.
fn event_type(dir: &Path) {
    edit(dir, "event-v2.schema.json", |v| {
        let types = v["properties"]["eventType"]["enum"].as_array_mut().unwrap();
        types.push(json!("session.paused"));
        v["allOf"].as_array_mut().unwrap().push(json!({
            "if": { "properties": { "eventType": { "const": "session.paused" } } },
            "then": { "properties": { "payload": {
                "type": "object",
                "required": ["reason"],
                "properties": { "reason": { "type": "string", "minLength": 1 } },
                "additionalProperties": true
            } } }
        }));
    });
}

/// A new alternative of the request union: a third runtime-request version.
fn one_of_alternative(dir: &Path) {
    edit(dir, "request.schema.json", |v| {
        let alts = v["oneOf"].as_array_mut().unwrap();
        let mut next = alts
            .iter()
            .find(|a| a["properties"]["schema"]["const"] == "paperclip.runtime_request.v2")
            .unwrap()
            .clone();
        next["properties"]["schema"] = json!({ "const": "paperclip.runtime_request.v3" });
        alts.push(next);
    });
}

/// Protocol version 4: event, command and capabilities files of their own, written the way a
/// later revision writes them (a redundant `type: object` in every `if` and `then`, a rule on a
/// nested member, `if`/`then`/`else`, a `oneOf` as a whole `then`, `contains` and an `allOf` on
/// an array, a nullable object, `const: false`), joined to the fixture's unions.
fn protocol_version(dir: &Path) {
    let event = version_four(dir, "event", |v| {
        v["allOf"].as_array_mut().unwrap().extend([
            json!({
                "if": { "properties": { "payload": {
                    "properties": { "action": { "const": "abort" } }, "required": ["action"]
                } } },
                "then": { "properties": { "payload": { "required": ["reason"] } } }
            }),
            json!({
                "if": { "required": ["debug"] },
                "then": { "required": ["observedAt"] },
                "else": { "not": { "required": ["turnId", "itemId"] } }
            }),
        ]);
        let props = v["properties"].as_object_mut().unwrap();
        props.insert(
            "choices".into(),
            json!({
                "type": "array", "items": { "type": "string" },
                "contains": { "const": "default" }, "maxContains": 1,
                "allOf": [{ "maxItems": 8 }]
            }),
        );
        props.insert(
            "sidecar".into(),
            json!({ "type": ["null", "object"], "properties": { "name": { "type": "string" } } }),
        );
        props.insert("replayed".into(), json!({ "const": false }));
    });
    let command = version_four(dir, "command", |v| {
        v["allOf"].as_array_mut().unwrap().push(json!({
            "if": { "properties": { "type": { "const": "turn.stop" } } },
            "then": { "oneOf": [{ "required": ["deadlineAt"] }, { "required": ["precondition"] }] }
        }));
    });
    let capabilities = version_four(dir, "capabilities", |_| {});
    edit(dir, "fixture.schema.json", |v| {
        let p = &mut v["properties"];
        p["protocolVersion"]["enum"]
            .as_array_mut()
            .unwrap()
            .push(json!(4));
        let join = |alts: &mut Value, id: &str| {
            alts.as_array_mut().unwrap().push(json!({ "$ref": id }));
        };
        join(&mut p["capabilities"]["oneOf"], &capabilities);
        join(&mut p["commands"]["items"]["oneOf"], &command);
        join(&mut p["events"]["items"]["oneOf"], &event);
    });
}

/// `<kind>-v4.schema.json`, made from the v3 file and changed by `more`; its `$id`.
fn version_four(dir: &Path, kind: &str, more: impl FnOnce(&mut Value)) -> String {
    let mut v = read(dir, &format!("{kind}-v3.schema.json"));
    let id = v["$id"].as_str().unwrap().replace("/v3/", "/v4/");
    v["$id"] = json!(id);
    v["properties"]["schema"] = json!({ "const": format!("paperclip.prp.{kind}.v4") });
    if v["properties"].get("schemaVersion").is_some() {
        v["properties"]["schemaVersion"] = json!({ "const": 4 });
    }
    // (`get_mut`: indexing a missing member would insert `"allOf": null`, a schema the generator
    // refuses.)
    for rule in v
        .get_mut("allOf")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        for key in ["if", "then"] {
            if let Some(o) = rule.get_mut(key).and_then(Value::as_object_mut) {
                o.insert("type".into(), json!("object"));
            }
        }
    }
    more(&mut v);
    write(dir, &format!("{kind}-v4.schema.json"), &v);
    id
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A copy of `schemas/` at `dir`, with `edits` made on it.
fn edited_copy(dir: &Path, edits: &[&Edit]) {
    let _ = std::fs::remove_dir_all(dir);
    copy_dir(&root().join("schemas"), dir);
    for e in edits {
        (e.apply)(dir);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Runs cargo with `args` on the workspace, generating prp-types from `schemas`; the build has a
/// target directory of its own, so that the main one keeps the real types.
fn cargo(schemas: &Path, args: &[&str]) {
    let target = root().join("target/schema-edits");
    let status = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(root())
        .env("PRP_SCHEMA_DIR", schemas)
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .unwrap();
    assert!(
        status.success(),
        "cargo {} failed on schemas edited at {}",
        args.join(" "),
        schemas.display()
    );
}

/// The number of checked types (JSON checked by the schema program) in the module generated last.
fn checked_types() -> usize {
    let build = root().join("target/schema-edits/debug/build");
    let newest = std::fs::read_dir(&build)
        .unwrap()
        .filter_map(|e| {
            let out = e.ok()?.path().join("out/prp_types.rs");
            let modified = std::fs::metadata(&out).ok()?.modified().ok()?;
            Some((modified, out))
        })
        .max()
        .expect("a generated prp_types.rs")
        .1;
    let code = std::fs::read_to_string(newest).unwrap();
    code.matches("Checked as JSON against its schema").count()
}

#[test]
#[ignore = "runs cargo on edited copies of schemas/ (minutes); .ci/run runs it"]
fn additive_edits_build_with_no_hand_edits() {
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("schema-edits");
    for e in EDITS {
        let dir = work.join(e.name);
        edited_copy(&dir, &[e]);
        cargo(&dir, &["check", "--workspace", "--tests", "--quiet"]);
        assert_eq!(checked_types(), 0, "{}: a type became checked JSON", e.name);
    }
    // Every edit at once; the old documents behave as before.
    let dir = work.join("all");
    edited_copy(&dir, &EDITS.iter().collect::<Vec<_>>());
    cargo(
        &dir,
        &[
            "test", "--quiet", "-p", "prp-peer", "--test", "contract", "--test", "replay",
            "--test", "goals",
        ],
    );
    cargo(
        &dir,
        &[
            "test",
            "--quiet",
            "-p",
            "prp-types",
            "--test",
            "encode",
            "--test",
            "typed_api",
        ],
    );
    assert_eq!(checked_types(), 0, "all edits: a type became checked JSON");
}

/// The workspace at `to`, without its build output and history.
fn copy_checkout(to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(root()).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        let target = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// What the types built in `checkout` were generated from (`cargo run --example schemas`), with
/// `target` as the target directory.
fn schemas_built_in(checkout: &Path, target: &Path) -> String {
    let out = Command::new(env!("CARGO"))
        .args(["run", "--quiet", "-p", "prp-types", "--example", "schemas"])
        .current_dir(checkout)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("PRP_SCHEMA_DIR")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo run in {}: {}",
        checkout.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

include!("../prp-types/schema_inputs.rs");

/// Two checkouts whose `schemas/` differ, built one after the other through one target directory
/// (as `CARGO_TARGET_DIR` set globally, or two git worktrees, give): each gets the types of its own
/// schemas, also when the second's files are older than the first's build, and again when the
/// first is built anew. Cargo shares one compiled build script between the two, so the script
/// must find the checkout from its environment at run time.
#[test]
#[ignore = "builds two copies of the workspace (minutes); .ci/run runs it"]
fn two_checkouts_sharing_a_target_directory_get_their_own_types() {
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("two-checkouts");
    let (a, b) = (work.join("a"), work.join("b"));
    copy_checkout(&a);
    copy_checkout(&b);
    optional_member(&b.join("schemas"));
    let target = root().join("target/two-checkouts");
    for checkout in [&a, &b, &a] {
        let built = schemas_built_in(checkout, &target);
        let own = schema_inputs(&checkout.join("schemas")).unwrap();
        assert_eq!(
            built,
            own,
            "{} built other schemas' types",
            checkout.display()
        );
    }
    assert_ne!(
        schema_inputs(&a.join("schemas")).unwrap(),
        schema_inputs(&b.join("schemas")).unwrap()
    );
}
