//! Object schemas: one struct from one or several object schemas that must all hold, with its
//! members, `required`, extra members (`additionalProperties`, `propertyNames`) and the checks
//! that narrow it.

use super::conditionals::Selects;
use super::{Normalizer, strings};
use crate::error::Result;
use crate::load::Loc;
use crate::model::*;
use crate::names::{join, join_plain, pascal, snake, unique};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// What the object schemas of one struct say, read from all of them before any member is typed:
/// `required` or `additionalProperties` in one of them applies to members another declares.
#[derive(Default)]
struct ObjectParts {
    /// Every member, in order of first declaration, with each place that declares it.
    props: Vec<(String, Vec<Loc>)>,
    required: Vec<String>,
    /// Per `additionalProperties: false`: the members declared beside it.
    closed: Vec<BTreeSet<String>>,
    /// The schema of extra members, and the schema of their names if one is given.
    typed_extra: Option<(Loc, Option<Loc>)>,
    /// Each `if`, read as a predicate, with the place of its `then`.
    conds: Vec<(ObjPred, Loc)>,
    /// The branches of each `oneOf` that tests member values.
    one_ofs: Vec<Vec<ObjPred>>,
    /// `allOf` members that only narrow the object.
    checks: Vec<ObjPred>,
}

impl ObjectParts {
    /// `additionalProperties: false` sees only its own siblings: members outside every closed set
    /// can never appear.
    fn allowed(&self, member: &str) -> bool {
        self.closed.iter().all(|c| c.contains(member))
    }
}

