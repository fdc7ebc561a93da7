//! The idempotency store contract (PROTOCOL §4.5) on both implementations, and what the durable
//! one promises across threads, processes, crashes and restarts.

use prp_types::store::{
    Claim, ClaimRequest, Faults, IdempotencyStore, MemoryStore, Operator, SqliteStore, StoreError,
};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn request(scope: &str, digest: &str) -> ClaimRequest {
    ClaimRequest {
        scope: scope.into(),
        operation_id: "write_document".into(),
        input_digest: digest.into(),
    }
}

fn outcome(n: u32) -> Value {
    json!({"operationId": "write_document", "inputDigest": "sha256:aa", "value": {"n": n},
           "code": "ok", "references": []})
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("prp-store-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The contract, on any store that also has an operator's interface.
fn contract<S: IdempotencyStore + Operator>(store: &S) {
    let Claim::Claimed(token) = store.claim(&request("s1", "d1")).unwrap() else {
        panic!("the first claim of a scope is claimed")
    };
    assert_eq!(
        store.claim(&request("s1", "d1")).unwrap(),
        Claim::InProgress
    );
    assert_eq!(store.claim(&request("s1", "d2")).unwrap(), Claim::Conflict);
    let other_op = ClaimRequest {
        operation_id: "create_task".into(),
        ..request("s1", "d1")
    };
    assert_eq!(store.claim(&other_op).unwrap(), Claim::Conflict);
    store.complete(&token, &outcome(1)).unwrap();
    assert_eq!(
        store.claim(&request("s1", "d1")).unwrap(),
        Claim::Duplicate(outcome(1))
    );
    assert_eq!(store.claim(&request("s1", "d2")).unwrap(), Claim::Conflict);
    // recover is idempotent; a released or unknown token is refused.
    store.recover(&token, &outcome(1)).unwrap();
    assert_eq!(store.release(&token), Err(StoreError::UnknownToken));
    let Claim::Claimed(t2) = store.claim(&request("s2", "d1")).unwrap() else {
        panic!()
    };
    store.release(&t2).unwrap();
    assert_eq!(store.release(&t2), Err(StoreError::UnknownToken));
    assert!(matches!(
        store.claim(&request("s2", "d1")).unwrap(),
        Claim::Claimed(_)
    ));
    // The operator's view: claims in progress, and a commit that does not repeat the effect.
    let pending = store.in_progress().unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].scope, "s2");
    store.commit_scope("s2", &outcome(2)).unwrap();
    assert_eq!(
        store.claim(&request("s2", "d1")).unwrap(),
        Claim::Duplicate(outcome(2))
    );
    assert_eq!(
        store.commit_scope("s2", &outcome(3)),
        Err(StoreError::NoClaimInProgress("s2".into()))
    );
    assert!(store.in_progress().unwrap().is_empty());
    let Claim::Claimed(_) = store.claim(&request("s3", "d1")).unwrap() else {
        panic!()
    };
    store.release_scope("s3").unwrap();
    assert!(matches!(
        store.claim(&request("s3", "d1")).unwrap(),
        Claim::Claimed(_)
    ));
}

#[test]
fn the_memory_store_keeps_the_contract() {
    contract(&MemoryStore::new());
}

