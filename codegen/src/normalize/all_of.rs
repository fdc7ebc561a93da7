//! `allOf`: members with structure merge into one type (a struct when there are several), members
//! that only narrow values become checks on that type.

use super::{Normalizer, named_id};
use crate::error::Code;
use crate::error::Result;
use crate::load::Loc;
use crate::model::*;
use prp_vocabulary::{Keyword, Schema};
use serde_json::Value;

impl Normalizer<'_> {
    /// The type of a node with `allOf` or `if`: an object schema when the node says it is one
    /// (`type: object`; its `allOf` members are then read as part of it), else the merge of its
    /// `allOf` members.
    pub(super) fn all_of(&mut self, loc: &Loc, hint: &str) -> Result<Ty> {
        let node = self.node(loc);
        // The node itself, minus `allOf`, is a member when it says anything.
        let own: Vec<&String> = node
            .as_object()
            .map(|o| {
                o.keys()
                    .filter(|k| {
                        !matches!(
                            k.as_str(),
                            "allOf"
                                | "description"
                                | "$comment"
                                | "title"
                                | "$schema"
                                | "$id"
                                | "$defs"
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        // Members without `type: object` say nothing of other JSON types, which pass: no struct.
        if node.keyword(Keyword::Type) == Some(&Value::from("object")) {
            return self.object(loc, hint);
        }
        if !own.is_empty() {
            return Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "`allOf` beside keywords other than object members is not supported",
            ));
        }
        self.merge(loc, &[], hint, false)
    }

    /// Merges an `allOf`: structural members into one object (or the one shared type), value-narrowing
    /// members into checks. `members` are extra locations besides `loc`'s own `allOf` entries, which
    /// are left out when `explicit`.
    pub(super) fn merge(
        &mut self,
        loc: &Loc,
        members: &[Loc],
        hint: &str,
        explicit: bool,
    ) -> Result<Ty> {
        let all = self.all_of_members(loc, members, explicit);
        if all.is_empty() {
            return Ok(Ty::Any);
        }
        let (structural, mut checks) = self.sort_members(&all)?;
        let base = self.merged_base(loc, &structural, hint)?;
        // A narrowing member's `type: object` holds only of an object type.
        let says_object = all
            .iter()
            .any(|m| self.node(m).keyword(Keyword::Type) == Some(&Value::from("object")));
        if says_object && !self.is_object(&base) {
            return Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "an `allOf` member says `type: object` of a type that is not an object",
            ));
        }
        // Narrowings of members that a closed object can never hold are vacuous.
        if let Some(Item::Struct(st)) = named_id(&base).map(|i| &self.model.items[i])
            && matches!(st.extra, Extra::Closed)
        {
            checks
                .props
                .retain(|(k, _)| st.fields.iter().any(|f| &f.json == k));
        }
        if checks.is_empty() {
            return Ok(base);
        }
        match &base {
            Ty::Named(i) if matches!(self.model.items[*i], Item::Struct(_)) => {
                Ok(Ty::Refined(Box::new(base), checks))
            }
            _ => Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "an `allOf` narrowing applies only to object types",
            )),
        }
    }

    /// The members to merge: `members`, then (unless `explicit`) `loc`'s own `allOf` entries, with
    /// every member that is only an `allOf` replaced by its own members.
    fn all_of_members(&self, loc: &Loc, members: &[Loc], explicit: bool) -> Vec<Loc> {
        let mut all: Vec<Loc> = members.to_vec();
        if !explicit
            && let Some(a) = self
                .node(loc)
                .keyword(Keyword::AllOf)
                .and_then(Value::as_array)
        {
            for i in 0..a.len() {
                all.push(loc.at(Keyword::AllOf).child(&i.to_string()));
            }
        }
        let mut i = 0;
        while i < all.len() {
            let n = self.node(&all[i]);
            let only_all_of = n.as_object().is_some_and(|o| {
                o.has(Keyword::AllOf)
                    && o.keys()
                        .all(|k| matches!(k.as_str(), "allOf" | "description" | "$comment"))
            });
            // `true` and `{}` accept everything: vacuous members.
            let vacuous = n == &Value::Bool(true) || n.as_object().is_some_and(|o| o.is_empty());
            if vacuous {
                all.remove(i);
            } else if only_all_of {
                let m = all.remove(i);
                let count = n["allOf"].as_array().map_or(0, Vec::len);
                for j in (0..count).rev() {
                    all.insert(i, m.at(Keyword::AllOf).child(&j.to_string()));
                }
            } else {
                i += 1;
            }
        }
        all
    }

    /// Splits the members into those with structure (each once, a bare `$ref` followed to its
    /// target) and one predicate made of those that only narrow. When none has structure, the first
    /// member is the shape and the rest narrow it.
    fn sort_members(&self, all: &[Loc]) -> Result<(Vec<Loc>, ObjPred)> {
        let mut structural: Vec<Loc> = Vec::new();
        let mut checks = ObjPred::default();
        for m in all {
            let m_node = self.node(m);
            let is_ref_only = m_node.keyword(Keyword::Ref).is_some()
                && m_node.as_object().is_some_and(|o| o.len() == 1);
            if !is_ref_only
                && m_node.keyword(Keyword::If).is_none()
                && let Some(p) = self.obj_pred(m)
            {
                absorb(&mut checks, p);
                continue;
            }
            let target = if is_ref_only {
                self.deref(m)?
            } else {
                m.clone()
            };
            if !structural.contains(&target) {
                structural.push(target);
            }
        }
        if structural.is_empty()
            && let Some(first) = all.first()
        {
            structural.push(first.clone());
            checks = ObjPred::default();
            for m in &all[1..] {
                if let Some(p) = self.obj_pred(m) {
                    absorb(&mut checks, p);
                }
            }
        }
        Ok((structural, checks))
    }

    /// The type the structural members describe together: the one member's type, or a struct
    /// merged from several object schemas.
    fn merged_base(&mut self, loc: &Loc, structural: &[Loc], hint: &str) -> Result<Ty> {
        match structural {
            [] => Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "an `allOf` needs at least one member with structure",
            )),
            [one] => {
                let h = self
                    .def_names
                    .get(one)
                    .cloned()
                    .unwrap_or_else(|| hint.to_owned());
                self.ty(one, &h)
            }
            many => {
                // Merged into one struct, the members must be object schemas, and one of them
                // (or the node itself) must say so: otherwise non-objects would be refused too.
                let says_object =
                    |n: &Value| n.keyword(Keyword::Type) == Some(&Value::from("object"));
                if !says_object(self.node(loc)) && !many.iter().any(|m| says_object(self.node(m))) {
                    return Err(self.err(
                        loc,
                        Code::UnsupportedKeyword,
                        "an `allOf` of several members is supported when they describe objects and one \
                         of them says `type: object`",
                    ));
                }
                let name = self.name_for(loc, hint);
                Ok(Ty::Named(self.build_object(many, name, self.doc(loc))?))
            }
        }
    }
}

impl Normalizer<'_> {
    /// Whether every value of `ty` is an object.
    fn is_object(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Object => true,
            Ty::Named(i) => match &self.model.items[*i] {
                Item::Struct(_) => true,
                // A union whose every alternative is a struct takes objects only.
                Item::Tagged(t) => t.variants.iter().all(|(_, _, v)| {
                    matches!(v, Ty::Named(j) if matches!(self.model.items[*j], Item::Struct(_)))
                }),
                _ => false,
            },
            Ty::Refined(t, _) | Ty::Ruled(t, _) => self.is_object(t),
            _ => false,
        }
    }
}

/// Adds the narrowings of `p` to `into`.
fn absorb(into: &mut ObjPred, p: ObjPred) {
    into.props.extend(p.props);
    into.required.extend(p.required);
    into.not_required.extend(p.not_required);
}
