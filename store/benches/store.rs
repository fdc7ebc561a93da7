//! Claim + complete round trips per second (PROTOCOL §4.5) with 1, 4 and 16 concurrent clients,
//! on the PostgreSQL store (a throwaway local cluster, `synchronous_commit = on`) next to the
//! SQLite store (WAL, `synchronous = FULL`) on the same machine, in one run. Each client has its
//! own store, so its own connection, as separate processes or hosts would.

#[path = "../tests/pg/cluster.rs"]
mod cluster;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use prp_store::{Claim, ClaimRequest, Durable};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

static SCOPE: AtomicU64 = AtomicU64::new(0);

fn round_trip(store: &dyn Durable) {
    let n = SCOPE.fetch_add(1, Ordering::Relaxed);
    let request = ClaimRequest {
        scope: format!("scope-{n}"),
        operation_id: "report_progress".into(),
        input_digest: "sha256:00".into(),
    };
    let Claim::Claimed(token) = store.claim(&request).unwrap() else {
        panic!("a fresh scope is claimed")
    };
    store
        .complete(&token, &json!({"code": "ok", "value": {"n": n}}))
        .unwrap();
}

/// `iters` round trips spread over the clients, all running at once; the wall time.
fn parallel(clients: &[Arc<dyn Durable>], iters: u64) -> Duration {
    let per = iters.div_ceil(clients.len() as u64);
    let barrier = std::sync::Barrier::new(clients.len() + 1);
    std::thread::scope(|s| {
        for c in clients {
            let barrier = &barrier;
            s.spawn(move || {
                barrier.wait();
                for _ in 0..per {
                    round_trip(&**c);
                }
            });
        }
        barrier.wait();
        let start = Instant::now();
        // Leaving the scope joins every client.
        start
    })
    .elapsed()
}

fn bench(c: &mut Criterion) {
    let Some(pg) = cluster::Cluster::start() else {
        return;
    };
    let url = pg.database("bench");
    let dir = std::env::temp_dir().join(format!("prp-bench-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let sqlite = format!("sqlite:{}", dir.join("claims.db").display());
    let mut group = c.benchmark_group("store_round_trip");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    for clients in [1usize, 4, 16] {
        for (name, spec) in [("postgres", &url), ("sqlite", &sqlite)] {
            let stores: Vec<Arc<dyn Durable>> = (0..clients)
                .map(|_| prp_store::open(spec).unwrap())
                .collect();
            group.bench_function(format!("{name}/{clients}_clients"), |b| {
                b.iter_custom(|iters| parallel(&stores, iters))
            });
        }
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
