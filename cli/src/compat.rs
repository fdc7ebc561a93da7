//! `prp compat`: the breaking changes between two revisions of a schema directory, each shown by
//! a document (prp-compat does the work; this prints it).

use crate::Status;
use prp_codegen::{Dialect, Format, Options, SchemaSet};
use prp_compat::policy::{self, Mode};
use prp_compat::{Finding, Report, Side, git::Snapshot};
use prp_vocabulary::pointer;
use serde_json::Value;
use std::path::{Path, PathBuf};

const AFTER: &str = "\
Each break comes with a witness: a document one side accepts and the other refuses, checked by
both. A change whose meaning differs but for which no witness is found is reported as suspected
and fails no mode. A member newly declared in an open object is reported as additive and fails
no mode either (PRP allows additive optional fields within a version).

Policy (the default mode): a break caused by a change in a file whose version did not change
(same $id, same `schema` and `schemaVersion` constants) is a violation; under a new version it
is allowed.

Formats: `format` is an annotation, as in draft 2020-12, unless --format asserts it. Comparing
PRP's own contract (every `$id` on both sides under https://paperclip.dev/schemas/), compat
asserts `date-time` as the contract's profile (UTC, whole seconds, optional milliseconds, as
prp-types checks it) and says so on standard error; any --format replaces that, and
`--format none` asserts nothing.

Exit: 0 nothing the mode forbids, 1 something it forbids, 2 usage or I/O error.";

/// Where the PRP contract's schemas have their `$id`s.
const PRP_IDS: &str = "https://paperclip.dev/schemas/";

/// Find the breaking changes between two revisions of a schema directory.
///
/// Compares OLD with NEW (directories read like prp-codegen reads one: every `*.json` below,
/// by `$id`), or with `--against REV` the one directory DIR at git revision REV (OLD) with DIR
/// as it is (NEW). For every schema and `$defs` entry on both sides it decides backward (every
/// document OLD accepts, NEW accepts) and forward (every document NEW accepts, OLD accepts).
#[derive(clap::Args, Debug)]
#[command(after_long_help = AFTER)]
pub struct Args {
    /// OLD and NEW; with `--against`, only DIR.
    #[arg(value_name = "DIR", required = true, num_args = 1..=2)]
    dirs: Vec<PathBuf>,
    /// Compare DIR at this git revision (OLD) with DIR in the work tree (NEW).
    #[arg(long, value_name = "REV")]
    against: Option<String>,
    /// What fails: `policy` (a break under an unchanged version), `backward`, `forward` or
    /// `full` (any break).
    #[arg(long, value_enum, default_value_t = ModeArg::Policy)]
    mode: ModeArg,
    /// Documents to start the witness search from (every `*.json` below DIR, any schema): a
    /// witness built from a real document is smaller to read and found sooner.
    #[arg(long, value_name = "DIR")]
    corpus: Vec<PathBuf>,
    /// Assert a format: `date-time` (RFC 3339, the one built in), NAME=REGEX (an ECMA-262
    /// regex the string must match), or `none`. Repeatable. Without it, only PRP's own contract
    /// has a format asserted (see below).
    #[arg(long = "format", value_name = "NAME[=REGEX]", value_parser = format)]
    formats: Vec<Option<(String, Format)>>,
    /// The dialect of schema files without `$schema`: draft-04, draft-06, draft-07, 2019-09 or
    /// 2020-12 [default: 2020-12]. A file that names its dialect is read in it.
    #[arg(long, value_name = "DIALECT")]
    dialect: Option<Dialect>,
    /// Print a JSON array, one object per finding: `id`, `defs`, `direction`, `witness`,
    /// `schemaPointer`, `instancePointer`, `old` and `new` (`{"valid", "code"}`), `policy`.
    #[arg(long)]
    json: bool,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy)]
enum ModeArg {
    Policy,
    Backward,
    Forward,
    Full,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Policy => Mode::Policy,
            ModeArg::Backward => Mode::Backward,
            ModeArg::Forward => Mode::Forward,
            ModeArg::Full => Mode::Full,
        }
    }
}

pub fn run(args: &Args) -> Status {
    match compare(args) {
        Ok(status) => status,
        Err(message) => {
            eprintln!("prp compat: {message}");
            Status::Error
        }
    }
}

