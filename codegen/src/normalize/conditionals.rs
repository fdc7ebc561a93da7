//! `if`/`then` inside an object schema: a `then` of member constants or `required` lists is a
//! conditional check; a `then` that gives a member a whole schema makes that member a selected type,
//! chosen by the value of an enum sibling.

use super::{Normalizer, named_id, strings};
use crate::error::Code;
use crate::error::Result;
use crate::load::Loc;
use crate::model::*;
use crate::names::{join, pascal, snake, unique, unique_type, unversioned};
use prp_vocabulary::{Keyword, Schema};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Per member whose type `then` selects: each `if` that selects one, with the member's schema in
/// that `then` and the schema object holding the `if`.
pub(super) type Selects = BTreeMap<String, Vec<(ObjPred, Loc, Loc)>>;

/// Enum values that trigger the same rules: the indexes of those rules, the values' Rust variant
/// names, and the first value's JSON.
type Group = (Vec<usize>, Vec<String>, String);

impl Normalizer<'_> {
    /// Sorts an object's `if`/`then` pairs (each with the schema object holding it): `then`
    /// members that bring structure select the member's type by the tested constant; the rest of
    /// each `then` is a conditional check. A `then` the model cannot say is added to `rules`, for
    /// the schema program.
    pub(super) fn split_conds(
        &self,
        conds: Vec<(ObjPred, Loc)>,
        rules: &mut Vec<(Loc, Vec<Keyword>)>,
    ) -> Result<(Vec<Cond>, Selects)> {
        let mut selects = Selects::new();
        let mut plain = Vec::new();
        for (when, holder) in conds {
            let mut selected = Selects::new();
            match self.then_pred(&when, &holder, &mut selected) {
                Ok(then) => {
                    if !then.is_empty() {
                        plain.push(Cond { when, then });
                    }
                    for (k, v) in selected {
                        selects.entry(k).or_default().extend(v);
                    }
                }
                Err(e) if e.code == Code::UnsupportedKeyword => {
                    rules.push((holder, conditional_keywords()));
                }
                Err(e) => return Err(e),
            }
        }
        Ok((plain, selects))
    }

    /// What the `then` of the `if` in `holder` checks when `when` holds; its members with a whole
    /// schema go to `selects` instead.
    fn then_pred(&self, when: &ObjPred, holder: &Loc, selects: &mut Selects) -> Result<ObjPred> {
        let then_loc = &holder.at(Keyword::Then);
        let mut then = ObjPred::default();
        let tobj = self
            .node(then_loc)
            .as_object()
            .ok_or_else(|| self.err(then_loc, Code::InvalidSchema, "`then` must be an object"))?;
        for (k, v) in tobj {
            match k.as_str() {
                "required" => then.required = strings(v).unwrap_or_default(),
                "not" => match v.keyword(Keyword::Required).and_then(strings) {
                    Some(r) if v.as_object().is_some_and(|o| o.len() == 1) => {
                        then.not_required.push(r)
                    }
                    _ => {
                        return Err(self.err(
                            &then_loc.at(Keyword::Not),
                            Code::UnsupportedKeyword,
                            "`not` may only forbid `required` members",
                        ));
                    }
                },
                "properties" => {
                    for name in v.as_object().into_iter().flat_map(|o| o.keys()) {
                        let pl = then_loc.at(Keyword::Properties).child(name);
                        match self.val_pred(&pl) {
                            Some(p) => then.props.push((name.clone(), p)),
                            None => selects.entry(name.clone()).or_default().push((
                                when.clone(),
                                pl,
                                holder.clone(),
                            )),
                        }
                    }
                }
                "description" | "$comment" => {}
                // The object is one already.
                "type" if v == "object" => {}
                other => {
                    return Err(self.err(
                        then_loc,
                        Code::UnsupportedKeyword,
                        format!("`{other}` in `then` is not supported"),
                    ));
                }
            }
        }
        Ok(then)
    }

    /// Gives each member in `selects` its selected type; `at` locates the error for a member the
    /// object does not declare.
    pub(super) fn select_members(
        &mut self,
        owner: &str,
        at: &Loc,
        selects: Selects,
        fields: &mut [Field],
        props: &[(String, Vec<Loc>)],
    ) -> Result<()> {
        for (member, rules) in selects {
            let sel = self.build_select(owner, &member, rules, fields, props)?;
            let f = fields
                .iter_mut()
                .find(|f| f.json == member)
                .ok_or_else(|| {
                    self.err(
                        at,
                        Code::UnsupportedKeyword,
                        format!("`then` selects a type for undeclared member `{member}`"),
                    )
                })?;
            f.select = Some(sel);
            f.ty = Ty::Named(sel);
        }
        Ok(())
    }

    /// A member whose schema depends on an enum sibling: one variant per group of enum values that
    /// trigger the same set of rules.
    fn build_select(
        &mut self,
        owner: &str,
        member: &str,
        rules: Vec<(ObjPred, Loc, Loc)>,
        fields: &[Field],
        props: &[(String, Vec<Loc>)],
    ) -> Result<ItemId> {
        let at = rules[0].1.clone();
        let (selector, sets) = self.selector_sets(&rules, &at)?;
        let (enum_id, values) = self.selector_enum(&selector, fields, &at)?;
        // Every variant also holds the member's own declarations.
        let base: Vec<Loc> = props
            .iter()
            .find(|(n, _)| n == member)
            .map(|(_, l)| l.clone())
            .unwrap_or_default();
        let name = unique_type(join(owner, &pascal(member)), &mut self.taken);
        let id = self.push(Item::Select(Select {
            name: name.clone(),
            selector_enum: enum_id,
            selector_rust: snake(&selector),
            variants: vec![],
        }));
        let mut variants = Vec::new();
        let mut taken = BTreeSet::new();
        for (hit, when, first) in value_groups(&values, &sets) {
            let mut members = base.clone();
            members.extend(hit.iter().map(|&i| rules[i].1.clone()));
            let vhint = if hit.is_empty() {
                join(&name, "Other")
            } else {
                join(&name, &pascal(&first))
            };
            let ty = self.merge(&at, &members, &vhint, true)?;
            let vname = if hit.is_empty() {
                "Other".to_owned()
            } else {
                self.select_variant_name(&name, &ty, &first)
            };
            let vname = if vname.is_empty() || taken.contains(&vname) {
                pascal(&first)
            } else {
                vname
            };
            variants.push(SelectVariant {
                name: unique(vname, &mut taken),
                ty,
                when,
            });
        }
        if let Item::Select(s) = &mut self.model.items[id] {
            s.variants = variants;
        }
        Ok(id)
    }

    /// The member every type-selecting `if` tests, and per rule the enum values that trigger it.
    fn selector_sets(
        &self,
        rules: &[(ObjPred, Loc, Loc)],
        at: &Loc,
    ) -> Result<(String, Vec<BTreeSet<String>>)> {
        let mut selector: Option<String> = None;
        let mut sets = Vec::new();
        for (when, _, _) in rules {
            let ok = when.props.len() == 1
                && when.not_required.is_empty()
                && when.required.iter().all(|r| *r == when.props[0].0);
            let set = match (ok, when.props.first().map(|(_, p)| p.as_slice())) {
                (true, Some([ValPred::In(vs)])) => vs
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect::<BTreeSet<_>>(),
                _ => {
                    return Err(self.err(
                        at,
                        Code::UnsupportedKeyword,
                        "a type-selecting `if` must test one enum member",
                    ));
                }
            };
            let s = &when.props[0].0;
            if selector.get_or_insert_with(|| s.clone()) != s {
                return Err(self.err(
                    at,
                    Code::UnsupportedKeyword,
                    "type-selecting rules must all test the same member",
                ));
            }
            sets.push(set);
        }
        Ok((selector.unwrap_or_default(), sets))
    }

    /// The string enum item of the `selector` member and its values; the selector must be a
    /// required member, so that a value always says which variant to decode.
    fn selector_enum(
        &self,
        selector: &str,
        fields: &[Field],
        at: &Loc,
    ) -> Result<(ItemId, Vec<(String, String)>)> {
        let sel_field = fields.iter().find(|f| f.json == selector).ok_or_else(|| {
            self.err(
                at,
                Code::UnsupportedKeyword,
                format!("selector `{selector}` is not a declared member"),
            )
        })?;
        if !sel_field.required {
            return Err(self.err(
                at,
                Code::UnsupportedKeyword,
                format!("selector `{selector}` must be required"),
            ));
        }
        let enum_id = match sel_field.ty {
            Ty::Named(i) if matches!(self.model.items[i], Item::Enum(_)) => i,
            _ => {
                return Err(self.err(
                    at,
                    Code::UnsupportedKeyword,
                    format!("selector `{selector}` must be a string enum"),
                ));
            }
        };
        let values = match &self.model.items[enum_id] {
            Item::Enum(e) => e.values.clone(),
            _ => unreachable!(),
        };
        Ok((enum_id, values))
    }

    /// The name of a selected type's variant: the variant's type name without the select's name in
    /// front (and without its version suffix, when the select's name carries one).
    fn select_variant_name(&self, select: &str, ty: &Ty, first: &str) -> String {
        match named_id(ty) {
            // `EventPayloadSemanticToolInput` in `EventPayload` is `SemanticToolInput`;
            // `EventPayloadGoalSnapshotV2` in `EventPayloadV2` is `GoalSnapshot`.
            Some(i) => {
                let item = self.model.items[i].name();
                let plain = unversioned(select);
                match item.strip_prefix(select) {
                    Some(rest) => rest.to_owned(),
                    None if plain != select => {
                        let rest = item.strip_prefix(plain.as_str()).unwrap_or(item);
                        rest.strip_suffix(&select[plain.len()..])
                            .unwrap_or(rest)
                            .to_owned()
                    }
                    None => item.to_owned(),
                }
            }
            None => pascal(first),
        }
    }
}

/// Groups the enum `values` (JSON, Rust) by the rules whose value `sets` hold them, in enum order.
fn value_groups(values: &[(String, String)], sets: &[BTreeSet<String>]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (json, rust) in values {
        let hit: Vec<usize> = sets
            .iter()
            .enumerate()
            .filter(|(_, s)| s.contains(json))
            .map(|(i, _)| i)
            .collect();
        match groups.iter_mut().find(|g| g.0 == hit) {
            Some(g) => g.1.push(rust.clone()),
            None => groups.push((hit, vec![rust.clone()], json.clone())),
        }
    }
    groups
}

/// The keywords of a conditional, checked together.
pub(super) fn conditional_keywords() -> Vec<Keyword> {
    vec![Keyword::If, Keyword::Then, Keyword::Else]
}
