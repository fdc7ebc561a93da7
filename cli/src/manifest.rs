//! `prp manifest [--check] PROTOCOL_DIR`: regenerate or check the conformance manifest (PROTOCOL §7).

use crate::Status;
use prp_conformance::manifest::{self, Check, Error};
use prp_peer::contract::Contract;
use std::path::PathBuf;

/// Regenerate, or check, the conformance manifest of a protocol directory.
///
/// Lists every schema and fixture under PROTOCOL_DIR (`schemas/`, `fixtures/`) with its SHA-256
/// (after CRLF -> LF), re-validates every fixture and confirms that expected rejections are
/// rejected, then writes `PROTOCOL_DIR/manifest.json`. A failed check is named with its code
/// and file, and the exit is 1.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Write nothing: exit 1 and name each stale part if the file differs from the regenerated
    /// manifest.
    #[arg(long)]
    check: bool,
    /// The protocol directory (holds `schemas/` and `fixtures/`).
    #[arg(value_name = "PROTOCOL_DIR")]
    dir: PathBuf,
    // The directory's protocol range; the manifest records its maximum as `protocolVersion`.
    #[command(flatten)]
    protocol: crate::Protocol,
}

/// ` --protocol MIN..MAX` when the range is not the default, so that the command named to rerun
/// regenerates the same manifest.
fn protocol_flag(contract: Contract) -> String {
    if contract == Contract::default() {
        String::new()
    } else {
        format!(" --protocol {contract}")
    }
}

pub fn run(args: &Args) -> Status {
    let result = if args.check {
        manifest::check(&args.dir, args.protocol.contract).map(Some)
    } else {
        manifest::write(&args.dir, args.protocol.contract).map(|_| None)
    };
    match result {
        Ok(None) => {
            println!("wrote {}", manifest::manifest_path(&args.dir).display());
            Status::Ok
        }
        Ok(Some(Check::Fresh)) => {
            println!("The generated PRP contract manifest matches its sources.");
            Status::Ok
        }
        Ok(Some(Check::Stale(parts))) => {
            eprintln!(
                "The generated PRP contract manifest is stale. Run `prp manifest{} {}`.",
                protocol_flag(args.protocol.contract),
                args.dir.display()
            );
            for part in parts {
                eprintln!("  {part}");
            }
            Status::Failed
        }
        Err(e @ Error::Invalid(_)) => {
            eprintln!("prp manifest: {e}");
            Status::Failed
        }
        Err(e @ Error::Io { .. }) => {
            eprintln!("prp manifest: {e}");
            Status::Error
        }
    }
}
