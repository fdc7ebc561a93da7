//! Breaking changes between two revisions of a JSON Schema directory, each shown by a document.
//!
//! For every schema `$id` and every named `$defs` entry on both sides, [`compare`] decides both
//! directions: *backward* (every document OLD accepts, NEW accepts: old producers, new consumers)
//! and *forward* (every document NEW accepts, OLD accepts: new producers, old consumers, who fail
//! closed). A break is reported only with a **witness**, a document one side's checker accepts and
//! the other's refuses, checked by both before it is reported. Where the schemas' meaning differs
//! (see `normal`) and no witness is found, the change is reported apart as *suspected*. Schemas
//! whose meaning is the same (keyword order, a subschema moved behind a `$ref`, a redundant
//! `type`) are not searched at all: that is what keeps an unchanged directory quiet and fast.
//!
//! A witness is built before it is searched for: at each change, values from every keyword of both
//! sides (`witness`; those the two schemas there part on first) are set at the change's place in
//! documents that reach it (plausible instances of the whole schema, routed through the
//! alternative, conditional, `$ref` or `$dynamicRef` that leads there, then the documents of an
//! optional corpus). `format` counts only where the [`Side`]'s options assert it, as in draft
//! 2020-12. [`policy`] adds PRP's versioning rules.

pub mod git;
mod normal;
mod pattern;
pub mod policy;
/// Documents built from a schema: a plausible instance, and values around its rules (also the
/// schema-mutation tests' samples).
pub mod sample;
mod search;
mod witness;

use prp_codegen::{Options, SchemaSet};
use prp_codegen_runtime::eval::Program;
use prp_vocabulary::{Keyword, Schema, pointer, uri};
use serde_json::Value;
use std::collections::BTreeSet;

/// Which promise a break breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Direction {
    /// A document OLD accepts that NEW refuses: new consumers break on old producers.
    Backward,
    /// A document NEW accepts that OLD refuses: old consumers break on new producers.
    Forward,
}

impl Direction {
    /// `"backward"` or `"forward"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Backward => "backward",
            Direction::Forward => "forward",
        }
    }
}

/// One side's verdict on a witness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the side's schema accepts the document.
    pub valid: bool,
    /// The keyword code of the refusal (`required`, `enum`, ...); `None` when valid.
    pub code: Option<String>,
}

/// A break, or a suspected one.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The schema's `$id`.
    pub id: String,
    /// The `$defs` entry, or `None` for the schema itself.
    pub defs: Option<String>,
    /// The schema or definition as a URI, as NEW's file spells it (`…#/$defs/x~1y`, or
    /// `…#/definitions/x~1y` in a draft-07 file): the one name a report gives it.
    pub uri: String,
    /// Which promise it breaks.
    pub direction: Direction,
    /// A document one side accepts and the other refuses; `None` for a suspected break.
    pub witness: Option<Value>,
    /// Where the change that causes it is: a JSON pointer in the schema's file (`""` for its
    /// root), or the URI of the node when it is in another file, each as the file spells it
    /// (`/definitions/…` in a draft-07 file).
    pub schema_pointer: String,
    /// Where in the witness the verdicts part (the refusing side's failure): a JSON pointer,
    /// `""` for the whole witness.
    pub instance_pointer: String,
    /// OLD's verdict on the witness.
    pub old: Verdict,
    /// NEW's verdict on the witness.
    pub new: Verdict,
    /// The change is a member NEW declares in an object OLD leaves open, and the break is
    /// backward: OLD let any value through under that name, NEW gives it a schema.
    pub open_member_added: bool,
}

impl Finding {
    /// The finding as `prp compat --json` prints it: `id`, `defs`, `uri`, `direction`, `witness`,
    /// `schemaPointer`, `instancePointer` (each written `/` for a root, as every report writes
    /// it), `old` and `new` (each `{"valid", "code"}`), `policy`.
    pub fn to_json(&self, policy: policy::Verdict) -> Value {
        let verdict = |v: &Verdict| serde_json::json!({ "valid": v.valid, "code": v.code });
        serde_json::json!({
            "id": self.id,
            "defs": self.defs,
            "uri": self.uri,
            "direction": self.direction.as_str(),
            "witness": self.witness,
            "schemaPointer": pointer::shown(&self.schema_pointer),
            "instancePointer": pointer::shown(&self.instance_pointer),
            "old": verdict(&self.old),
            "new": verdict(&self.new),
            "policy": policy.as_str(),
        })
    }

