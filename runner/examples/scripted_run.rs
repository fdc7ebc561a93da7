//! One whole run in one process: the local runner of `prp-runner` supervises this same program
//! started again as a fake harness (`--harness SCRIPT`), fed the three commands of
//! `fixtures/local-runner/hello.commands.jsonl`, and prints the reconciled `run.terminal`.
//! `cargo run -p prp-runner --example scripted_run`.

use prp_runner::harness::{self, PlayOptions};
use prp_runner::{Clock, Config, Identity, Limits, Script};
use std::io::{Cursor, Read};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/local-runner");
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, script] = args.as_slice()
        && flag == "--harness"
    {
        // The harness side: play the script over stdio.
        let script = Script::decode(&std::fs::read(script)?).map_err(|i| i.message)?;
        let input = harness::spawn_line_reader(std::io::BufReader::new(std::io::stdin()));
        let code = harness::play(
            &script,
            &input,
            std::io::stdout().lock(),
            &PlayOptions::default(),
        )?;
        std::process::exit(code);
    }
    // The runner side: this program again, as the harness.
    let config = Config {
        identity: Identity {
            run_id: "run-1".into(),
            session_id: "session-1".into(),
            runner_id: "runner-1".into(),
        },
        harness: vec![
            std::env::current_exe()?.into(),
            "--harness".into(),
            fixtures.join("scripts/hello.json").into(),
        ],
        limits: Limits::default(),
        clock: Clock::Deterministic,
    };
    let commands = std::fs::read(fixtures.join("hello.commands.jsonl"))?;
    let mut stream = Vec::new();
    let outcome = prp_runner::run(&config, StaysOpen(Cursor::new(commands)), &mut stream)?;
    println!(
        "{} events; run.terminal: {}",
        outcome.events,
        serde_json::Value::Object(outcome.terminal)
    );
    Ok(())
}

/// The controller's side of stdin: the commands, then nothing more without closing (closing it
/// would cancel the run).
struct StaysOpen(Cursor<Vec<u8>>);

impl Read for StaysOpen {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read(buf)?;
        if n == 0 && !buf.is_empty() {
            // Park this reader thread for good; the run ends without it.
            loop {
                std::thread::park();
            }
        }
        Ok(n)
    }
}