#[test]
fn the_sqlite_store_keeps_the_contract() {
    let dir = scratch("contract");
    contract(&SqliteStore::open(dir.join("store.db")).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn injected_failures_fail_only_their_method() {
    let dir = scratch("faults");
    let sqlite = SqliteStore::open(dir.join("store.db")).unwrap();
    let memory = MemoryStore::new();
    type SetFaults<'a> = &'a dyn Fn(Faults);
    let stores: [(&dyn IdempotencyStore, SetFaults); 2] = [
        (&memory, &|f| memory.set_faults(f)),
        (&sqlite, &|f| sqlite.set_faults(f)),
    ];
    for (store, set) in stores {
        set(Faults {
            claim: true,
            ..Faults::default()
        });
        assert_eq!(
            store.claim(&request("f", "d")),
            Err(StoreError::Injected("claim"))
        );
        set(Faults::default());
        let Claim::Claimed(t) = store.claim(&request("f", "d")).unwrap() else {
            panic!()
        };
        // The primary commit fails; the recovery path commits; the next call is a duplicate.
        set(Faults {
            complete: true,
            release: true,
            ..Faults::default()
        });
        assert_eq!(
            store.complete(&t, &outcome(5)),
            Err(StoreError::Injected("complete"))
        );
        assert_eq!(store.release(&t), Err(StoreError::Injected("release")));
        store.recover(&t, &outcome(5)).unwrap();
        assert_eq!(
            store.claim(&request("f", "d")).unwrap(),
            Claim::Duplicate(outcome(5))
        );
        set(Faults {
            recover: true,
            ..Faults::default()
        });
        assert_eq!(
            store.recover(&t, &outcome(5)),
            Err(StoreError::Injected("recover"))
        );
        set(Faults::default());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_threads_claiming_one_scope_get_one_claim() {
    let dir = scratch("threads");
    let store = std::sync::Arc::new(SqliteStore::open(dir.join("store.db")).unwrap());
    for round in 0..20 {
        let scope = format!("t{round}");
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
        let handles: Vec<_> = (0..2)
            .map(|_| {
                let (store, barrier, scope) = (store.clone(), barrier.clone(), scope.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    store.claim(&request(&scope, "d")).unwrap()
                })
            })
            .collect();
        let answers: Vec<Claim> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let claimed = answers
            .iter()
            .filter(|a| matches!(a, Claim::Claimed(_)))
            .count();
        assert_eq!(claimed, 1, "round {round}: {answers:?}");
        assert!(answers.contains(&Claim::InProgress));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs this test binary as a child that acts on the store (see `store_child`).
fn child(action: &str, db: &Path) -> Command {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args([
        "--exact",
        "store_child",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ])
    .env("PRP_STORE_CHILD", action)
    .env("PRP_STORE_DB", db);
    c
}

/// Not a test on its own: the child side of the process tests, run only by them. `claim:SCOPE`
/// claims and prints the answer; `crash:SCOPE:MARKER` claims, performs the effect (writes
/// MARKER), then waits to be killed before committing.
#[test]
#[ignore = "the child process of the process tests, which run it"]
fn store_child() {
    let action = std::env::var("PRP_STORE_CHILD").expect("run by the process tests");
    let db = std::env::var("PRP_STORE_DB").unwrap();
    let store = SqliteStore::open(&db).unwrap();
    let parts: Vec<&str> = action.split(':').collect();
    match parts.as_slice() {
        ["claim", scope] => {
            let answer = store.claim(&request(scope, "d")).unwrap();
            println!(
                "ANSWER {}",
                if matches!(answer, Claim::Claimed(_)) {
                    "claimed"
                } else {
                    "other"
                }
            );
        }
        ["crash", scope, marker] => {
            let Claim::Claimed(token) = store.claim(&request(scope, "d")).unwrap() else {
                panic!("the crash child expects a fresh scope")
            };
            std::fs::write(marker, "effect happened").unwrap();
            std::thread::sleep(std::time::Duration::from_secs(60));
            store.complete(&token, &outcome(9)).unwrap();
        }
        _ => panic!("unknown child action {action}"),
    }
}

#[test]
fn two_processes_claiming_one_scope_get_one_claim() {
    let dir = scratch("processes");
    let db = dir.join("store.db");
    drop(SqliteStore::open(&db).unwrap());
    for round in 0..5 {
        let scope = format!("p{round}");
        let kids: Vec<_> = (0..2)
            .map(|_| child(&format!("claim:{scope}"), &db).output_piped())
            .collect();
        let outputs: Vec<String> = kids
            .into_iter()
            .map(|k| String::from_utf8(k.wait_with_output().unwrap().stdout).unwrap())
            .collect();
        let claimed = outputs
            .iter()
            .filter(|o| o.contains("ANSWER claimed"))
            .count();
        let other = outputs
            .iter()
            .filter(|o| o.contains("ANSWER other"))
            .count();
        assert_eq!((claimed, other), (1, 1), "round {round}: {outputs:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

trait Piped {
    fn output_piped(&mut self) -> std::process::Child;
}

impl Piped for Command {
    fn output_piped(&mut self) -> std::process::Child {
        self.stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    }
}

#[test]
fn a_process_killed_between_effect_and_commit_never_runs_it_again() {
    let dir = scratch("crash");
    let db = dir.join("store.db");
    let marker = dir.join("effect");
    drop(SqliteStore::open(&db).unwrap());
    let mut kid = child(&format!("crash:c1:{}", marker.display()), &db).output_piped();
    let started = std::time::Instant::now();
    while !marker.exists() {
        assert!(
            started.elapsed().as_secs() < 60,
            "the child never performed its effect"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    kid.kill().unwrap();
    kid.wait().unwrap();
    // After the restart: the claim is in progress, never handed out again.
    let store = SqliteStore::open(&db).unwrap();
    assert_eq!(store.claim(&request("c1", "d")).unwrap(), Claim::InProgress);
    let pending = store.in_progress().unwrap();
    assert_eq!(pending.len(), 1);
    // The operator commits the outcome without repeating the effect; later calls are duplicates,
    // also through a store opened afresh.
    store.commit_scope("c1", &outcome(9)).unwrap();
    drop(store);
    let again = SqliteStore::open(&db).unwrap();
    assert_eq!(
        again.claim(&request("c1", "d")).unwrap(),
        Claim::Duplicate(outcome(9))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_database_file_is_a_clear_error() {
    let dir = scratch("bad");
    let junk = dir.join("junk.db");
    std::fs::write(
        &junk,
        "this is not a database, just some bytes that go on for a while....",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&junk, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let err = SqliteStore::open(&junk).unwrap_err();
    assert!(matches!(err, StoreError::Unavailable(_)), "{err}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let open = dir.join("open.db");
        drop(SqliteStore::open(&open).unwrap());
        assert_eq!(
            std::fs::metadata(&open).unwrap().permissions().mode() & 0o777,
            0o600,
            "a new store is readable by its owner only"
        );
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = SqliteStore::open(&open).unwrap_err();
        assert!(err.to_string().contains("chmod 600"), "{err}");
        let link = dir.join("link.db");
        std::os::unix::fs::symlink(&open, &link).unwrap();
        assert!(
            SqliteStore::open(&link)
                .unwrap_err()
                .to_string()
                .contains("symlink")
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
