//! The `prp` binary as a user meets it: help, version, unknown commands, arguments that are not
//! UTF-8, every path getting a verdict, and the same input getting the same code and pointer from
//! `validate`, `replay` and `manifest`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "../../store/tests/pg/cluster.rs"]
mod cluster;

fn prp<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_prp"))
        .args(args)
        .output()
        .expect("the prp binary runs")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited, not killed by a signal")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A directory for one test, removed when the test is done with it (also when it fails).
struct Scratch(PathBuf);

impl Scratch {
    fn new(dir: PathBuf) -> Scratch {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

/// A fresh directory for one test.
fn scratch(name: &str) -> Scratch {
    Scratch::new(std::env::temp_dir().join(format!("prp-cli-{}-{name}", std::process::id())))
}

#[test]
fn help_and_version_exit_zero() {
    for args in [
        &["--help"][..],
        &["help"],
        &["help", "validate"],
        &["validate", "--help"],
        &["validate", "-h"],
        &["replay", "--help"],
        &["goldens", "--help"],
        &["manifest", "--help"],
    ] {
        let o = prp(args);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).contains("Usage: prp"), "{args:?}");
    }
    // The long help of validate lists the issue codes.
    let o = prp(["validate", "--help"]);
    for c in [
        "io_error",
        "too_large",
        "too_deep",
        "duplicate_key",
        "schema_validation",
    ] {
        assert!(stdout(&o).contains(c), "{c} missing from validate --help");
    }
    for flag in ["--version", "-V"] {
        let o = prp([flag]);
        assert_eq!(code(&o), 0);
        assert_eq!(stdout(&o), format!("prp {}\n", env!("CARGO_PKG_VERSION")));
    }
}

