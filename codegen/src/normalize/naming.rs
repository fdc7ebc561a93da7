//! Type names: a file's root after the file, a `$defs` entry after its key (with the file in front
//! when the key is not unique), the caller's chosen names over both, and names from a hint or the
//! node's place for everything else.

use super::Normalizer;
use crate::error::Code;
use crate::error::Result;
use crate::load::Loc;
use crate::names::{RESERVED_TYPES as RESERVED, join, pascal, unique_type};
use crate::set::SchemaSet;
use prp_vocabulary::Keyword;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// The name of every root and `$defs` entry, before any type takes a name: the caller's choice
/// (`names`, keyed by `$id#pointer`) where there is one.
pub(super) fn def_names(
    set: &SchemaSet,
    names: &BTreeMap<String, String>,
) -> Result<HashMap<Loc, String>> {
    // Roots are named after their file; `$defs` after their key, prefixed by the file when the key
    // is used by more than one file (their constraints may differ).
    let mut def_names = HashMap::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for f in &set.files {
        *counts.entry(file_stem_name(&f.path)).or_default() += 1;
        if let Some(defs) = f.root.get("$defs").and_then(Value::as_object) {
            for k in defs.keys() {
                *counts.entry(pascal(k)).or_default() += 1;
            }
        }
    }
    for (i, f) in set.files.iter().enumerate() {
        let mut root = file_stem_name(&f.path);
        if RESERVED.contains(&root.as_str()) {
            root = pascal(&f.title);
        }
        def_names.insert(
            Loc {
                file: i,
                pointer: String::new(),
            },
            root,
        );
        if let Some(defs) = f.root.get("$defs").and_then(Value::as_object) {
            for k in defs.keys() {
                let plain = pascal(k);
                let name = if counts[&plain] > 1 || RESERVED.contains(&plain.as_str()) {
                    format!("{}{}", file_stem_name(&f.path), plain)
                } else {
                    plain
                };
                def_names.insert(
                    Loc {
                        file: i,
                        pointer: String::new(),
                    }
                    .at(Keyword::Defs)
                    .child(k),
                    name,
                );
            }
        }
    }
    for (key, name) in names {
        let loc = chosen_name_target(set, key, name)?;
        def_names.insert(loc, name.clone());
    }
    Ok(def_names)
}

/// Where a caller-chosen type name applies: the root or `$defs` entry that `key` (`$id#pointer`)
/// names, once the name is checked to be a usable type name.
fn chosen_name_target(set: &SchemaSet, key: &str, name: &str) -> Result<Loc> {
    let fail = |msg: String| crate::Error::new(Code::InvalidTypeName, "", "", msg);
    if !crate::names::is_type_name(name) {
        return Err(fail(format!(
            "`{name}` (chosen for `{key}`) is not a usable type name: expected PascalCase ASCII \
             letters and digits, not a prelude name"
        )));
    }
    let (id, pointer) = prp_vocabulary::uri::split_fragment(key);
    let Some(pointer) = pointer else {
        return Err(fail(format!(
            "`{key}` has a malformed `%` escape in its fragment"
        )));
    };
    let Some(file) = set.files.iter().position(|f| f.id == id) else {
        return Err(fail(format!("no schema has the `$id` `{id}` (in `{key}`)")));
    };
    let root = Loc {
        file,
        pointer: String::new(),
    };
    if pointer.is_empty() {
        return Ok(root);
    }
    // A key in the file's own spelling (`#/definitions/item` in a draft-07 file).
    let pointer = set.files[file].spelling.to_read("", &pointer);
    let def = pointer
        .strip_prefix("/$defs/")
        .filter(|k| !k.contains('/'))
        .map(|k| prp_vocabulary::pointer::unescape(k).into_owned())
        .filter(|k| {
            set.files[file]
                .root
                .get("$defs")
                .and_then(Value::as_object)
                .is_some_and(|d| d.contains_key(k))
        });
    match def {
        Some(k) => Ok(root.at(Keyword::Defs).child(&k)),
        None => Err(fail(format!(
            "`{key}` names neither the root nor a `$defs` entry of its schema"
        ))),
    }
}

impl Normalizer<'_> {
    /// A unique type name for the item at `loc`: its `$defs` or root name if it has one, else
    /// `hint`.
    pub(super) fn name_for(&mut self, loc: &Loc, hint: &str) -> String {
        let mut base = self
            .def_names
            .get(loc)
            .cloned()
            .unwrap_or_else(|| hint.to_owned());
        // A `$defs` entry whose name a type made earlier holds is named after its file as well.
        if self.taken.contains(&base)
            && let Some(key) = loc.pointer.strip_prefix("/$defs/")
            && !key.contains('/')
        {
            let stem = file_stem_name(&self.set.files[loc.file].path);
            base = format!("{stem}{}", pascal(key));
        }
        // A hint can come out empty (a member of an unnamed `allOf`): name it after its place.
        if base.is_empty() {
            base = join(
                &file_stem_name(&self.set.files[loc.file].path),
                &pascal(
                    loc.pointer
                        .rsplit('/')
                        .find(|s| !s.is_empty() && !s.chars().all(|c| c.is_ascii_digit()))
                        .unwrap_or("Part"),
                ),
            );
        }
        unique_type(base, &mut self.taken)
    }
}

/// `event-v2.schema.json` -> `EventV2`, `provider/acpx-sidecar.schema.json` -> `AcpxSidecar`.
pub fn file_stem_name(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file
        .strip_suffix(".schema.json")
        .or_else(|| file.strip_suffix(".json"))
        .unwrap_or(file);
    pascal(stem)
}
