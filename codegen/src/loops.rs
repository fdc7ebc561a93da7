//! Schemas that apply themselves to the instance they are checking: `{"oneOf": [{"type":
//! "integer"}, {"$ref": "#"}]}` needs its own verdict before it has one. JSON Schema's core
//! specification calls a reference back to a schema for the same instance location an infinite
//! loop; it never finishes evaluating, and a type for it would hold itself. The directory is
//! refused at the schema that closes the loop. References that move into a member or an item (a
//! tree of nodes) are recursion, and fine. `$dynamicRef` is not followed: where it lands depends
//! on the dynamic scope, and its static target alone would refuse sound schemas.

use crate::error::{Code, Result};
use crate::index::{self, Index};
use crate::load::{Loc, SchemaFile};
use prp_vocabulary::{Dialect, Keyword, Schema, subschema_pointer, subschemas};
use std::collections::BTreeMap;

#[derive(Clone, Copy, PartialEq)]
enum Mark {
    /// On the path being walked.
    Open,
    /// Walked, no loop through it.
    Done,
}

/// The indexed files a loop is looked for in.
#[derive(Clone, Copy)]
struct Set<'a> {
    files: &'a [SchemaFile],
    index: &'a Index,
}

/// Refuses `files` when some schema reaches itself through `$ref`s and the applicators that keep
/// the instance where it is.
pub(crate) fn check(files: &[SchemaFile], index: &Index) -> Result<()> {
    let set = Set { files, index };
    let mut marks = BTreeMap::new();
    for (file, f) in files.iter().enumerate() {
        let mut nodes = Vec::new();
        prp_vocabulary::walk(&f.root, Dialect::Draft202012, |at, node| {
            if node.is_object() {
                nodes.push(at.to_owned());
            }
        });
        for pointer in nodes {
            walk(set, Loc { file, pointer }, &mut marks)?;
        }
    }
    Ok(())
}

/// The schemas `loc` applies to its own instance: its in-place subschemas and its `$ref`'s target.
fn next(set: Set, loc: &Loc) -> Vec<Loc> {
    let Some(node) = index::node(set.files, loc) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    subschemas(node, Dialect::Draft202012, |k, place, _| {
        if k.applies_in_place() {
            out.push(Loc {
                file: loc.file,
                pointer: subschema_pointer(&loc.pointer, k, place),
            });
        }
    });
    // An unresolved reference is refused where references are resolved, with its own message.
    if let Some(r) = node.keyword(Keyword::Ref).and_then(|r| r.as_str())
        && let Ok(target) = set.index.resolve(set.files, loc, r)
    {
        out.push(target);
    }
    out
}

/// Depth-first from `start`, without recursion (a long chain of references is no stack risk).
fn walk(set: Set, start: Loc, marks: &mut BTreeMap<Loc, Mark>) -> Result<()> {
    if marks.contains_key(&start) {
        return Ok(());
    }
    marks.insert(start.clone(), Mark::Open);
    let mut stack = vec![(start.clone(), next(set, &start), 0usize)];
    while let Some((loc, succ, i)) = stack.last_mut() {
        let Some(to) = succ.get(*i).cloned() else {
            marks.insert(loc.clone(), Mark::Done);
            stack.pop();
            continue;
        };
        *i += 1;
        match marks.get(&to) {
            Some(Mark::Done) => {}
            Some(Mark::Open) => {
                let from = loc.clone();
                return Err(index::fail(
                    set.files,
                    Code::InvalidSchema,
                    &from,
                    format!(
                        "this schema reaches {} again for the same instance (through `$ref` and \
                         applicators that do not move into a member or an item): checking it would \
                         never finish",
                        index::spelled_uri(set.files, &to)
                    ),
                ));
            }
            None => {
                marks.insert(to.clone(), Mark::Open);
                let succ = next(set, &to);
                stack.push((to, succ, 0));
            }
        }
    }
    Ok(())
}
