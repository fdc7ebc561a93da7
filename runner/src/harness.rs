//! The fake harness (PROTOCOL §6.1–6.2): plays a [`Script`] over stdio.
//!
//! Harness → runner, one JSON object per line:
//! `{schema: "paperclip.fake_harness.message.v1", messageSeq, type, payload}`. Runner → harness:
//! `{schema: "paperclip.fake_harness.command.v1", commandId, type, payload}`. The preamble is fixed
//! (`ready`, then `session.open` → `session.started` and `runtime.phase.changed`, then `turn.start` →
//! `turn.started`); the steps follow. While it waits, the harness skips lines that are not JSON,
//! carry another schema, or are commands it is not waiting for.

use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::script::{Script, Step, Stream};

/// The schema of a harness → runner message.
pub const MESSAGE_SCHEMA: &str = "paperclip.fake_harness.message.v1";
/// The schema of a runner → harness command.
pub const COMMAND_SCHEMA: &str = "paperclip.fake_harness.command.v1";
/// The version the fake harness reports in `ready`.
pub const FAKE_HARNESS_VERSION: &str = "1.0.0";
/// How long the harness waits for each command of the preamble and for `turn.interrupt`.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);
/// How long it waits for a `request.resolve`.
pub const RESOLUTION_TIMEOUT: Duration = Duration::from_secs(300);
/// The `driverSessionId` of the `session.started` event the harness sends.
pub const DRIVER_SESSION_ID: &str = "driver_local_runner_fake";
/// The turn id when `turn.start` names none.
pub const DEFAULT_TURN_ID: &str = "turn_local_runner";

/// How the fake harness plays.
#[derive(Debug, Clone, Default)]
pub struct PlayOptions {
    /// Overrides every `delay` step.
    pub delay_ms: Option<u64>,
}

/// Why playing stopped early.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// A command the harness waited for did not come in time.
    #[error("timed out after {waited:?} waiting for {what}")]
    Timeout {
        /// What it waited for.
        what: String,
        /// How long.
        waited: Duration,
    },
    /// Standard input closed while the harness waited.
    #[error("standard input closed while waiting for {0}")]
    InputClosed(String),
    /// Writing a message failed (the runner went away).
    #[error("cannot write to the runner: {0}")]
    Output(#[from] std::io::Error),
    /// `spawn_worker` could not start its process.
    #[error("cannot start the worker: {0}")]
    Worker(std::io::Error),
}

/// How playing ended: the status the harness process should exit with.
pub type ExitCode = i32;

/// A command from the runner, as the harness reads it.
struct Received {
    type_: String,
    payload: Map<String, Value>,
}

/// Parses one line from the runner; anything that is not a harness command is skipped (`None`).
fn parse_command(line: &str) -> Option<Received> {
    let value: Value = serde_json::from_str(line).ok()?;
    let obj = value.as_object()?;
    if obj.get("schema")?.as_str()? != COMMAND_SCHEMA {
        return None;
    }
    Some(Received {
        type_: obj.get("type")?.as_str()?.to_owned(),
        payload: obj
            .get("payload")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
    })
}

/// Reads stdin lines on a thread, so that waiting can time out.
pub fn spawn_line_reader<R: BufRead + Send + 'static>(input: R) -> Receiver<String> {
    let (tx, rx) = std::sync::mpsc::sync_channel(64);
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The player: the script, the output and the sequence of messages.
struct Player<'a, W: Write> {
    out: W,
    seq: u64,
    input: &'a Receiver<String>,
    turn_id: String,
}

impl<W: Write> Player<'_, W> {
    fn send(&mut self, type_: &str, payload: Value) -> Result<(), PlayError> {
        self.seq += 1;
        let message = json!({
            "schema": MESSAGE_SCHEMA,
            "messageSeq": self.seq,
            "type": type_,
            "payload": payload,
        });
        serde_json::to_writer(&mut self.out, &message).map_err(std::io::Error::from)?;
        self.out.write_all(b"\n")?;
        self.out.flush()?;
        Ok(())
    }

    fn event(
        &mut self,
        event_type: &str,
        turn_id: Option<&str>,
        item_id: Option<&str>,
        payload: Value,
    ) -> Result<(), PlayError> {
        let mut p = Map::new();
        p.insert("eventType".into(), event_type.into());
        if let Some(t) = turn_id {
            p.insert("turnId".into(), t.into());
        }
        if let Some(i) = item_id {
            p.insert("itemId".into(), i.into());
        }
        p.insert("payload".into(), payload);
        self.send("event", Value::Object(p))
    }

    /// Waits for a command of `type_` whose payload satisfies `matches`, skipping everything else.
    fn wait_for(
        &mut self,
        type_: &str,
        timeout: Duration,
        matches: impl Fn(&Map<String, Value>) -> bool,
        what: &str,
    ) -> Result<Map<String, Value>, PlayError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.input.recv_timeout(left) {
                Ok(line) => {
                    if let Some(c) = parse_command(&line)
                        && c.type_ == type_
                        && matches(&c.payload)
                    {
                        return Ok(c.payload);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(PlayError::Timeout {
                        what: what.to_owned(),
                        waited: timeout,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PlayError::InputClosed(what.to_owned()));
                }
            }
        }
    }
}

