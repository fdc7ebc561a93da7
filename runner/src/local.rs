//! The local runner (PROTOCOL §6.3–6.5): controller commands on one side, a supervised harness on
//! the other, one ordered stream of events and receipts out.
//!
//! Three reader threads (controller stdin, harness stdout, harness stderr) and a waiter thread feed
//! one bounded queue; a single loop owns all state, so ordering is the loop's order: a result is
//! proposed before `harness.exited`, which comes before `run.terminal`, and nothing follows it.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::process::{ChildStdin, ExitStatus};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::harness::COMMAND_SCHEMA as HARNESS_COMMAND_SCHEMA;
use super::harness::MESSAGE_SCHEMA as HARNESS_MESSAGE_SCHEMA;
use super::intake::{CommandLog, Intake, Status};
use super::lines::{BoundedLines, Frame};
use super::logs::LogTail;
use super::process::{self, Group};
use super::reconcile::{Intent, ProcessExit, reconcile};
use super::stream::{Clock, Emitter, Identity, Level};
use prp_types::types::{Command, PrpStructuredRunResult, Terminal};

/// The runner's limits (§6.5), with the reference's defaults.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Log lines kept (`--log-max-lines`).
    pub log_max_lines: usize,
    /// Log bytes kept (`--log-max-bytes`).
    pub log_max_bytes: usize,
    /// The longest harness stdout/stderr line (`--harness-max-line-bytes`).
    pub harness_max_line_bytes: usize,
    /// Between SIGTERM and SIGKILL to the harness group (`--shutdown-grace-ms`).
    pub shutdown_grace: Duration,
    /// The longest controller line (`--controller-max-line-bytes`).
    pub controller_max_line_bytes: usize,
    /// Commands remembered for duplicate detection (`--command-history-limit`).
    pub command_history_limit: usize,
    /// How long `run.prepare` waits for the harness's `ready`.
    pub ready_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            log_max_lines: 32,
            log_max_bytes: 16_384,
            harness_max_line_bytes: 65_536,
            shutdown_grace: Duration::from_millis(100),
            controller_max_line_bytes: 65_536,
            command_history_limit: 4096,
            ready_timeout: Duration::from_secs(2),
        }
    }
}

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The ids stamped on every event.
    pub identity: Identity,
    /// The harness command and its arguments.
    pub harness: Vec<OsString>,
    /// The limits.
    pub limits: Limits,
    /// How `emittedAt` is stamped.
    pub clock: Clock,
}

/// Why a run could not finish with a terminal.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The controller closed stdin before `run.prepare`.
    #[error("the controller closed stdin before run.prepare")]
    ClosedBeforePrepare,
    /// Writing the stream failed.
    #[error("cannot write the stream: {0}")]
    Output(#[from] io::Error),
}

/// How a finished run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The reconciled `run.terminal` payload.
    pub terminal: Map<String, Value>,
    /// Events written.
    pub events: u64,
}

/// The queue between the readers and the loop holds at most this many items (§6.6: 256 lines).
const QUEUE: usize = 256;
/// How long the loop waits for the harness's pipes to close after it exited and its group was
/// killed; only a process that left the group can hold them longer.
const DRAIN: Duration = Duration::from_secs(1);

enum Input {
    Controller(Frame),
    ControllerClosed,
    Stdout(Frame),
    StdoutClosed,
    Stderr(Frame),
    StderrClosed,
    Exited(io::Result<ExitStatus>),
}

fn pump<R: Read>(
    input: R,
    limit: usize,
    tx: &SyncSender<Input>,
    wrap: fn(Frame) -> Input,
    end: Input,
) {
    let mut lines = BoundedLines::new(BufReader::with_capacity(64 * 1024, input), limit);
    while let Ok(Some(frame)) = lines.next_frame() {
        if tx.send(wrap(frame)).is_err() {
            return;
        }
    }
    let _ = tx.send(end);
}

struct Harness {
    group: Group,
    stdin: Option<ChildStdin>,
}

