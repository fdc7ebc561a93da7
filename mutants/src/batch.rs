//! Compiling mutants' modules together: one workspace of a few checker crates (one per core),
//! each holding its share of the modules beside the shared harness (`harness/harness.rs`), built
//! by one cargo call. A compile error is traced to the module it is in by the file names of its
//! spans and macro expansions; the modules that failed are taken out and the rest built again.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The harness every checker crate shares.
const HARNESS: &str = include_str!("../harness/harness.rs");

/// One mutant's generated module.
pub struct Module {
    /// Its number in the run (the module is `m{id}`).
    pub id: usize,
    /// The generated source.
    pub code: String,
}

/// What a build gave.
#[derive(Default)]
pub struct Built {
    /// Each checker binary with the modules it holds.
    pub binaries: Vec<(PathBuf, Vec<usize>)>,
    /// Modules that did not compile, with rustc's messages.
    pub failed: BTreeMap<usize, String>,
    /// Errors no module could be named for (a harness or toolchain failure).
    pub unattributed: Vec<String>,
}

/// The module of one mutant: its generated code, and `run`, which gives a case to the type its
/// schema URI names, or (the key `#document`) to the document union when the module has one.
fn module_source(document_union: bool) -> String {
    let document = if document_union {
        "crate::harness::check::<generated::Document>(\n            case,\n            (&crate::harness::Tag::<generated::Document>(::core::marker::PhantomData)).splicer(),\n        )"
    } else {
        "crate::harness::unknown()"
    };
    MODULE_SOURCE.replace("DOCUMENT_UNION", document)
}

/// [`module_source`]'s text, `DOCUMENT_UNION` standing for what a `#document` case runs.
const MODULE_SOURCE: &str = r##"// As prp-types includes its generated module: any other warning is an error, since a crate
// built with `-D warnings` would fail on it.
#[deny(warnings)]
#[allow(dead_code, clippy::all, non_camel_case_types)]
mod generated {
    include!("gen.rs");
}

#[allow(unused_imports)]
use crate::harness::{NoSplice as _, ViaSplice as _};

pub fn run(case: &crate::harness::Case) -> crate::harness::Value {
    if case.uri == "#document" {
        return DOCUMENT_UNION;
    }
    macro_rules! dispatch {
        ($(($id:literal, $t:ident)),* $(,)?) => {
            match case.uri.as_str() {
                $($id => crate::harness::check::<generated::$t>(
                    case,
                    (&crate::harness::Tag::<generated::$t>(::core::marker::PhantomData)).splicer(),
                ),)*
                _ => crate::harness::unknown(),
            }
        };
    }
    generated::for_each_schema_type!(dispatch)
}
"##;

/// Whether a generated module has the document union (`Document`).
pub fn has_document_union(code: &str) -> bool {
    code.contains("\npub enum Document {")
}

/// Builds `modules` in `crates` checker crates of the workspace at `dir` (its target directory
/// `target`, shared between builds), taking out the modules that fail until the rest compiles.
/// With `check_only`, the crates are only checked (`cargo check`) and no binary is made.
pub fn build(
    dir: &Path,
    target: &Path,
    modules: &[Module],
    crates: usize,
    check_only: bool,
) -> std::io::Result<Built> {
    let mut built = Built::default();
    let mut live: Vec<&Module> = modules.iter().collect();
    loop {
        let shares = write(dir, &live, crates)?;
        let (ok, errors) = cargo(dir, target, if check_only { "check" } else { "build" })?;
        if ok && check_only {
            return Ok(built);
        }
        if ok {
            built.binaries = shares
                .into_iter()
                .enumerate()
                .filter(|(_, ids)| !ids.is_empty())
                .map(|(k, ids)| (target.join(format!("debug/checker{k}")), ids))
                .collect();
            return Ok(built);
        }
        let mut named = false;
        for (id, text) in errors {
            match id {
                Some(id) => {
                    named = true;
                    let e = built.failed.entry(id).or_default();
                    e.push_str(&text);
                }
                None => built.unattributed.push(text),
            }
        }
        live.retain(|m| !built.failed.contains_key(&m.id));
        if !named || live.is_empty() {
            // Nothing left to take out: the whole build failed for a reason no module has.
            for m in &live {
                built
                    .failed
                    .entry(m.id)
                    .or_insert_with(|| built.unattributed.join("\n"));
            }
            return Ok(built);
        }
    }
}