/// Plays `script`: the preamble, then every step. Returns the exit status of an `exit` step, or 0
/// when the steps run out.
pub fn play<W: Write>(
    script: &Script,
    input: &Receiver<String>,
    out: W,
    options: &PlayOptions,
) -> Result<ExitCode, PlayError> {
    let mut p = Player {
        out,
        seq: 0,
        input,
        turn_id: DEFAULT_TURN_ID.to_owned(),
    };
    p.send(
        "ready",
        json!({"version": FAKE_HARNESS_VERSION, "script": script.name}),
    )?;
    p.wait_for("session.open", COMMAND_TIMEOUT, |_| true, "session.open")?;
    p.event(
        "session.started",
        None,
        None,
        json!({"driverSessionId": DRIVER_SESSION_ID}),
    )?;
    p.event(
        "runtime.phase.changed",
        None,
        None,
        json!({"phase": "executing"}),
    )?;
    let start = p.wait_for("turn.start", COMMAND_TIMEOUT, |_| true, "turn.start")?;
    if let Some(t) = start.get("turnId").and_then(Value::as_str) {
        p.turn_id = t.to_owned();
    }
    let turn = p.turn_id.clone();
    p.event("turn.started", Some(&turn), None, json!({}))?;
    for step in &script.steps {
        match step {
            Step::Delay { milliseconds } => {
                std::thread::sleep(Duration::from_millis(
                    options.delay_ms.unwrap_or(*milliseconds),
                ));
            }
            Step::Log { stream, text } => {
                let stream = match stream {
                    Stream::Stdout => "stdout",
                    Stream::Stderr => "stderr",
                };
                p.send("log", json!({"stream": stream, "text": text}))?;
            }
            Step::Event {
                event_type,
                turn_id,
                item_id,
                payload,
            } => {
                let turn = turn_id.clone().unwrap_or_else(|| p.turn_id.clone());
                p.event(
                    event_type,
                    Some(&turn),
                    item_id.as_deref(),
                    Value::Object(payload.clone()),
                )?;
            }
            Step::Request { request } => p.send("request", Value::Object(request.clone()))?,
            Step::AwaitResolution { request_id } => {
                let resolved = p.wait_for(
                    "request.resolve",
                    RESOLUTION_TIMEOUT,
                    |payload| payload.get("requestId").and_then(Value::as_str) == Some(request_id),
                    &format!("request.resolve of {request_id}"),
                )?;
                let response = resolved.get("response").cloned().unwrap_or(Value::Null);
                let turn = p.turn_id.clone();
                p.event(
                    "runtime_request.resolved",
                    Some(&turn),
                    None,
                    json!({"requestId": request_id, "response": response}),
                )?;
            }
            Step::AwaitInterrupt {} => {
                let command = p.wait_for(
                    "turn.interrupt",
                    COMMAND_TIMEOUT,
                    |_| true,
                    "turn.interrupt",
                )?;
                let reason = command
                    .get("reason")
                    .and_then(Value::as_str)
                    .unwrap_or("operator")
                    .to_owned();
                let turn = p.turn_id.clone();
                p.event(
                    "turn.interrupted",
                    Some(&turn),
                    None,
                    json!({"reason": reason}),
                )?;
            }
            Step::Result { payload } => p.send("result", Value::Object(payload.clone()))?,
            Step::Terminal { payload } => p.send("terminal", Value::Object(payload.clone()))?,
            Step::SpawnWorker {} => {
                // The worker inherits the harness's process group and stdio, as a stray
                // subprocess of a real agent would.
                let worker = std::process::Command::new("/bin/sh")
                    .args(["-c", "sleep 60"])
                    .env_clear()
                    .spawn()
                    .map_err(PlayError::Worker)?;
                p.send(
                    "diagnostic",
                    json!({"workerPid": worker.id(), "purpose": "cleanup_conformance"}),
                )?;
                // Left running on purpose (dropping a `Child` neither kills nor waits for it): the
                // runner must reap it.
                drop(worker);
            }
            Step::Exit { code } => return Ok(*code),
        }
    }
    Ok(0)
}
