//! `$ref`: a reference names its target's type, so an object, enum or union behind it is one item
//! shared by every user, and a scalar is inlined with its constraints.

use super::Normalizer;
use crate::error::Result;
use crate::load::Loc;
use serde_json::Value;

impl Normalizer<'_> {
    /// Follows `$ref`s to the node that holds the schema.
    pub(super) fn deref(&self, loc: &Loc) -> Result<Loc> {
        let mut loc = loc.clone();
        for _ in 0..32 {
            match self.node(&loc).get("$ref").and_then(Value::as_str) {
                Some(r) => loc = self.set.resolve(&loc, r)?,
                None => return Ok(loc),
            }
        }
        Err(self.err(
            &loc,
            "unsupported_keyword",
            "`$ref` chain too long or cyclic",
        ))
    }
}