struct Runner<'a, W: Write> {
    config: &'a Config,
    emit: Emitter<BufWriter<W>>,
    commands: CommandLog,
    logs: LogTail,
    tx: SyncSender<Input>,
    intent: Intent,
    prepared: bool,
    harness: Option<Harness>,
    ready: bool,
    ready_deadline: Option<Instant>,
    kill_deadline: Option<Instant>,
    drain_deadline: Option<Instant>,
    pending: VecDeque<Frame>,
    turn_id: Option<String>,
    result: Option<Map<String, Value>>,
    proposal: Option<Map<String, Value>>,
    exit: Option<ProcessExit>,
    stdout_open: bool,
    stderr_open: bool,
    violated: bool,
    outcome: Option<Map<String, Value>>,
}

/// Runs one run: reads commands from `input`, writes the stream to `output`, and returns once
/// `run.terminal` is written.
pub fn run<R, W>(config: &Config, input: R, output: W) -> Result<Outcome, RunError>
where
    R: Read + Send + 'static,
    W: Write,
{
    let (tx, rx) = sync_channel(QUEUE);
    {
        let tx = tx.clone();
        let limit = config.limits.controller_max_line_bytes;
        std::thread::spawn(move || {
            pump(
                input,
                limit,
                &tx,
                Input::Controller,
                Input::ControllerClosed,
            )
        });
    }
    let mut runner = Runner {
        config,
        emit: Emitter::new(
            BufWriter::new(output),
            config.identity.clone(),
            config.clock,
        ),
        commands: CommandLog::new(config.limits.command_history_limit),
        logs: LogTail::new(config.limits.log_max_lines, config.limits.log_max_bytes),
        tx,
        intent: Intent::Natural,
        prepared: false,
        harness: None,
        ready: false,
        ready_deadline: None,
        kill_deadline: None,
        drain_deadline: None,
        pending: VecDeque::new(),
        turn_id: None,
        result: None,
        proposal: None,
        exit: None,
        stdout_open: false,
        stderr_open: false,
        violated: false,
        outcome: None,
    };
    let result = runner.drive(&rx);
    // The harness group never outlives the runner, whatever happened.
    if let Some(h) = &runner.harness {
        h.group.kill();
    }
    runner.emit.flush()?;
    result?;
    Ok(Outcome {
        terminal: runner.outcome.unwrap_or_default(),
        events: runner.emit.events(),
    })
}

