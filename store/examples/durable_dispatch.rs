//! A dispatcher whose mutations survive a restart: the SQLite store from `prp-store` under the
//! dispatcher of `prp-types`. The same call dispatched twice, by two dispatchers over the same
//! database file (as after a restart), runs its binding once; the second answer comes from the
//! store. `cargo run -p prp-store --example durable_dispatch`.

use prp_peer::dispatcher::{Binding, Call, Dispatcher, Invocation, RunContext};
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};

static RUNS: AtomicUsize = AtomicUsize::new(0);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::temp_dir().join(format!("prp-durable-dispatch-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let spec = format!("sqlite:{}", dir.join("claims.db").display());
    let call: Call = serde_json::from_value(json!({
        "runId": "run-1", "callId": "call-1", "operationId": "report_progress",
        "correlation": {"runId": "run-1", "normalizedSessionId": "s-1", "turnId": "t-1", "itemId": "i-1"},
        "input": {"idempotencyKey": "progress-1", "body": "Half done"}
    }))?;
    for attempt in 1..=2 {
        // A fresh dispatcher each time, as a restarted process would have.
        let store = prp_store::open(&spec)?;
        let dispatcher = Dispatcher::new(
            |_: &str| Ok(context()),
            vec![("report_progress".into(), report_progress())],
            Some(store),
            None,
        )?;
        let result = dispatcher.dispatch(&call);
        println!(
            "attempt {attempt}: ok {}, answered from the store {:?}, binding ran {} time(s)",
            result.ok,
            result.duplicate,
            RUNS.load(Ordering::SeqCst)
        );
    }
    std::fs::remove_dir_all(&dir)?;
    assert_eq!(RUNS.load(Ordering::SeqCst), 1, "the mutation ran once");
    Ok(())
}

/// The mutation: here it only counts its runs.
fn report_progress() -> Box<dyn Binding> {
    Box::new(|_: &Invocation<'_>| {
        RUNS.fetch_add(1, Ordering::SeqCst);
        Ok(
            json!({"value": {"commandId": "cmd-1", "disposition": "applied", "stateRevision": 1,
                            "entityRefs": ["task-1"], "scheduledWakeIds": []}, "stateRevision": 1}),
        )
    })
}

/// Who is calling, and on which task: an active engineer on its own task.
fn context() -> RunContext {
    serde_json::from_value(json!({
        "runId": "run-1", "companyId": "co-1",
        "actor": {"id": "agent-1", "companyId": "co-1", "status": "active", "role": "engineer", "claims": []},
        "activeTask": {"id": "task-1", "companyId": "co-1", "assigneeActorId": "agent-1",
                       "executionRunId": "run-1", "status": "in_progress", "workMode": "standard"},
        "delegatedClaims": []
    }))
    .expect("a valid run context")
}