/// Writes the workspace: `crates` checker crates, the modules dealt out by size. Returns each
/// crate's modules.
fn write(dir: &Path, modules: &[&Module], crates: usize) -> std::io::Result<Vec<Vec<usize>>> {
    let mut shares: Vec<(usize, Vec<&Module>)> = (0..crates).map(|_| (0, Vec::new())).collect();
    let mut by_size: Vec<&&Module> = modules.iter().collect();
    by_size.sort_by_key(|m| std::cmp::Reverse(m.code.len()));
    for m in by_size {
        let lightest = shares
            .iter_mut()
            .min_by_key(|(size, _)| *size)
            .expect("a crate");
        lightest.0 += m.code.len();
        lightest.1.push(m);
    }
    let members: Vec<String> = (0..crates).map(|k| format!("\"checker{k}\"")).collect();
    std::fs::create_dir_all(dir)?;
    write_if_changed(&dir.join("Cargo.toml"), &workspace_manifest(&members))?;
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock");
    write_if_changed(&dir.join("Cargo.lock"), &std::fs::read_to_string(lock)?)?;
    for (k, (_, share)) in shares.iter().enumerate() {
        let src = dir.join(format!("checker{k}/src"));
        std::fs::create_dir_all(&src)?;
        // Files are rewritten only where they changed, so that cargo rebuilds nothing for a
        // build it has made before (a shrink's rounds); modules of an earlier build go.
        for e in std::fs::read_dir(&src)?.filter_map(Result::ok) {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() && !share.iter().any(|m| name == format!("m{}", m.id)) {
                std::fs::remove_dir_all(e.path())?;
            }
        }
        write_if_changed(
            &dir.join(format!("checker{k}/Cargo.toml")),
            &crate_manifest(k),
        )?;
        write_if_changed(&src.join("harness.rs"), HARNESS)?;
        let mut main = String::from("mod harness;\n");
        let mut arms = String::new();
        for m in share {
            let mdir = src.join(format!("m{}", m.id));
            std::fs::create_dir_all(&mdir)?;
            write_if_changed(
                &mdir.join("mod.rs"),
                &module_source(has_document_union(&m.code)),
            )?;
            write_if_changed(&mdir.join("gen.rs"), &m.code)?;
            main.push_str(&format!("mod m{};\n", m.id));
            arms.push_str(&format!("        \"{0}\" => m{0}::run(case),\n", m.id));
        }
        main.push_str(&format!(
            "\nfn run(module: &str, case: &harness::Case) -> harness::Value {{\n    match module {{\n{arms}        _ => harness::unknown(),\n    }}\n}}\n\nfn main() {{\n    // Deep documents recurse deeply: a large stack, so that only a real overflow is one.\n    std::thread::Builder::new().stack_size(256 << 20).spawn(|| harness::main_loop(run)).unwrap().join().unwrap();\n}}\n"
        ));
        write_if_changed(&src.join("main.rs"), &main)?;
    }
    Ok(shares
        .into_iter()
        .map(|(_, ms)| ms.iter().map(|m| m.id).collect())
        .collect())
}

/// Writes `text` to `path` unless the file already holds it.
fn write_if_changed(path: &Path, text: &str) -> std::io::Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text)?;
    }
    Ok(())
}

fn workspace_manifest(members: &[String]) -> String {
    format!(
        "[workspace]\nmembers = [{}]\nresolver = \"3\"\n\n[profile.dev]\ndebug = false\n\n# The runtime and its dependencies are built once; optimised, the documents run faster.\n[profile.dev.package.\"*\"]\nopt-level = 1\n",
        members.join(", ")
    )
}

fn crate_manifest(k: usize) -> String {
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../codegen-runtime");
    format!(
        "[package]\nname = \"checker{k}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nprp-codegen-runtime = {{ path = \"{}\", features = [\"splice\"] }}\n",
        runtime.display()
    )
}

/// A compiler error and the module it is in, if it names one.
type Located = (Option<usize>, String);

/// Runs `cargo COMMAND` (`build` or `check`) on the workspace; returns whether it succeeded,
/// and each error with the module it names (`None` when it names none).
fn cargo(dir: &Path, target: &Path, command: &str) -> std::io::Result<(bool, Vec<Located>)> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            command,
            "--offline",
            "--quiet",
            "--message-format=json",
            "--manifest-path",
        ])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .output()?;
    let mut errors = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v["reason"] != "compiler-message" || v["message"]["level"] != "error" {
            continue;
        }
        let text = v["message"]["rendered"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        errors.push((module_of(&v["message"]), text));
    }
    if !out.status.success() && errors.is_empty() {
        errors.push((None, String::from_utf8_lossy(&out.stderr).into_owned()));
    }
    Ok((out.status.success(), errors))
}

/// The module a rustc message is in: the first `/m{id}/` among its spans' files, their macro
/// expansions' call sites and its children's spans.
fn module_of(message: &Value) -> Option<usize> {
    let mut files = Vec::new();
    collect_files(message, &mut files);
    files.iter().find_map(|f| {
        let at = f.find("/m")?;
        let rest = &f[at + 2..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        (rest[digits.len()..].starts_with('/') && !digits.is_empty())
            .then(|| digits.parse().ok())?
    })
}

fn collect_files(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if let Some(f) = o.get("file_name").and_then(Value::as_str) {
                out.push(f.to_owned());
            }
            for (k, x) in o {
                if k != "rendered" {
                    collect_files(x, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_files(x, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::module_of;
    use serde_json::json;

    #[test]
    fn errors_are_traced_to_their_module_through_macro_expansions() {
        let in_macro = json!({"spans": [{
            "file_name": "/repo/codegen-runtime/src/macros.rs",
            "expansion": {"span": {"file_name": "checker0/src/m17/gen.rs"}}
        }]});
        assert_eq!(module_of(&in_macro), Some(17));
        let child = json!({"spans": [], "children": [{"spans": [{"file_name": "checker1/src/m3/mod.rs"}]}]});
        assert_eq!(module_of(&child), Some(3));
        assert_eq!(
            module_of(&json!({"spans": [{"file_name": "checker0/src/main.rs"}]})),
            None
        );
        assert_eq!(
            module_of(&json!({"spans": [{"file_name": "/home/m2x/file.rs"}]})),
            None
        );
    }
}