#[test]
fn usage_errors_say_what_is_wrong_and_exit_two() {
    let o = prp(["frobnicate"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("unrecognized subcommand 'frobnicate'"));
    let o = prp(["valdate", "x.json"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("similar subcommand exists: 'validate'"));
    let o = prp(["validate"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("<PATH>"));
    let o = prp(["validate", "--schema", "nope.json", "x.json"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("unknown schema `nope.json`"));
    let o = prp(["replay", "--pretty", "x.json"]);
    assert_eq!(code(&o), 2);
    let o = prp(Vec::<&str>::new());
    assert_eq!(code(&o), 2);
}

#[cfg(unix)]
#[test]
fn a_path_that_is_not_utf8_gets_a_verdict() {
    use std::os::unix::ffi::OsStrExt;
    let o = prp([OsStr::new("validate"), OsStr::from_bytes(b"\xff.json")]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stdout(&o).contains("io_error"), "{}", stdout(&o));
    assert!(!stderr(&o).contains("panicked"));
}

#[test]
fn every_path_gets_a_verdict_and_the_exit_is_the_worst() {
    let good = project().join("fixtures/documents/event-plan-updated.json");
    let dir = scratch("keep-going");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{").unwrap();
    let missing = dir.join("missing.json");
    let o = prp([
        OsStr::new("validate"),
        good.as_os_str(),
        missing.as_os_str(),
        bad.as_os_str(),
    ]);
    assert_eq!(code(&o), 2, "an unreadable path makes the exit 2");
    let lines: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].ends_with(": valid"));
    assert!(lines[1].contains("io_error"));
    assert!(
        lines[2].contains("invalid_json"),
        "the path after the unreadable one is checked"
    );
    // In JSON, the unreadable path is a verdict object like the others.
    let o = prp([
        OsStr::new("validate"),
        OsStr::new("--json"),
        missing.as_os_str(),
        good.as_os_str(),
    ]);
    assert_eq!(code(&o), 2);
    let verdicts: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(verdicts.len(), 2);
    assert_eq!(verdicts[0]["valid"], false);
    assert_eq!(verdicts[0]["issues"][0]["code"], "io_error");
    assert_eq!(verdicts[1]["valid"], true);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // Invalid but readable: exit 1.
    let o = prp([OsStr::new("validate"), good.as_os_str(), bad.as_os_str()]);
    assert_eq!(code(&o), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The `(code, pointer)` each command reports for one input.
fn by_command(input: &[u8], name: &str) -> Vec<(String, String, String)> {
    let dir = scratch(name);
    let file = dir.join("case.json");
    std::fs::write(&file, input).unwrap();
    let mut out = Vec::new();
    // validate --json
    let o = prp([
        OsStr::new("validate"),
        OsStr::new("--json"),
        file.as_os_str(),
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let issue = &v["issues"][0];
    out.push((
        "validate".into(),
        issue["code"].as_str().unwrap().to_owned(),
        issue["path"].as_str().unwrap().to_owned(),
    ));
    // replay: `prp replay: <source>: [rejected: ]<code> at <pointer>: <message>` on stderr
    let o = prp([OsStr::new("replay"), file.as_os_str()]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let line = stderr(&o).lines().next().unwrap().to_owned();
    let rest = line.split_once("case.json: ").unwrap().1;
    let rest = rest.strip_prefix("rejected: ").unwrap_or(rest);
    let (c, rest) = rest.split_once(" at ").unwrap();
    let (p, _) = rest.split_once(": ").unwrap();
    out.push(("replay".into(), c.to_owned(), p.to_owned()));
    // manifest: the file as a replay fixture of a protocol directory
    let protocol = dir.join("protocol");
    std::fs::create_dir_all(protocol.join("schemas")).unwrap();
    std::fs::create_dir_all(protocol.join("fixtures/replay")).unwrap();
    for entry in std::fs::read_dir(project().join("schemas")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(
                &path,
                protocol.join("schemas").join(path.file_name().unwrap()),
            )
            .unwrap();
        }
    }
    std::fs::write(protocol.join("fixtures/replay/case.json"), input).unwrap();
    let o = prp([OsStr::new("manifest"), protocol.as_os_str()]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let text = stderr(&o);
    let line = text
        .lines()
        .find(|l| l.contains("fixtures/replay/case.json"))
        .unwrap_or_else(|| panic!("no problem names the fixture: {text}"));
    let line = line.trim_start_matches(|c: char| c == ' ' || !c.is_ascii_lowercase());
    // `<code>: <file>: <message>`, or `invalid_fixture: <file>: <code> at <pointer>: <message>`.
    let (outer, rest) = line.split_once(": ").unwrap();
    let rest = rest.split_once(": ").map_or("", |(_, r)| r);
    let (c, p) = match rest.split_once(" at ") {
        Some((c, r)) if outer == "invalid_fixture" => (c, r.split_once(": ").unwrap().0),
        _ => (outer, "/"),
    };
    out.push(("manifest".into(), c.to_owned(), p.to_owned()));
    std::fs::remove_dir_all(&dir).unwrap();
    out
}

fn assert_same(input: &[u8], name: &str, want_code: &str, want_pointer: &str) {
    for (command, c, p) in by_command(input, name) {
        assert_eq!(
            (c.as_str(), p.as_str()),
            (want_code, want_pointer),
            "{name}: `prp {command}`"
        );
    }
}

#[test]
fn the_same_input_gets_the_same_code_from_every_command() {
    assert_same(b"{\"schema\": ", "syntax", "invalid_json", "/");
    // Text that is not UTF-8 is not JSON, even where serde_json would pass over it unread. (The
    // manifest reads its files as the reference does, bytes that are not UTF-8 replaced by
    // U+FFFD before hashing and parsing, so it is left out here.)
    for (input, name) in [
        (&b"\"\xa2\""[..], "not-utf8"),
        (&b"{\"schema\": \"\xa2\"}"[..], "not-utf8-member"),
    ] {
        for (command, c, p) in by_command(input, name) {
            if command != "manifest" {
                assert_eq!(
                    (c.as_str(), p.as_str()),
                    ("invalid_json", "/"),
                    "{name}: `prp {command}`"
                );
            }
        }
    }
    let deep_object = format!("{}1{}", "{\"a\":".repeat(10_000), "}".repeat(10_000));
    assert_same(deep_object.as_bytes(), "deep-object", "too_deep", "/");
    let deep_array = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert_same(deep_array.as_bytes(), "deep-array", "too_deep", "/");
    // A fixture with a repeated member: refused where the second one stands.
    let happy = std::fs::read_to_string(project().join("fixtures/replay/happy-path.json")).unwrap();
    let dup = happy.replacen('{', "{\"name\": \"first\",", 1);
    assert_same(dup.as_bytes(), "duplicate", "duplicate_key", "/name");
}

#[test]
fn limits_are_named_with_their_real_figures() {
    let limit = prp_types::decode::MAX_DOCUMENT_BYTES;
    let big = format!(
        "{{\"schema\": \"paperclip.prp.fixture.v1\", \"pad\": \"{}\"}}",
        "x".repeat(limit + 1000)
    );
    let size = big.len().to_string();
    for (command, c, p) in by_command(big.as_bytes(), "large") {
        assert_eq!(
            (c.as_str(), p.as_str()),
            ("too_large", "/"),
            "prp {command}"
        );
    }
    let dir = scratch("large-message");
    let file = dir.join("big.json");
    std::fs::write(&file, &big).unwrap();
    let o = prp([OsStr::new("validate"), file.as_os_str()]);
    assert!(
        stdout(&o).contains(&format!("the document is {size} bytes")),
        "{}",
        stdout(&o)
    );
    let o = prp([OsStr::new("replay"), file.as_os_str()]);
    assert!(
        stderr(&o).contains(&format!("the document is {size} bytes")),
        "{}",
        stderr(&o)
    );
    let deep = "[".repeat(10_000);
    std::fs::write(&file, &deep).unwrap();
    let o = prp([OsStr::new("validate"), file.as_os_str()]);
    assert!(
        stdout(&o).contains("nest 10000 levels deep; the limit is 128"),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn completions_are_generated() {
    let o = prp(["completions", "bash"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("validate"));
}

#[test]
fn digest_prints_one_line_per_document_and_goes_on_after_a_bad_one() {
    let dir = scratch("digest");
    let lines = dir.join("values.jsonl");
    std::fs::write(
        &lines,
        "{\"b\": 1, \"a\": \"Bearer abcdefghijk\"}\nnot json\n[1.0, -0.0]\n",
    )
    .unwrap();
    let o = prp([
        OsStr::new("digest"),
        OsStr::new("--canonical"),
        OsStr::new("--jsonl"),
        lines.as_os_str(),
    ]);
    assert_eq!(code(&o), 1, "a line that is not JSON makes the exit 1");
    let out: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    assert_eq!(out.len(), 3);
    assert_eq!(out[0], r#"{"a":"[REDACTED]","b":1}"#);
    assert!(out[1].starts_with("error: invalid_json: "), "{}", out[1]);
    assert_eq!(out[2], "[1,0]");
    let doc = dir.join("doc.json");
    std::fs::write(&doc, r#"{"a":1,"b":[true,null,"x"]}"#).unwrap();
    let o = prp([OsStr::new("digest"), doc.as_os_str()]);
    assert_eq!(code(&o), 0);
    // printf '{"a":1,"b":[true,null,"x"]}' | sha256sum
    assert_eq!(
        stdout(&o),
        "sha256:eca8cfb31ab74533e1eb2f4c74d2d55dfe3c79ac704787e54be8647ea7777eb1\n"
    );
    let o = prp([OsStr::new("digest"), dir.join("missing.json").as_os_str()]);
    assert_eq!(code(&o), 2, "an unreadable input is an I/O error");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn catalog_check_names_a_stale_inventory() {
    let dir = scratch("catalog");
    let o = prp([
        OsStr::new("catalog"),
        OsStr::new("--check"),
        OsStr::new("--dir"),
        dir.as_os_str(),
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("is missing; run `prp catalog`"),
        "{}",
        stderr(&o)
    );
    let o = prp([OsStr::new("catalog"), OsStr::new("--dir"), dir.as_os_str()]);
    assert_eq!(code(&o), 0);
    let o = prp([
        OsStr::new("catalog"),
        OsStr::new("--check"),
        OsStr::new("--dir"),
        dir.as_os_str(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let file = dir.join("generated/semantic-action-catalog.json");
    let text = std::fs::read_to_string(&file).unwrap();
    // CRLF line endings are not staleness.
    std::fs::write(&file, text.replace('\n', "\r\n")).unwrap();
    let o = prp([
        OsStr::new("catalog"),
        OsStr::new("--check"),
        OsStr::new("--dir"),
        dir.as_os_str(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    std::fs::write(&file, text.replacen("search_api", "search_apis", 1)).unwrap();
    let o = prp([
        OsStr::new("catalog"),
        OsStr::new("--check"),
        OsStr::new("--dir"),
        dir.as_os_str(),
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("generated/semantic-action-catalog.json is stale; run `prp catalog`"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn store_commands_resolve_a_claim_left_in_progress() {
    let dir = scratch("store");
    store_commands_on(&format!("sqlite:{}", dir.join("claims.db").display()));
    let o = prp(["store", "list", "--store", "memory"]);
    assert_eq!(code(&o), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `prp store list|commit|release` on the durable store `spec`.
fn store_commands_on(spec: &str) {
    use prp_store::{Claim, ClaimRequest};
    let dir = scratch(&format!("store-{}", spec.len()));
    let request = |scope: &str| ClaimRequest {
        scope: scope.into(),
        operation_id: "create_task".into(),
        input_digest: "sha256:01".into(),
    };
    {
        let store = prp_store::open(spec).unwrap();
        assert!(matches!(
            store.claim(&request("a")).unwrap(),
            Claim::Claimed(_)
        ));
        assert!(matches!(
            store.claim(&request("b")).unwrap(),
            Claim::Claimed(_)
        ));
    }
    let o = prp(["store", "list", "--store", spec]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["operationId"], "create_task");
    let outcome = dir.join("outcome.json");
    std::fs::write(
        &outcome,
        r#"{"operationId": "create_task", "value": {}, "code": "ok"}"#,
    )
    .unwrap();
    let o = prp([
        OsStr::new("store"),
        OsStr::new("commit"),
        OsStr::new("--store"),
        OsStr::new(spec),
        OsStr::new("--scope"),
        OsStr::new("a"),
        OsStr::new("--outcome"),
        outcome.as_os_str(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = prp(["store", "release", "--store", spec, "--scope", "b"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = prp(["store", "release", "--store", spec, "--scope", "b"]);
    assert_eq!(code(&o), 1, "nothing in progress any more");
    let store = prp_store::open(spec).unwrap();
    assert!(matches!(
        store.claim(&request("a")).unwrap(),
        Claim::Duplicate(_)
    ));
    assert!(matches!(
        store.claim(&request("b")).unwrap(),
        Claim::Claimed(_)
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `fixtures/dispatch/mutations.json` against the durable store `spec` (empty at first): the
/// expected lines, then, in a new process over the same store, the committed mutation answered as
/// a duplicate and never run again.
fn durable_dispatch_on(spec: &str) {
    let path = project().join("fixtures/dispatch/mutations.json");
    let run = || {
        prp([
            OsStr::new("dispatch"),
            path.as_os_str(),
            OsStr::new("--store"),
            OsStr::new(spec),
        ])
    };
    let o = run();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        std::fs::read_to_string(path.with_extension("expected.jsonl")).unwrap()
    );
    // The one whose binding failed is still in progress.
    let o = run();
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        (lines[1]["callId"].as_str(), lines[1]["duplicate"].as_bool()),
        (Some("call-2"), Some(true))
    );
    assert_eq!(lines[1]["executions"], 0);
    assert_eq!(lines[4]["error"]["code"], "idempotency_in_progress");
    assert_eq!(lines[4]["executions"], 0);
}

#[test]
fn the_store_commands_and_dispatch_on_postgres() {
    let Some(cluster) = cluster::Cluster::start() else {
        return;
    };
    store_commands_on(&cluster.database("cli_store"));
    durable_dispatch_on(&cluster.database("cli_dispatch"));
    // An unreachable server: a clear error, exit 2, nothing run.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://app:hunter2@127.0.0.1:{port}/prp?sslmode=disable");
    let path = project().join("fixtures/dispatch/mutations.json");
    let o = prp([
        OsStr::new("dispatch"),
        path.as_os_str(),
        OsStr::new("--store"),
        OsStr::new(&url),
    ]);
    assert_eq!(code(&o), 2);
    assert!(stdout(&o).is_empty());
    assert!(
        stderr(&o).contains("cannot connect to PostgreSQL"),
        "{}",
        stderr(&o)
    );
    assert!(
        !stderr(&o).contains("hunter2"),
        "the password stays out: {}",
        stderr(&o)
    );
    let o = prp(["store", "list", "--store", &url]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

#[test]
fn dispatch_scenarios_print_their_expected_lines() {
    let dir = project().join("fixtures/dispatch");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let expected = path.with_extension("expected.jsonl");
        let o = prp([OsStr::new("dispatch"), path.as_os_str()]);
        assert_eq!(code(&o), 0, "{}: {}", path.display(), stderr(&o));
        if std::env::var_os("UPDATE_DISPATCH").is_some() {
            std::fs::write(&expected, &o.stdout).unwrap();
        }
        let want = std::fs::read_to_string(&expected).unwrap();
        assert_eq!(
            stdout(&o),
            want,
            "{} differs from {}",
            path.display(),
            expected.display()
        );
        // Every receipt on every line is a valid semantic tool document.
        for line in stdout(&o).lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            for key in ["inputReceipt", "resultReceipt"] {
                if let Some(r) = v.get(key).filter(|r| !r.is_null()) {
                    let bytes = serde_json::to_vec(r).unwrap();
                    prp_types::decode::<prp_types::types::SemanticTool>(&bytes)
                        .unwrap_or_else(|e| panic!("{}: {key}: {e}", path.display()));
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 2);
    // The same scenario against the durable store gives the same lines.
    let db_dir = scratch("dispatch-sqlite");
    durable_dispatch_on(&format!("sqlite:{}", db_dir.join("claims.db").display()));
    std::fs::remove_dir_all(&db_dir).unwrap();
    // An invalid scenario is a located error, and nothing runs.
    let bad = scratch("dispatch-bad");
    let file = bad.join("bad.json");
    std::fs::write(&file, r#"{"context": {}, "bindings": {}, "steps": []}"#).unwrap();
    let o = prp([OsStr::new("dispatch"), file.as_os_str()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("invalid scenario"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    std::fs::remove_dir_all(&bad).unwrap();
}

#[test]
fn negotiate_prints_the_selected_version() {
    let o = prp(["negotiate", "--local", "1..2", "--peer", "2..3"]);
    assert_eq!((code(&o), stdout(&o)), (0, "2\n".to_owned()));
    let o = prp(["negotiate", "--local", "1..2", "--peer", "3..4"]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("no common protocol version"),
        "{}",
        stderr(&o)
    );
    let o = prp(["negotiate", "--local", "2..1", "--peer", "1..2"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("malformed version range `2..1`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn negotiate_defaults_to_this_build_s_range_1_to_3() {
    for (peer, selected) in [("1..2", "2\n"), ("2..5", "3\n"), ("3..3", "3\n")] {
        let o = prp(["negotiate", "--peer", peer]);
        assert_eq!((code(&o), stdout(&o)), (0, selected.to_owned()), "{peer}");
    }
    let o = prp(["negotiate", "--peer", "4..5"]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("no common protocol version: local 1..3, peer 4..5"),
        "{}",
        stderr(&o)
    );
    let o = prp(["negotiate", "--peer", "x"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

#[test]
fn goals_prints_the_projection_of_a_fixture() {
    let fixture = project().join("fixtures/goals/goal-resume.json");
    let o = prp([OsStr::new("goals"), fixture.as_os_str()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let expected = std::fs::read_to_string(fixture.with_extension("projection.json")).unwrap();
    assert_eq!(stdout(&o), expected);
    // The fixtures are accepted by `prp validate` too.
    let o = prp([OsStr::new("validate"), fixture.as_os_str()]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));

    // A rejected fixture: its issues on stderr, exit 1; a missing one: exit 2.
    let dir = scratch("goals");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&fixture).unwrap()).unwrap();
    doc["protocolVersion"] = 1.into();
    let bad = dir.join("v1.json");
    std::fs::write(&bad, doc.to_string()).unwrap();
    let o = prp([OsStr::new("goals"), bad.as_os_str()]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("unsupported_required_version at /events/2/schemaVersion"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "");
    let o = prp(["goals", "/nonexistent/fixture.json"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

/// The project's rejected fixture with `protocolVersion` set to `version`, written to `dir`.
fn fixture_at_protocol(dir: &Path, version: u32) -> PathBuf {
    let source = project().join("fixtures/replay/unsupported-required-version.json");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(source).unwrap()).unwrap();
    doc["protocolVersion"] = version.into();
    let path = dir.join(format!("v{version}.json"));
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

#[test]
fn protocol_ranges_are_parsed_and_refused_beyond_the_build() {
    for command in ["validate", "replay", "goals", "goldens", "manifest"] {
        let o = prp([command, "--help"]);
        assert_eq!(code(&o), 0, "{command}");
        let help = stdout(&o);
        assert!(help.contains("--protocol <MIN..MAX>"), "{command}: {help}");
        assert!(help.contains("[default: 1..3]"), "{command}: {help}");
        for (range, why) in [
            (
                "1..4",
                "protocol range 1..4 goes beyond version 3, the newest this build knows",
            ),
            ("2..1", "malformed version range `2..1`"),
            ("one..two", "malformed version range `one..two`"),
        ] {
            let o = prp([command, "--protocol", range, "x.json"]);
            assert_eq!(code(&o), 2, "{command} --protocol {range}");
            assert!(stderr(&o).contains(why), "{command}: {}", stderr(&o));
        }
    }
}

#[test]
fn a_message_of_a_version_outside_the_range_fails_closed() {
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents");
    for (file, schema, version) in [
        (
            "command-v3-external-provider-tool.json",
            "paperclip.prp.command.v3",
            3,
        ),
        (
            "event-v3-external-provider-input-available.json",
            "paperclip.prp.event.v3",
            3,
        ),
        (
            "capabilities-v3-external-provider.json",
            "paperclip.prp.capabilities.v3",
            3,
        ),
        (
            "command-v2-session-goal-set.json",
            "paperclip.prp.command.v2",
            2,
        ),
    ] {
        let path = docs.join(file);
        let o = prp([OsStr::new("validate"), path.as_os_str()]);
        assert_eq!(code(&o), 0, "{file}: {}", stdout(&o));
        let o = prp([
            OsStr::new("validate"),
            OsStr::new("--protocol"),
            OsStr::new(if version == 3 { "1..2" } else { "1..1" }),
            path.as_os_str(),
        ]);
        assert_eq!(code(&o), 1, "{file}");
        let supports = if version == 3 { "1-2" } else { "1-1" };
        assert!(
            stdout(&o).contains(&format!(
                "invalid: unsupported_required_version at /schema: `{schema}` is PRP v{version}; this implementation supports {supports}"
            )),
            "{}",
            stdout(&o)
        );
    }
}

#[test]
fn the_protocol_range_decides_stage_1() {
    let dir = scratch("protocol-range");
    let v3 = fixture_at_protocol(&dir, 3);
    let v4 = fixture_at_protocol(&dir, 4);
    let validate = |range: Option<&str>, file: &Path| {
        let mut args = vec![OsStr::new("validate")];
        if let Some(r) = range {
            args.extend([OsStr::new("--protocol"), OsStr::new(r)]);
        }
        args.push(file.as_os_str());
        let o = prp(args);
        (code(&o), stdout(&o))
    };
    // protocolVersion 3: valid by default, refused by a v1/v2 consumer with its own text.
    assert_eq!(validate(None, &v3).0, 0);
    assert_eq!(validate(Some("1..3"), &v3).0, 0);
    let (c, out) = validate(Some("1..2"), &v3);
    assert_eq!(c, 1);
    assert!(
        out.contains("unsupported_required_version at /protocolVersion: protocolVersion 3 is unsupported; this implementation supports 1-2"),
        "{out}"
    );
    let (c, out) = validate(None, &v4);
    assert_eq!(c, 1);
    assert!(
        out.contains("protocolVersion 4 is unsupported; this implementation supports 1-3"),
        "{out}"
    );
    // replay: the same verdicts.
    let o = prp([OsStr::new("replay"), v3.as_os_str()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = prp([
        OsStr::new("replay"),
        OsStr::new("--protocol"),
        OsStr::new("1..2"),
        v3.as_os_str(),
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("rejected: unsupported_required_version at /protocolVersion"),
        "{}",
        stderr(&o)
    );
    // goals: a v1-only consumer refuses a protocolVersion 2 fixture.
    let goals = project().join("fixtures/goals/goal-resume.json");
    let o = prp([
        OsStr::new("goals"),
        OsStr::new("--protocol"),
        OsStr::new("1..1"),
        goals.as_os_str(),
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("protocolVersion 2 is unsupported; this implementation supports 1-1"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn goldens_and_manifest_take_the_protocol_range() {
    let fixtures = project().join("fixtures");
    for range in ["1..2", "1..3"] {
        let o = prp([
            OsStr::new("goldens"),
            OsStr::new("--check"),
            OsStr::new("--protocol"),
            OsStr::new(range),
            fixtures.as_os_str(),
        ]);
        assert_eq!(code(&o), 0, "{range}: {}", stderr(&o));
    }
    // The project's directory is a v3 one: fresh as such; read as a v1/v2 directory, its v3
    // replay fixture fails closed.
    let o = prp([
        OsStr::new("manifest"),
        OsStr::new("--check"),
        project().as_os_str(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = prp([
        OsStr::new("manifest"),
        OsStr::new("--check"),
        OsStr::new("--protocol"),
        OsStr::new("1..2"),
        project().as_os_str(),
    ]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains(
            "unsupported_required_version: fixtures/replay/external-provider-v3.json: protocolVersion=3; supported=1-2"
        ),
        "{err}"
    );
    assert_eq!(err.lines().count(), 2, "{err}");
}

#[test]
fn validate_jsonl_gives_the_same_verdicts_in_order_on_any_number_of_threads() {
    let dir = scratch("jsonl-jobs");
    let mut docs = Vec::new();
    for entry in std::fs::read_dir(project().join("fixtures/documents")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let v: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            docs.push(v.to_string());
        }
    }
    docs.sort();
    // Valid documents among lines that are not JSON, of no schema, blank and CRLF-ended, over
    // many batches (a batch is at most 256 lines).
    let mut text = String::new();
    for i in 0..3000 {
        match i % 7 {
            0 => text.push_str("{\"schema\": \"nope\"}\n"),
            1 => text.push_str("{\n"),
            2 => text.push('\n'),
            3 => text.push_str(&format!("{}\r\n", docs[i % docs.len()])),
            _ => text.push_str(&format!("{}\n", docs[i % docs.len()])),
        }
    }
    let lines = dir.join("stream.jsonl");
    std::fs::write(&lines, &text).unwrap();
    for json in [false, true] {
        let run = |jobs: &str| {
            let mut args = vec![OsStr::new("validate"), OsStr::new("--jsonl")];
            if json {
                args.push(OsStr::new("--json"));
            }
            args.extend([OsStr::new("--jobs"), OsStr::new(jobs), lines.as_os_str()]);
            prp(args)
        };
        let one = run("1");
        assert_eq!(code(&one), 1, "{}", stderr(&one));
        let out = stdout(&one);
        assert_eq!(
            out.lines().count(),
            3000 - 3000 / 7 - 1,
            "blank lines get no verdict"
        );
        assert!(
            out.lines().next().unwrap().contains("stream.jsonl:1"),
            "{out}"
        );
        for jobs in ["2", "3", "8"] {
            let many = run(jobs);
            assert_eq!(code(&many), 1);
            assert!(
                stdout(&many) == out,
                "--jobs {jobs} changed the verdicts or their order"
            );
        }
    }
    // Standard input and the default thread count; a file of valid lines exits 0.
    let valid = dir.join("valid.jsonl");
    std::fs::write(&valid, docs.join("\n")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_prp"))
        .args(["validate", "--jsonl", "-"])
        .stdin(std::fs::File::open(&valid).unwrap())
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().count(), docs.len());
    assert!(
        stdout(&o).lines().all(|l| l.ends_with(": valid")),
        "{}",
        stdout(&o)
    );
    let o = prp(["validate", "--jsonl", "--jobs", "0", "x.jsonl"]);
    assert_eq!(code(&o), 2, "--jobs 0 is a usage error");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `src` copied to `to`, files only, recursively.
fn copy_dir(src: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=prp",
            "-c",
            "user.email=prp@example.invalid",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(o.status.success(), "git {args:?}: {}", stderr(&o));
}

/// Makes the usage member `region` declared in a closed object: a forward break.
fn add_closed_member(schemas: &Path) {
    let path = schemas.join("usage.schema.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v["properties"]["region"] = serde_json::json!({"type": "string"});
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

#[test]
fn compat_is_quiet_on_the_same_schemas_and_shows_a_break_with_its_witness() {
    let schemas = project().join("schemas");
    let same = prp([
        OsStr::new("compat"),
        schemas.as_os_str(),
        schemas.as_os_str(),
    ]);
    assert_eq!(code(&same), 0, "{}", stderr(&same));
    assert!(
        stdout(&same).contains("no breaking change found"),
        "{}",
        stdout(&same)
    );

    let dir = scratch("compat");
    copy_dir(&schemas, &dir.join("schemas"));
    add_closed_member(&dir.join("schemas"));
    let o = prp([
        OsStr::new("compat"),
        schemas.as_os_str(),
        dir.join("schemas").as_os_str(),
        OsStr::new("--json"),
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let all: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let usage = all
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"].as_str().unwrap().ends_with("/usage.schema.json"))
        .expect("a finding on the usage schema");
    assert_eq!(usage["direction"], "forward");
    assert_eq!(usage["policy"], "violation");
    assert_eq!(usage["schemaPointer"], "/properties/region");
    assert_eq!(usage["instancePointer"], "/region");
    assert_eq!(
        usage["old"],
        serde_json::json!({"valid": false, "code": "additional_properties"})
    );
    assert_eq!(
        usage["new"],
        serde_json::json!({"valid": true, "code": null})
    );
    assert!(usage["witness"].is_object() && usage["defs"].is_null());
    // Old consumers are what a forward break breaks: `--mode backward` lets it through.
    let o = prp([
        OsStr::new("compat"),
        schemas.as_os_str(),
        dir.join("schemas").as_os_str(),
        OsStr::new("--mode"),
        OsStr::new("backward"),
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("old refuses (additional_properties at /region); new accepts"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn compat_against_a_git_revision_reads_the_directory_at_that_revision() {
    let dir = scratch("compat-git");
    copy_dir(&project().join("schemas"), &dir.join("schemas"));
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "schemas"]);
    let schemas = dir.join("schemas");
    let run = || {
        prp([
            OsStr::new("compat"),
            OsStr::new("--against"),
            OsStr::new("HEAD"),
            schemas.as_os_str(),
        ])
    };
    let o = run();
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    add_closed_member(&schemas);
    let o = run();
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("forward [violation]: change at /properties/region"),
        "{}",
        stdout(&o)
    );
    // Usage and I/O errors exit 2 with a sentence.
    for args in [
        vec![
            OsStr::new("compat"),
            OsStr::new("--against"),
            OsStr::new("no-such-rev"),
            schemas.as_os_str(),
        ],
        vec![OsStr::new("compat"), schemas.as_os_str()],
        vec![
            OsStr::new("compat"),
            schemas.as_os_str(),
            OsStr::new("/no/such/dir"),
        ],
    ] {
        let o = prp(&args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stderr(&o).starts_with("prp compat: "), "{}", stderr(&o));
    }
}

/// `format` is an annotation unless `--format` asserts it; PRP's own contract gets its
/// `date-time` profile, and says so on standard error.
#[test]
fn compat_asserts_formats_only_when_asked() {
    let dir = scratch("compat-formats");
    for (side, format) in [("old", "uuid"), ("new", "date-time")] {
        std::fs::create_dir_all(dir.join(side)).unwrap();
        let schema = serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.test/stamp.json",
            "type": "string",
            "format": format,
        });
        std::fs::write(dir.join(side).join("stamp.json"), schema.to_string()).unwrap();
    }
    let (old, new) = (dir.join("old"), dir.join("new"));
    let run = |extra: &[&str]| {
        let mut args = vec![OsStr::new("compat"), old.as_os_str(), new.as_os_str()];
        args.extend([OsStr::new("--mode"), OsStr::new("full")]);
        args.extend(extra.iter().map(OsStr::new));
        prp(args)
    };
    let plain = run(&[]);
    assert_eq!(code(&plain), 0, "{}{}", stdout(&plain), stderr(&plain));
    assert!(stdout(&plain).contains("no breaking change found"));
    assert!(stderr(&plain).is_empty(), "{}", stderr(&plain));
    let asserted = run(&["--format", "date-time"]);
    assert_eq!(code(&asserted), 1, "{}", stdout(&asserted));
    assert!(
        stdout(&asserted).contains("backward [violation]"),
        "{}",
        stdout(&asserted)
    );
    let bad = run(&["--format", "uuid"]);
    assert_eq!(code(&bad), 2, "{}", stderr(&bad));

    let schemas = project().join("schemas");
    let prp_itself = prp([
        OsStr::new("compat"),
        schemas.as_os_str(),
        schemas.as_os_str(),
    ]);
    assert_eq!(code(&prp_itself), 0);
    assert!(
        stderr(&prp_itself).contains("`date-time` asserted as its profile"),
        "{}",
        stderr(&prp_itself)
    );
}

/// Member and definition names that a place must escape: `/` and `~` (RFC 6901), `%`, a space
/// and a non-ASCII letter (RFC 3986, in a URI's fragment).
const AWKWARD: [&str; 5] = ["x/y", "t~z", "50%", "a b", "état"];

#[test]
fn validate_names_each_member_by_its_escaped_pointer_and_the_root_as_slash() {
    let dir = scratch("places-validate");
    let mut lines: Vec<String> = AWKWARD
        .iter()
        .map(|name| {
            serde_json::json!({
                "schema": "paperclip.question_response.v1",
                "answers": { *name: { "text": 5 } }
            })
            .to_string()
        })
        .collect();
    lines.push("[]".to_owned());
    let file = dir.join("answers.jsonl");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let o = prp([
        OsStr::new("validate"),
        OsStr::new("--schema"),
        OsStr::new("question-response.schema.json"),
        OsStr::new("--jsonl"),
        OsStr::new("--json"),
        file.as_os_str(),
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let paths: Vec<String> = stdout(&o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["issues"][0]["path"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(
        paths,
        [
            "/answers/x~1y/text",
            "/answers/t~0z/text",
            "/answers/50%/text",
            "/answers/a b/text",
            "/answers/état/text",
            "/",
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes `esc.json` under `dir`: a root object and one string definition per awkward name,
/// each with `minLength` `min` (and, when `extra`, a definition `new/one` besides).
fn awkward_schemas(dir: &Path, min: u64, extra: bool) {
    let mut defs = serde_json::Map::new();
    for name in AWKWARD {
        defs.insert(
            name.to_owned(),
            serde_json::json!({"type": "string", "minLength": min}),
        );
    }
    if extra {
        defs.insert("new/one".to_owned(), serde_json::json!({"type": "string"}));
    }
    let mut root = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://probe.invalid/esc.json",
        "type": "object",
        "$defs": defs,
    });
    if min > 1 {
        root["minProperties"] = serde_json::json!(1);
    }
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("esc.json"), root.to_string()).unwrap();
}

#[test]
fn compat_names_a_definition_by_its_escaped_uri_and_a_change_by_its_pointer() {
    let dir = scratch("places-compat");
    let (old, new) = (dir.join("old"), dir.join("new"));
    awkward_schemas(&old, 1, false);
    awkward_schemas(&new, 3, true);
    let text = prp([OsStr::new("compat"), old.as_os_str(), new.as_os_str()]);
    assert_eq!(code(&text), 1, "{}", stderr(&text));
    let text = stdout(&text);
    let id = "https://probe.invalid/esc.json";
    assert!(
        text.contains(&format!("added    {id}#/$defs/new~1one\n")),
        "{text}"
    );
    let json = prp([
        OsStr::new("compat"),
        old.as_os_str(),
        new.as_os_str(),
        OsStr::new("--json"),
    ]);
    let all: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let uris = ["x~1y", "t~0z", "50%25", "a%20b", "%C3%A9tat"];
    let pointers = ["x~1y", "t~0z", "50%", "a b", "état"];
    for (name, (uri, pointer)) in AWKWARD.iter().zip(uris.iter().zip(pointers)) {
        let uri = format!("{id}#/$defs/{uri}");
        let change = format!("/$defs/{pointer}/minLength");
        assert!(
            text.contains(&format!(
                "\n{uri}\n  backward [violation]: change at {change}\n"
            )),
            "{name}: {text}"
        );
        let f = all
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["defs"] == *name)
            .unwrap_or_else(|| panic!("a finding on {name}"));
        assert_eq!(f["uri"], uri.as_str());
        assert_eq!(f["schemaPointer"], change.as_str());
        assert_eq!(
            f["instancePointer"], "/",
            "the definition's own value is the root"
        );
    }
    // The root's own change, and its witness refused as a whole, are written `/…` and `/`.
    let root = all
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["defs"].is_null())
        .expect("a finding on the root");
    assert_eq!(root["uri"], id);
    assert_eq!(root["schemaPointer"], "/minProperties");
    assert_eq!(root["instancePointer"], "/");
    assert!(
        text.contains("at /)"),
        "the root instance is written `/`: {text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
