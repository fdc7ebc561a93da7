//! The runner's output (PROTOCOL §6.3): `paperclip.runner.stream.v1` lines carrying events,
//! command receipts and diagnostics. Every event is stamped here — `sourceEventId`
//! `event_<runId>_<NNN>`, `sourceSeq`, `schemaVersion` and `schema` by its type (PROTOCOL-V3 §1),
//! priority, `emittedAt` — and decoded into a typed event of its version (every schema constraint
//! checked) before it is written. An event above the negotiated version goes out as a v1
//! `runner.diagnostic` placeholder with its `sourceSeq` (PROTOCOL-V3 §2); nothing is written after
//! `run.terminal`.

use std::io::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde_json::{Map, Value, json};

use prp_peer::negotiation;
use prp_types::issue::Issue;
use prp_types::types::FixtureEvent;

/// The schema of every line the runner writes.
pub const STREAM_SCHEMA: &str = "paperclip.runner.stream.v1";

/// The protocol version of the local runner's controller side: it reads `paperclip.prp.command.v1`
/// only (§6.3), so its controller speaks v1, and v2 and v3 events reach it as placeholders.
pub const PROTOCOL_VERSION: u32 = 1;

/// Who the runner is: stamped on every event. The Open point of §6.5, decided as §6.6 says: the ids
/// come from the runner's flags, never from `run.prepare`.
#[derive(Debug, Clone)]
pub struct Identity {
    /// `runId`.
    pub run_id: String,
    /// `normalizedSessionId`.
    pub session_id: String,
    /// `sourceInstanceId`.
    pub runner_id: String,
}

/// How `emittedAt` is stamped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    /// The system clock, in UTC with milliseconds.
    System,
    /// `2026-08-07T21:00:SS.mmmZ` from the sequence number (SS = seq / 1000 mod 60, mmm = seq mod
    /// 1000), so that a scripted run gives the same bytes every time.
    Deterministic,
}

/// A diagnostic's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Something failed.
    Error,
    /// Something odd, tolerated.
    Warning,
    /// For information.
    Info,
}

/// The priority of an event type (§6.3): 0 for outcomes, 2 for deltas and diagnostics, else 1.
pub fn priority(event_type: &str) -> u8 {
    match event_type {
        "run.result.proposed"
        | "run.terminal"
        | "turn.completed"
        | "turn.failed"
        | "turn.interrupted"
        | "harness.exited" => 0,
        t if t == "item.delta" || t.ends_with(".diagnostic") => 2,
        _ => 1,
    }
}

/// Writes the stream.
pub struct Emitter<W: Write> {
    out: W,
    identity: Identity,
    clock: Clock,
    negotiated: u32,
    seq: u64,
    finished: bool,
}

#[derive(Serialize)]
struct Line<'a, M: Serialize> {
    schema: &'static str,
    message: &'a M,
}

#[derive(Serialize)]
struct EventMessage<'a> {
    kind: &'static str,
    event: &'a FixtureEvent,
}

impl<W: Write> Emitter<W> {
    /// An emitter for `identity`, talking to a controller at [`PROTOCOL_VERSION`].
    pub fn new(out: W, identity: Identity, clock: Clock) -> Self {
        Emitter {
            out,
            identity,
            clock,
            negotiated: PROTOCOL_VERSION,
            seq: 0,
            finished: false,
        }
    }

    /// The same emitter for a controller negotiated at `version`.
    pub fn negotiated(self, version: u32) -> Self {
        Emitter {
            negotiated: version,
            ..self
        }
    }

    /// Whether `run.terminal` has been written.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// How many events were written.
    pub fn events(&self) -> u64 {
        self.seq
    }

    fn line<M: Serialize>(&mut self, message: &M) -> io::Result<()> {
        if self.finished {
            return Ok(());
        }
        serde_json::to_writer(
            &mut self.out,
            &Line {
                schema: STREAM_SCHEMA,
                message,
            },
        )?;
        self.out.write_all(b"\n")
    }

