//! A crate that depends on `prp-peer`: it runs a replay fixture (the path in its first argument)
//! through the contract pipeline, folds its events into a session snapshot, and negotiates a
//! version with a peer that speaks only v1.

use prp_peer::negotiation::{VersionRange, negotiate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: prp-peer-consumer FIXTURE")?;
    let bytes = std::fs::read(&path)?;
    let snapshot = prp_peer::reducer::replay_fixture_bytes(&bytes).map_err(|issues| {
        let first = &issues[0];
        format!("{}: {} at {}", first.code, first.message, first.pointer)
    })?;
    println!(
        "replayed {path}: {} timeline entries, session {:?}",
        snapshot.timeline().len(),
        snapshot.session_state()
    );
    let version = negotiate(VersionRange::new(1, 2)?, VersionRange::new(1, 1)?)?;
    println!("negotiated version {version} with a v1-only peer");
    Ok(())
}
