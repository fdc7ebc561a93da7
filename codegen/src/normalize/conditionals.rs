//! `if`/`then` inside an object schema: a `then` of member constants or `required` lists is a
//! conditional check; a `then` that gives a member a whole schema makes that member a selected type,
//! chosen by the value of an enum sibling.

use super::{Normalizer, named_id};
use crate::error::Result;
use crate::load::Loc;
use crate::model::*;
use crate::names::{join, pascal, snake, unique, unversioned};
use serde_json::Value;
use std::collections::BTreeSet;

impl Normalizer<'_> {
    /// A member whose schema depends on an enum sibling: one variant per group of enum values that
    /// trigger the same set of rules.
    pub(super) fn build_select(
        &mut self,
        owner: &str,
        member: &str,
        rules: Vec<(ObjPred, Loc)>,
        fields: &[Field],
        props: &[(String, Vec<Loc>)],
    ) -> Result<usize> {
        let at = rules[0].1.clone();
        let mut selector: Option<String> = None;
        let mut sets = Vec::new();
        for (when, _) in &rules {
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
                        &at,
                        "unsupported_keyword",
                        "a type-selecting `if` must test one enum member",
                    ));
                }
            };
            let s = &when.props[0].0;
            if selector.get_or_insert_with(|| s.clone()) != s {
                return Err(self.err(
                    &at,
                    "unsupported_keyword",
                    "type-selecting rules must all test the same member",
                ));
            }
            sets.push(set);
        }
        let selector = selector.unwrap_or_default();
        let sel_field = fields.iter().find(|f| f.json == selector).ok_or_else(|| {
            self.err(
                &at,
                "unsupported_keyword",
                format!("selector `{selector}` is not a declared member"),
            )
        })?;
        if !sel_field.required {
            return Err(self.err(
                &at,
                "unsupported_keyword",
                format!("selector `{selector}` must be required"),
            ));
        }
        let enum_id = match sel_field.ty {
            Ty::Named(i) if matches!(self.model.items[i], Item::Enum(_)) => i,
            _ => {
                return Err(self.err(
                    &at,
                    "unsupported_keyword",
                    format!("selector `{selector}` must be a string enum"),
                ));
            }
        };
        let values = match &self.model.items[enum_id] {
            Item::Enum(e) => e.values.clone(),
            _ => unreachable!(),
        };
        let base: Vec<Loc> = props
            .iter()
            .find(|(n, _)| n == member)
            .map(|(_, l)| l.clone())
            .unwrap_or_default();
        // Group enum values by the rules they trigger, in enum order.
        let mut groups: Vec<(Vec<usize>, Vec<String>, String)> = Vec::new();
        for (json, rust) in &values {
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
        let name = unique(join(owner, &pascal(member)), &mut self.taken);
        let id = self.push(Item::Select(Select {
            name: name.clone(),
            selector_enum: enum_id,
            selector_rust: snake(&selector),
            variants: vec![],
        }));
        let mut variants = Vec::new();
        let mut taken = BTreeSet::new();
        for (hit, when, first) in groups {
            let mut members = base.clone();
            members.extend(hit.iter().map(|&i| rules[i].1.clone()));
            let vhint = if hit.is_empty() {
                join(&name, "Other")
            } else {
                join(&name, &pascal(&first))
            };
            let ty = self.merge(&at, &members, &vhint, true)?;
            let vname = match &ty {
                _ if hit.is_empty() => "Other".to_owned(),
                t => match named_id(t) {
                    // `EventPayloadSemanticToolInput` in `EventPayload` is `SemanticToolInput`;
                    // `EventPayloadGoalSnapshotV2` in `EventPayloadV2` is `GoalSnapshot`.
                    Some(i) => {
                        let item = self.model.items[i].name();
                        let plain = unversioned(&name);
                        match item.strip_prefix(name.as_str()) {
                            Some(rest) => rest.to_owned(),
                            None if plain != name => {
                                let rest = item.strip_prefix(plain.as_str()).unwrap_or(item);
                                rest.strip_suffix(&name[plain.len()..])
                                    .unwrap_or(rest)
                                    .to_owned()
                            }
                            None => item.to_owned(),
                        }
                    }
                    None => pascal(&first),
                },
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
}