fn compare(args: &Args) -> Result<Status, String> {
    let snapshot;
    let (old_dir, new_dir): (&Path, &Path) = match (&args.against, args.dirs.as_slice()) {
        (Some(rev), [dir]) => {
            snapshot = Snapshot::at(dir, rev).map_err(|e| e.to_string())?;
            (snapshot.path(), dir)
        }
        (None, [old, new]) => (old, new),
        (Some(_), _) => return Err("with --against, give one directory".into()),
        (None, _) => return Err("give OLD and NEW, or one directory with --against REV".into()),
    };
    let reading = Options::new().default_dialect(args.dialect.unwrap_or_default());
    let load =
        |d: &Path| SchemaSet::load_with(d, &reading).map_err(|e| format!("{}: {e}", d.display()));
    let (old, new) = (load(old_dir)?, load(new_dir)?);
    let corpus = corpus(&args.corpus)?;
    let options = options(&args.formats, [&old, &new]);
    let report = prp_compat::compare(
        &Side::new(&old, &options),
        &Side::new(&new, &options),
        &corpus,
    )
    .map_err(|e| e.to_string())?;
    let judged: Vec<(&Finding, policy::Verdict)> = report
        .findings
        .iter()
        .map(|f| (f, policy::judge(&old, &new, f)))
        .collect();
    let mode = Mode::from(args.mode);
    let failing = judged
        .iter()
        .filter(|(f, v)| policy::fails(mode, f, *v))
        .count();
    if args.json {
        let all: Vec<Value> = judged.iter().map(|(f, v)| f.to_json(*v)).collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&all).expect("JSON values print")
        );
    } else {
        print_text(&report, &judged, failing);
    }
    Ok(if failing > 0 {
        Status::Failed
    } else {
        Status::Ok
    })
}

/// `NAME=REGEX` (split at the first `=`, since a regex may hold one), the built-in `date-time`,
/// or `none`.
fn format(v: &str) -> Result<Option<(String, Format)>, String> {
    match v.split_once('=') {
        Some((name, re)) => Ok(Some((name.to_owned(), Format::Pattern(re.to_owned())))),
        None if v == "date-time" => Ok(Some((v.to_owned(), Format::DateTime))),
        None if v == "none" => Ok(None),
        None => Err("only date-time is built in; give NAME=REGEX, or none".to_owned()),
    }
}

/// The checkers' options: the formats `--format` asserts; without it, PRP's `date-time`
/// profile on PRP's own contract (said on standard error) and no format elsewhere.
fn options(formats: &[Option<(String, Format)>], sets: [&SchemaSet; 2]) -> Options {
    let mut options = Options::new();
    if !formats.is_empty() {
        for (name, check) in formats.iter().flatten() {
            options = options.format(name, check.clone());
        }
        return options;
    }
    let prp = sets
        .iter()
        .all(|s| !s.files.is_empty() && s.files.iter().all(|f| f.id.starts_with(PRP_IDS)));
    if prp {
        eprintln!(
            "prp compat: the PRP contract: `date-time` asserted as its profile {} (--format to choose otherwise)",
            prp_types::DATE_TIME_PATTERN
        );
        options = options.format(
            "date-time",
            Format::Pattern(prp_types::DATE_TIME_PATTERN.to_owned()),
        );
    }
    options
}

/// Every `*.json` below the directories that parses.
fn corpus(dirs: &[PathBuf]) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.to_vec();
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for e in entries {
            let p = e.map_err(|e| format!("{}: {e}", d.display()))?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json")
                && let Ok(text) = std::fs::read_to_string(&p)
                && let Ok(v) = serde_json::from_str(&text)
            {
                out.push(v);
            }
        }
    }
    Ok(out)
}

fn print_text(report: &Report, judged: &[(&Finding, policy::Verdict)], failing: usize) {
    for added in &report.added {
        println!("added    {added}");
    }
    for removed in &report.removed {
        println!("removed  {removed}");
    }
    let mut last = None;
    let mut apart = false;
    for (f, v) in judged {
        let name = f.uri.clone();
        // Suspected breaks come last (the report sorts them so), under a heading of their own.
        if f.witness.is_none() && !apart {
            println!(
                "\nsuspected: the meaning changed, but no document was found that shows a break"
            );
            apart = true;
            last = None;
        }
        if last.as_ref() != Some(&name) {
            println!("\n{name}");
            last = Some(name);
        }
        print_finding(f, *v);
    }
    let summary = match (judged.len(), failing) {
        (0, _) => "no breaking change found".to_owned(),
        (n, 0) => format!("{n} finding(s), none the mode forbids"),
        (n, k) => format!("{n} finding(s), {k} the mode forbids"),
    };
    println!("\n{summary}");
}

fn print_finding(f: &Finding, v: policy::Verdict) {
    println!(
        "  {} [{}]: change at {}",
        f.direction.as_str(),
        v.as_str(),
        pointer::shown(&f.schema_pointer)
    );
    let Some(w) = &f.witness else {
        println!("    no document found that one side accepts and the other refuses");
        return;
    };
    println!("    witness: {w}");
    let verdict = |side: &str, v: &prp_compat::Verdict| match &v.code {
        None => format!("{side} accepts"),
        Some(code) => format!(
            "{side} refuses ({code} at {})",
            pointer::shown(&f.instance_pointer)
        ),
    };
    println!("    {}; {}", verdict("old", &f.old), verdict("new", &f.new));
}