impl Normalizer<'_> {
    /// The type of a `type: object` schema: a plain JSON object when it says nothing about its
    /// members, else a struct.
    pub(super) fn object_type(
        &mut self,
        loc: &Loc,
        obj: &Map<String, Value>,
        hint: &str,
    ) -> Result<Ty> {
        let open_only = !obj.contains_key("properties")
            && !obj.contains_key("required")
            && !obj.contains_key("propertyNames")
            && !obj.contains_key("oneOf")
            && matches!(
                obj.get("additionalProperties"),
                None | Some(Value::Bool(true))
            );
        if open_only {
            Ok(Ty::Object)
        } else {
            self.object(loc, hint)
        }
    }

    /// A struct for the object schema at `loc`, remembered so that every user shares it.
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
        // Reserve the name first so recursive users see it.
        let id = self.push(Item::Struct(Struct {
            name: name.clone(),
            doc,
            fields: vec![],
            extra: Extra::Open,
            conds: vec![],
            one_ofs: vec![],
            checks: vec![],
        }));
        let mut parts = self.gather_object(locs)?;
        if let Some(r) = parts.required.iter().find(|r| !parts.allowed(r)) {
            return Err(self.err(
                &locs[0],
                "unsatisfiable",
                format!("`{r}` is required but forbidden by `additionalProperties: false`"),
            ));
        }
        let (conds, selects) = self.split_conds(std::mem::take(&mut parts.conds))?;
        let mut checks = std::mem::take(&mut parts.checks);
        let mut fields = self.fields(&name, &parts, &selects, &mut checks)?;
        self.select_members(&name, &locs[0], selects, &mut fields, &parts.props)?;
        let extra = self.extra(&name, &parts)?;
        if let Item::Struct(s) = &mut self.model.items[id] {
            s.fields = fields;
            s.extra = extra;
            s.conds = conds;
            s.one_ofs = parts.one_ofs;
            s.checks = checks;
        }
        Ok(id)
    }

    /// Reads the object schemas at `locs`, and the `allOf` members of theirs that bring structure
    /// or conditions, each once; nothing is typed yet.
    fn gather_object(&self, locs: &[Loc]) -> Result<ObjectParts> {
        let mut parts = ObjectParts::default();
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
            self.gather_members(&mut parts, &l, obj)?;
            self.gather_rules(&mut parts, &l, obj, &mut pending)?;
        }
        Ok(parts)
    }

    /// The member keywords of the object schema at `l`: `properties`, `required`,
    /// `additionalProperties` and `propertyNames`.
    fn gather_members(
        &self,
        parts: &mut ObjectParts,
        l: &Loc,
        obj: &Map<String, Value>,
    ) -> Result<()> {
        if let Some(p) = obj.get("properties").and_then(Value::as_object) {
            for k in p.keys() {
                let child = l.child("properties").child(k);
                match parts.props.iter_mut().find(|(n, _)| n == k) {
                    Some((_, v)) => v.push(child),
                    None => parts.props.push((k.clone(), vec![child])),
                }
            }
        }
        if let Some(r) = obj.get("required") {
            for s in strings(r)
                .ok_or_else(|| self.err(l, "invalid_schema", "`required` must list strings"))?
            {
                if !parts.required.contains(&s) {
                    parts.required.push(s);
                }
            }
        }
        match obj.get("additionalProperties") {
            None | Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => parts.closed.push(
                obj.get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default(),
            ),
            Some(_) => {
                let names = obj.get("propertyNames").map(|_| l.child("propertyNames"));
                parts.typed_extra = Some((l.child("additionalProperties"), names));
            }
        }
        if obj.contains_key("propertyNames")
            && !matches!(obj.get("additionalProperties"), Some(Value::Object(_)))
        {
            return Err(self.err(
                l,
                "unsupported_keyword",
                "`propertyNames` is supported only with a schema-valued `additionalProperties`",
            ));
        }
        Ok(())
    }

    /// The rule keywords of the object schema at `l`: `if`, a `oneOf` of member tests, and
    /// `allOf`, whose members either narrow the object or join `pending` to be read as part of it.
    /// Keywords that would make the object something else are refused.
    fn gather_rules(
        &self,
        parts: &mut ObjectParts,
        l: &Loc,
        obj: &Map<String, Value>,
        pending: &mut Vec<Loc>,
    ) -> Result<()> {
        if obj.contains_key("if") {
            let when = self.obj_pred(&l.child("if")).ok_or_else(|| {
                self.err(
                    &l.child("if"),
                    "unsupported_keyword",
                    "an `if` may only test member constants",
                )
            })?;
            parts.conds.push((when, l.child("then")));
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
            parts.one_ofs.push(branches);
        }
        if let Some(a) = obj.get("allOf").and_then(Value::as_array) {
            // Reversed, so that `pending.pop()` reads the members in order.
            for i in (0..a.len()).rev() {
                let m = l.child("allOf").child(&i.to_string());
                let mnode = self.node(&m);
                if mnode.get("if").is_some()
                    || mnode.get("oneOf").is_some()
                    || mnode.get("$ref").is_some()
                {
                    pending.push(m);
                } else if let Some(p) = self.obj_pred(&m) {
                    parts.checks.push(p);
                } else {
                    pending.push(m);
                }
            }
        }
        for k in ["not", "anyOf", "const", "enum", "items"] {
            if obj.contains_key(k) {
                return Err(self.err(
                    l,
                    "unsupported_keyword",
                    format!("`{k}` on an object schema is not supported"),
                ));
            }
        }
        Ok(())
    }

    /// The struct's fields, in declaration order, leaving out members `additionalProperties: false`
    /// forbids. Later declarations that narrow a member's values are added to `checks`.
    fn fields(
        &mut self,
        owner: &str,
        parts: &ObjectParts,
        selects: &Selects,
        checks: &mut Vec<ObjPred>,
    ) -> Result<Vec<Field>> {
        let mut fields = Vec::new();
        let mut taken = BTreeSet::new();
        for (json, plocs) in &parts.props {
            if !parts.allowed(json) {
                continue;
            }
            let rust = unique(snake(json), &mut taken);
            let hint = member_hint(owner, json, &parts.props);
            let (ty, narrow) = self.member_ty(json, plocs, &hint, selects.contains_key(json))?;
            if !narrow.is_empty() {
                checks.push(ObjPred {
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
                ty,
                required: parts.required.contains(json),
                doc,
                select: None,
            });
        }
        Ok(fields)
    }

    /// The type of the member `json` declared at `plocs`: the first declaration gives it, the
    /// others may only narrow its values (returned apart, as checks). A member whose type `then`
    /// selects is typed with its selected type later.
    fn member_ty(
        &mut self,
        json: &str,
        plocs: &[Loc],
        hint: &str,
        selected: bool,
    ) -> Result<(Ty, Vec<ValPred>)> {
        if selected {
            return Ok((Ty::Any, Vec::new()));
        }
        let mut ty = None;
        let mut narrow = Vec::new();
        for pl in plocs {
            if ty.is_none() {
                ty = Some(self.ty(pl, hint)?);
            } else if let Some(p) = self.val_pred(pl) {
                narrow.extend(p);
            } else {
                return Err(self.err(
                    pl,
                    "unsupported_keyword",
                    format!("member `{json}` is declared twice with structure"),
                ));
            }
        }
        Ok((ty.unwrap_or(Ty::Any), narrow))
    }

    /// What the struct does with members it does not declare: refuses them, keeps them as JSON, or
    /// types their values (and their names, with `propertyNames`).
    fn extra(&mut self, owner: &str, parts: &ObjectParts) -> Result<Extra> {
        if !parts.closed.is_empty() {
            return Ok(Extra::Closed);
        }
        let Some((vl, nl)) = &parts.typed_extra else {
            return Ok(Extra::Open);
        };
        let vty = self.ty(vl, &join(owner, "Value"))?;
        let key = match nl {
            Some(nl) => Some(self.property_names(nl)?),
            None => None,
        };
        Ok(Extra::Typed(vty, key.map(Box::new)))
    }

    /// The string rule `propertyNames` at `nl` sets on the names of extra members.
    fn property_names(&mut self, nl: &Loc) -> Result<StrRule> {
        match self
            .node(nl)
            .as_object()
            .map(|o| self.typed(nl, o, "string", ""))
            .transpose()?
        {
            Some(Ty::Str(r)) => Ok(r),
            _ => Err(self.err(
                nl,
                "unsupported_keyword",
                "`propertyNames` must be a string schema",
            )),
        }
    }
}

/// The name hint of member `json`'s type: `owner` joined with the member, or plainly concatenated
/// when joining would give the same hint as another member's plain concatenation.
fn member_hint(owner: &str, json: &str, props: &[(String, Vec<Loc>)]) -> String {
    let hint = join(owner, &pascal(json));
    if props
        .iter()
        .any(|(other, _)| other != json && join_plain(owner, &pascal(other)) == hint)
    {
        join_plain(owner, &pascal(json))
    } else {
        hint
    }
}
