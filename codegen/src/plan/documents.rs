//! The document union: one enum over every root document that names its schema in a string
//! constant member, so that a reader that does not know a document's kind can decode it.

use crate::model::{Item, ItemId, Model, Tagged, Ty};
use crate::names;
use crate::set::SchemaSet;
use serde_json::Value;
use std::collections::BTreeSet;

/// Adds an enum `name` over every root document whose schema gives its member `tag` a string
/// constant, flattening roots that are themselves unions on the same member. A root of any other
/// type (a struct, checked JSON, a union by JSON type, a union told apart otherwise, any of them
/// nullable) joins with
/// each value its schema gives `tag`, itself or in each `oneOf`/`anyOf` alternative: every document
/// its schema accepts is then chosen by its `tag`, as `validate` chooses a document's type.
pub(super) fn union(model: &mut Model, set: &SchemaSet, name: &str, tag: &str) {
    let mut variants: Vec<(String, String, Ty)> = Vec::new();
    let mut seen = BTreeSet::new();
    for root in &model.roots {
        // A document names its schema in a member, so it is an object: a root that may also be
        // `null` joins with the type it has when it is not (its further rules kept).
        let Some((id, ty)) = not_null(&root.ty) else {
            continue;
        };
        match &model.items[id] {
            Item::Tagged(t) if t.tag == tag && ty == Ty::Named(id) => {
                for v in &t.variants {
                    if seen.insert(v.0.clone()) {
                        variants.push(v.clone());
                    }
                }
            }
            other => {
                for value in tag_values(&set.files[root.file].root, tag) {
                    if seen.insert(value.clone()) {
                        variants.push((value, other.name().to_owned(), ty.clone()));
                    }
                }
            }
        }
    }
    let mut taken = BTreeSet::new();
    for v in &mut variants {
        v.1 = names::unique(v.1.clone(), &mut taken);
    }
    model.items.push(Item::Tagged(Tagged {
        name: name.to_owned(),
        doc: Some(format!(
            "Any document that names its schema in its `{tag}` member."
        )),
        tag: tag.to_owned(),
        variants,
    }));
}

/// The item a root's type decodes an object with, and that type without `null`: the item
/// itself, or the item with the rules and narrowings around it; `None` for a type of no item.
fn not_null(ty: &Ty) -> Option<(ItemId, Ty)> {
    match ty {
        Ty::Named(id) => Some((*id, ty.clone())),
        Ty::Nullable(inner) => not_null(inner),
        Ty::Ruled(inner, nodes) => {
            let (id, t) = not_null(inner)?;
            Some((id, Ty::Ruled(Box::new(t), nodes.clone())))
        }
        Ty::Refined(inner, pred) => {
            let (id, t) = not_null(inner)?;
            Some((id, Ty::Refined(Box::new(t), pred.clone())))
        }
        _ => None,
    }
}

/// The string constants `schema` gives member `tag` (`const`, or an `enum` of one): its own, and
/// each inline `oneOf` or `anyOf` alternative's.
fn tag_values(schema: &Value, tag: &str) -> Vec<String> {
    let own = |s: &Value| -> Option<String> {
        let member = s.get("properties")?.get(tag)?;
        let value = match (member.get("const"), member.get("enum")) {
            (Some(c), _) => c,
            (None, Some(Value::Array(one))) if one.len() == 1 => &one[0],
            _ => return None,
        };
        value.as_str().map(str::to_owned)
    };
    let alternatives = ["oneOf", "anyOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Value::as_array))
        .flatten();
    own(schema)
        .into_iter()
        .chain(alternatives.filter_map(own))
        .collect()
}
