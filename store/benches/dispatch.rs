//! Authorized dispatches per second (PROTOCOL §4.4) of a read (`get_task_context`) and of a
//! mutation (`report_progress`, a fresh idempotency key each time) against the in-memory store and
//! the SQLite store (WAL, `synchronous = FULL`: two fsynced transactions per mutation, the claim
//! and the commit), in one run, so the durable store's cost per mutation reads against memory's;
//! and the same mutation on the PostgreSQL store, against a throwaway local cluster.

#[path = "../tests/pg/cluster.rs"]
mod cluster;

use criterion::{Criterion, criterion_group, criterion_main};
use prp_peer::dispatcher::{Binding, Call, Dispatcher, Invocation, RunContext};
use prp_store::{IdempotencyStore, MemoryStore, SqliteStore};
use serde_json::{Value, json};
use std::hint::black_box;
use std::sync::Arc;

fn context() -> RunContext {
    serde_json::from_value(json!({
        "runId": "run-1", "companyId": "co-1",
        "actor": {"id": "agent-1", "companyId": "co-1", "status": "active", "role": "engineer", "claims": []},
        "activeTask": {"id": "task-1", "companyId": "co-1", "assigneeActorId": "agent-1",
                       "executionRunId": "run-1", "status": "in_progress", "workMode": "standard"},
        "delegatedClaims": []
    }))
    .unwrap()
}

fn dispatcher(store: Arc<dyn IdempotencyStore>) -> Dispatcher {
    let ctx = context();
    let read: Box<dyn Binding> = Box::new(|_: &Invocation<'_>| {
        Ok(json!({"value": {"title": "Fix the pager", "status": "in_progress"}}))
    });
    let write: Box<dyn Binding> = Box::new(|_: &Invocation<'_>| {
        Ok(
            json!({"value": {"commandId": "cmd-1", "disposition": "applied", "stateRevision": 1,
                            "entityRefs": ["task-1"], "scheduledWakeIds": []}, "stateRevision": 1}),
        )
    });
    Dispatcher::new(
        move |_: &str| Ok(ctx.clone()),
        vec![
            ("get_task_context".into(), read),
            ("report_progress".into(), write),
        ],
        Some(store),
        None,
    )
    .unwrap()
}

fn call(op: &str, input: Value, n: u64) -> Call {
    serde_json::from_value(json!({
        "runId": "run-1", "callId": format!("call-{n}"), "operationId": op,
        "correlation": {"runId": "run-1", "normalizedSessionId": "s-1", "turnId": "t-1", "itemId": "i-1"},
        "input": input
    }))
    .unwrap()
}

fn bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("prp-bench-dispatch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let memory = dispatcher(Arc::new(MemoryStore::new()));
    let sqlite = dispatcher(Arc::new(SqliteStore::open(dir.join("claims.db")).unwrap()));
    let pg = cluster::Cluster::start();
    let postgres = pg.as_ref().map(|pg| {
        dispatcher(Arc::new(
            prp_store::PostgresStore::open(&pg.database("dispatch")).unwrap(),
        ))
    });
    let mut group = c.benchmark_group("dispatch");
    let mut n = 0u64;
    group.bench_function("read", |b| {
        b.iter(|| {
            n += 1;
            let r = memory.dispatch(&call("get_task_context", json!({}), n));
            assert!(r.ok);
            black_box(r)
        })
    });
    let mut mutations = vec![("mutation_memory", &memory), ("mutation_sqlite", &sqlite)];
    if let Some(p) = &postgres {
        mutations.push(("mutation_postgres", p));
    }
    for (name, d) in mutations {
        group.bench_function(name, |b| {
            b.iter(|| {
                n += 1;
                let input = json!({"idempotencyKey": format!("k-{n}"), "body": "Half done"});
                let r = d.dispatch(&call("report_progress", input, n));
                assert!(r.ok, "{:?}", r.error);
                black_box(r)
            })
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
