//! `prp validate`: check documents against the generated types.

use prp_types::decode::{self, Checker, DecodeError};
use serde_json::json;
use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

pub const USAGE: &str =
    "prp validate [--schema ID] [--jsonl] [--json] PATH...   (PATH `-` reads stdin)";

struct Options {
    schema: Option<Checker>,
    jsonl: bool,
    json: bool,
    paths: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        schema: None,
        jsonl: false,
        json: false,
        paths: vec![],
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--schema" => {
                let id = it.next().ok_or("--schema needs an ID")?;
                o.schema =
                    Some(resolve_schema(id).ok_or_else(|| format!("unknown schema `{id}`"))?);
            }
            "--jsonl" => o.jsonl = true,
            "--json" => o.json = true,
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            _ => o.paths.push(a.clone()),
        }
    }
    if o.paths.is_empty() {
        return Err("no PATH given".into());
    }
    Ok(o)
}

/// A schema `$id` (with an optional `#/$defs/NAME`), or a file name in schemas/.
fn resolve_schema(id: &str) -> Option<Checker> {
    if let Some(c) = decode::checker(id) {
        return Some(c);
    }
    let (file, fragment) = id.split_once('#').map_or((id, ""), |(f, r)| (f, r));
    let info = prp_types::SCHEMAS
        .iter()
        .find(|s| s.path == file || s.path.rsplit('/').next() == Some(file))?;
    let key = if fragment.is_empty() {
        info.id.to_owned()
    } else {
        format!("{}#{fragment}", info.id)
    };
    decode::checker(&key)
}

pub fn run(args: &[String]) -> ExitCode {
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("prp validate: {e}\nusage: {USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut all_valid = true;
    for path in &o.paths {
        let result = if o.jsonl {
            validate_lines(path, &o, &mut out)
        } else {
            validate_whole(path, &o, &mut out)
        };
        match result {
            Ok(valid) => all_valid &= valid,
            Err(e) => {
                eprintln!("prp validate: {path}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if all_valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn open(path: &str) -> std::io::Result<Box<dyn BufRead>> {
    if path == "-" {
        Ok(Box::new(std::io::BufReader::new(std::io::stdin())))
    } else {
        Ok(Box::new(std::io::BufReader::new(std::fs::File::open(
            path,
        )?)))
    }
}

fn validate_whole(path: &str, o: &Options, out: &mut impl Write) -> std::io::Result<bool> {
    let mut bytes = Vec::new();
    // Read one byte past the limit so that an oversized document is reported, not truncated.
    open(path)?
        .take(decode::MAX_DOCUMENT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    let verdict = check(&bytes, o.schema);
    report(path, &verdict, o.json, out)?;
    Ok(verdict.is_ok())
}

/// One document per line, one verdict per line, in order; memory is bounded by the longest line.
fn validate_lines(path: &str, o: &Options, out: &mut impl Write) -> std::io::Result<bool> {
    let mut reader = open(path)?;
    let mut line = Vec::new();
    let mut n = 0usize;
    let mut valid = true;
    loop {
        line.clear();
        let limit = decode::MAX_DOCUMENT_BYTES as u64 + 2;
        let read = (&mut reader).take(limit).read_until(b'\n', &mut line)?;
        if read == 0 {
            break;
        }
        n += 1;
        let overlong = !line.ends_with(b"\n") && read as u64 == limit;
        if overlong {
            // Skip the rest of the oversized line.
            let mut sink = Vec::new();
            reader.read_until(b'\n', &mut sink)?;
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if text.iter().all(u8::is_ascii_whitespace) && !overlong {
            continue;
        }
        let verdict = if overlong {
            Err(DecodeError {
                code: "too_large".into(),
                pointer: String::new(),
                message: format!("line is longer than {} bytes", decode::MAX_DOCUMENT_BYTES),
            })
        } else {
            check(text, o.schema)
        };
        valid &= verdict.is_ok();
        report(&format!("{path}:{n}"), &verdict, o.json, out)?;
    }
    Ok(valid)
}

fn check(bytes: &[u8], schema: Option<Checker>) -> Result<(), DecodeError> {
    match schema {
        Some(c) => c(bytes).map_err(decode::fail_closed_on_versions),
        None => decode::decode_document(bytes).map(|_| ()).map_err(|e| {
            // The document union failing on its discriminator means no schema fits the document.
            if e.code == "one_of" && (e.pointer.is_empty() || e.pointer == "/schema") {
                DecodeError {
                    code: "unknown_schema".into(),
                    ..e
                }
            } else {
                e
            }
        }),
    }
}

/// The contract code of an issue: stable top-level codes, the failed keyword kept in the message.
fn issue_code(e: &DecodeError) -> &str {
    match e.code.as_str() {
        "invalid_json"
        | "too_large"
        | "too_deep"
        | "unknown_schema"
        | "unsupported_required_version" => &e.code,
        _ => "schema_validation",
    }
}

fn report(
    source: &str,
    verdict: &Result<(), DecodeError>,
    json: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    match (verdict, json) {
        (Ok(()), true) => writeln!(
            out,
            "{}",
            json!({"source": source, "valid": true, "issues": []})
        ),
        (Ok(()), false) => writeln!(out, "{source}: valid"),
        (Err(e), true) => {
            let message = if issue_code(e) == "schema_validation" {
                format!("{} ({})", e.message, e.code)
            } else {
                e.message.clone()
            };
            let issue = json!({"code": issue_code(e), "path": e.path(), "message": message});
            writeln!(
                out,
                "{}",
                json!({"source": source, "valid": false, "issues": [issue]})
            )
        }
        (Err(e), false) => writeln!(
            out,
            "{source}: invalid: {} at {}: {} ({})",
            issue_code(e),
            e.path(),
            e.message,
            e.code
        ),
    }
}
