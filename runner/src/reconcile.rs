//! Terminal reconciliation (PROTOCOL §6.4, with the reasons and checks of §6.6): the runner, not
//! the harness, decides how the run ended, from what it was asked to do (the intent), how the
//! process exited, and whether a structured result came.
//!
//! | intent / condition | turn / run | reason |
//! |---|---|---|
//! | interrupted (`turn.interrupt`, `turn.stop`) | interrupted / cancelled | `turn_interrupted` |
//! | cancelled (`run.cancel`) | cancelled / cancelled | `run_cancelled` |
//! | controller closed (stdin EOF after `run.prepare`) | cancelled / cancelled | `controller_closed` |
//! | protocol violation (bad or over-long harness frame) | failed / failed | `harness_protocol_violation` |
//! | harness could not start (this implementation) | failed / failed | `harness_start_failed` |
//! | no `ready` within the limit (this implementation) | failed / failed | `harness_not_ready` |
//! | natural: exit success and a result | completed / succeeded | `successful_process_and_result` |
//! | natural: exit failure | failed / failed | `harness_process_failed` |
//! | natural: exit success, no result | failed / failed | `semantic_result_missing` |
//!
//! `proposalValid` checks what the reference checks: the proposal's `schema` constant and its three
//! state enums. `proposalContradicted` is a valid proposal whose turn or run state differs from the
//! reconciled one.

use serde_json::{Map, Value, json};

/// What the runner was told, or saw, that decides the ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    /// Nothing: the harness ends on its own.
    Natural,
    /// `turn.interrupt` or `turn.stop`.
    Interrupted,
    /// `run.cancel`.
    Cancelled,
    /// The controller closed stdin after `run.prepare`.
    ControllerClosed,
    /// The harness broke the stdio protocol.
    ProtocolViolation,
    /// The harness command could not be started.
    HarnessStartFailed,
    /// The harness sent no `ready` in time.
    HarnessNotReady,
}

impl Intent {
    /// The intent after `next` happens: the first request to end wins (a controller closing
    /// stdin after an interrupt does not turn it into a cancellation), except that a failure of the
    /// harness itself is always what is reported.
    pub fn then(self, next: Intent) -> Intent {
        match (self, next) {
            (
                _,
                Intent::ProtocolViolation | Intent::HarnessStartFailed | Intent::HarnessNotReady,
            ) => next,
            (Intent::Natural, n) => n,
            (s, _) => s,
        }
    }
}

/// How the harness process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcessExit {
    /// The exit status, when it exited.
    pub exit_code: Option<i32>,
    /// Whether it exited with status 0.
    pub success: bool,
    /// The signal that ended it, when one did.
    pub signal: Option<i32>,
}

impl ProcessExit {
    /// `{exitCode, success, signal}`.
    pub fn to_json(&self) -> Value {
        json!({"exitCode": self.exit_code, "success": self.success, "signal": self.signal})
    }
}

const TERMINAL_SCHEMA: &str = "paperclip.prp.terminal.v1";
const TURN_STATES: &[&str] = &["completed", "failed", "interrupted", "cancelled"];
const RUN_STATES: &[&str] = &["succeeded", "failed", "cancelled"];
const DISPOSITIONS: &[&str] = &["done", "blocked", "needs_review", "yielded"];

fn known(d: Option<&str>) -> Option<&str> {
    d.filter(|d| DISPOSITIONS.contains(d))
}

fn member<'a>(doc: Option<&'a Map<String, Value>>, name: &str) -> Option<&'a str> {
    doc?.get(name)?.as_str()
}

/// Whether a harness proposal has the terminal schema constant and three valid states.
pub fn proposal_valid(proposal: &Map<String, Value>) -> bool {
    let p = Some(proposal);
    member(p, "schema") == Some(TERMINAL_SCHEMA)
        && member(p, "turnTerminalState").is_some_and(|s| TURN_STATES.contains(&s))
        && member(p, "runTerminalState").is_some_and(|s| RUN_STATES.contains(&s))
        && member(p, "reportedWorkDisposition").is_some_and(|s| DISPOSITIONS.contains(&s))
}

