//! One type per distinct shape: items that a schema set describes twice (the same member in a v1
//! and a v2 schema, say) become one Rust type.
//!
//! Two items merge when their names are equal once version words are taken out and their
//! definitions are equal once names and descriptions are. Merging the two enums of a member makes
//! the structs holding them equal in turn, so this runs until nothing changes. The shortest name
//! (then the first) is kept.

use crate::model::*;
use crate::names::unversioned;
use std::collections::HashMap;

/// Merges the items that describe one shape, until none are left to merge.
pub(super) fn merge(model: &mut Model) {
    loop {
        // Items of one unversioned name, each with its shape: a new item merges into the first
        // of its name whose shape is equal.
        let mut by_name: HashMap<String, Vec<(usize, Item)>> = HashMap::new();
        let mut rep: Vec<usize> = (0..model.items.len()).collect();
        let names: Vec<&str> = model.items.iter().map(|(_, item)| item.name()).collect();
        for (id, item) in model.items.iter() {
            let i = id.index();
            let kin = by_name.entry(unversioned(item.name())).or_default();
            let here = shape(item);
            match kin.iter_mut().find(|(_, s)| *s == here) {
                Some((j, _)) => {
                    let keep = if names[i].len() < names[*j].len() {
                        i
                    } else {
                        *j
                    };
                    rep[i + *j - keep] = keep;
                    rep[keep] = keep;
                    *j = keep;
                }
                None => kin.push((i, here)),
            }
        }
        // Chains (a dropped item chosen as a keeper earlier) resolve to their last keeper.
        for i in 0..rep.len() {
            let mut r = rep[i];
            while rep[r] != r {
                r = rep[r];
            }
            rep[i] = r;
        }
        if rep.iter().enumerate().all(|(i, &r)| i == r) {
            return;
        }
        model.merge(&rep);
    }
}

/// The definition with names and descriptions blanked: what decides the generated behaviour.
fn shape(item: &Item) -> Item {
    let mut item = item.clone();
    match &mut item {
        Item::Struct(s) => {
            s.name.clear();
            s.doc = None;
            for f in &mut s.fields {
                f.doc = None;
            }
        }
        Item::Enum(e) => {
            e.name.clear();
            e.doc = None;
        }
        Item::IntEnum(e) => {
            e.name.clear();
            e.doc = None;
        }
        Item::Text(t) => t.name.clear(),
        Item::Tagged(t) => {
            t.name.clear();
            t.doc = None;
        }
        Item::ByType(b) => {
            b.name.clear();
            b.doc = None;
        }
        Item::Select(s) => s.name.clear(),
        Item::Checked(c) => {
            c.name.clear();
            c.doc = None;
            c.why.clear();
        }
    }
    item
}