    /// The event as it would go out next: stamped, checked against the event schema of its
    /// version, and replaced by a placeholder when that version is above the negotiated one.
    pub fn stamp(
        &self,
        event_type: &str,
        turn_id: Option<&str>,
        item_id: Option<&str>,
        payload: Map<String, Value>,
    ) -> Result<FixtureEvent, Issue> {
        let seq = self.seq + 1;
        let version = negotiation::event_schema_version(event_type);
        let mut e = Map::new();
        e.insert("schema".into(), negotiation::event_schema(version).into());
        e.insert(
            "sourceEventId".into(),
            format!("event_{}_{seq:03}", self.identity.run_id).into(),
        );
        e.insert("sourceSeq".into(), seq.into());
        e.insert(
            "sourceInstanceId".into(),
            self.identity.runner_id.clone().into(),
        );
        e.insert("sourceKind".into(), "runner".into());
        e.insert("runId".into(), self.identity.run_id.clone().into());
        e.insert(
            "normalizedSessionId".into(),
            self.identity.session_id.clone().into(),
        );
        if let Some(t) = turn_id {
            e.insert("turnId".into(), t.into());
        }
        if let Some(i) = item_id {
            e.insert("itemId".into(), i.into());
        }
        e.insert("eventType".into(), event_type.into());
        e.insert("schemaVersion".into(), version.into());
        e.insert("priority".into(), priority(event_type).into());
        e.insert("emittedAt".into(), self.timestamp(seq).into());
        e.insert("payload".into(), Value::Object(payload));
        let bytes = serde_json::to_vec(&e).map_err(|err| {
            Issue::new(
                prp_types::Code::Keyword(prp_types::Keyword::Encode),
                "",
                err.to_string(),
            )
        })?;
        let event = prp_types::decode::decode::<FixtureEvent>(&bytes)?;
        negotiation::outgoing_event(self.negotiated, event)
    }

    /// Writes an event stamped by [`Emitter::stamp`]; `run.terminal` ends the stream.
    pub fn event(&mut self, event: &FixtureEvent) -> io::Result<()> {
        self.line(&EventMessage {
            kind: "event",
            event,
        })?;
        self.seq += 1;
        if negotiation::event_type(event).is_ok_and(|t| t == "run.terminal") {
            self.finished = true;
        }
        Ok(())
    }

    /// A command receipt.
    pub fn receipt(
        &mut self,
        command_id: &str,
        controller_seq: &Value,
        status: &str,
        detail: &str,
    ) -> io::Result<()> {
        self.line(&json!({
            "kind": "command_receipt",
            "commandId": command_id,
            "controllerSeq": controller_seq,
            "status": status,
            "detail": detail,
        }))
    }

    /// A diagnostic.
    pub fn diagnostic(&mut self, level: Level, message: &str) -> io::Result<()> {
        let level = match level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Info => "info",
        };
        self.line(&json!({"kind": "diagnostic", "level": level, "message": message}))
    }

    /// Flushes what was written.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    fn timestamp(&self, seq: u64) -> String {
        match self.clock {
            Clock::Deterministic => format!(
                "2026-08-07T21:00:{:02}.{:03}Z",
                (seq / 1000) % 60,
                seq % 1000
            ),
            Clock::System => utc_now(),
        }
    }
}

