//! `oneOf` and `anyOf`: `X or null` is a nullable; otherwise a `oneOf` becomes an enum tagged by a
//! constant member, an enum by JSON type, or an enum whose variants are tried in turn.

use super::{Normalizer, annotation};
use crate::error::Code;
use crate::error::Result;
use crate::load::Loc;
use crate::model::*;
use crate::names::{join, pascal, unique, unique_type, variant_names};
use prp_vocabulary::{Keyword, Schema};
use serde_json::Value;
use std::collections::BTreeSet;

impl Normalizer<'_> {
    /// The type of the `oneOf` or `anyOf` node at `loc`, whose alternatives are `alts`.
    pub(super) fn union(&mut self, loc: &Loc, alts: &Value, hint: &str) -> Result<Ty> {
        let alts = alts
            .as_array()
            .ok_or_else(|| self.err(loc, Code::InvalidSchema, "`oneOf` must be an array"))?;
        let key = if self.node(loc).keyword(Keyword::OneOf).is_some() {
            "oneOf"
        } else {
            "anyOf"
        };
        let locs: Vec<Loc> = (0..alts.len())
            .map(|i| loc.child(key).child(&i.to_string()))
            .collect();
        self.check_union_node(loc, key, alts, &locs)?;
        // X or null.
        if alts.len() == 2 && alts.iter().filter(|a| is_bare_null(a)).count() == 1 {
            let other = if is_bare_null(&alts[0]) {
                &locs[1]
            } else {
                &locs[0]
            };
            return self.nullable(key, other, hint);
        }
        if key == "anyOf" {
            return Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "`anyOf` is supported only as `X or null`",
            ));
        }
        let targets: Vec<Loc> = locs.iter().map(|l| self.deref(l)).collect::<Result<_>>()?;
        // Objects told apart by a constant member.
        if let Some(tag) = self.common_tag(&targets) {
            return self.tagged(loc, hint, tag, &locs, &targets);
        }
        // Objects told apart by a constant member some of them share, and those that share it by
        // another constant member: a union of unions.
        if let Some((tag, groups)) = self.grouped_tag(&targets) {
            return self.grouped(loc, hint, tag, &locs, &targets, groups);
        }
        // Scalars told apart by JSON type.
        let kinds = self.json_kinds(&locs, &targets);
        if kinds.is_empty() {
            return self.untagged(loc, hint, &locs);
        }
        self.by_type(loc, hint, kinds)
    }

    /// Refuses what a union type cannot say: keywords beside `key` that assert something (the
    /// alternatives must be all there is to the node), and boolean alternatives.
    fn check_union_node(&self, loc: &Loc, key: &str, alts: &[Value], locs: &[Loc]) -> Result<()> {
        if let Some(k) = self
            .node(loc)
            .as_object()
            .and_then(|o| o.keys().find(|k| !annotation(k) && k.as_str() != key))
        {
            return Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                format!("`{key}` beside `{k}` is not supported"),
            ));
        }
        if let Some(i) = alts.iter().position(Value::is_boolean) {
            return Err(self.err(
                &locs[i],
                Code::UnsupportedKeyword,
                format!("a boolean schema as a `{key}` alternative is not supported"),
            ));
        }
        Ok(())
    }

    /// `other` or `null`.
    fn nullable(&mut self, key: &str, other: &Loc, hint: &str) -> Result<Ty> {
        let ty = self.ty(other, hint)?;
        // With `oneOf`, `null` is valid only if the other alternative refuses it.
        if key == "oneOf" && self.may_accept_null(&ty) {
            return Err(self.err(
                other,
                Code::UnsupportedKeyword,
                "a `oneOf` of `null` and a schema that may accept `null` too has no typed shape",
            ));
        }
        Ok(Ty::Nullable(Box::new(ty)))
    }

    /// An enum of object types told apart by the constant of their member `tag`; `targets` are the
    /// alternatives at `locs` with `$ref`s followed.
    fn tagged(
        &mut self,
        loc: &Loc,
        hint: &str,
        tag: String,
        locs: &[Loc],
        targets: &[Loc],
    ) -> Result<Ty> {
        let name = self.name_for(loc, hint);
        let id = self.push(Item::Tagged(Tagged {
            name: name.clone(),
            doc: self.doc(loc),
            tag: tag.clone(),
            variants: vec![],
        }));
        self.memo.insert(loc.clone(), Ty::Named(id));
        self.fill_tagged(id, &name, &tag, locs, targets)?;
        Ok(Ty::Named(id))
    }

    /// The variants of the tagged union `id` (named `name`), one per alternative.
    fn fill_tagged(
        &mut self,
        id: ItemId,
        name: &str,
        tag: &str,
        locs: &[Loc],
        targets: &[Loc],
    ) -> Result<()> {
        let mut taken = BTreeSet::new();
        let mut variants = Vec::new();
        let values: Vec<String> = targets.iter().map(|t| self.tag_value(t, tag)).collect();
        let hints = variant_names(name, &values);
        for ((l, value), vhint) in locs.iter().zip(values).zip(hints) {
            let ty = self.ty(l, &vhint)?;
            let vname = match &ty {
                Ty::Named(i) => self.model.items[*i].name().to_owned(),
                _ => vhint,
            };
            // A tagged variant is decoded member by member as a struct, its tag read first.
            if !matches!(&ty, Ty::Named(i) if is_object_type(&self.model.items[*i])) {
                return Err(self.err(
                    l,
                    Code::UnsupportedKeyword,
                    "a `oneOf` told apart by a constant member needs every alternative to be an object type",
                ));
            }
            variants.push((value, unique(vname, &mut taken), ty));
        }
        if let Item::Tagged(t) = &mut self.model.items[id] {
            t.variants = variants;
        }
        Ok(())
    }

    /// The string constant of member `tag` in the object schema `target`.
    fn tag_value(&self, target: &Loc, tag: &str) -> String {
        super::single_value(&self.node(target)["properties"][tag])
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    }

    /// An enum tagged by `tag`, whose value is shared within each of `groups` (indexes into
    /// `locs`, in order of first appearance): a group of one is that alternative, a larger group
    /// an enum of its own, tagged by the member that tells its alternatives apart.
    fn grouped(
        &mut self,
        loc: &Loc,
        hint: &str,
        tag: String,
        locs: &[Loc],
        targets: &[Loc],
        groups: Vec<Vec<usize>>,
    ) -> Result<Ty> {
        let name = self.name_for(loc, hint);
        let id = self.push(Item::Tagged(Tagged {
            name: name.clone(),
            doc: self.doc(loc),
            tag: tag.clone(),
            variants: vec![],
        }));
        self.memo.insert(loc.clone(), Ty::Named(id));
        let values: Vec<String> = groups
            .iter()
            .map(|g| self.tag_value(&targets[g[0]], &tag))
            .collect();
        let hints = variant_names(&name, &values);
        let mut taken = BTreeSet::new();
        let mut variants = Vec::new();
        for ((group, value), vhint) in groups.iter().zip(values).zip(hints) {
            let ty = match group.as_slice() {
                [one] => self.ty(&locs[*one], &vhint)?,
                _ => self.group_union(&vhint, group, locs, targets)?,
            };
            let vname = match &ty {
                Ty::Named(i) => self.model.items[*i].name().to_owned(),
                _ => vhint,
            };
            variants.push((value, unique(vname, &mut taken), ty));
        }
        if let Item::Tagged(t) = &mut self.model.items[id] {
            t.variants = variants;
        }
        Ok(Ty::Named(id))
    }

    /// The alternatives `group` of a grouped union as an enum of their own, tagged by the member
    /// that tells them apart.
    fn group_union(
        &mut self,
        hint: &str,
        group: &[usize],
        locs: &[Loc],
        targets: &[Loc],
    ) -> Result<Ty> {
        let sub_locs: Vec<Loc> = group.iter().map(|&i| locs[i].clone()).collect();
        let sub_targets: Vec<Loc> = group.iter().map(|&i| targets[i].clone()).collect();
        let tag = self.common_tag(&sub_targets).ok_or_else(|| {
            self.err(
                &sub_locs[0],
                Code::UnsupportedKeyword,
                "no member tells these alternatives apart",
            )
        })?;
        let name = unique_type(hint.to_owned(), &mut self.taken);
        let id = self.push(Item::Tagged(Tagged {
            name: name.clone(),
            doc: None,
            tag: tag.clone(),
            variants: vec![],
        }));
        self.fill_tagged(id, &name, &tag, &sub_locs, &sub_targets)?;
        Ok(Ty::Named(id))
    }

    /// A member required by every alternative with a string constant in each, shared by some:
    /// the member and the alternatives grouped by its value, when every group larger than one is
    /// told apart by a member of its own.
    fn grouped_tag(&self, targets: &[Loc]) -> Option<(String, Vec<Vec<usize>>)> {
        let first = self.node(targets.first()?);
        let candidates = first.keyword(Keyword::Required)?.as_array()?;
        'next: for c in candidates.iter().filter_map(Value::as_str) {
            let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
            for (i, t) in targets.iter().enumerate() {
                if !self.requires_const(t, c) {
                    continue 'next;
                }
                let value = self.tag_value(t, c);
                match groups.iter_mut().find(|g| g.0 == value) {
                    Some(g) => g.1.push(i),
                    None => groups.push((value, vec![i])),
                }
            }
            let told_apart = groups.iter().all(|(_, g)| {
                let sub: Vec<Loc> = g.iter().map(|&i| targets[i].clone()).collect();
                g.len() == 1 || self.common_tag(&sub).is_some()
            });
            if groups.len() > 1 && told_apart {
                return Some((c.to_owned(), groups.into_iter().map(|g| g.1).collect()));
            }
        }
        None
    }

    /// Whether the object schema `target` requires member `c` and holds it to a string constant.
    fn requires_const(&self, target: &Loc, c: &str) -> bool {
        let n = self.node(target);
        let required = n
            .keyword(Keyword::Required)
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|x| x == c));
        let konst = n
            .keyword(Keyword::Properties)
            .and_then(|p| p.get(c))
            .and_then(super::single_value)
            .and_then(Value::as_str);
        required && konst.is_some()
    }

    /// The JSON type of each alternative when every one is a string, integer, number or boolean
    /// schema; else nothing.
    fn json_kinds(&self, locs: &[Loc], targets: &[Loc]) -> Vec<(String, Loc)> {
        let mut kinds = Vec::new();
        for (l, t) in locs.iter().zip(targets) {
            match self.node(t).keyword(Keyword::Type).and_then(Value::as_str) {
                Some(k @ ("string" | "integer" | "number" | "boolean")) => {
                    kinds.push((k.to_owned(), l.clone()))
                }
                _ => return Vec::new(),
            }
        }
        kinds
    }

    /// No cheap discriminator: decode every variant; exactly one must succeed (an empty tag).
    fn untagged(&mut self, loc: &Loc, hint: &str, locs: &[Loc]) -> Result<Ty> {
        let name = self.name_for(loc, hint);
        let id = self.push(Item::Tagged(Tagged {
            name: name.clone(),
            doc: self.doc(loc),
            tag: String::new(),
            variants: vec![],
        }));
        self.memo.insert(loc.clone(), Ty::Named(id));
        let mut taken = BTreeSet::new();
        let mut variants = Vec::new();
        for (i, l) in locs.iter().enumerate() {
            let ty = self.ty(l, &join(&name, &format!("Variant{i}")))?;
            let vname = match &ty {
                Ty::Named(n) => self.model.items[*n].name().to_owned(),
                _ => format!("Variant{i}"),
            };
            variants.push((String::new(), unique(vname, &mut taken), ty));
        }
        if let Item::Tagged(t) = &mut self.model.items[id] {
            t.variants = variants;
        }
        Ok(Ty::Named(id))
    }

    /// An enum of scalars told apart by their JSON type (`kinds`, one per alternative); an integer
    /// is a number too, so they may not overlap.
    fn by_type(&mut self, loc: &Loc, hint: &str, kinds: Vec<(String, Loc)>) -> Result<Ty> {
        let distinct: BTreeSet<&str> = kinds
            .iter()
            .map(|(k, _)| if k == "integer" { "number" } else { k.as_str() })
            .collect();
        if distinct.len() != kinds.len() {
            return Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "`oneOf` variants overlap in JSON type",
            ));
        }
        let name = self.name_for(loc, hint);
        let mut variants = Vec::new();
        for (k, l) in kinds {
            let ty = self.ty(&l, &join(&name, &pascal(&k)))?;
            variants.push((k.clone(), pascal(&k), ty));
        }
        let id = self.push(Item::ByType(ByType {
            name,
            doc: self.doc(loc),
            variants,
        }));
        Ok(Ty::Named(id))
    }

    /// A member required by every alternative, holding a distinct string constant in each.
    fn common_tag(&self, targets: &[Loc]) -> Option<String> {
        let first = self.node(targets.first()?);
        let candidates = first.keyword(Keyword::Required)?.as_array()?;
        'next: for c in candidates.iter().filter_map(Value::as_str) {
            let mut seen = BTreeSet::new();
            for t in targets {
                let n = self.node(t);
                let required = n
                    .keyword(Keyword::Required)
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|x| x == c));
                let konst = n
                    .keyword(Keyword::Properties)
                    .and_then(|p| p.get(c))
                    .and_then(super::single_value)
                    .and_then(Value::as_str);
                match konst {
                    Some(k) if required && seen.insert(k) => {}
                    _ => continue 'next,
                }
            }
            return Some(c.to_owned());
        }
        None
    }

    /// Whether a value of `ty` may be `null` (a checked type is not looked into).
    fn may_accept_null(&self, ty: &Ty) -> bool {
        self.may_accept_null_within(ty, 0)
    }

    /// [`Self::may_accept_null`] looking `depth` unions deep already; past a bound, yes.
    fn may_accept_null_within(&self, ty: &Ty, depth: usize) -> bool {
        match ty {
            Ty::Any | Ty::Null | Ty::Nullable(_) => true,
            Ty::Refined(t, _) | Ty::Ruled(t, _) => self.may_accept_null_within(t, depth),
            Ty::Named(i) => match &self.model.items[*i] {
                Item::Checked(_) => true,
                Item::ByType(b) => b.variants.iter().any(|v| v.0 == "null"),
                // A union takes `null` when one of its alternatives does.
                Item::Tagged(t) => {
                    depth > 16
                        || t.variants
                            .iter()
                            .any(|(_, _, v)| self.may_accept_null_within(v, depth + 1))
                }
                _ => false,
            },
            _ => false,
        }
    }
}

/// Whether `item` decodes objects only: a struct, or a union tagged by a member.
fn is_object_type(item: &Item) -> bool {
    match item {
        Item::Struct(_) => true,
        Item::Tagged(t) => !t.tag.is_empty(),
        _ => false,
    }
}

/// Whether `v` is `{"type": "null"}` and nothing else.
fn is_bare_null(v: &Value) -> bool {
    v.keyword(Keyword::Type) == Some(&Value::from("null"))
        && v.as_object().is_some_and(|o| o.len() == 1)
}
