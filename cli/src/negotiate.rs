//! `prp negotiate [--local MIN..MAX] --peer MIN..MAX`: the protocol version two peers select
//! (PROTOCOL §5.1); this side is this build's range unless `--local` says otherwise.

use crate::Status;
use prp_peer::negotiation::{NegotiationError, SUPPORTED, VersionRange, negotiate};

/// Print the protocol version two peers select: the highest both support.
///
/// Exit 1 with the reason when the ranges do not overlap (the connection would fail closed), 2
/// when a range is malformed (not MIN..MAX of integers with 1 <= MIN <= MAX).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// This side's range, `MIN..MAX`; this build's supported range (1..3) when left out.
    #[arg(long, value_name = "MIN..MAX")]
    local: Option<String>,
    /// The peer's range, `MIN..MAX`.
    #[arg(long, value_name = "MIN..MAX")]
    peer: String,
}

pub fn run(args: &Args) -> Status {
    let parse = |s: &str| s.parse::<VersionRange>();
    let local = args.local.as_deref().map_or(Ok(SUPPORTED), parse);
    let (local, peer) = match (local, parse(&args.peer)) {
        (Ok(l), Ok(p)) => (l, p),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("prp negotiate: {e}");
            return Status::Error;
        }
    };
    match negotiate(local, peer) {
        Ok(v) => {
            println!("{v}");
            Status::Ok
        }
        Err(e @ NegotiationError::NoCommonVersion { .. }) => {
            eprintln!("prp negotiate: {e}");
            Status::Failed
        }
        Err(e) => {
            eprintln!("prp negotiate: {e}");
            Status::Error
        }
    }
}
