//! Object schemas: one struct from one or several object schemas that must all hold, with its
//! members, `required`, extra members (`additionalProperties`, `propertyNames`) and the checks
//! that narrow it.

use super::conditionals::{Selects, conditional_keywords};
use super::nodes::scalar_reads;
use super::{Normalizer, annotation, strings};
use crate::error::Code;
use crate::error::Result;
use crate::load::Loc;
use crate::model::*;
use crate::names::{join, join_plain, pascal, snake, unique};
use prp_vocabulary::{InstanceType, Keyword, Schema};
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
    /// Each schema-valued `additionalProperties`: the schema object holding it, its
    /// `propertyNames` if any, and the members declared beside it (those it does not apply to).
    extra_schemas: Vec<(Loc, Option<Loc>, BTreeSet<String>)>,
    /// Each `if`, read as a predicate, with the schema object holding it.
    conds: Vec<(ObjPred, Loc)>,
    /// The branches of each `oneOf` that tests member values.
    one_ofs: Vec<Vec<ObjPred>>,
    /// `allOf` members that only narrow the object.
    checks: Vec<ObjPred>,
    /// Keywords of the object schemas the typed reading leaves to the schema program, with the
    /// schema object holding them.
    rules: Vec<(Loc, Vec<Keyword>)>,
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
        // Keywords of other types say nothing of an object; anything else makes it a struct.
        let open_only = obj.iter().all(|(k, v)| match Keyword::from_name(k) {
            Some(Keyword::AdditionalProperties) => v == &Value::Bool(true),
            Some(kw)
                if kw == Keyword::Type
                    || kw
                        .instance_type()
                        .is_some_and(|t| t != InstanceType::Object) =>
            {
                true
            }
            _ => super::annotation(k),
        });
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
    ) -> Result<ItemId> {
        // Reserve the name first so recursive users see it.
        let id = self.push(Item::Struct(Struct {
            name: name.clone(),
            doc,
            fields: vec![],
            extra: Extra::Open,
            conds: vec![],
            one_ofs: vec![],
            checks: vec![],
            programs: vec![],
        }));
        let mut parts = self.gather_object(locs)?;
        if let Some(r) = parts.required.iter().find(|r| !parts.allowed(r)) {
            return Err(self.err(
                &locs[0],
                Code::Unsatisfiable,
                format!("`{r}` is required but forbidden by `additionalProperties: false`"),
            ));
        }
        let conds = std::mem::take(&mut parts.conds);
        let (conds, selects) = self.split_conds(conds, &mut parts.rules)?;
        let (fields, mut checks) = self.typed_members(&name, &locs[0], &mut parts, selects)?;
        // A required member without a field of its own (none declares it, or it is declared only
        // to be refused) must still come: a rule on the object.
        let undeclared: Vec<String> = parts
            .required
            .iter()
            .filter(|r| !fields.iter().any(|f| &f.json == *r && f.ty != Ty::Never))
            .cloned()
            .collect();
        if !undeclared.is_empty() {
            checks.push(ObjPred {
                required: undeclared,
                ..Default::default()
            });
        }
        let extra = self.extra(&name, &parts)?;
        let programs = self.program_rules(&parts.rules)?;
        if let Item::Struct(s) = &mut self.model.items[id] {
            s.fields = fields;
            s.extra = extra;
            s.conds = conds;
            s.one_ofs = parts.one_ofs;
            s.checks = checks;
            s.programs = programs;
        }
        Ok(id)
    }

    /// The fields, each member's type selected by its `then`s where the model can say it; where it
    /// cannot, those conditionals become program rules and the members keep their declared types.
    fn typed_members(
        &mut self,
        name: &str,
        at: &Loc,
        parts: &mut ObjectParts,
        selects: Selects,
    ) -> Result<(Vec<Field>, Vec<ObjPred>)> {
        let mark = self.model.items.len();
        let mut checks = parts.checks.clone();
        let mut fields = self.fields(name, parts, &selects, &mut checks)?;
        let holders: Vec<Loc> = selects
            .values()
            .flatten()
            .map(|(_, _, holder)| holder.clone())
            .collect();
        match self.select_members(name, at, selects, &mut fields, &parts.props) {
            Err(e) if e.code == Code::UnsupportedKeyword => {
                self.rollback(mark);
                for h in holders {
                    parts.rules.push((h, conditional_keywords()));
                }
                checks = parts.checks.clone();
                fields = self.fields(name, parts, &Selects::new(), &mut checks)?;
            }
            r => r?,
        }
        Ok((fields, checks))
    }

    /// The program nodes of the rules left to the schema program, each schema object's once. A
    /// rule whose verdict would depend on the dynamic scope cannot be checked from here.
    fn program_rules(&mut self, rules: &[(Loc, Vec<Keyword>)]) -> Result<Vec<NodeId>> {
        let mut merged: Vec<(Loc, Vec<Keyword>)> = Vec::new();
        for (l, ks) in rules {
            match merged.iter_mut().find(|(m, _)| m == l) {
                Some((_, have)) => have.extend(
                    ks.iter()
                        .filter(|k| !have.contains(k))
                        .cloned()
                        .collect::<Vec<_>>(),
                ),
                None => merged.push((l.clone(), ks.clone())),
            }
        }
        let mut nodes = Vec::new();
        for (l, ks) in merged {
            let (n, dynamic) = self.program.rule(self.set, &l, &ks)?;
            if dynamic {
                return Err(self.err(
                    &l,
                    Code::UnsupportedKeyword,
                    "a rule whose `$dynamicRef` resolves through the dynamic scope is checked from the root",
                ));
            }
            nodes.push(n);
        }
        Ok(nodes)
    }

    /// Reads the object schemas at `locs`, and the `allOf` members of theirs that bring structure
    /// or conditions, each once; nothing is typed yet.
    fn gather_object(&self, locs: &[Loc]) -> Result<ObjectParts> {
        let mut parts = ObjectParts::default();
        let mut pending: Vec<Loc> = locs.to_vec();
        let mut seen = BTreeSet::new();
        while let Some(l) = pending.pop() {
            if !seen.insert(l.clone()) {
                continue;
            }
            let obj = match self.node(&l) {
                Value::Object(o) => o,
                Value::Bool(true) => continue,
                Value::Bool(false) => {
                    parts.rules.push((l, Vec::new()));
                    continue;
                }
                _ => return Err(self.err(&l, Code::InvalidSchema, "expected a schema")),
            };
            // `$ref` applies beside its siblings: its target is one more part of the object.
            if let Some(r) = obj.keyword(Keyword::Ref).and_then(Value::as_str) {
                pending.push(self.set.resolve(&l, r)?);
            }
            self.left_to_program(&mut parts, &l, obj)?;
            self.gather_members(&mut parts, &l, obj)?;
            self.gather_rules(&mut parts, &l, obj, &mut pending)?;
        }
        settle_extra_schemas(&mut parts);
        Ok(parts)
    }

    /// Keywords of the object schema at `l` that the typed reading does not read (`minProperties`,
    /// `dependentRequired`, a `type` that is not `object`, ...), left to the schema program. Those
    /// that change which members an object declares (`patternProperties`, `unevaluatedProperties`)
    /// cannot be checked apart from its shape, and keep it a checked type.
    fn left_to_program(
        &self,
        parts: &mut ObjectParts,
        l: &Loc,
        obj: &Map<String, Value>,
    ) -> Result<()> {
        let mut rest = Vec::new();
        for k in obj.keys() {
            // A name the vocabulary does not have is an unknown keyword: it asserts nothing.
            let Some(kw) = Keyword::from_name(k) else {
                continue;
            };
            match kw {
                Keyword::PatternProperties
                | Keyword::UnevaluatedProperties
                | Keyword::DynamicRef
                | Keyword::DynamicAnchor => {
                    return Err(self.err(
                        l,
                        Code::UnsupportedKeyword,
                        format!("unsupported keyword `{k}`"),
                    ));
                }
                Keyword::Type if !admits_object(&obj[k]) => rest.push(kw),
                // Read with `if`.
                Keyword::Else => {}
                _ if !super::known(k) => rest.push(kw),
                _ => {}
            }
        }
        if let Some(f) = obj.keyword(Keyword::Format)
            && !f.is_string()
        {
            return Err(self.err(l, Code::InvalidSchema, "`format` must be a string"));
        }
        if !rest.is_empty() {
            parts.rules.push((l.clone(), rest));
        }
        Ok(())
    }

    /// The member keywords of the object schema at `l`: `properties`, `required`,
    /// `additionalProperties` and `propertyNames`.
    fn gather_members(
        &self,
        parts: &mut ObjectParts,
        l: &Loc,
        obj: &Map<String, Value>,
    ) -> Result<()> {
        if let Some(p) = obj.keyword(Keyword::Properties).and_then(Value::as_object) {
            for k in p.keys() {
                let child = l.at(Keyword::Properties).child(k);
                match parts.props.iter_mut().find(|(n, _)| n == k) {
                    Some((_, v)) => v.push(child),
                    None => parts.props.push((k.clone(), vec![child])),
                }
            }
        }
        if let Some(r) = obj.keyword(Keyword::Required) {
            for s in strings(r)
                .ok_or_else(|| self.err(l, Code::InvalidSchema, "`required` must list strings"))?
            {
                if !parts.required.contains(&s) {
                    parts.required.push(s);
                }
            }
        }
        match obj.keyword(Keyword::AdditionalProperties) {
            None | Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => parts.closed.push(
                obj.keyword(Keyword::Properties)
                    .and_then(Value::as_object)
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default(),
            ),
            Some(_) => {
                let own = obj
                    .keyword(Keyword::Properties)
                    .and_then(Value::as_object)
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default();
                let names = obj
                    .keyword(Keyword::PropertyNames)
                    .map(|_| l.at(Keyword::PropertyNames));
                parts.extra_schemas.push((l.clone(), names, own));
            }
        }
        if obj.has(Keyword::PropertyNames)
            && !matches!(
                obj.keyword(Keyword::AdditionalProperties),
                Some(Value::Object(_))
            )
        {
            return Err(self.err(
                l,
                Code::UnsupportedKeyword,
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
        if obj.has(Keyword::If) {
            let pred = if obj.has(Keyword::Else) {
                None
            } else {
                self.obj_pred(&l.at(Keyword::If))
            };
            match pred {
                Some(when) if obj.has(Keyword::Then) => parts.conds.push((when, l.clone())),
                Some(_) => {}
                None => parts.rules.push((l.clone(), conditional_keywords())),
            }
        }
        if let Some(alts) = obj.keyword(Keyword::OneOf).and_then(Value::as_array) {
            let branches: Option<Vec<ObjPred>> = (0..alts.len())
                .map(|i| self.obj_pred(&l.at(Keyword::OneOf).child(&i.to_string())))
                .collect();
            match branches {
                Some(b) => parts.one_ofs.push(b),
                None => parts.rules.push((l.clone(), vec![Keyword::OneOf])),
            }
        }
        if let Some(a) = obj.keyword(Keyword::AllOf).and_then(Value::as_array) {
            // Reversed, so that `pending.pop()` reads the members in order.
            for i in (0..a.len()).rev() {
                let m = l.at(Keyword::AllOf).child(&i.to_string());
                let mnode = self.node(&m);
                if mnode.keyword(Keyword::If).is_some()
                    || mnode.keyword(Keyword::OneOf).is_some()
                    || mnode.keyword(Keyword::Ref).is_some()
                {
                    pending.push(m);
                } else if let Some(p) = self.obj_pred(&m) {
                    parts.checks.push(p);
                } else {
                    pending.push(m);
                }
            }
        }
        let rest: Vec<Keyword> = [
            Keyword::Not,
            Keyword::AnyOf,
            Keyword::Const,
            Keyword::Enum,
            Keyword::Items,
        ]
        .into_iter()
        .filter(|&k| obj.has(k))
        .collect();
        if !rest.is_empty() {
            parts.rules.push((l.clone(), rest));
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
                .find_map(|l| {
                    self.node(l)
                        .keyword(Keyword::Description)
                        .and_then(Value::as_str)
                })
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
                let t = self.ty(pl, hint)?;
                if let Some(around) = self.unfinished_by_value(&t) {
                    return Err(self.err(
                        pl,
                        Code::UnsupportedKeyword,
                        format!(
                            "member `{json}` holds `{around}`, a union still being built around it, by value: \
                             a Rust type of infinite size"
                        ),
                    ));
                }
                ty = Some(t);
            } else if let Some(p) = self.val_pred(pl) {
                narrow.extend(p);
            } else {
                return Err(self.err(
                    pl,
                    Code::UnsupportedKeyword,
                    format!("member `{json}` is declared twice with structure"),
                ));
            }
        }
        Ok((ty.unwrap_or(Ty::Any), narrow))
    }

    /// The name of the union `ty` holds by value (not through an array or a map) while that union
    /// is still being built: a member of one of its own alternatives, a recursion no finite type
    /// says. The union's variants are set once all are typed, so an unfinished one has none.
    fn unfinished_by_value(&self, ty: &Ty) -> Option<&str> {
        match ty {
            Ty::Named(i) => match &self.model.items[*i] {
                Item::Tagged(t) if t.variants.is_empty() => Some(&t.name),
                _ => None,
            },
            Ty::Nullable(t) | Ty::Refined(t, _) | Ty::Ruled(t, _) => self.unfinished_by_value(t),
            _ => None,
        }
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

    /// The string rule `propertyNames` at `nl` sets on the names of extra members: the keywords a
    /// string rule reads, and those of other types (vacuous on a name). Anything else (`not`,
    /// `enum`, an applicator, a `type` without `string`) is more than a string rule says.
    fn property_names(&mut self, nl: &Loc) -> Result<StrRule> {
        let node = self.node(nl);
        if node
            .keyword(Keyword::Type)
            .is_some_and(|t| !admits(t, "string"))
        {
            let why = "a `propertyNames` that refuses every string is more than a string rule says";
            return Err(self.err(nl, Code::UnsupportedKeyword, why));
        }
        let read = |k: &String| annotation(k) || scalar_reads(k, "string");
        if let Some(k) = node.as_object().and_then(|o| o.keys().find(|k| !read(k))) {
            let why = format!("`{k}` in `propertyNames` is more than a string rule says");
            return Err(self.err(nl, Code::UnsupportedKeyword, why));
        }
        match self
            .node(nl)
            .as_object()
            .map(|o| self.typed(nl, o, "string", ""))
            .transpose()?
        {
            Some(Ty::Str(r)) => Ok(r),
            _ => Err(self.err(
                nl,
                Code::UnsupportedKeyword,
                "`propertyNames` must be a string schema",
            )),
        }
    }
}

/// A schema-valued `additionalProperties` types the struct's undeclared members when it is the
/// only one and its own `properties` declare every member of the struct. Otherwise it also
/// applies to members another part declares (or another one applies too), which one map of
/// typed members cannot say: each is then a rule, checked with its `propertyNames` on the JSON,
/// and undeclared members are kept as JSON.
fn settle_extra_schemas(parts: &mut ObjectParts) {
    let schemas = std::mem::take(&mut parts.extra_schemas);
    let covers = |own: &BTreeSet<String>| parts.props.iter().all(|(json, _)| own.contains(json));
    if let [(l, names, own)] = schemas.as_slice()
        && covers(own)
    {
        parts.typed_extra = Some((l.at(Keyword::AdditionalProperties), names.clone()));
        return;
    }
    for (l, names, _) in schemas {
        let mut keywords = vec![Keyword::AdditionalProperties];
        keywords.extend(names.map(|_| Keyword::PropertyNames));
        parts.rules.push((l, keywords));
    }
}

/// Whether a `type` value lets objects through.
fn admits_object(t: &Value) -> bool {
    admits(t, "object")
}

/// Whether a `type` value lets values of JSON type `name` through.
fn admits(t: &Value, name: &str) -> bool {
    match t {
        Value::String(s) => s == name,
        Value::Array(a) => a.iter().any(|t| t == name),
        _ => false,
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
