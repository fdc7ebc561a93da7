//! `$ref`: a reference names its target's type, so an object, enum or union behind it is one item
//! shared by every user, and a scalar is inlined with its constraints.

use super::Normalizer;
use crate::error::Code;
use crate::error::Result;
use crate::load::Loc;
use crate::model::Ty;
use prp_vocabulary::{Keyword, Kind, Schema};
use serde_json::{Map, Value};

impl Normalizer<'_> {
    /// The type of the node `obj` at `loc`, a `$ref` to `r`: its target's, named after the target
    /// when it is a `$defs` entry or root. Beside `$ref` only what asserts nothing is allowed:
    /// annotations (an unasserted `format` aside, which a caller may assert), `$defs`, and unknown
    /// keywords (an editor's hints, or what an older dialect ignores beside `$ref`); other keywords
    /// make the node a checked type.
    pub(super) fn reference(
        &mut self,
        loc: &Loc,
        obj: &Map<String, Value>,
        r: &Value,
        hint: &str,
    ) -> Result<Ty> {
        let r = r
            .as_str()
            .ok_or_else(|| self.err(loc, Code::InvalidSchema, "`$ref` must be a string"))?;
        let target = self.set.resolve(loc, r)?;
        let extra: Vec<&String> = obj
            .keys()
            .filter(|k| match Keyword::from_name(k) {
                None => false,
                Some(Keyword::Ref | Keyword::Defs) => false,
                Some(kw) => kw.kind() != Kind::Annotation || kw == Keyword::Format,
            })
            .collect();
        if !extra.is_empty() {
            return Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "`$ref` with sibling keywords is not supported; use `allOf`",
            ));
        }
        let target_hint = self
            .def_names
            .get(&target)
            .cloned()
            .unwrap_or_else(|| hint.to_owned());
        self.ty(&target, &target_hint)
    }

    /// Follows `$ref`s to the node that holds the schema.
    pub(super) fn deref(&self, loc: &Loc) -> Result<Loc> {
        let mut loc = loc.clone();
        for _ in 0..32 {
            match self
                .node(&loc)
                .keyword(Keyword::Ref)
                .and_then(Value::as_str)
            {
                Some(r) => loc = self.set.resolve(&loc, r)?,
                None => return Ok(loc),
            }
        }
        Err(self.err(
            &loc,
            Code::UnsupportedKeyword,
            "`$ref` chain too long or cyclic",
        ))
    }
}