    /// The `$id` of the file the change is in: the schema's own, or the one a `$ref` leads to.
    pub fn changed_file(&self) -> &str {
        match self.schema_pointer.split_once('#') {
            Some((file, _)) if !file.is_empty() => file,
            _ => &self.id,
        }
    }
}

/// What [`compare`] found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Schemas and definitions only NEW has (`$id`, or `$id#/$defs/name`).
    pub added: Vec<String>,
    /// Schemas and definitions only OLD has.
    pub removed: Vec<String>,
    /// Breaks with witnesses, then suspected ones, by schema.
    pub findings: Vec<Finding>,
}

/// Why a comparison could not be made.
#[derive(Debug)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// One side: its schemas and the checker of each schema compared.
pub struct Side<'a> {
    set: &'a SchemaSet,
    options: &'a Options,
}

impl<'a> Side<'a> {
    /// A side over `set`, checking with the formats `options` asserts.
    pub fn new(set: &'a SchemaSet, options: &'a Options) -> Self {
        Side { set, options }
    }

    /// The checker of the schema at `uri` (a canonical URI, in 2020-12's spelling).
    fn checker(&self, uri: &str) -> Result<Checker, Error> {
        let c = prp_codegen::compile_checker(self.set, &self.set.spelled(uri), self.options)
            .map_err(|e| Error(e.to_string()))?;
        Ok(Checker {
            program: c.program,
            entry: c.entry,
        })
    }
}

/// A compiled schema.
struct Checker {
    program: Program,
    entry: usize,
}

impl Checker {
    /// The verdict on `v`, and where it failed.
    fn verdict(&self, v: &Value) -> (Verdict, String) {
        match self.program.check(self.entry, v) {
            Ok(()) => (
                Verdict {
                    valid: true,
                    code: None,
                },
                String::new(),
            ),
            Err(f) => (
                Verdict {
                    valid: false,
                    code: Some(f.code.as_str().to_owned()),
                },
                f.rel,
            ),
        }
    }
}

/// One schema or definition present on both sides.
struct Target {
    id: String,
    defs: Option<String>,
    /// Canonical (2020-12's spelling).
    uri: String,
    /// As NEW's file spells it.
    label: String,
}

/// The schemas and definitions of a set, as `(id, defs)`.
fn entries(set: &SchemaSet) -> BTreeSet<(String, Option<String>)> {
    let mut out = BTreeSet::new();
    for f in &set.files {
        out.insert((f.id.clone(), None));
        for name in f
            .root
            .keyword(Keyword::Defs)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            out.insert((f.id.clone(), Some(name.0.clone())));
        }
    }
    out
}

/// The canonical URI of a schema or definition: `$id`, or `$id#/$defs/NAME` (in 2020-12's
/// spelling, which every file is read into).
fn uri((id, defs): &(String, Option<String>)) -> String {
    match defs {
        Some(d) => uri::definition(id, d),
        None => id.clone(),
    }
}

/// A schema or definition as `set`'s file spells it (`…#/definitions/NAME` in a draft-07 file).
fn label(set: &SchemaSet) -> impl Fn(&(String, Option<String>)) -> String + '_ {
    move |key| set.spelled(&uri(key))
}

/// Compares OLD and NEW: the schemas and definitions added and removed, and for those on both
/// sides whose meaning differs, a witness per direction that breaks (or a suspected break).
/// `corpus` holds documents to start the search from (any: each is tried where a side accepts it).
pub fn compare(old: &Side, new: &Side, corpus: &[Value]) -> Result<Report, Error> {
    let (before, after) = (entries(old.set), entries(new.set));
    let mut report = Report {
        added: after.difference(&before).map(label(new.set)).collect(),
        removed: before.difference(&after).map(label(old.set)).collect(),
        findings: Vec::new(),
    };
    for key in before.intersection(&after) {
        let uri = uri(key);
        if normal::meaning(old.set, old.options, &uri)
            == normal::meaning(new.set, new.options, &uri)
        {
            continue;
        }
        let target = Target {
            id: key.0.clone(),
            defs: key.1.clone(),
            label: new.set.spelled(&uri),
            uri,
        };
        report
            .findings
            .extend(search::findings(old, new, &target, corpus)?);
    }
    report.findings.sort_by_key(|f| {
        (
            f.witness.is_none(),
            f.id.clone(),
            f.defs.clone(),
            f.direction,
        )
    });
    Ok(report)
}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
