//! `prp-codegen SCHEMA_DIR [-o FILE [--check]] [--document-union NAME:MEMBER] [--runtime-path PATH]
//! [--name ID#POINTER=TYPE]... [--format NAME[=REGEX]]... [--base-uri URI] [--dialect D]`: the
//! generator on any schema directory. Exits 2 on a usage error, 1 when the schemas cannot be generated or, with
//! `--check`, when FILE is not what they generate.

use clap::Parser;
use prp_codegen::{Dialect, Format, Options};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Generates one Rust module from a directory of JSON Schemas (draft-04, -06, -07, 2019-09 or
/// 2020-12, each file by its `$schema`).
#[derive(Parser)]
#[command(name = "prp-codegen", version, args_override_self = true)]
struct Args {
    /// The schema directory: every `*.json` file under it, recursively.
    #[arg(value_name = "SCHEMA_DIR")]
    dir: PathBuf,
    /// Write the module to FILE rather than standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write nothing: exit 1 (naming FILE) when FILE is not exactly what the schemas generate, as
    /// a check that a generated file committed beside its schemas is fresh.
    #[arg(long, requires = "output")]
    check: bool,
    /// Also emit an enum NAME over every root document with the string constant member MEMBER.
    #[arg(long, value_name = "NAME:MEMBER", value_parser = document_union)]
    document_union: Option<(String, String)>,
    /// The path the generated code reaches its runtime crate by [default: ::prp_codegen_runtime].
    #[arg(long, value_name = "PATH")]
    runtime_path: Option<String>,
    /// Name the type of a root (`ID#`) or of a `$defs` entry (`ID#/$defs/KEY`). Repeatable.
    #[arg(long = "name", value_name = "ID#POINTER=TYPE", value_parser = type_name)]
    names: Vec<(String, String)>,
    /// Assert a format: `date-time` (RFC 3339, the one built in) or NAME=REGEX. Repeatable.
    #[arg(long = "format", value_name = "NAME[=REGEX]", value_parser = format)]
    formats: Vec<(String, Format)>,
    /// The base URI of files without `$id`, joined with their path [default: file:///].
    #[arg(long, value_name = "URI")]
    base_uri: Option<String>,
    /// The dialect of files without `$schema`: draft-04, draft-06, draft-07, 2019-09 or 2020-12
    /// [default: 2020-12].
    #[arg(long, value_name = "DIALECT")]
    dialect: Option<Dialect>,
    /// Mark every generated enum `#[non_exhaustive]`, for schemas that grow by policy.
    #[arg(long)]
    non_exhaustive: bool,
}

impl Args {
    fn options(&self) -> Options {
        let mut options = Options::new()
            .non_exhaustive(self.non_exhaustive)
            .default_dialect(self.dialect.unwrap_or_default());
        if let Some((name, member)) = &self.document_union {
            options = options.document_union(name, member);
        }
        if let Some(path) = &self.runtime_path {
            options = options.runtime_path(path);
        }
        if let Some(uri) = &self.base_uri {
            options = options.base_uri(uri);
        }
        for (key, type_name) in &self.names {
            options = options.name(key, type_name);
        }
        for (name, check) in &self.formats {
            options = options.format(name, check.clone());
        }
        options
    }
}

/// `NAME:MEMBER`, split at the first colon.
fn document_union(v: &str) -> Result<(String, String), String> {
    v.split_once(':')
        .map(|(n, m)| (n.to_owned(), m.to_owned()))
        .ok_or_else(|| "expected NAME:MEMBER".to_owned())
}

/// `ID#POINTER=TYPE`, split at the last `=` (a pointer may hold one, a type name cannot).
fn type_name(v: &str) -> Result<(String, String), String> {
    v.rsplit_once('=')
        .map(|(k, t)| (k.to_owned(), t.to_owned()))
        .ok_or_else(|| "expected ID#POINTER=TYPE".to_owned())
}

/// `NAME=REGEX` (split at the first `=`, since a regex may hold one) or a built-in `date-time`.
fn format(v: &str) -> Result<(String, Format), String> {
    match v.split_once('=') {
        Some((name, re)) => Ok((name.to_owned(), Format::Pattern(re.to_owned()))),
        None if v == "date-time" => Ok((v.to_owned(), Format::DateTime)),
        None => Err("only date-time is built in; give NAME=REGEX".to_owned()),
    }
}

fn main() -> ExitCode {
    // A usage error exits 2 here, and `--help` 0.
    let args = Args::parse();
    let output = match prp_codegen::generate_dir(&args.dir, &args.options()) {
        Ok(output) => output,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if let (true, Some(path)) = (args.check, &args.output) {
        return check(path, &output.code);
    }
    let written = match &args.output {
        Some(path) => std::fs::write(path, output.code),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(output.code.as_bytes())
                .and_then(|()| stdout.flush())
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

/// `--check`: success when `path` holds exactly `code`.
fn check(path: &std::path::Path, code: &str) -> ExitCode {
    match std::fs::read(path) {
        Ok(current) if current == code.as_bytes() => ExitCode::SUCCESS,
        Ok(_) => {
            eprintln!(
                "stale: {} is not what the schemas generate now",
                path.display()
            );
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("cannot read {}: {e}", path.display());
            ExitCode::from(2)
        }
    }
}
