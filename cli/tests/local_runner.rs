//! `prp local-runner` driving `prp fake-harness` (PROTOCOL §6), both as real processes: every
//! reference script and the project's own, driven by a scripted controller, with the reconciled
//! ending, the order of event types, the receipts, and no process of the harness group left.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const PRP: &str = env!("CARGO_BIN_EXE_prp");
/// Generous: only a broken runner takes this long, and the test then fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(30);

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The reference scripts, or `None` (a visible skip) when the corpus is missing outside CI.
fn reference_scripts() -> Option<PathBuf> {
    let corpus = prp_testkit::corpus_dir()?;
    prp_testkit::required(
        corpus.join("protocol/fixtures/local-runner/scripts"),
        "reference scripts",
    )
}

fn own_script(name: &str) -> PathBuf {
    project()
        .join("fixtures/local-runner/scripts")
        .join(format!("{name}.json"))
}

/// Whether any live (not zombie) process is in process group `pgid`.
fn group_alive(pgid: i32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|e| {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            return false;
        };
        // pid (comm) state ppid pgrp ...: read after the last `)`, since comm may hold spaces.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            return false;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        fields.len() > 2 && fields[0] != "Z" && fields[2].parse::<i32>() == Ok(pgid)
    })
}

fn wait_gone(pgid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if !group_alive(pgid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// A running `prp local-runner` and the controller's side of it.
struct Run {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    seen: Vec<Value>,
    seq: u64,
    pid_file: PathBuf,
}

/// How a run ended.
struct Finished {
    code: i32,
    messages: Vec<Value>,
    pgid: Option<i32>,
}

static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

impl Run {
    /// A file name for a harness's pid, unique to this test run.
    fn pid_file() -> PathBuf {
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let path = std::env::temp_dir().join(format!("prp-lr-{}-{n}.pid", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    /// The runner over `harness` (a command line), with `flags`.
    fn command(harness: &[&str], flags: &[&str]) -> Run {
        Run::spawn(harness, flags, Run::pid_file())
    }

    fn spawn(harness: &[&str], flags: &[&str], pid_file: PathBuf) -> Run {
        let mut child = Command::new(PRP)
            .args([
                "local-runner",
                "--run-id",
                "run_lr",
                "--session-id",
                "session_lr",
            ])
            .args(["--runner-id", "runner_lr", "--deterministic-time"])
            .args(flags)
            .arg("--")
            .args(harness)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let line = line.unwrap();
                let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| {
                    panic!("the runner wrote a line that is not JSON ({e}): {line}")
                });
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Run {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            seen: Vec::new(),
            seq: 0,
            pid_file,
        }
    }

    /// The runner over the fake harness playing `script`; the harness writes its pid (its process
    /// group) to a file first, so that the test can look for the group afterwards.
    fn script(script: &Path, flags: &[&str]) -> Run {
        let pid_file = Run::pid_file();
        let shell = format!(
            "echo $$ > '{}'; exec '{PRP}' fake-harness --delay-ms 1 '{}'",
            pid_file.display(),
            script.display()
        );
        Run::spawn(&["/bin/sh", "-c", &shell], flags, pid_file)
    }

    fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        // The runner may already have finished; a closed pipe is then expected.
        let _ = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"));
        let _ = stdin.flush();
    }

    fn send(&mut self, type_: &str, payload: Value) -> String {
        self.seq += 1;
        let id = format!("cmd_lr_{}", self.seq);
        let command = json!({
            "schema": "paperclip.prp.command.v1", "commandId": id, "controllerSeq": self.seq,
            "type": type_, "issuedAt": "2026-08-07T21:00:00Z", "payload": payload,
        });
        self.send_line(&command.to_string());
        command.to_string()
    }

    /// The usual opening: prepare, open the session, start a turn.
    fn open(&mut self) {
        self.send("run.prepare", json!({"workspace": "checkout"}));
        self.send("session.open", json!({}));
        self.send(
            "turn.start",
            json!({"turnId": "turn_lr_1", "text": "Play the script"}),
        );
    }

    /// Reads until a message satisfies `pred`.
    fn wait_for(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(m) = self.seen.iter().find(|m| pred(m)) {
            return m.clone();
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(m) => {
                    self.seen.push(m.clone());
                    if pred(&m) {
                        return m;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {what} within {PATIENCE:?}: {:#?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the stream ended before {what}: {:#?}", self.seen)
                }
            }
        }
    }

    fn wait_event(&mut self, event_type: &str) -> Value {
        self.wait_for(event_type, |m| {
            m["message"]["kind"] == "event" && m["message"]["event"]["eventType"] == event_type
        })
    }

    fn close(&mut self) {
        self.stdin = None;
    }

    /// Reads the rest of the stream (keeping stdin open unless closed) and waits for the exit.
    fn finish(mut self) -> Finished {
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(m) => self.seen.push(m),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!(
                        "the runner did not finish within {PATIENCE:?}: {:#?}",
                        self.seen
                    );
                }
            }
        }
        let code = self
            .child
            .wait()
            .unwrap()
            .code()
            .expect("the runner exited");
        let pgid = std::fs::read_to_string(&self.pid_file)
            .ok()
            .and_then(|s| s.trim().parse().ok());
        let _ = std::fs::remove_file(&self.pid_file);
        Finished {
            code,
            messages: self.seen,
            pgid,
        }
    }
}

impl Finished {
    fn events(&self) -> Vec<&Value> {
        self.messages
            .iter()
            .filter(|m| m["message"]["kind"] == "event")
            .map(|m| &m["message"]["event"])
            .collect()
    }

    fn types(&self) -> Vec<&str> {
        self.events()
            .iter()
            .map(|e| e["eventType"].as_str().unwrap())
            .collect()
    }

    fn count(&self, event_type: &str) -> usize {
        self.types().iter().filter(|t| **t == event_type).count()
    }

    fn event(&self, event_type: &str) -> &Value {
        self.events()
            .into_iter()
            .find(|e| e["eventType"] == event_type)
            .unwrap_or_else(|| panic!("no {event_type} in {:?}", self.types()))
    }

    fn terminal(&self) -> &Value {
        assert_eq!(self.count("run.terminal"), 1, "{:?}", self.types());
        assert_eq!(
            self.types().last(),
            Some(&"run.terminal"),
            "nothing after run.terminal"
        );
        &self.event("run.terminal")["payload"]
    }

    /// turn state, run state, disposition, reason.
    fn ending(&self) -> (String, String, String, String) {
        let t = self.terminal();
        let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
        (
            s(&t["turnTerminalState"]),
            s(&t["runTerminalState"]),
            s(&t["reportedWorkDisposition"]),
            s(&t["reconciliation"]["reason"]),
        )
    }

    fn receipts(&self) -> Vec<(String, String, String)> {
        self.messages
            .iter()
            .filter(|m| m["message"]["kind"] == "command_receipt")
            .map(|m| {
                let r = &m["message"];
                (
                    r["commandId"].as_str().unwrap().to_owned(),
                    r["status"].as_str().unwrap().to_owned(),
                    r["detail"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    }

    fn diagnostics(&self) -> Vec<&str> {
        self.messages
            .iter()
            .filter(|m| m["message"]["kind"] == "diagnostic")
            .map(|m| m["message"]["message"].as_str().unwrap())
            .collect()
    }

    fn process_exit(&self) -> &Value {
        &self.event("harness.exited")["payload"]["processExit"]
    }

    /// The run's stream checked as PRP: every event decodes, ids and sequence numbers are the
    /// runner's, the harness group is gone.
    fn check(&self) {
        for (i, e) in self.events().iter().enumerate() {
            let seq = i as u64 + 1;
            assert_eq!(e["sourceSeq"], seq);
            assert_eq!(e["sourceEventId"], format!("event_run_lr_{seq:03}"));
            assert_eq!(e["runId"], "run_lr");
            assert_eq!(e["sourceInstanceId"], "runner_lr");
            assert_eq!(e["normalizedSessionId"], "session_lr");
            let bytes = serde_json::to_vec(e).unwrap();
            prp_types::decode::<prp_types::types::Event>(&bytes)
                .unwrap_or_else(|issue| panic!("event {seq} is not a valid event: {issue}"));
        }
        if let Some(pgid) = self.pgid {
            assert!(
                wait_gone(pgid),
                "a process of harness group {pgid} is still alive"
            );
        }
    }
}

/// The runner over `script` with the usual opening and nothing else from the controller; the
/// finished run, already checked.
fn played(script: &Path, flags: &[&str]) -> Finished {
    let mut run = Run::script(script, flags);
    run.open();
    let done = run.finish();
    done.check();
    done
}

fn s(a: &str, b: &str, c: &str, d: &str) -> (String, String, String, String) {
    (a.into(), b.into(), c.into(), d.into())
}

const PREPARE: [&str; 4] = [
    "runtime.phase.changed",
    "workspace.ready",
    "harness.starting",
    "harness.ready",
];
const OPENING: [&str; 5] = [
    "session.starting",
    "turn.submitted",
    "session.started",
    "runtime.phase.changed",
    "turn.started",
];

fn with_opening(rest: &[&'static str]) -> Vec<&'static str> {
    PREPARE
        .iter()
        .chain(OPENING.iter())
        .chain(rest)
        .copied()
        .collect()
}

const LIMITS: [&str; 6] = [
    "--log-max-lines",
    "3",
    "--log-max-bytes",
    "256",
    "--shutdown-grace-ms",
    "75",
];

#[test]
fn happy_path() {
    let Some(dir) = reference_scripts() else {
        return;
    };
    let mut run = Run::script(&dir.join("happy-path.json"), &LIMITS);
    run.open();
    // The same turn.start again: a duplicate receipt, nothing else.
    run.seq -= 1;
    run.send(
        "turn.start",
        json!({"turnId": "turn_lr_1", "text": "Play the script"}),
    );
    let done = run.finish();
    done.check();
    assert_eq!(done.code, 0);
    assert_eq!(
        done.types(),
        with_opening(&[
            "item.started",
            "item.delta",
            "item.completed",
            "item.started",
            "item.completed",
            "run.result.proposed",
            "turn.completed",
            "session.closed",
            "harness.exited",
            "run.terminal",
        ])
    );
    assert_eq!(
        done.receipts(),
        [
            ("cmd_lr_1", "accepted", "command applied"),
            ("cmd_lr_2", "accepted", "command applied"),
            ("cmd_lr_3", "accepted", "command applied"),
            (
                "cmd_lr_3",
                "duplicate",
                "equivalent command already applied"
            ),
        ]
        .map(|(a, b, c)| (a.to_owned(), b.to_owned(), c.to_owned()))
    );
    assert_eq!(
        done.ending(),
        s(
            "completed",
            "succeeded",
            "done",
            "successful_process_and_result"
        )
    );
    let exited = &done.event("harness.exited")["payload"];
    assert_eq!(
        exited["processExit"],
        json!({"exitCode": 0, "success": true, "signal": null})
    );
    assert_eq!(exited["semanticResultObserved"], true);
    let logs = &exited["logs"];
    assert_eq!(logs["lines"].as_array().unwrap().len(), 3);
    assert_eq!(logs["droppedLines"], 2);
    assert!(logs["retainedBytes"].as_u64().unwrap() <= 256);
    assert_eq!(logs["lines"][2], "stdout: verification passed");
    let t = done.terminal();
    assert_eq!(
        t["harnessTerminalProposal"]["runTerminalState"],
        "succeeded"
    );
    assert_eq!(t["reconciliation"]["proposalValid"], true);
    assert_eq!(t["reconciliation"]["proposalContradicted"], false);
    // Priorities, and the turn the harness stamps.
    assert_eq!(done.event("item.delta")["priority"], 2);
    assert_eq!(done.event("run.terminal")["priority"], 0);
    assert_eq!(done.event("item.started")["priority"], 1);
    assert_eq!(done.event("item.started")["turnId"], "turn_lr_1");
    assert_eq!(
        done.event("item.started")["itemId"],
        "item_local_runner_command"
    );
}

#[test]
fn a_scripted_run_gives_the_same_bytes_every_time() {
    let Some(dir) = reference_scripts() else {
        return;
    };
    let bytes = || {
        let mut run = Run::command(
            &[
                PRP,
                "fake-harness",
                "--delay-ms",
                "0",
                dir.join("happy-path.json").to_str().unwrap(),
            ],
            &[],
        );
        run.open();
        let done = run.finish();
        serde_json::to_string(&done.messages).unwrap()
    };
    let first = bytes();
    assert!(
        first.contains("2026-08-07T21:00:00.019Z"),
        "deterministic emittedAt"
    );
    assert_eq!(first, bytes());
}

#[test]
fn permission_input_is_resolved_by_the_controller() {
    let Some(dir) = reference_scripts() else {
        return;
    };
    let mut run = Run::script(&dir.join("permission-input.json"), &LIMITS);
    run.open();
    for (id, response) in [
        (
            "request_local_runner_permission",
            json!({"choice": "allow"}),
        ),
        ("request_local_runner_input", json!({"text": "trace-1"})),
    ] {
        run.wait_for(id, |m| {
            m["message"]["event"]["payload"]["request"]["requestId"] == id
        });
        run.send(
            "request.resolve",
            json!({"requestId": id, "response": response}),
        );
        run.wait_for("the resolution", |m| {
            m["message"]["event"]["payload"]["requestId"] == id
        });
    }
    let done = run.finish();
    done.check();
    let requests: Vec<&Value> = done
        .events()
        .into_iter()
        .filter(|e| e["eventType"] == "runtime_request.created")
        .map(|e| &e["payload"]["request"]["type"])
        .collect();
    assert_eq!(requests, [&json!("permission"), &json!("input")]);
    assert_eq!(done.count("runtime_request.resolved"), 2);
    assert_eq!(
        done.event("runtime_request.resolved")["payload"]["response"],
        json!({"choice": "allow"})
    );
    assert_eq!(
        done.ending(),
        s(
            "completed",
            "succeeded",
            "done",
            "successful_process_and_result"
        )
    );
}

#[test]
fn interrupted_by_the_controller() {
    let Some(dir) = reference_scripts() else {
        return;
    };
    let mut run = Run::script(&dir.join("interrupted.json"), &LIMITS);
    run.open();
    run.wait_event("item.started");
    run.send("turn.interrupt", json!({"reason": "operator"}));
    let done = run.finish();
    done.check();
    assert_eq!(
        done.types(),
        with_opening(&[
            "item.started",
            "turn.interrupted",
            "item.failed",
            "run.result.proposed",
            "session.closed",
            "harness.exited",
            "run.terminal",
        ])
    );
    assert_eq!(done.count("turn.interrupted"), 1);
    assert_eq!(
        done.process_exit(),
        &json!({"exitCode": 130, "success": false, "signal": null})
    );
    assert_eq!(
        done.ending(),
        s("interrupted", "cancelled", "yielded", "turn_interrupted")
    );
    // The proposal agreed with the runner.
    assert_eq!(
        done.terminal()["reconciliation"]["proposalContradicted"],
        false
    );
}

#[test]
fn error_exits_seven() {
    let Some(dir) = reference_scripts() else {
        return;
    };
    let done = played(&dir.join("error.json"), &LIMITS);
    assert_eq!(
        done.process_exit(),
        &json!({"exitCode": 7, "success": false, "signal": null})
    );
    assert_eq!(
        done.ending(),
        s("failed", "failed", "yielded", "harness_process_failed")
    );
    assert_eq!(
        done.types(),
        with_opening(&[
            "item.failed",
            "run.result.proposed",
            "turn.failed",
            "session.failed",
            "harness.exited",
            "run.terminal",
        ])
    );
    let lines = &done.event("harness.exited")["payload"]["logs"]["lines"];
    assert_eq!(lines, &json!(["stderr: scripted harness failure"]));
}

#[test]
fn a_second_terminal_is_ignored() {
    let Some(dir) = reference_scripts() else {
        return;
    };
    let done = played(&dir.join("duplicate-terminal.json"), &LIMITS);
    assert_eq!(done.count("run.terminal"), 1);
    let diagnostic = done.event("harness.diagnostic");
    assert_eq!(diagnostic["payload"]["code"], "duplicate_terminal_ignored");
    assert_eq!(diagnostic["priority"], 2);
    assert_eq!(
        done.ending(),
        s(
            "completed",
            "succeeded",
            "done",
            "successful_process_and_result"
        )
    );
    assert_eq!(
        done.terminal()["harnessTerminalProposal"]["runTerminalState"],
        "succeeded"
    );
}

#[test]
fn linger_leaves_no_process_after_an_interrupt_or_a_forced_cleanup() {
    let Some(dir) = reference_scripts() else {
        return;
    };
    // The worker is started, the controller interrupts, the harness exits 130 on its own.
    let mut run = Run::script(&dir.join("linger.json"), &LIMITS);
    run.open();
    run.wait_event("item.started");
    run.send("turn.interrupt", json!({}));
    let done = run.finish();
    done.check();
    assert!(done.pgid.is_some());
    let lines = done.event("harness.exited")["payload"]["logs"]["lines"].clone();
    assert!(
        lines[0]
            .as_str()
            .unwrap()
            .starts_with("diagnostic: {\"purpose\":\"cleanup_conformance\",\"workerPid\":"),
        "{lines}"
    );
    assert_eq!(
        done.ending(),
        s("interrupted", "cancelled", "yielded", "turn_interrupted")
    );

    // The controller goes away while the harness waits: the runner ends the whole group.
    let mut run = Run::script(&dir.join("linger.json"), &LIMITS);
    run.open();
    run.wait_event("item.started");
    run.close();
    let done = run.finish();
    done.check();
    assert_eq!(done.code, 0);
    assert_eq!(done.count("harness.exited"), 1);
    assert_eq!(
        done.ending(),
        s("cancelled", "cancelled", "yielded", "controller_closed")
    );
    assert_eq!(
        done.process_exit()["signal"],
        15,
        "SIGTERM to the group ended it"
    );
}

#[test]
fn oversized_lines_with_a_small_and_the_default_limit() {
    let Some(dir) = reference_scripts() else {
        return;
    };
    let mut flags = LIMITS.to_vec();
    flags.extend(["--harness-max-line-bytes", "512"]);
    let done = played(&dir.join("oversized-line.json"), &flags);
    assert_eq!(
        done.ending(),
        s("failed", "failed", "yielded", "harness_protocol_violation")
    );
    assert!(
        done.diagnostics()
            .contains(&"harness stdout frame exceeded 512 bytes"),
        "{:?}",
        done.diagnostics()
    );

    let done = played(&dir.join("oversized-line.json"), &LIMITS);
    assert_eq!(
        done.ending(),
        s("failed", "failed", "yielded", "semantic_result_missing")
    );
    assert_eq!(done.process_exit()["success"], true);
}

#[test]
fn controller_eof_before_and_after_prepare() {
    let Some(dir) = reference_scripts() else {
        return;
    };
    let mut run = Run::script(&dir.join("happy-path.json"), &[]);
    run.close();
    let done = run.finish();
    assert_eq!(done.code, 1);
    assert!(done.events().is_empty());
    assert_eq!(
        done.diagnostics(),
        ["the controller closed stdin before run.prepare"]
    );

    let mut run = Run::script(&dir.join("happy-path.json"), &LIMITS);
    run.send("run.prepare", json!({}));
    run.wait_event("harness.ready");
    run.close();
    let done = run.finish();
    done.check();
    assert_eq!(done.code, 0);
    assert_eq!(done.count("harness.exited"), 1);
    assert_eq!(
        done.ending(),
        s("cancelled", "cancelled", "yielded", "controller_closed")
    );
}

#[test]
fn a_harness_that_never_sends_ready() {
    let mut run = Run::command(
        &["/bin/sh", "-c", "sleep 30"],
        &["--ready-timeout-ms", "200"],
    );
    run.send("run.prepare", json!({}));
    let done = run.finish();
    assert_eq!(
        done.ending(),
        s("failed", "failed", "yielded", "harness_not_ready")
    );
    assert!(
        done.diagnostics()
            .contains(&"the harness sent no ready within 200 ms")
    );
    assert_eq!(done.process_exit()["signal"], 15);
    assert_eq!(
        done.types(),
        [
            "runtime.phase.changed",
            "workspace.ready",
            "harness.starting",
            "harness.exited",
            "run.terminal"
        ]
    );
}

#[test]
fn a_harness_that_crashes_with_a_signal() {
    let ready = r#"{"schema":"paperclip.fake_harness.message.v1","messageSeq":1,"type":"ready","payload":{"version":"0.0.1"}}"#;
    let mut run = Run::command(
        &[
            "/bin/sh",
            "-c",
            &format!("echo '{ready}'; read line; kill -KILL $$"),
        ],
        &[],
    );
    run.send("run.prepare", json!({}));
    run.wait_event("harness.ready");
    run.send("session.open", json!({}));
    let done = run.finish();
    assert_eq!(
        done.process_exit(),
        &json!({"exitCode": null, "success": false, "signal": 9})
    );
    assert_eq!(
        done.ending(),
        s("failed", "failed", "yielded", "harness_process_failed")
    );
    assert_eq!(
        done.event("harness.ready")["payload"]["driverVersion"],
        "0.0.1"
    );
}

#[test]
fn an_unknown_harness_binary_ends_the_run() {
    let mut run = Run::command(&["/nonexistent/harness"], &[]);
    run.send("run.prepare", json!({}));
    let done = run.finish();
    assert_eq!(done.code, 0);
    assert_eq!(
        done.ending(),
        s("failed", "failed", "yielded", "harness_start_failed")
    );
    assert!(done.diagnostics()[0].starts_with("cannot start the harness `/nonexistent/harness`"));
    assert_eq!(
        done.terminal()["reconciliation"]["processExit"],
        Value::Null
    );
    assert_eq!(done.count("harness.exited"), 0);
}

#[test]
fn every_receipt_of_the_table() {
    let mut run = Run::script(&own_script("cancelled"), &[]);
    run.send_line("{not json");
    let prepare = run.send("run.prepare", json!({}));
    run.send_line(&prepare);
    run.send_line(&prepare.replace("checkout", "x").replace("{}", r#"{"x":1}"#));
    run.send_line(
        &prepare
            .replace("command.v1", "command.v2")
            .replace("cmd_lr_1", "cmd_other"),
    );
    run.send_line(
        &prepare
            .replace("\"controllerSeq\":1", "\"controllerSeq\":5")
            .replace("cmd_lr_1", "cmd_gap"),
    );
    run.send("run.prepare", json!({}));
    run.send("session.snapshot", json!({}));
    run.send_line(r#"{"schema":"paperclip.prp.command.v1","commandId":"cmd_no_time","controllerSeq":4,"type":"turn.start","payload":{}}"#);
    run.send("run.cancel", json!({}));
    let done = run.finish();
    let owned = |v: &[(&str, &str, &str)]| {
        v.iter()
            .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        done.receipts(),
        owned(&[
            ("cmd_lr_1", "accepted", "command applied"),
            (
                "cmd_lr_1",
                "duplicate",
                "equivalent command already applied"
            ),
            (
                "cmd_lr_1",
                "rejected",
                "commandId was reused with different data"
            ),
            ("cmd_other", "rejected", "unsupported command schema"),
            ("cmd_gap", "rejected", "controllerSeq is not contiguous"),
            ("cmd_lr_2", "rejected", "run is already prepared"),
            (
                "cmd_lr_3",
                "rejected",
                "command session.snapshot is not implemented in Local runner"
            ),
            ("cmd_lr_4", "accepted", "command applied"),
        ])
    );
    let diagnostics = done.diagnostics();
    assert!(
        diagnostics[0].starts_with("invalid command JSON: "),
        "{diagnostics:?}"
    );
    assert!(
        diagnostics[1].starts_with("invalid command JSON: ") && diagnostics[1].contains("issuedAt"),
        "{diagnostics:?}"
    );
    assert_eq!(
        done.ending(),
        s("cancelled", "cancelled", "yielded", "run_cancelled")
    );
}

#[test]
fn the_projects_own_scripts() {
    let done = played(&own_script("duplicate-result"), &[]);
    assert_eq!(done.count("run.result.proposed"), 1);
    assert_eq!(
        done.event("harness.diagnostic")["payload"]["code"],
        "duplicate_semantic_result_ignored"
    );
    assert_eq!(
        done.ending(),
        s(
            "completed",
            "succeeded",
            "done",
            "successful_process_and_result"
        )
    );

    let done = played(&own_script("invalid-result"), &[]);
    assert_eq!(done.count("run.result.proposed"), 0);
    assert_eq!(
        done.event("harness.diagnostic")["payload"]["code"],
        "invalid_semantic_result"
    );
    assert_eq!(
        done.ending(),
        s("failed", "failed", "yielded", "semantic_result_missing")
    );

    let done = played(&own_script("invalid-event"), &[]);
    assert_eq!(
        done.ending(),
        s("failed", "failed", "yielded", "harness_protocol_violation")
    );
    assert!(
        done.diagnostics()
            .iter()
            .any(|d| d.starts_with("the harness sent an invalid plan.updated event")),
        "{:?}",
        done.diagnostics()
    );
    assert_eq!(
        done.count("run.result.proposed"),
        0,
        "nothing the harness says after a violation counts"
    );

    let mut run = Run::script(&own_script("cancelled"), &[]);
    run.open();
    run.wait_event("item.started");
    run.send("run.cancel", json!({}));
    let done = run.finish();
    done.check();
    assert_eq!(
        done.ending(),
        s("cancelled", "cancelled", "yielded", "run_cancelled")
    );
    assert_eq!(done.process_exit()["signal"], 15);

    let done = played(&own_script("contradicted-terminal"), &[]);
    assert_eq!(
        done.ending(),
        s("failed", "failed", "needs_review", "harness_process_failed")
    );
    let r = &done.terminal()["reconciliation"];
    assert_eq!(
        (&r["proposalValid"], &r["proposalContradicted"]),
        (&json!(true), &json!(true))
    );
}

#[test]
fn a_run_wrapped_into_a_replay_fixture_validates_and_replays() {
    let Some(dir) = reference_scripts() else {
        return;
    };
    let mut run = Run::script(&dir.join("happy-path.json"), &[]);
    let mut commands = Vec::new();
    commands.push(run.send("run.prepare", json!({"workspace": "checkout"})));
    commands.push(run.send("session.open", json!({})));
    commands.push(run.send(
        "turn.start",
        json!({"turnId": "turn_lr_1", "text": "Play the script"}),
    ));
    let done = run.finish();
    let result = done.event("run.result.proposed")["payload"].clone();
    let fixture = json!({
        "schema": "paperclip.prp.fixture.v1", "fixtureVersion": 1, "protocolVersion": 1,
        "name": "Local runner happy path", "description": "The stream of a local runner run.",
        "identity": {
            "schema": "paperclip.prp.identity.v1", "companyId": "company_lr", "issueId": "issue_lr",
            "runId": "run_lr", "environmentLeaseId": "lease_lr", "runnerInstanceId": "runner_lr",
            "normalizedSessionId": "session_lr", "driverSessionId": "driver_local_runner_fake"
        },
        "capabilities": {
            "schema": "paperclip.prp.capabilities.v1", "sessionReusePolicy": "new_per_run",
            "driver": {"kind": "fake", "version": "1.0.0"}, "steer": false, "interrupt": true,
            "resume": false, "runtimeRequests": true, "structuredResult": true, "typedEvents": true
        },
        "commands": commands.iter().map(|c| serde_json::from_str::<Value>(c).unwrap()).collect::<Vec<_>>(),
        "events": done.events(),
        "requests": [],
        "result": result,
    });
    let path = std::env::temp_dir().join(format!("prp-lr-fixture-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(&fixture).unwrap()).unwrap();
    let validate = Command::new(PRP)
        .arg("validate")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        validate.status.success(),
        "{}",
        String::from_utf8_lossy(&validate.stdout)
    );
    let replay = Command::new(PRP).arg("replay").arg(&path).output().unwrap();
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    let snapshot: Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(
        snapshot["terminal"]["runTerminalState"], "succeeded",
        "{snapshot:#}"
    );
    let _ = std::fs::remove_file(path);
}

#[test]
fn the_fake_harness_refuses_a_bad_script_before_playing() {
    let path = std::env::temp_dir().join(format!("prp-lr-bad-{}.json", std::process::id()));
    std::fs::write(
        &path,
        r#"{"schema":"paperclip.fake_harness.script.v1","name":"x","steps":[{"kind":"jump"}]}"#,
    )
    .unwrap();
    let o = Command::new(PRP)
        .arg("fake-harness")
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "nothing is played");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("invalid_script at /steps/0/kind"), "{err}");
    let _ = std::fs::remove_file(path);
    // Every script of the project and of the reference decodes.
    let mut dirs = vec![project().join("fixtures/local-runner/scripts")];
    dirs.extend(reference_scripts());
    for dir in dirs {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            prp_runner::Script::decode(&bytes)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}
