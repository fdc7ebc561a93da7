//! The fourth stage, between normalize and emit: decisions over the whole model rather than one
//! schema. Items that describe one shape become one type ([`shapes`]), and the caller's document
//! union is added over the roots ([`documents`]). Emit then writes the model as it is.

mod documents;
mod shapes;

use crate::Options;
use crate::model::Model;
use crate::set::SchemaSet;

/// Plans `model` for emission: merges the items of one shape first, so that the document union's
/// variants name the merged types.
pub(crate) fn run(model: &mut Model, set: &SchemaSet, options: &Options) {
    shapes::merge(model);
    if let Some((name, member)) = &options.document_union {
        documents::union(model, set, name, member);
    }
}
