//! `prp-codegen SCHEMA_DIR [-o FILE] [--document-union NAME:MEMBER] [--runtime-path PATH] [--name ID#POINTER=TYPE]... [--format NAME[=REGEX]]... [--base-uri URI]`: the generator on any schema directory.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut dir: Option<PathBuf> = None;
    let mut out: Option<PathBuf> = None;
    let mut options = prp_codegen::Options::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "-o" | "--output" => out = args.next().map(PathBuf::from),
            "--document-union" => {
                let Some((n, m)) = args
                    .next()
                    .and_then(|v| v.split_once(':').map(|(a, b)| (a.to_owned(), b.to_owned())))
                else {
                    eprintln!("--document-union takes NAME:MEMBER");
                    return ExitCode::from(2);
                };
                options = options.document_union(n, m);
            }
            "--runtime-path" => {
                if let Some(path) = args.next() {
                    options = options.runtime_path(path);
                }
            }
            "--base-uri" => {
                if let Some(uri) = args.next() {
                    options = options.base_uri(uri);
                }
            }
            // `--format date-time` asserts RFC 3339; `--format NAME=REGEX` a pattern.
            "--format" => {
                let Some(spec) = args.next() else {
                    eprintln!("--format takes NAME or NAME=REGEX");
                    return ExitCode::from(2);
                };
                let (name, check) = match spec.split_once('=') {
                    Some((n, re)) => (n.to_owned(), prp_codegen::Format::Pattern(re.to_owned())),
                    None if spec == "date-time" => (spec, prp_codegen::Format::DateTime),
                    None => {
                        eprintln!("--format {spec}: only date-time is built in; give NAME=REGEX");
                        return ExitCode::from(2);
                    }
                };
                options = options.format(name, check);
            }
            "--name" => {
                let Some((k, v)) = args.next().and_then(|v| {
                    v.rsplit_once('=')
                        .map(|(a, b)| (a.to_owned(), b.to_owned()))
                }) else {
                    eprintln!("--name takes ID#POINTER=TYPE");
                    return ExitCode::from(2);
                };
                options = options.name(k, v);
            }
            "-h" | "--help" => {
                println!(
                    "usage: prp-codegen SCHEMA_DIR [-o FILE] [--document-union NAME:MEMBER] [--runtime-path PATH] [--name ID#POINTER=TYPE]... [--format NAME[=REGEX]]... [--base-uri URI]"
                );
                return ExitCode::SUCCESS;
            }
            _ if dir.is_none() => dir = Some(PathBuf::from(a)),
            other => {
                eprintln!("unexpected argument `{other}`");
                return ExitCode::from(2);
            }
        }
    }
    let Some(dir) = dir else {
        eprintln!(
            "usage: prp-codegen SCHEMA_DIR [-o FILE] [--document-union NAME:MEMBER] [--runtime-path PATH] [--name ID#POINTER=TYPE]... [--format NAME[=REGEX]]... [--base-uri URI]"
        );
        return ExitCode::from(2);
    };
    match prp_codegen::generate_dir(&dir, &options) {
        Ok(output) => {
            let written = match &out {
                Some(path) => std::fs::write(path, output.code),
                None => {
                    use std::io::Write;
                    std::io::stdout().write_all(output.code.as_bytes())
                }
            };
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("cannot write the output: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
