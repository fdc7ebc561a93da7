//! `prp catalog [--check]`: write or check the semantic action inventory (PROTOCOL §3.3).

use crate::Status;
use prp_peer::catalog::{INVENTORY_PATH, inventory};
use std::path::PathBuf;

/// Write, or check, `generated/semantic-action-catalog.json`.
///
/// The inventory is the catalog as a pretty JSON array in catalog order, every object's keys
/// sorted by UTF-16 code unit, arrays in their order, one trailing newline.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Write nothing: exit 1 and name the file if it differs from the catalog.
    #[arg(long)]
    check: bool,
    /// The project directory the inventory is relative to.
    #[arg(long, value_name = "DIR", default_value = ".")]
    dir: PathBuf,
}

pub fn run(args: &Args) -> Status {
    let path = args.dir.join(INVENTORY_PATH);
    let text = inventory();
    if args.check {
        return match std::fs::read(&path) {
            Ok(bytes) if String::from_utf8_lossy(&bytes).replace("\r\n", "\n") == text => {
                println!("{INVENTORY_PATH} matches the catalog.");
                Status::Ok
            }
            Ok(_) => {
                eprintln!("{INVENTORY_PATH} is stale; run `prp catalog` to regenerate it.");
                Status::Failed
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                eprintln!("{INVENTORY_PATH} is missing; run `prp catalog` to generate it.");
                Status::Failed
            }
            Err(e) => {
                eprintln!("prp catalog: {}: {e}", path.display());
                Status::Error
            }
        };
    }
    if let Some(parent) = path.parent()
        && let Err(e) = std::fs::create_dir_all(parent)
    {
        eprintln!("prp catalog: {}: {e}", parent.display());
        return Status::Error;
    }
    match std::fs::write(&path, text) {
        Ok(()) => {
            println!("wrote {}", path.display());
            Status::Ok
        }
        Err(e) => {
            eprintln!("prp catalog: {}: {e}", path.display());
            Status::Error
        }
    }
}
