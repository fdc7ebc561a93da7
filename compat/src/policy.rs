//! PRP's versioning rules on top of the findings: "Breaking changes require a new required
//! version". A break caused by a change inside a file whose version did not change (same `$id`,
//! same `schema` constant, same `schemaVersion` constant) violates the policy; the same break
//! under a new version is what the policy asks for. The file judged is the one the change is in,
//! so a schema that embeds a newly versioned one through a `$ref` inherits its new version.

use crate::{Direction, Finding};
use prp_codegen::SchemaSet;
use serde_json::Value;

/// What fails a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// PRP's policy: a break, either way, under an unchanged version.
    Policy,
    /// Any backward break.
    Backward,
    /// Any forward break.
    Forward,
    /// Any break.
    Full,
}

/// A finding against the policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// A break under an unchanged version.
    Violation,
    /// A break under a new version: allowed.
    NewVersion,
    /// A backward break that only a member newly declared in an open object causes: the
    /// additive optional field the policy allows within a version (old consumers ignore it, and
    /// only a producer that already sent that name otherwise could be refused).
    Additive,
    /// No witness: not a break, reported for a person to look at.
    Suspected,
}

impl Verdict {
    /// `"violation"`, `"new-version"` or `"suspected"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Violation => "violation",
            Verdict::NewVersion => "new-version",
            Verdict::Additive => "additive",
            Verdict::Suspected => "suspected",
        }
    }
}

/// The version a schema file declares: its `schema` and `schemaVersion` constants.
fn version(set: &SchemaSet, id: &str) -> (Option<Value>, Option<Value>) {
    let Some(f) = set.files.iter().find(|f| f.id == id) else {
        return (None, None);
    };
    let constant = |member: &str| {
        let s = f.root.get("properties")?.get(member)?;
        s.get("const")
            .or_else(|| {
                s.get("enum")
                    .filter(|e| e.as_array().is_some_and(|a| a.len() == 1))
            })
            .cloned()
    };
    (constant("schema"), constant("schemaVersion"))
}

/// The policy's verdict on `f`.
pub fn judge(old: &SchemaSet, new: &SchemaSet, f: &Finding) -> Verdict {
    if f.witness.is_none() {
        Verdict::Suspected
    } else if f.open_member_added {
        Verdict::Additive
    } else if version(old, f.changed_file()) == version(new, f.changed_file()) {
        Verdict::Violation
    } else {
        Verdict::NewVersion
    }
}

/// Whether `f`, judged `v`, fails the comparison in `mode`. Suspected breaks have no document to
/// show and never fail. A member newly declared in an open object never fails either, in any
/// mode: the name was undeclared, a producer that sent it relied on nothing, and the policy
/// allows additive optional fields within a version; the finding stays in the report, witness and
/// all, for a person to judge.
pub fn fails(mode: Mode, f: &Finding, v: Verdict) -> bool {
    if matches!(v, Verdict::Suspected | Verdict::Additive) {
        return false;
    }
    match mode {
        Mode::Policy => v == Verdict::Violation,
        Mode::Backward => f.direction == Direction::Backward,
        Mode::Forward => f.direction == Direction::Forward,
        Mode::Full => true,
    }
}