/// The reconciled `run.terminal` payload.
pub fn reconcile(
    intent: Intent,
    exit: Option<&ProcessExit>,
    result: Option<&Map<String, Value>>,
    proposal: Option<&Map<String, Value>>,
) -> Map<String, Value> {
    let success = exit.is_some_and(|e| e.success);
    let (turn, run, reason) = match intent {
        Intent::Interrupted => ("interrupted", "cancelled", "turn_interrupted"),
        Intent::Cancelled => ("cancelled", "cancelled", "run_cancelled"),
        Intent::ControllerClosed => ("cancelled", "cancelled", "controller_closed"),
        Intent::ProtocolViolation => ("failed", "failed", "harness_protocol_violation"),
        Intent::HarnessStartFailed => ("failed", "failed", "harness_start_failed"),
        Intent::HarnessNotReady => ("failed", "failed", "harness_not_ready"),
        Intent::Natural if !success => ("failed", "failed", "harness_process_failed"),
        Intent::Natural if result.is_none() => ("failed", "failed", "semantic_result_missing"),
        Intent::Natural => ("completed", "succeeded", "successful_process_and_result"),
    };
    let reported = known(member(result, "reportedWorkDisposition"))
        .or_else(|| known(member(proposal, "reportedWorkDisposition")));
    let disposition = if run == "succeeded" {
        reported.unwrap_or("done")
    } else {
        reported.filter(|d| *d != "done").unwrap_or("yielded")
    };
    let valid = proposal.is_some_and(proposal_valid);
    let contradicted = valid
        && (member(proposal, "turnTerminalState") != Some(turn)
            || member(proposal, "runTerminalState") != Some(run));
    let mut out = Map::new();
    out.insert("schema".into(), TERMINAL_SCHEMA.into());
    out.insert("turnTerminalState".into(), turn.into());
    out.insert("runTerminalState".into(), run.into());
    out.insert("reportedWorkDisposition".into(), disposition.into());
    out.insert(
        "harnessTerminalProposal".into(),
        proposal.map_or(Value::Null, |p| Value::Object(p.clone())),
    );
    out.insert(
        "reconciliation".into(),
        json!({
            "authority": "runner",
            "reason": reason,
            "proposalValid": valid,
            "proposalContradicted": contradicted,
            "processExit": exit.map_or(Value::Null, ProcessExit::to_json),
            "semanticResultObserved": result.is_some(),
        }),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    const OK: ProcessExit = ProcessExit {
        exit_code: Some(0),
        success: true,
        signal: None,
    };
    const FAILED: ProcessExit = ProcessExit {
        exit_code: Some(7),
        success: false,
        signal: None,
    };

    fn states(t: &Map<String, Value>) -> (&str, &str, &str, &str) {
        (
            t["turnTerminalState"].as_str().unwrap(),
            t["runTerminalState"].as_str().unwrap(),
            t["reportedWorkDisposition"].as_str().unwrap(),
            t["reconciliation"]["reason"].as_str().unwrap(),
        )
    }

    #[test]
    fn the_reconciliation_table() {
        let done = doc(json!({"reportedWorkDisposition": "done"}));
        let yielded = doc(json!({"reportedWorkDisposition": "yielded"}));
        let blocked = doc(json!({"reportedWorkDisposition": "blocked"}));
        let cases = [
            (
                Intent::Natural,
                OK,
                Some(&done),
                (
                    "completed",
                    "succeeded",
                    "done",
                    "successful_process_and_result",
                ),
            ),
            (
                Intent::Natural,
                OK,
                Some(&blocked),
                (
                    "completed",
                    "succeeded",
                    "blocked",
                    "successful_process_and_result",
                ),
            ),
            (
                Intent::Natural,
                FAILED,
                Some(&yielded),
                ("failed", "failed", "yielded", "harness_process_failed"),
            ),
            (
                Intent::Natural,
                OK,
                None,
                ("failed", "failed", "yielded", "semantic_result_missing"),
            ),
            (
                Intent::Natural,
                FAILED,
                Some(&done),
                ("failed", "failed", "yielded", "harness_process_failed"),
            ),
            (
                Intent::Interrupted,
                OK,
                Some(&yielded),
                ("interrupted", "cancelled", "yielded", "turn_interrupted"),
            ),
            (
                Intent::Cancelled,
                OK,
                Some(&blocked),
                ("cancelled", "cancelled", "blocked", "run_cancelled"),
            ),
            (
                Intent::ControllerClosed,
                OK,
                None,
                ("cancelled", "cancelled", "yielded", "controller_closed"),
            ),
            (
                Intent::ProtocolViolation,
                OK,
                None,
                ("failed", "failed", "yielded", "harness_protocol_violation"),
            ),
        ];
        for (intent, exit, result, want) in cases {
            let t = reconcile(intent, Some(&exit), result, None);
            assert_eq!(states(&t), want, "{intent:?} {exit:?} {result:?}");
            assert_eq!(
                t["reconciliation"]["semanticResultObserved"],
                result.is_some()
            );
            assert_eq!(t["harnessTerminalProposal"], Value::Null);
        }
    }

    #[test]
    fn proposals_are_checked_and_compared() {
        let proposal = doc(
            json!({"schema": TERMINAL_SCHEMA, "turnTerminalState": "completed",
            "runTerminalState": "succeeded", "reportedWorkDisposition": "needs_review"}),
        );
        // Without a result the proposal's disposition is used.
        let t = reconcile(Intent::Natural, Some(&FAILED), None, Some(&proposal));
        assert_eq!(states(&t).2, "needs_review");
        assert_eq!(t["reconciliation"]["proposalValid"], true);
        assert_eq!(t["reconciliation"]["proposalContradicted"], true);
        assert_eq!(
            t["harnessTerminalProposal"],
            Value::Object(proposal.clone())
        );
        let result = doc(json!({"reportedWorkDisposition": "done"}));
        let t = reconcile(Intent::Natural, Some(&OK), Some(&result), Some(&proposal));
        assert_eq!(t["reconciliation"]["proposalContradicted"], false);
        let mut bad = proposal.clone();
        bad.insert("runTerminalState".into(), "exploded".into());
        let t = reconcile(Intent::Natural, Some(&OK), Some(&result), Some(&bad));
        assert_eq!(
            (
                &t["reconciliation"]["proposalValid"],
                &t["reconciliation"]["proposalContradicted"]
            ),
            (&json!(false), &json!(false))
        );
    }

    #[test]
    fn the_first_request_to_end_wins_but_failures_always_show() {
        use Intent::*;
        assert_eq!(
            Natural.then(Interrupted).then(ControllerClosed),
            Interrupted
        );
        assert_eq!(Cancelled.then(Interrupted), Cancelled);
        assert_eq!(Interrupted.then(ProtocolViolation), ProtocolViolation);
        assert_eq!(Natural.then(ControllerClosed), ControllerClosed);
    }
}
