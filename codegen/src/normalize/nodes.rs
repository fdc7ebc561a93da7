//! Any schema node: the memo, the guard against a schema that contains itself, the choice of reader
//! by keyword and `type`, and the fallback to a checked type when no typed shape says the node
//! exactly.

use super::{Normalizer, annotation, newest_item};
use crate::error::Code;
use crate::error::Result;
use crate::load::Loc;
use crate::model::*;
use crate::names::singular;
use prp_vocabulary::InstanceType;
use prp_vocabulary::{Keyword, Schema};
use serde_json::{Map, Value};

/// Whether a scalar of JSON type `t` (`string`, `integer`, `number`, `boolean`, `null`) has
/// nothing more to say about the keyword `name` than its typed reading says: `type`, the
/// keywords that reading reads (lengths, `pattern` and `format` of a string, bounds of a
/// number), those of other JSON types (vacuous on it), and `then`/`else` (read with `if`).
pub(super) fn scalar_reads(name: &str, t: &str) -> bool {
    use Keyword::*;
    let Some(k) = Keyword::from_name(name) else {
        return false;
    };
    let own = match t {
        "string" => Some(InstanceType::String),
        "integer" | "number" => Some(InstanceType::Number),
        _ => None,
    };
    let read = match own {
        Some(InstanceType::String) => matches!(k, MinLength | MaxLength | Pattern | Format),
        Some(InstanceType::Number) => matches!(k, Minimum | Maximum),
        _ => false,
    };
    let vacuous = k.instance_type().is_some_and(|it| Some(it) != own);
    matches!(k, Type | Then | Else) || read || vacuous
}