impl<W: Write> Runner<'_, W> {
    fn drive(&mut self, rx: &Receiver<Input>) -> Result<(), RunError> {
        while !self.emit.finished() {
            self.emit.flush()?;
            let deadline = [self.ready_deadline, self.kill_deadline, self.drain_deadline]
                .into_iter()
                .flatten()
                .min();
            let input = match deadline {
                None => rx.recv().ok(),
                Some(d) => match rx.recv_timeout(d.saturating_duration_since(Instant::now())) {
                    Ok(i) => Some(i),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => None,
                },
            };
            if let Some(input) = input {
                self.input(input)?;
            }
            self.deadlines()?;
            if self.harness.is_some()
                && self.exit.is_some()
                && !self.stdout_open
                && !self.stderr_open
            {
                self.finish()?;
            }
        }
        Ok(())
    }

    fn input(&mut self, input: Input) -> Result<(), RunError> {
        match input {
            Input::Controller(frame) => {
                if self.prepared && !self.ready && self.exit.is_none() {
                    // `run.prepare` is still waiting for `ready`: later commands wait too.
                    self.pending.push_back(frame);
                } else {
                    self.controller(frame)?;
                }
            }
            Input::ControllerClosed => {
                if !self.prepared {
                    self.emit.diagnostic(
                        Level::Error,
                        "the controller closed stdin before run.prepare",
                    )?;
                    return Err(RunError::ClosedBeforePrepare);
                }
                self.intent = self.intent.then(Intent::ControllerClosed);
                self.terminate();
            }
            Input::Stdout(frame) => self.harness_line(frame)?,
            Input::StdoutClosed => self.stdout_open = false,
            Input::Stderr(frame) => self.logs.push(match frame {
                Frame::Line(text) => format!("stderr: {text}"),
                Frame::TooLong { limit } => {
                    format!("[harness stderr frame exceeded {limit} bytes]")
                }
                Frame::InvalidUtf8 => "stderr: [a line that is not UTF-8]".to_owned(),
            }),
            Input::StderrClosed => self.stderr_open = false,
            Input::Exited(status) => {
                let exit = match status {
                    Ok(s) => process::process_exit(s),
                    Err(e) => {
                        self.emit.diagnostic(
                            Level::Error,
                            &format!("cannot wait for the harness: {e}"),
                        )?;
                        ProcessExit {
                            exit_code: None,
                            success: false,
                            signal: None,
                        }
                    }
                };
                self.exit = Some(exit);
                // Reap anything the harness left behind in its group, even after a clean exit.
                if let Some(h) = &mut self.harness {
                    h.group.kill();
                    h.stdin = None;
                }
                self.kill_deadline = None;
                self.ready_deadline = None;
                self.drain_deadline = Some(Instant::now() + DRAIN);
            }
        }
        Ok(())
    }

    fn deadlines(&mut self) -> Result<(), RunError> {
        let now = Instant::now();
        if self.ready_deadline.is_some_and(|d| now >= d) {
            self.ready_deadline = None;
            self.emit.diagnostic(
                Level::Error,
                &format!(
                    "the harness sent no ready within {} ms",
                    self.config.limits.ready_timeout.as_millis()
                ),
            )?;
            self.intent = self.intent.then(Intent::HarnessNotReady);
            self.terminate();
        }
        if self.kill_deadline.is_some_and(|d| now >= d) {
            self.kill_deadline = None;
            if let Some(h) = &self.harness {
                h.group.kill();
            }
        }
        if self.drain_deadline.is_some_and(|d| now >= d) {
            self.drain_deadline = None;
            if self.stdout_open || self.stderr_open {
                self.emit.diagnostic(
                    Level::Warning,
                    "the harness's output stayed open after it exited; a process left its group",
                )?;
            }
            self.stdout_open = false;
            self.stderr_open = false;
        }
        Ok(())
    }

    /// SIGTERM to the harness group now, SIGKILL once the grace period is over.
    fn terminate(&mut self) {
        if let Some(h) = &mut self.harness
            && self.exit.is_none()
            && self.kill_deadline.is_none()
        {
            // Signal first: a harness that saw its stdin close first could exit on its own and
            // hide how the runner ended it. A pending signal is delivered before it reads again.
            h.group.terminate();
            h.stdin = None;
            self.kill_deadline = Some(Instant::now() + self.config.limits.shutdown_grace);
        }
    }

    fn event(
        &mut self,
        event_type: &str,
        turn_id: Option<&str>,
        item_id: Option<&str>,
        payload: Value,
    ) -> Result<(), RunError> {
        let payload = match payload {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        match self.emit.stamp(event_type, turn_id, item_id, payload) {
            Ok(e) => self.emit.event(&e)?,
            Err(issue) => self.emit.diagnostic(
                Level::Error,
                &format!("the runner built an invalid {event_type} event: {issue}"),
            )?,
        }
        Ok(())
    }

    fn controller(&mut self, frame: Frame) -> Result<(), RunError> {
        let line = match frame {
            Frame::Line(l) => l,
            Frame::TooLong { limit } => {
                return Ok(self.emit.diagnostic(
                    Level::Error,
                    &format!("invalid command JSON: the line exceeded {limit} bytes"),
                )?);
            }
            Frame::InvalidUtf8 => {
                return Ok(self
                    .emit
                    .diagnostic(Level::Error, "invalid command JSON: the line is not UTF-8")?);
            }
        };
        if line.trim().is_empty() {
            return Ok(());
        }
        let command = match self.commands.take(&line) {
            Intake::NotACommand(why) => {
                return Ok(self
                    .emit
                    .diagnostic(Level::Error, &format!("invalid command JSON: {why}"))?);
            }
            Intake::Receipt {
                command_id,
                controller_seq,
                status,
                detail,
            } => {
                return Ok(self.emit.receipt(
                    &command_id,
                    &controller_seq,
                    status.as_str(),
                    detail,
                )?);
            }
            Intake::New(c) => c,
        };
        let type_ = command.type_.as_str();
        let refuse = |this: &mut Self, detail: &str| {
            this.emit.receipt(
                &command.command_id,
                &json!(command.controller_seq),
                Status::Rejected.as_str(),
                detail,
            )
        };
        if type_ == "run.prepare" && self.prepared {
            return Ok(refuse(self, "run is already prepared")?);
        }
        let implemented = matches!(
            type_,
            "run.prepare"
                | "session.open"
                | "turn.start"
                | "request.resolve"
                | "session.close"
                | "turn.interrupt"
                | "turn.stop"
                | "run.cancel"
        );
        if !implemented {
            return Ok(refuse(
                self,
                &format!("command {type_} is not implemented in Local runner"),
            )?);
        }
        if !self.prepared && type_ != "run.prepare" {
            return Ok(refuse(self, "run is not prepared")?);
        }
        self.emit.receipt(
            &command.command_id,
            &json!(command.controller_seq),
            Status::Accepted.as_str(),
            "command applied",
        )?;
        let payload = serde_json::to_value(&command.payload).unwrap_or(Value::Null);
        match type_ {
            "run.prepare" => self.prepare()?,
            "session.open" => {
                self.event("session.starting", None, None, json!({}))?;
                self.forward(&command, &payload);
            }
            "turn.start" => {
                self.turn_id = payload
                    .get("turnId")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                let text = turn_text(&payload);
                let turn = self.turn_id.clone();
                self.event(
                    "turn.submitted",
                    turn.as_deref(),
                    None,
                    json!({"text": text}),
                )?;
                self.forward(&command, &payload);
            }
            "turn.interrupt" | "turn.stop" => {
                self.intent = self.intent.then(Intent::Interrupted);
                self.forward(&command, &payload);
            }
            "run.cancel" => {
                self.intent = self.intent.then(Intent::Cancelled);
                self.terminate();
            }
            _ => self.forward(&command, &payload),
        }
        Ok(())
    }

    fn forward(&mut self, command: &Command, payload: &Value) {
        let Some(stdin) = self.harness.as_mut().and_then(|h| h.stdin.as_mut()) else {
            return;
        };
        let line = json!({
            "schema": HARNESS_COMMAND_SCHEMA,
            "commandId": command.command_id.as_str(),
            "type": command.type_.as_str(),
            "payload": payload,
        });
        let mut bytes = line.to_string().into_bytes();
        bytes.push(b'\n');
        // A harness that is gone cannot be told; its exit is reported when it is reaped.
        if stdin
            .write_all(&bytes)
            .and_then(|()| stdin.flush())
            .is_err()
            && let Some(h) = self.harness.as_mut()
        {
            h.stdin = None;
        }
    }

    fn prepare(&mut self) -> Result<(), RunError> {
        self.prepared = true;
        self.event(
            "runtime.phase.changed",
            None,
            None,
            json!({"phase": "workspace_preparing"}),
        )?;
        self.event(
            "workspace.ready",
            None,
            None,
            json!({"workingDirectory": "standalone-fixture"}),
        )?;
        self.event(
            "harness.starting",
            None,
            None,
            json!({"driverKind": "fake", "transport": "stdio_jsonl"}),
        )?;
        let mut child = match process::spawn(&self.config.harness) {
            Ok(c) => c,
            Err(e) => {
                let name = self
                    .config
                    .harness
                    .first()
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_default();
                self.emit.diagnostic(
                    Level::Error,
                    &format!("cannot start the harness `{name}`: {e}"),
                )?;
                self.intent = self.intent.then(Intent::HarnessStartFailed);
                return self.finish();
            }
        };
        let Some(group) = Group::of(&child) else {
            let _ = child.kill();
            self.intent = self.intent.then(Intent::HarnessStartFailed);
            return self.finish();
        };
        let limit = self.config.limits.harness_max_line_bytes;
        if let Some(out) = child.stdout.take() {
            let tx = self.tx.clone();
            self.stdout_open = true;
            std::thread::spawn(move || pump(out, limit, &tx, Input::Stdout, Input::StdoutClosed));
        }
        if let Some(err) = child.stderr.take() {
            let tx = self.tx.clone();
            self.stderr_open = true;
            std::thread::spawn(move || pump(err, limit, &tx, Input::Stderr, Input::StderrClosed));
        }
        let stdin = child.stdin.take();
        {
            let tx = self.tx.clone();
            std::thread::spawn(move || {
                let status = child.wait();
                let _ = tx.send(Input::Exited(status));
            });
        }
        self.harness = Some(Harness { group, stdin });
        self.ready_deadline = Some(Instant::now() + self.config.limits.ready_timeout);
        Ok(())
    }

    fn violation(&mut self, why: &str) -> Result<(), RunError> {
        self.emit.diagnostic(Level::Error, why)?;
        self.violated = true;
        self.intent = self.intent.then(Intent::ProtocolViolation);
        self.terminate();
        Ok(())
    }

    fn harness_line(&mut self, frame: Frame) -> Result<(), RunError> {
        if self.violated {
            // The harness is being stopped; what it says now is not trusted.
            return Ok(());
        }
        let line = match frame {
            Frame::Line(l) => l,
            Frame::TooLong { limit } => {
                return self.violation(&format!("harness stdout frame exceeded {limit} bytes"));
            }
            Frame::InvalidUtf8 => return self.violation("harness stdout line is not UTF-8"),
        };
        if line.trim().is_empty() {
            return Ok(());
        }
        let Some((type_, payload)) = parse_message(&line) else {
            return self.violation(&format!(
                "harness stdout line is not a {HARNESS_MESSAGE_SCHEMA} message: {}",
                clip(&line)
            ));
        };
        match type_.as_str() {
            "ready" => {
                if self.ready {
                    self.emit
                        .diagnostic(Level::Warning, "the harness sent a second ready")?;
                    return Ok(());
                }
                self.ready = true;
                self.ready_deadline = None;
                let version = payload
                    .get("version")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown")
                    .to_owned();
                self.event(
                    "harness.ready",
                    None,
                    None,
                    json!({"driverKind": "fake", "transport": "stdio_jsonl", "driverVersion": version}),
                )?;
                while let Some(frame) = self.pending.pop_front() {
                    self.controller(frame)?;
                }
            }
            "event" => {
                let event_type = payload.get("eventType").and_then(Value::as_str);
                let inner = payload.get("payload").and_then(Value::as_object).cloned();
                let (Some(event_type), Some(inner)) = (event_type, inner) else {
                    return self.violation(
                        "a harness event message needs a string eventType and an object payload",
                    );
                };
                // §6.5's Open point: the message's `turnId`/`itemId` are copied to the envelope.
                let turn = payload.get("turnId").and_then(Value::as_str);
                let item = payload.get("itemId").and_then(Value::as_str);
                match self.emit.stamp(event_type, turn, item, inner) {
                    Ok(e) => self.emit.event(&e)?,
                    Err(issue) => {
                        return self.violation(&format!(
                            "the harness sent an invalid {event_type} event: {issue}"
                        ));
                    }
                }
            }
            "request" => {
                let turn = self.turn_id.clone();
                let event = self.emit.stamp(
                    "runtime_request.created",
                    turn.as_deref(),
                    None,
                    json_map(json!({"request": payload})),
                );
                match event {
                    Ok(e) => self.emit.event(&e)?,
                    Err(issue) => {
                        return self
                            .violation(&format!("the harness sent an invalid request: {issue}"));
                    }
                }
            }
            "result" => {
                if self.result.is_some() {
                    return self.harness_diagnostic("duplicate_semantic_result_ignored", None);
                }
                let bytes = Value::Object(payload.clone()).to_string();
                if let Err(issue) =
                    prp_types::decode::decode::<PrpStructuredRunResult>(bytes.as_bytes())
                {
                    return self
                        .harness_diagnostic("invalid_semantic_result", Some(issue.to_string()));
                }
                let turn = self.turn_id.clone();
                self.event(
                    "run.result.proposed",
                    turn.as_deref(),
                    None,
                    Value::Object(payload.clone()),
                )?;
                self.result = Some(payload);
            }
            "terminal" => {
                if self.proposal.is_some() {
                    return self.harness_diagnostic("duplicate_terminal_ignored", None);
                }
                self.proposal = Some(payload);
            }
            "log" => {
                let stream = payload
                    .get("stream")
                    .and_then(Value::as_str)
                    .unwrap_or("stdout");
                let text = payload.get("text").and_then(Value::as_str).unwrap_or("");
                self.logs.push(format!("{stream}: {text}"));
            }
            "diagnostic" => self.logs.push(format!(
                "diagnostic: {}",
                prp_peer::json::canonical(&Value::Object(payload))
            )),
            other => {
                return self.violation(&format!(
                    "the harness sent an unknown message type `{other}`"
                ));
            }
        }
        Ok(())
    }

    fn harness_diagnostic(&mut self, code: &str, message: Option<String>) -> Result<(), RunError> {
        let mut payload = json!({"code": code});
        if let Some(m) = message {
            payload["message"] = m.into();
        }
        let turn = self.turn_id.clone();
        self.event("harness.diagnostic", turn.as_deref(), None, payload)
    }

    /// `harness.exited` (when a harness ran), then the reconciled `run.terminal`.
    fn finish(&mut self) -> Result<(), RunError> {
        if self.harness.is_some() {
            let payload = json!({
                "processExit": self.exit.as_ref().map_or(Value::Null, ProcessExit::to_json),
                "semanticResultObserved": self.result.is_some(),
                "logs": self.logs.to_json(),
            });
            self.event("harness.exited", None, None, payload)?;
        }
        let terminal = reconcile(
            self.intent,
            self.exit.as_ref(),
            self.result.as_ref(),
            self.proposal.as_ref(),
        );
        let bytes = Value::Object(terminal.clone()).to_string();
        if let Err(issue) = prp_types::decode::decode::<Terminal>(bytes.as_bytes()) {
            self.emit.diagnostic(
                Level::Error,
                &format!("the reconciled terminal is invalid: {issue}"),
            )?;
        }
        self.event("run.terminal", None, None, Value::Object(terminal.clone()))?;
        self.outcome = Some(terminal);
        Ok(())
    }
}

/// `type` and `payload` of a harness message, or `None` when the line is not one.
fn parse_message(line: &str) -> Option<(String, Map<String, Value>)> {
    let value: Value = serde_json::from_str(line).ok()?;
    let mut obj = match value {
        Value::Object(o) => o,
        _ => return None,
    };
    if obj.get("schema")?.as_str()? != HARNESS_MESSAGE_SCHEMA {
        return None;
    }
    let type_ = obj.get("type")?.as_str()?.to_owned();
    let payload = match obj.remove("payload") {
        Some(Value::Object(p)) => p,
        None => Map::new(),
        Some(_) => return None,
    };
    Some((type_, payload))
}

/// The text a `turn.start` submits: `payload.text`, or its `input` text parts joined.
fn turn_text(payload: &Value) -> String {
    if let Some(t) = payload.get("text").and_then(Value::as_str) {
        return t.to_owned();
    }
    payload
        .get("input")
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

fn json_map(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// The start of a line, for a diagnostic.
fn clip(line: &str) -> String {
    let mut end = line.len().min(120);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    if end < line.len() {
        format!("{}…", &line[..end])
    } else {
        line.to_owned()
    }
}
