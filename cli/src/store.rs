//! `prp store list|commit|release --store sqlite:PATH|postgres://…`: the operator's view of the idempotency
//! store (PROTOCOL §4.5). A claim left in progress (its process died between the effect and the
//! commit) is never handed out again on its own; these are the ways out.

use crate::Status;
use std::path::PathBuf;

/// Look at, and resolve, the claims a durable idempotency store holds in progress.
///
/// A claim in progress means a mutation may have taken effect without its receipt being
/// committed. Check the effect in the system it acted on, then either commit the sanitised
/// outcome it should have stored (the effect is not repeated) or release the claim (the next call
/// runs the mutation).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
    /// The store: `sqlite:PATH`, or a PostgreSQL URL (`postgres://USER@HOST:PORT/DATABASE`; what
    /// it leaves out comes from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSSLMODE).
    #[arg(long, value_name = "STORE", global = true, value_parser = parse_store)]
    store: Option<String>,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Print the claims in progress, oldest first, one JSON object per line.
    List,
    /// Commit a sanitised outcome for a claim in progress, without repeating its effect.
    Commit {
        /// The claim's scope, as `list` prints it.
        #[arg(long)]
        scope: String,
        /// A file holding the outcome as JSON (`-` reads stdin).
        #[arg(long, value_name = "FILE")]
        outcome: PathBuf,
    },
    /// Release a claim in progress whose effect is known not to have happened.
    Release {
        /// The claim's scope, as `list` prints it.
        #[arg(long)]
        scope: String,
    },
}

fn parse_store(s: &str) -> Result<String, String> {
    let sqlite = s.strip_prefix("sqlite:").is_some_and(|p| !p.is_empty());
    let postgres = s.starts_with("postgres://") || s.starts_with("postgresql://");
    if sqlite || postgres {
        Ok(s.to_owned())
    } else {
        Err(format!(
            "`{s}` is not a store; use sqlite:PATH or postgres://…"
        ))
    }
}

pub fn run(args: &Args) -> Status {
    let Some(spec) = &args.store else {
        eprintln!("prp store: --store sqlite:PATH or --store postgres://… is required");
        return Status::Error;
    };
    let store = match prp_store::open(spec) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("prp store: {e}");
            return Status::Error;
        }
    };
    let result = match &args.action {
        Action::List => store.in_progress().map(|claims| {
            for c in claims {
                println!("{}", serde_json::to_string(&c).unwrap_or_default());
            }
        }),
        Action::Commit { scope, outcome } => {
            let bytes = match crate::input::read_document(outcome) {
                Ok(b) => b,
                Err(issue) => {
                    eprintln!(
                        "prp store: {}: {}",
                        crate::input::name(outcome),
                        issue.message
                    );
                    return Status::Error;
                }
            };
            let value = match prp_peer::json::parse(&bytes) {
                Ok(v) if v.is_object() => v,
                Ok(_) => {
                    eprintln!("prp store: the outcome must be a JSON object");
                    return Status::Failed;
                }
                Err(issue) => {
                    eprintln!("prp store: the outcome: {issue}");
                    return Status::Failed;
                }
            };
            store
                .commit_scope(scope, &value)
                .map(|()| println!("committed {scope}"))
        }
        Action::Release { scope } => store
            .release_scope(scope)
            .map(|()| println!("released {scope}")),
    };
    match result {
        Ok(()) => Status::Ok,
        Err(e @ prp_store::StoreError::NoClaimInProgress(_)) => {
            eprintln!("prp store: {e}");
            Status::Failed
        }
        Err(e) => {
            eprintln!("prp store: {e}");
            Status::Error
        }
    }
}