impl Normalizer<'_> {
    /// The type of the schema node at `loc`; `hint` names any item it needs. A node the typed
    /// shapes cannot say exactly (the typed path answers `unsupported_keyword`) becomes a checked
    /// type: its JSON, checked by the compiled schema program.
    pub fn ty(&mut self, loc: &Loc, hint: &str) -> Result<Ty> {
        if let Some(t) = self.memo.get(loc) {
            let t = t.clone();
            return self.usable_here(loc, t);
        }
        if !self.active.insert(loc.clone()) {
            return Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "a schema that contains itself (a recursive `$ref`) has no finite typed shape",
            ));
        }
        let mark = self.model.items.len();
        self.depth += 1;
        let t = self.ty_uncached(loc, hint);
        self.depth -= 1;
        self.active.remove(loc);
        let t = match t {
            Err(e) if e.code == Code::UnsupportedKeyword => {
                self.rollback(mark);
                self.checked(loc, hint, e)?
            }
            t => t?,
        };
        // The whole type, not only a named one: `object` remembers the struct of a node whose
        // type is that struct or `null`, and a later user must see the `null` too.
        self.memo.insert(loc.clone(), t.clone());
        self.usable_here(loc, t)
    }

    /// Forgets the items a failed typed attempt made.
    pub(super) fn rollback(&mut self, mark: usize) {
        for item in self.model.items.drain_from(mark) {
            self.taken.remove(item.name());
            self.taken.remove(&format!("{}Builder", item.name()));
        }
        // A remembered type that holds a forgotten item anywhere (an array's items, a nullable)
        // is forgotten with it: the item's number will name another.
        self.memo
            .retain(|_, t| newest_item(t).is_none_or(|id| id.index() < mark));
        self.dynamic.retain(|&id| id.index() < mark);
    }

    /// A checked type for the node at `loc`.
    fn checked(&mut self, loc: &Loc, hint: &str, why: crate::Error) -> Result<Ty> {
        let (node, dynamic) = self.program.entry(self.set, loc)?;
        let name = self.name_for(loc, hint);
        let doc = self.doc(loc);
        let id = self.push(Item::Checked(Checked {
            name,
            doc,
            node,
            why: why.message,
        }));
        if dynamic {
            self.dynamic.insert(id);
        }
        Ok(Ty::Named(id))
    }

    /// `t`, unless it is a checked type whose `$dynamicRef`s depend on the dynamic scope and the
    /// node is reached from another schema: its verdict would then depend on resources the typed
    /// code around it does not track, so the enclosing schema is checked whole instead.
    fn usable_here(&self, loc: &Loc, t: Ty) -> Result<Ty> {
        match t {
            Ty::Named(id) if self.depth > 0 && self.dynamic.contains(&id) => Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "a `$dynamicRef` resolved through the dynamic scope is checked from the root it is reached from",
            )),
            t => Ok(t),
        }
    }

    /// The type of the node at `loc`, read by the first keyword that decides its shape.
    fn ty_uncached(&mut self, loc: &Loc, hint: &str) -> Result<Ty> {
        let node = self.node(loc);
        let obj = match node {
            Value::Bool(true) => return Ok(Ty::Any),
            Value::Bool(false) => return Ok(Ty::Never),
            Value::Object(o) => o,
            _ => {
                return Err(self.err(
                    loc,
                    Code::InvalidSchema,
                    "a schema must be an object or a boolean",
                ));
            }
        };
        if let Some(t) = self.ruled(loc, obj, hint)? {
            return Ok(t);
        }
        // Object and array schemas read their own keywords: what their type does not say, their
        // rules check.
        let object = obj.keyword(Keyword::Type) == Some(&Value::from("object"));
        if obj.keyword(Keyword::Type) == Some(&Value::from("array")) {
            return self.array(loc, obj, hint);
        }
        if !object {
            self.check_keywords(loc, obj)?;
        }
        if obj.has(Keyword::AllOf) || obj.has(Keyword::If) {
            return self.all_of(loc, hint);
        }
        if let Some(r) = obj.keyword(Keyword::Ref) {
            return self.reference(loc, obj, r, hint);
        }
        if object {
            return self.object_type(loc, obj, hint);
        }
        if obj.has(Keyword::Not) {
            return Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "`not` is supported only inside `then`",
            ));
        }
        if let Some(alts) = obj
            .keyword(Keyword::OneOf)
            .or_else(|| obj.keyword(Keyword::AnyOf))
        {
            return self.union(loc, alts, hint);
        }
        if let Some(c) = obj.keyword(Keyword::Const) {
            return self.enumeration(loc, std::slice::from_ref(c), hint);
        }
        if let Some(e) = obj.keyword(Keyword::Enum) {
            let values = e
                .as_array()
                .ok_or_else(|| self.err(loc, Code::InvalidSchema, "`enum` must be an array"))?;
            return self.enumeration(loc, values, hint);
        }
        match obj.keyword(Keyword::Type) {
            None => self.untyped(loc, obj),
            Some(Value::String(t)) => self.typed(loc, obj, t, hint),
            Some(Value::Array(ts)) => self.type_list(loc, obj, ts, hint),
            Some(_) => Err(self.err(
                loc,
                Code::InvalidSchema,
                "`type` must be a string or an array",
            )),
        }
    }

    /// A scalar schema (or a nullable one of any type) that says more than its type reads: the
    /// type, with the rest as a rule of the schema program. `None` when there is no rest, or the
    /// schema is not of that form, for the other readers.
    fn ruled(&mut self, loc: &Loc, obj: &Map<String, Value>, hint: &str) -> Result<Option<Ty>> {
        // Keywords that apply to `null` as to any value; the others are vacuous on it.
        const APPLICATORS: &[Keyword] = &[
            Keyword::AllOf,
            Keyword::AnyOf,
            Keyword::OneOf,
            Keyword::Not,
            Keyword::If,
            Keyword::Ref,
        ];
        let applies_to_null =
            |k: &str| Keyword::from_name(k).is_some_and(|k| APPLICATORS.contains(&k));
        let names: Vec<&str> = match obj.keyword(Keyword::Type) {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => return Ok(None),
        };
        let (t, nullable) = match names.as_slice() {
            [t] => (*t, false),
            [t, "null"] | ["null", t] if *t != "null" => (*t, true),
            _ => return Ok(None),
        };
        if obj.has(Keyword::Enum) || obj.has(Keyword::Const) {
            return Ok(None);
        }
        let scalar = matches!(t, "string" | "integer" | "number" | "boolean" | "null");
        let rest: Vec<String> = obj
            .keys()
            .filter(|k| {
                if scalar {
                    !(annotation(k) || scalar_reads(k, t))
                } else {
                    nullable && applies_to_null(k)
                }
            })
            .cloned()
            .collect();
        if rest.is_empty() {
            return Ok(None);
        }
        let inner = if scalar {
            let mut typed = obj.clone();
            typed.retain(|k, _| !rest.contains(k));
            self.typed(loc, &typed, t, hint)?
        } else {
            // The object or array reads every keyword itself; `null` is checked by the rest.
            self.typed(loc, obj, t, hint)?
        };
        let rest: Vec<Keyword> = rest.iter().filter_map(|k| Keyword::from_name(k)).collect();
        let (n, dynamic) = self.program.rule(self.set, loc, &rest)?;
        if dynamic {
            return Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "a rule whose `$dynamicRef` resolves through the dynamic scope is checked from the root",
            ));
        }
        let applies_to_null = rest.iter().any(|k| APPLICATORS.contains(k));
        Ok(Some(match (nullable, applies_to_null) {
            (false, _) => Ty::Ruled(Box::new(inner), vec![n]),
            (true, false) => Ty::Nullable(Box::new(Ty::Ruled(Box::new(inner), vec![n]))),
            (true, true) => Ty::Ruled(Box::new(Ty::Nullable(Box::new(inner))), vec![n]),
        }))
    }

    /// A node without `type`: any value when it asserts nothing. Without `type` an assertion
    /// applies to the values of its own kind and lets every other value through (`maxItems` accepts
    /// any string); a Rust type cannot say that, so such a schema is refused rather than narrowed
    /// or dropped.
    fn untyped(&self, loc: &Loc, obj: &Map<String, Value>) -> Result<Ty> {
        let asserting = obj.keys().find(|k| {
            // An unasserted `format` is an annotation too.
            let unasserted_format = k.as_str() == Keyword::Format.name()
                && obj[k.as_str()]
                    .as_str()
                    .is_some_and(|f| !self.formats.contains_key(f));
            !(annotation(k) || unasserted_format)
        });
        match asserting {
            None => Ok(Ty::Any),
            Some(k) => Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                format!(
                    "`{k}` without `type` is not supported: it would also have to accept every \
                     value of another type"
                ),
            )),
        }
    }

    /// A `type` list: one type, or one type and `null` (a nullable).
    fn type_list(
        &mut self,
        loc: &Loc,
        obj: &Map<String, Value>,
        ts: &[Value],
        hint: &str,
    ) -> Result<Ty> {
        let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
        match names.as_slice() {
            [t, "null"] | ["null", t] => Ok(Ty::Nullable(Box::new(self.typed(loc, obj, t, hint)?))),
            [t] => self.typed(loc, obj, t, hint),
            _ => Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "a `type` list must be one type and `null`",
            )),
        }
    }

    /// The type of a schema of JSON type `t`, shaped by the keywords of `obj` that apply to it.
    pub(super) fn typed(
        &mut self,
        loc: &Loc,
        obj: &Map<String, Value>,
        t: &str,
        hint: &str,
    ) -> Result<Ty> {
        Ok(match t {
            "string" => Ty::Str(self.string_rule(loc, obj)?),
            "integer" => Ty::Int(IntRule {
                min: self.int_bound(loc, obj, Keyword::Minimum)?,
                max: self.int_bound(loc, obj, Keyword::Maximum)?,
                values: None,
            }),
            "number" => Ty::Num(NumRule {
                min: obj.keyword(Keyword::Minimum).and_then(Value::as_f64),
                max: obj.keyword(Keyword::Maximum).and_then(Value::as_f64),
            }),
            "boolean" => Ty::Bool(None),
            "null" => Ty::Null,
            "array" => self.array(loc, obj, hint)?,
            "object" => self.object_type(loc, obj, hint)?,
            other => {
                return Err(self.err(loc, Code::InvalidSchema, format!("unknown type `{other}`")));
            }
        })
    }

    /// An array of one item type (any JSON without `items`), with its length bounds; tuples have
    /// no typed shape.
    fn array(&mut self, loc: &Loc, obj: &Map<String, Value>, hint: &str) -> Result<Ty> {
        let uint = |k: Keyword| obj.keyword(k).and_then(Value::as_u64);
        let item = match obj.keyword(Keyword::Items) {
            Some(Value::Array(_)) => {
                return Err(self.err(
                    loc,
                    Code::UnsupportedKeyword,
                    "tuple `items` are not supported",
                ));
            }
            Some(_) => self.ty(&loc.at(Keyword::Items), &singular(hint))?,
            None => Ty::Any,
        };
        let rules = self.array_rules(loc, obj)?;
        Ok(Ty::Array(Box::new(ArrayTy {
            item,
            min: uint(Keyword::MinItems),
            max: uint(Keyword::MaxItems),
            unique: obj.keyword(Keyword::UniqueItems) == Some(&Value::Bool(true)),
            rules,
        })))
    }

    /// The keywords of an array schema that its type does not say (`contains`, `allOf`, `if`,
    /// ...), as one rule of the schema program. `prefixItems` and `unevaluatedItems` change
    /// what the items are and keep the array a checked type.
    fn array_rules(&mut self, loc: &Loc, obj: &Map<String, Value>) -> Result<Vec<NodeId>> {
        use Keyword::*;
        const TYPED: &[Keyword] = &[Type, Items, MinItems, MaxItems, UniqueItems];
        let mut rest = Vec::new();
        for k in obj.keys().map(String::as_str) {
            let kw = Keyword::from_name(k);
            if matches!(
                kw,
                Some(PrefixItems | UnevaluatedItems | DynamicRef | DynamicAnchor)
            ) {
                return Err(self.err(
                    loc,
                    Code::UnsupportedKeyword,
                    format!("unsupported keyword `{k}`"),
                ));
            }
            // Keywords of other types say nothing of an array; `then` and `else` come with `if`.
            let other_type = kw
                .and_then(Keyword::instance_type)
                .is_some_and(|t| t != InstanceType::Array);
            let read = kw.is_some_and(|kw| TYPED.contains(&kw) || matches!(kw, Then | Else));
            // A name the vocabulary does not have is an unknown keyword: it asserts nothing.
            match kw {
                Some(kw) if !(read || other_type || annotation(k)) => rest.push(kw),
                _ => {}
            }
        }
        if rest.contains(&If) {
            rest.extend([Then, Else]);
        }
        if rest.is_empty() {
            return Ok(Vec::new());
        }
        let (n, dynamic) = self.program.rule(self.set, loc, &rest)?;
        if dynamic {
            return Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "a rule whose `$dynamicRef` resolves through the dynamic scope is checked from the root",
            ));
        }
        Ok(vec![n])
    }
}
