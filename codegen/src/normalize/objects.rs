//! Object schemas: one struct from one or several object schemas that must all hold, with its
//! members, `required`, extra members (`additionalProperties`, `propertyNames`) and the checks
//! that narrow it.

use super::{Normalizer, strings};
use crate::error::Result;
use crate::load::Loc;
use crate::model::*;
use crate::names::{join, join_plain, pascal, snake, unique};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

impl Normalizer<'_> {
    pub(super) fn object(&mut self, loc: &Loc, hint: &str) -> Result<Ty> {
        let name = self.name_for(loc, hint);
        let id = self.build_object(std::slice::from_ref(loc), name, self.doc(loc))?;
        self.memo.insert(loc.clone(), Ty::Named(id));
        Ok(Ty::Named(id))
    }

    /// Builds one struct from object schemas that must all hold.
    pub(super) fn build_object(
        &mut self,
        locs: &[Loc],
        name: String,
        doc: Option<String>,
    ) -> Result<usize> {
        let id = self.push(Item::Struct(Struct {
            name: name.clone(),
            doc,
            fields: vec![],
            extra: Extra::Open,
            conds: vec![],
            one_ofs: vec![],
            checks: vec![],
        }));
        // Reserve the name first so recursive users see it.
        let mut props: Vec<(String, Vec<Loc>)> = Vec::new();
        let mut required: Vec<String> = Vec::new();
        let mut closed: Vec<BTreeSet<String>> = Vec::new();
        let mut typed_extra: Option<(Loc, Option<Loc>)> = None;
        let mut conds: Vec<(ObjPred, Loc)> = Vec::new();
        let mut one_ofs = Vec::new();
        let mut checks = Vec::new();
        let mut pending: Vec<Loc> = locs.to_vec();
        let mut seen = BTreeSet::new();
        while let Some(l) = pending.pop() {
            let l = self.deref(&l)?;
            if !seen.insert(l.clone()) {
                continue;
            }
            let node = self.node(&l);
            let obj = node
                .as_object()
                .ok_or_else(|| self.err(&l, "unsupported_keyword", "expected an object schema"))?;
            self.check_keywords(&l, obj)?;
            if let Some(p) = obj.get("properties").and_then(Value::as_object) {
                for k in p.keys() {
                    let child = l.child("properties").child(k);
                    match props.iter_mut().find(|(n, _)| n == k) {
                        Some((_, v)) => v.push(child),
                        None => props.push((k.clone(), vec![child])),
                    }
                }
            }
            if let Some(r) = obj.get("required") {
                for s in strings(r)
                    .ok_or_else(|| self.err(&l, "invalid_schema", "`required` must list strings"))?
                {
                    if !required.contains(&s) {
                        required.push(s);
                    }
                }
            }
            match obj.get("additionalProperties") {
                None | Some(Value::Bool(true)) => {}
                Some(Value::Bool(false)) => closed.push(
                    obj.get("properties")
                        .and_then(Value::as_object)
                        .map(|p| p.keys().cloned().collect())
                        .unwrap_or_default(),
                ),
                Some(_) => {
                    let names = obj.get("propertyNames").map(|_| l.child("propertyNames"));
                    typed_extra = Some((l.child("additionalProperties"), names));
                }
            }
            if obj.contains_key("propertyNames")
                && !matches!(obj.get("additionalProperties"), Some(Value::Object(_)))
            {
                return Err(self.err(
                    &l,
                    "unsupported_keyword",
                    "`propertyNames` is supported only with a schema-valued `additionalProperties`",
                ));
            }
            if obj.contains_key("if") {
                let when = self.obj_pred(&l.child("if")).ok_or_else(|| {
                    self.err(
                        &l.child("if"),
                        "unsupported_keyword",
                        "an `if` may only test member constants",
                    )
                })?;
                conds.push((when, l.child("then")));
            }
            if let Some(alts) = obj.get("oneOf").and_then(Value::as_array) {
                let mut branches = Vec::new();
                for i in 0..alts.len() {
                    let b = l.child("oneOf").child(&i.to_string());
                    branches.push(self.obj_pred(&b).ok_or_else(|| {
                        self.err(
                            &b,
                            "unsupported_keyword",
                            "a `oneOf` beside `properties` may only test member values",
                        )
                    })?);
                }
                one_ofs.push(branches);
            }
            if let Some(a) = obj.get("allOf").and_then(Value::as_array) {
                for i in (0..a.len()).rev() {
                    let m = l.child("allOf").child(&i.to_string());
                    let mnode = self.node(&m);
                    if mnode.get("if").is_some()
                        || mnode.get("oneOf").is_some()
                        || mnode.get("$ref").is_some()
                    {
                        pending.push(m);
                    } else if let Some(p) = self.obj_pred(&m) {
                        checks.push(p);
                    } else {
                        pending.push(m);
                    }
                }
            }
            for k in ["not", "anyOf", "const", "enum", "items"] {
                if obj.contains_key(k) {
                    return Err(self.err(
                        &l,
                        "unsupported_keyword",
                        format!("`{k}` on an object schema is not supported"),
                    ));
                }
            }
        }
        // `additionalProperties: false` sees only its own siblings: members outside every closed set
        // can never appear.
        let allowed = |k: &str| closed.iter().all(|c| c.contains(k));
        for r in &required {
            if !allowed(r) {
                return Err(self.err(
                    &locs[0],
                    "unsatisfiable",
                    format!("`{r}` is required but forbidden by `additionalProperties: false`"),
                ));
            }
        }
        // `then` members that bring structure select the member's type by the tested constant.
        let mut selects: BTreeMap<String, Vec<(ObjPred, Loc)>> = BTreeMap::new();
        let mut plain_conds = Vec::new();
        for (when, then_loc) in conds {
            let then_node = self.node(&then_loc);
            let mut then = ObjPred::default();
            let tobj = then_node
                .as_object()
                .ok_or_else(|| self.err(&then_loc, "invalid_schema", "`then` must be an object"))?;
            for (k, v) in tobj {
                match k.as_str() {
                    "required" => then.required = strings(v).unwrap_or_default(),
                    "not" => match v.get("required").and_then(strings) {
                        Some(r) if v.as_object().is_some_and(|o| o.len() == 1) => {
                            then.not_required.push(r)
                        }
                        _ => {
                            return Err(self.err(
                                &then_loc.child("not"),
                                "unsupported_keyword",
                                "`not` may only forbid `required` members",
                            ));
                        }
                    },
                    "properties" => {
                        for name in v.as_object().into_iter().flat_map(|o| o.keys()) {
                            let pl = then_loc.child("properties").child(name);
                            match self.val_pred(&pl) {
                                Some(p) => then.props.push((name.clone(), p)),
                                None => selects
                                    .entry(name.clone())
                                    .or_default()
                                    .push((when.clone(), pl)),
                            }
                        }
                    }
                    "description" | "$comment" => {}
                    other => {
                        return Err(self.err(
                            &then_loc,
                            "unsupported_keyword",
                            format!("`{other}` in `then` is not supported"),
                        ));
                    }
                }
            }
            if !then.is_empty() {
                plain_conds.push(Cond { when, then });
            }
        }
        let mut fields = Vec::new();
        let mut taken = BTreeSet::new();
        let mut struct_checks = checks;
        for (json, plocs) in &props {
            if !allowed(json) {
                continue;
            }
            let rust = unique(snake(json), &mut taken);
            let mut hint = join(&name, &pascal(json));
            if props
                .iter()
                .any(|(other, _)| other != json && join_plain(&name, &pascal(other)) == hint)
            {
                hint = join_plain(&name, &pascal(json));
            }
            // The first location with structure gives the type; the others narrow it.
            let mut ty = None;
            let mut narrow = Vec::new();
            if selects.contains_key(json) {
                ty = Some(Ty::Any);
            }
            for pl in plocs {
                if ty.is_some() && selects.contains_key(json) {
                    break;
                }
                if ty.is_some()
                    && let Some(p) = self.val_pred(pl)
                {
                    narrow.extend(p);
                    continue;
                }
                if ty.is_none() {
                    ty = Some(self.ty(pl, &hint)?);
                } else {
                    return Err(self.err(
                        pl,
                        "unsupported_keyword",
                        format!("member `{json}` is declared twice with structure"),
                    ));
                }
            }
            if !narrow.is_empty() {
                struct_checks.push(ObjPred {
                    props: vec![(json.clone(), narrow)],
                    ..Default::default()
                });
            }
            let doc = plocs
                .iter()
                .find_map(|l| self.node(l).get("description").and_then(Value::as_str))
                .map(str::to_owned);
            fields.push(Field {
                json: json.clone(),
                rust,
                ty: ty.unwrap_or(Ty::Any),
                required: required.contains(json),
                doc,
                select: None,
            });
        }
        for (member, rules) in selects {
            let sel = self.build_select(&name, &member, rules, &fields, &props)?;
            let f = fields
                .iter_mut()
                .find(|f| f.json == member)
                .ok_or_else(|| {
                    self.err(
                        &locs[0],
                        "unsupported_keyword",
                        format!("`then` selects a type for undeclared member `{member}`"),
                    )
                })?;
            f.select = Some(sel);
            f.ty = Ty::Named(sel);
        }
        let extra = if !closed.is_empty() {
            Extra::Closed
        } else if let Some((vl, nl)) = typed_extra {
            let vty = self.ty(&vl, &join(&name, "Value"))?;
            let key = match nl {
                Some(nl) => match self
                    .node(&nl)
                    .as_object()
                    .map(|o| self.typed(&nl, o, "string", ""))
                    .transpose()?
                {
                    Some(Ty::Str(r)) => Some(r),
                    _ => {
                        return Err(self.err(
                            &nl,
                            "unsupported_keyword",
                            "`propertyNames` must be a string schema",
                        ));
                    }
                },
                None => None,
            };
            Extra::Typed(vty, key.map(Box::new))
        } else {
            Extra::Open
        };
        if let Item::Struct(s) = &mut self.model.items[id] {
            s.fields = fields;
            s.extra = extra;
            s.conds = plain_conds;
            s.one_ofs = one_ofs;
            s.checks = struct_checks;
        }
        Ok(id)
    }
}