/// The current time as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn utc_now() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = since.as_secs() as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priorities_follow_the_table() {
        for (t, p) in [
            ("run.terminal", 0),
            ("harness.exited", 0),
            ("turn.interrupted", 0),
            ("item.delta", 2),
            ("harness.diagnostic", 2),
            ("item.started", 1),
            ("turn.started", 1),
        ] {
            assert_eq!(priority(t), p, "{t}");
        }
    }

    #[test]
    fn the_system_clock_is_in_the_date_time_profile() {
        let now = utc_now();
        let dt: Result<prp_types::types::DateTime, _> = now.as_str().try_into();
        assert!(dt.is_ok(), "{now}");
        assert!(now.starts_with("20"), "{now}");
    }

    fn identity() -> Identity {
        Identity {
            run_id: "run-1".into(),
            session_id: "session-1".into(),
            runner_id: "runner-1".into(),
        }
    }

    fn v1(event: FixtureEvent) -> prp_types::types::Event {
        match event {
            FixtureEvent::Event(e) => e,
            other => panic!("expected a v1 event, got {}", other.tag()),
        }
    }

    fn settled_payload() -> Map<String, Value> {
        let binding = json!({
            "companyId": "co-1", "agentId": "agent-1", "bindingId": "b-1", "runId": "run-1",
            "normalizedSessionId": "session-1", "turnId": "turn-1",
            "bindingGeneration": 1, "assignmentRevision": 1
        });
        json!({"binding": binding, "requestId": "req-1", "outcome": {"ok": true}})
            .as_object()
            .cloned()
            .unwrap()
    }

    #[test]
    fn each_event_type_is_stamped_with_its_version() {
        let e = Emitter::new(Vec::new(), identity(), Clock::Deterministic).negotiated(3);
        let goal = e
            .stamp("session.goal.cleared", None, None, Map::new())
            .unwrap();
        assert!(
            matches!(&goal, FixtureEvent::EventV2(g) if g.schema_version.as_i64() == 2),
            "{goal:?}"
        );
        let settled = e
            .stamp(
                "external_provider.operation_settled",
                Some("turn-1"),
                None,
                settled_payload(),
            )
            .unwrap();
        let FixtureEvent::EventV3(settled) = settled else {
            panic!("expected a v3 event: {settled:?}");
        };
        assert_eq!(settled.schema.as_str(), "paperclip.prp.event.v3");
        let started = v1(e
            .stamp("turn.started", Some("turn-1"), None, Map::new())
            .unwrap());
        assert_eq!(started.schema.as_str(), "paperclip.prp.event.v1");
        // A v3 payload is checked before anything is written, placeholder or not.
        let mut bad = settled_payload();
        bad.remove("requestId");
        assert!(
            e.stamp(
                "external_provider.operation_settled",
                None,
                None,
                bad.clone()
            )
            .is_err()
        );
        let v1_emitter = Emitter::new(Vec::new(), identity(), Clock::Deterministic);
        assert!(
            v1_emitter
                .stamp("external_provider.operation_settled", None, None, bad)
                .is_err()
        );
    }

    #[test]
    fn events_above_the_negotiated_version_go_out_as_placeholders() {
        let mut out = Vec::new();
        let mut e = Emitter::new(&mut out, identity(), Clock::Deterministic);
        let delta = e
            .stamp("item.delta", Some("turn-1"), None, Map::new())
            .unwrap();
        e.event(&delta).unwrap();
        let goal = json!({"goal": null}).as_object().cloned().unwrap();
        let placeholder = e
            .stamp("session.goal.updated", Some("turn-1"), None, goal)
            .unwrap();
        e.event(&placeholder).unwrap();
        let settled = e
            .stamp(
                "external_provider.operation_settled",
                None,
                None,
                settled_payload(),
            )
            .unwrap();
        e.event(&settled).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let goal_line = &lines[1]["message"]["event"];
        assert_eq!(goal_line["eventType"], "runner.diagnostic");
        assert_eq!(goal_line["schema"], "paperclip.prp.event.v1");
        assert_eq!(goal_line["schemaVersion"], 1);
        assert_eq!(
            goal_line["payload"],
            json!({"reasonCode": "event_requires_prp_v2", "originalEventType": "session.goal.updated"})
        );
        assert_eq!(
            (
                goal_line["sourceSeq"].clone(),
                goal_line["sourceEventId"].clone()
            ),
            (json!(2), json!("event_run-1_002")),
            "the placeholder takes the original's place in the sequence"
        );
        assert_eq!(goal_line["turnId"], "turn-1");
        let settled_line = &lines[2]["message"]["event"];
        assert_eq!(
            settled_line["payload"]["reasonCode"],
            "event_requires_prp_v3"
        );
        assert_eq!(settled_line["sourceSeq"], 3);
        // Each placeholder line is a valid v1 event.
        for line in &lines[1..] {
            let bytes = serde_json::to_vec(&line["message"]["event"]).unwrap();
            assert!(prp_types::decode::decode::<prp_types::types::Event>(&bytes).is_ok());
        }
    }

    #[test]
    fn events_are_stamped_and_checked() {
        let mut out = Vec::new();
        let mut e = Emitter::new(&mut out, identity(), Clock::Deterministic);
        let stamped = e
            .stamp("item.delta", Some("turn-1"), Some("item-1"), Map::new())
            .unwrap();
        e.event(&stamped).unwrap();
        let ev = v1(stamped);
        assert_eq!(ev.source_event_id, "event_run-1_001");
        assert_eq!(ev.emitted_at, "2026-08-07T21:00:00.001Z");
        assert_eq!(ev.schema_version.as_i64(), 1);
        assert!(e.stamp("no.such.type", None, None, Map::new()).is_err());
        assert!(
            e.stamp("run.terminal", None, None, Map::new()).is_err(),
            "a terminal payload is checked too"
        );
        let terminal = super::super::reconcile::reconcile(
            super::super::reconcile::Intent::Cancelled,
            None,
            None,
            None,
        );
        let t = e.stamp("run.terminal", None, None, terminal).unwrap();
        e.event(&t).unwrap();
        e.diagnostic(Level::Info, "after the end").unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text.lines().count(),
            2,
            "nothing after run.terminal: {text}"
        );
    }
}
