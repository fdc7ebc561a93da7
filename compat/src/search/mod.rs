//! The witness search: where the two schemas differ (`changes`), which documents to try there
//! (values around each change's rules on both sides, set at the change's place in plausible
//! instances and corpus documents), and the smallest document each direction breaks on.

mod candidates;
mod diff;
mod shrink;

use crate::{Checker, Direction, Error, Finding, Side, Target, Verdict};
use candidates::{Which, bases, candidates, routed};
use diff::{Change, diff};
use prp_vocabulary::{pointer, uri};
use serde_json::Value;

/// How many documents a target is tried with at most.
const BUDGET: usize = 20_000;
/// How many of those one change may take: a change listed late still gets its turn.
const PER_CHANGE: usize = 4_000;

/// The findings of one target whose meaning differs.
pub(crate) fn findings(
    old: &Side,
    new: &Side,
    target: &Target,
    corpus: &[Value],
) -> Result<Vec<Finding>, Error> {
    let (oc, nc) = (old.checker(&target.uri)?, new.checker(&target.uri)?);
    let (Some((ou, on)), Some((nu, nn))) =
        (old.set.node_at(&target.uri), new.set.node_at(&target.uri))
    else {
        return Ok(Vec::new());
    };
    let changes = diff(old, new, (&ou, on), (&nu, nn));
    let (bases, built_bases) = bases(old, new, (&ou, on), (&nu, nn), &oc, &nc, corpus);
    let judge = Judge {
        target,
        changes: &changes,
        checkers: (&oc, &nc),
        sets: (old.set, new.set),
        file_prefix: target.uri.split('#').next().unwrap_or_default(),
    };
    // The smallest witness per direction, with the change it was built for.
    let mut best: [Option<(Finding, usize)>; 2] = [None, None];
    let mut tried = 0;
    'changes: for (i, change) in changes.iter().enumerate() {
        // Built bases, then those routed to the change, then the corpus's documents.
        let (built, corpus) = bases.split_at(built_bases);
        let mut here = built.to_vec();
        for (set, side) in [(old.set, Which::Old), (new.set, Which::New)] {
            here.extend(bases.iter().flat_map(|b| routed(set, side, b, change)));
        }
        here.extend(corpus.iter().cloned());
        let built = here.len() - corpus.len();
        let local = Local::new(old, new, change);
        for doc in candidates(old.set, new.set, change, &here, built, &local).take(PER_CHANGE) {
            tried += 1;
            if tried > BUDGET {
                break 'changes;
            }
            let Some(f) = judge.finding(change, doc) else {
                continue;
            };
            let slot = &mut best[f.direction as usize];
            if slot
                .as_ref()
                .is_none_or(|(b, _)| shrink::size(&f) < shrink::size(b))
            {
                *slot = Some((f, i));
            }
        }
    }
    let mut out: Vec<Finding> = best
        .into_iter()
        .flatten()
        .map(|(f, i)| judge.shrunk(f, &changes[i]))
        .collect();
    if out.is_empty() {
        // The meaning differs and no document shows it: suspected, both ways.
        let pointer = changes
            .first()
            .map(|c| judge.place(&c.pointer))
            .unwrap_or_default();
        for direction in [Direction::Backward, Direction::Forward] {
            out.push(Finding {
                id: target.id.clone(),
                defs: target.defs.clone(),
                uri: target.label.clone(),
                direction,
                witness: None,
                schema_pointer: pointer.clone(),
                instance_pointer: String::new(),
                old: Verdict {
                    valid: true,
                    code: None,
                },
                new: Verdict {
                    valid: true,
                    code: None,
                },
                open_member_added: false,
            });
        }
    }
    Ok(out)
}

/// The two sides' schemas at a change, compiled on their own: a value one takes and the other
/// refuses there is the core of a witness, so those values are tried first.
struct Local(Option<(Checker, Checker)>);

impl Local {
    fn new(old: &Side, new: &Side, change: &Change) -> Local {
        let pair = old
            .checker(&change.old.0)
            .ok()
            .zip(new.checker(&change.new.0).ok());
        Local(pair)
    }

    /// Whether the two schemas at the change part on `v`.
    fn separates(&self, v: &Value) -> bool {
        self.0
            .as_ref()
            .is_some_and(|(o, n)| o.verdict(v).0.valid != n.verdict(v).0.valid)
    }
}

/// Makes findings of documents: both sides' verdicts, where they part, and the change shown.
struct Judge<'a> {
    target: &'a Target,
    changes: &'a [Change],
    checkers: (&'a Checker, &'a Checker),
    /// OLD's and NEW's schemas, for the files' own spelling of a place.
    sets: (&'a prp_codegen::SchemaSet, &'a prp_codegen::SchemaSet),
    /// The `$id` of the target's file: pointers into it are written relative.
    file_prefix: &'a str,
}

impl Judge<'_> {
    /// The place of a change (a canonical URI) as a report shows it: in its file's own
    /// spelling (NEW's, or OLD's where NEW has no such node), relative to the target's file.
    fn place(&self, canonical: &str) -> String {
        let (old, new) = self.sets;
        let set = if new.node_at(canonical).is_some() {
            new
        } else {
            old
        };
        relative(&set.spelled(canonical), self.file_prefix)
    }

    /// The finding `doc` makes, tried for `change`, when one side accepts it and the other not.
    fn finding(&self, change: &Change, doc: Value) -> Option<Finding> {
        let ((ov, op), (nv, np)) = (self.checkers.0.verdict(&doc), self.checkers.1.verdict(&doc));
        let direction = match (ov.valid, nv.valid) {
            (true, false) => Direction::Backward,
            (false, true) => Direction::Forward,
            _ => return None,
        };
        let instance_pointer = if ov.valid { np } else { op };
        let cause = cause(self.changes, change, &instance_pointer);
        Some(Finding {
            id: self.target.id.clone(),
            defs: self.target.defs.clone(),
            uri: self.target.label.clone(),
            direction,
            witness: Some(doc),
            schema_pointer: self.place(&cause.pointer),
            instance_pointer,
            old: ov,
            new: nv,
            open_member_added: change.open_member_added && direction == Direction::Backward,
        })
    }

    /// `f` with its witness made as small as it goes while both sides still say what they said.
    fn shrunk(&self, f: Finding, change: &Change) -> Finding {
        let Some(doc) = f.witness.clone() else {
            return f;
        };
        let doc = shrink::smallest(doc, |d| {
            self.checkers.0.verdict(d).0.valid == f.old.valid
                && self.checkers.1.verdict(d).0.valid == f.new.valid
        });
        self.finding(change, doc).unwrap_or(f)
    }
}

/// The change a witness shows: the one it was built for when that change applies where the
/// verdicts part (or above), else the change applying deepest above that place (a corpus
/// document can break on another change than the one it was tried for).
fn cause<'c>(changes: &'c [Change], tried: &'c Change, instance_pointer: &str) -> &'c Change {
    let tokens: Vec<String> = pointer::tokens(instance_pointer)
        .map(|t| t.into_owned())
        .collect();
    let above = |c: &Change| tokens.starts_with(&c.path);
    if above(tried) {
        return tried;
    }
    changes
        .iter()
        .filter(|c| above(c))
        .max_by_key(|c| c.path.len())
        .unwrap_or(tried)
}

/// `place` (a URI) as a JSON pointer (its fragment decoded) when it is in the file `prefix`
/// names, else as the URI.
fn relative(place: &str, prefix: &str) -> String {
    match uri::split_fragment(place) {
        (file, Some(pointer)) if file == prefix && place.contains('#') => pointer,
        _ => place.to_owned(),
    }
}
