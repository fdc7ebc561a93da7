//! What mutants start from: a schema directory held in memory (PRP's `schemas/`, or one group of
//! the official JSON-Schema-Test-Suite, of any dialect it has, with the remote documents it
//! refers to), the generator options it is generated with, and documents known for it.

use prp_codegen::{Dialect, Options, SchemaFile, SchemaSet};
use serde_json::Value;
use std::path::Path;

include!("../../prp-types/codegen_options.rs");

/// One schema file: its path inside the directory and its JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct File {
    /// The path inside the directory (`provider/acpx-sidecar.schema.json`).
    pub path: String,
    /// The parsed schema.
    pub value: Value,
}

/// How a source's directory is generated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setup {
    /// PRP's options: a document union over `schema`, open enums, named goal types, the
    /// contract's `date-time` profile asserted.
    Prp,
    /// The suite's base URI `http://localhost:1234/`, and the dialect of files without
    /// `$schema` (the suite's older files name none).
    Suite(Dialect),
}

/// The base URI of the suite's files without `$id`.
pub const SUITE_BASE: &str = "http://localhost:1234/";

/// A directory to mutate.
#[derive(Debug, Clone)]
pub struct Source {
    /// `prp`, `suite:FILE#GROUP` (draft 2020-12) or `suite-DIALECT:FILE#GROUP`.
    pub name: String,
    /// Every file of the directory.
    pub files: Vec<File>,
    /// The files edits are made in (indexes into `files`); the others are only referred to.
    pub editable: Vec<usize>,
    /// How it is generated.
    pub setup: Setup,
    /// Documents known to be worth trying (PRP's fixture documents, a suite group's instances),
    /// tried against every schema of a mutant; the oracles say which each accepts.
    pub documents: Vec<Value>,
}

impl Source {
    /// PRP's schema directory, with the documents below `corpus` (if any).
    pub fn prp(schemas: &Path, corpus: Option<&Path>) -> std::io::Result<Source> {
        let mut files = Vec::new();
        read_tree(schemas, "", &mut files)?;
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let mut documents = Vec::new();
        if let Some(dir) = corpus {
            let mut docs = Vec::new();
            read_tree(dir, "", &mut docs)?;
            documents = docs.into_iter().map(|f| f.value).collect();
        }
        Ok(Source {
            name: "prp".into(),
            editable: (0..files.len()).collect(),
            files,
            setup: Setup::Prp,
            documents,
        })
    }

    /// One source per group of the suite's files of every dialect under `suite` (the suite's
    /// root), each with the remote documents of its dialect that its schema names.
    pub fn suite_all(suite: &Path) -> std::io::Result<Vec<Source>> {
        let mut out = Vec::new();
        for dialect in Dialect::ALL {
            out.extend(Source::suite(suite, dialect)?);
        }
        Ok(out)
    }

    /// One source per group of the suite's `dialect` files under `suite` (the suite's root), each
    /// with the remote documents of that dialect its schema names.
    pub fn suite(suite: &Path, dialect: Dialect) -> std::io::Result<Vec<Source>> {
        let mut remotes = Vec::new();
        read_tree(&suite.join("remotes"), "", &mut remotes)?;
        // Another dialect's remotes, and metaschemas declaring `$vocabulary`, are not generated.
        remotes.retain(|f| {
            prp_testkit::suite_remote_for(&f.path, dialect) && f.value.get("$vocabulary").is_none()
        });
        let dir = suite.join("tests").join(prp_testkit::suite_folder(dialect));
        let mut names: Vec<_> = std::fs::read_dir(&dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        names.sort();
        let prefix = match dialect {
            Dialect::Draft202012 => "suite".to_owned(),
            d => format!("suite-{d}"),
        };
        let mut out = Vec::new();
        for path in names {
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            let groups: Value = serde_json::from_slice(&std::fs::read(&path)?)?;
            for (g, group) in groups.as_array().into_iter().flatten().enumerate() {
                let schema = group["schema"].clone();
                let text = schema.to_string();
                let mut files = vec![File {
                    path: "root.schema.json".into(),
                    value: schema,
                }];
                if text.contains(SUITE_BASE) {
                    files.extend(remotes.iter().cloned());
                }
                let documents = group["tests"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|t| t["data"].clone())
                    .collect();
                out.push(Source {
                    name: format!("{prefix}:{stem}#{g}"),
                    files,
                    editable: vec![0],
                    setup: Setup::Suite(dialect),
                    documents,
                });
            }
        }
        Ok(out)
    }

    /// The dialect of the source's files that name none.
    pub fn dialect(&self) -> Dialect {
        match self.setup {
            Setup::Prp => Dialect::Draft202012,
            Setup::Suite(d) => d,
        }
    }

    /// The generator options for `files` (a mutant's directory): PRP's names only for the
    /// definitions the directory still has, so that a subset of PRP's files generates.
    pub fn options(&self, set: &SchemaSet) -> Options {
        match self.setup {
            Setup::Suite(d) => Options::new().base_uri(SUITE_BASE).default_dialect(d),
            Setup::Prp => prp_options_naming(|key| set.node_at(key).is_some()),
        }
    }

    /// [`Source::options`] as a feature case's `options.json` says them (see prp-codegen's
    /// `tests/features.rs`).
    pub fn options_json(&self, set: &SchemaSet) -> Value {
        match self.setup {
            Setup::Suite(Dialect::Draft202012) => serde_json::json!({ "base_uri": SUITE_BASE }),
            Setup::Suite(d) => serde_json::json!({ "base_uri": SUITE_BASE, "dialect": d.name() }),
            Setup::Prp => {
                let names: serde_json::Map<String, Value> = PRP_NAMES
                    .iter()
                    .filter(|(key, _)| set.node_at(key).is_some())
                    .map(|(key, name)| ((*key).to_owned(), Value::from(*name)))
                    .collect();
                serde_json::json!({
                    "non_exhaustive": true,
                    "document_union": ["Document", "schema"],
                    "formats": { "date-time": PRP_DATE_TIME },
                    "names": names,
                })
            }
        }
    }

    /// The base URI files without `$id` are known by.
    pub fn base_uri(&self) -> &'static str {
        match self.setup {
            Setup::Prp => "file:///",
            Setup::Suite(_) => SUITE_BASE,
        }
    }

    /// The member a document union is keyed by, if the source has one.
    pub fn union_member(&self) -> Option<&'static str> {
        (self.setup == Setup::Prp).then_some("schema")
    }

    /// `files` loaded as the generator loads a directory.
    pub fn schema_set(&self, files: &[File]) -> prp_codegen::Result<SchemaSet> {
        let reading = Options::new()
            .base_uri(self.base_uri())
            .default_dialect(self.dialect());
        let parsed = files
            .iter()
            .map(|f| SchemaSet::parse_with(f.path.clone(), &f.value.to_string(), &reading))
            .collect::<prp_codegen::Result<Vec<SchemaFile>>>()?;
        SchemaSet::from_files(parsed)
    }
}

/// Every `*.json` file below `dir`, with its path relative to `root_path`.
fn read_tree(dir: &Path, prefix: &str, out: &mut Vec<File>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        if path.is_dir() {
            read_tree(&path, &format!("{prefix}{name}/"), out)?;
        } else if name.ends_with(".json") {
            let value = serde_json::from_slice(&std::fs::read(&path)?)?;
            out.push(File {
                path: format!("{prefix}{name}"),
                value,
            });
        }
    }
    Ok(())
}

/// PRP's `date-time` profile, as its options assert it.
pub const PRP_DATE_TIME_PATTERN: &str = PRP_DATE_TIME;
