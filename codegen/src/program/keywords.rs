//! What each keyword compiles to: a [`Rule`] of its schema's node, its value checked first and
//! its subschemas interned as nodes. The keywords are read by family: those on any value, bounds
//! and formats, array keywords, object keywords, the other applicators, and references; the
//! dispatch is a `match` over the vocabulary's every keyword.

use super::Program;
use crate::Format;
use crate::error::Code;
use crate::error::Result;
use crate::load::Loc;
use crate::set::SchemaSet;
use prp_codegen_runtime::eval::{FormatTest, JsonType, Regex, Rule};
use prp_vocabulary::Keyword;
use serde_json::{Map, Value};

/// One keyword of a schema object being compiled, with what reading it needs.
pub(super) struct Site<'s> {
    pub(super) set: &'s SchemaSet,
    /// The schema object holding the keyword.
    pub(super) loc: &'s Loc,
    pub(super) obj: &'s Map<String, Value>,
    /// The keyword and its value.
    pub(super) k: Keyword,
    pub(super) v: &'s Value,
    /// Where the keyword's value is.
    pub(super) at: &'s Loc,
    /// The node of the schema object.
    pub(super) n: usize,
}

impl Site<'_> {
    /// An `invalid_schema` error at the keyword's value: the keyword's name, then `why`.
    fn invalid(&self, why: &str) -> crate::Error {
        self.set.error(
            self.at,
            Code::InvalidSchema,
            format!("`{}` {why}", self.k.name()),
        )
    }

    /// `v` as a count: a non-negative integer, which JSON may write as `2.0`.
    fn count(&self, v: &Value) -> Result<u64> {
        match v.as_f64() {
            Some(f) if f >= 0.0 && f.fract() == 0.0 && f <= u64::MAX as f64 => {
                Ok(v.as_u64().unwrap_or(f as u64))
            }
            _ => Err(self.invalid("must be a non-negative integer")),
        }
    }

    /// `v` as a list of member or type names.
    fn names(&self, v: &Value) -> Result<Vec<String>> {
        v.as_array()
            .and_then(|a| a.iter().map(|s| s.as_str().map(str::to_owned)).collect())
            .ok_or_else(|| self.invalid("must be an array of strings"))
    }

    /// `type`, `const` and `enum`, which apply to every value.
    fn any_value(&self) -> Result<Option<Rule>> {
        let v = self.v;
        Ok(Some(match self.k {
            Keyword::Type => {
                let names = match v {
                    Value::String(s) => vec![s.clone()],
                    _ => self.names(v)?,
                };
                let types: Option<Vec<JsonType>> =
                    names.iter().map(|t| JsonType::from_name(t)).collect();
                Rule::Type(types.ok_or_else(|| self.invalid("names a type JSON does not have"))?)
            }
            Keyword::Const => Rule::Const(v.clone()),
            Keyword::Enum => Rule::Enum(
                v.as_array()
                    .ok_or_else(|| self.invalid("must be an array"))?
                    .clone(),
            ),
            k => unreachable!("`{k}` is not a keyword on any value"),
        }))
    }
}

/// The pattern `p` at `at`, refused unless it is an ECMA-262 regular expression (Unicode mode) as
/// the runtime runs it.
fn pattern(set: &SchemaSet, p: &Value, at: &Loc) -> Result<Regex> {
    let p = p
        .as_str()
        .ok_or_else(|| set.error(at, Code::InvalidSchema, "a pattern must be a string"))?;
    Regex::new(p).map_err(|e| {
        set.error(
            at,
            Code::InvalidPattern,
            format!("pattern {p} is not an ECMA-262 regular expression (Unicode mode): {e}"),
        )
    })
}

impl Program {
    /// The rule the keyword of `kw` adds to its node; `None` for a keyword that asserts nothing by
    /// itself (an annotation, or one another keyword reads).
    pub(super) fn keyword(&mut self, kw: &Site) -> Result<Option<Rule>> {
        match kw.k {
            Keyword::Type | Keyword::Const | Keyword::Enum => kw.any_value(),
            Keyword::MultipleOf
            | Keyword::Maximum
            | Keyword::ExclusiveMaximum
            | Keyword::Minimum
            | Keyword::ExclusiveMinimum
            | Keyword::MaxLength
            | Keyword::MinLength
            | Keyword::MaxItems
            | Keyword::MinItems
            | Keyword::MaxProperties
            | Keyword::MinProperties
            | Keyword::Pattern
            | Keyword::Format => self.bound(kw),
            Keyword::UniqueItems
            | Keyword::Contains
            | Keyword::MinContains
            | Keyword::MaxContains
            | Keyword::PrefixItems
            | Keyword::Items
            | Keyword::UnevaluatedItems => self.array_keyword(kw),
            Keyword::Required
            | Keyword::DependentRequired
            | Keyword::Properties
            | Keyword::DependentSchemas
            | Keyword::PatternProperties
            | Keyword::AdditionalProperties
            | Keyword::PropertyNames
            | Keyword::UnevaluatedProperties => self.object_keyword(kw),
            Keyword::AllOf
            | Keyword::AnyOf
            | Keyword::OneOf
            | Keyword::Not
            | Keyword::If
            | Keyword::Then
            | Keyword::Else => self.applicator(kw),
            Keyword::Ref | Keyword::DynamicRef => self.reference(kw).map(Some),
            Keyword::Defs => {
                if !kw.v.is_object() {
                    return Err(kw.invalid("must be an object of schemas"));
                }
                Ok(None)
            }
            // Identifiers and annotations assert nothing; the keywords of other dialects are
            // unknown keywords in draft 2020-12, which assert nothing either.
            Keyword::Schema
            | Keyword::Id
            | Keyword::Anchor
            | Keyword::DynamicAnchor
            | Keyword::Vocabulary
            | Keyword::Comment
            | Keyword::Title
            | Keyword::Description
            | Keyword::Default
            | Keyword::Deprecated
            | Keyword::ReadOnly
            | Keyword::WriteOnly
            | Keyword::Examples
            | Keyword::ContentEncoding
            | Keyword::ContentMediaType
            | Keyword::ContentSchema
            | Keyword::RecursiveAnchor
            | Keyword::RecursiveRef
            | Keyword::LegacyId
            | Keyword::Definitions
            | Keyword::Dependencies
            | Keyword::AdditionalItems => Ok(None),
        }
    }

    /// Numeric bounds, size bounds of strings, arrays and objects, `pattern`, and `format` (only
    /// the formats the caller asserts).
    fn bound(&self, kw: &Site) -> Result<Option<Rule>> {
        let (v, at) = (kw.v, kw.at);
        let number = || match v {
            Value::Number(n) => Ok(n.clone()),
            _ => Err(kw.invalid("must be a number")),
        };
        Ok(Some(match kw.k {
            Keyword::MultipleOf => match v.as_f64() {
                Some(f) if f > 0.0 => Rule::MultipleOf(number()?),
                _ => return Err(kw.invalid("must be a number above zero")),
            },
            Keyword::Maximum => Rule::Maximum(number()?),
            Keyword::ExclusiveMaximum => Rule::ExclusiveMaximum(number()?),
            Keyword::Minimum => Rule::Minimum(number()?),
            Keyword::ExclusiveMinimum => Rule::ExclusiveMinimum(number()?),
            Keyword::MaxLength => Rule::MaxLength(kw.count(v)?),
            Keyword::MinLength => Rule::MinLength(kw.count(v)?),
            Keyword::MaxItems => Rule::MaxItems(kw.count(v)?),
            Keyword::MinItems => Rule::MinItems(kw.count(v)?),
            Keyword::MaxProperties => Rule::MaxProperties(kw.count(v)?),
            Keyword::MinProperties => Rule::MinProperties(kw.count(v)?),
            Keyword::Pattern => Rule::Pattern(pattern(kw.set, v, at)?),
            Keyword::Format => {
                let name = v.as_str().ok_or_else(|| kw.invalid("must be a string"))?;
                let test = match self.formats.get(name) {
                    None => return Ok(None),
                    Some(Format::DateTime) => FormatTest::DateTime,
                    Some(Format::Pattern(p)) => {
                        FormatTest::Pattern(Regex::new(p).map_err(|e| {
                            kw.set.error(
                                at,
                                Code::InvalidOption,
                                format!(
                                    "the regex given for format `{name}` does not compile: {e}"
                                ),
                            )
                        })?)
                    }
                };
                Rule::Format(name.to_owned(), test)
            }
            k => unreachable!("`{k}` is not a bound"),
        }))
    }

    /// The keywords on arrays: `uniqueItems`, `contains` (with the `minContains` and
    /// `maxContains` it reads), `prefixItems`, `items` and `unevaluatedItems`.
    fn array_keyword(&mut self, kw: &Site) -> Result<Option<Rule>> {
        let (obj, v) = (kw.obj, kw.v);
        Ok(Some(match kw.k {
            Keyword::UniqueItems => match v {
                Value::Bool(true) => Rule::UniqueItems,
                Value::Bool(false) => return Ok(None),
                _ => return Err(kw.invalid("must be a boolean")),
            },
            Keyword::Contains => {
                let c = self.sub(kw.set, kw.at, v, kw.n)?;
                let count = |k: Keyword| obj.get(k.name()).map(|m| kw.count(m)).transpose();
                let min = count(Keyword::MinContains)?.unwrap_or(1);
                Rule::Contains(c, min, count(Keyword::MaxContains)?)
            }
            Keyword::MinContains | Keyword::MaxContains => {
                kw.count(v)?;
                return Ok(None);
            }
            Keyword::PrefixItems => Rule::PrefixItems(self.schema_list(kw)?),
            Keyword::Items => {
                if v.is_array() {
                    return Err(kw.invalid(
                        "must be one schema in draft 2020-12 (a list of schemas is `prefixItems`)",
                    ));
                }
                let from = obj
                    .get(Keyword::PrefixItems.name())
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                Rule::Items(self.sub(kw.set, kw.at, v, kw.n)?, from)
            }
            Keyword::UnevaluatedItems => Rule::UnevaluatedItems(self.one_schema(kw)?),
            k => unreachable!("`{k}` is not an array keyword"),
        }))
    }

    /// The keywords on objects: `required`, `dependentRequired`, and the applicators to members
    /// (`properties`, `dependentSchemas`, `patternProperties`, `additionalProperties`,
    /// `propertyNames`, `unevaluatedProperties`).
    fn object_keyword(&mut self, kw: &Site) -> Result<Option<Rule>> {
        let (set, obj, v, at, n) = (kw.set, kw.obj, kw.v, kw.at, kw.n);
        let members = || {
            v.as_object()
                .ok_or_else(|| kw.invalid("must be an object of schemas"))
        };
        let keys = |k: Keyword| -> Vec<String> {
            obj.get(k.name())
                .and_then(Value::as_object)
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default()
        };
        Ok(Some(match kw.k {
            Keyword::Required => Rule::Required(kw.names(v)?),
            Keyword::DependentRequired => {
                let m = v
                    .as_object()
                    .ok_or_else(|| kw.invalid("must be an object"))?;
                let mut rules = Vec::new();
                for (name, list) in m {
                    rules.push((name.clone(), kw.names(list)?));
                }
                Rule::DependentRequired(rules)
            }
            Keyword::Properties | Keyword::DependentSchemas => {
                let mut pairs = Vec::new();
                for (name, s) in members()? {
                    pairs.push((name.clone(), self.sub(set, &at.child(name), s, n)?));
                }
                if kw.k == Keyword::Properties {
                    Rule::Properties(pairs)
                } else {
                    Rule::DependentSchemas(pairs)
                }
            }
            Keyword::PatternProperties => {
                let mut pairs = Vec::new();
                for (p, s) in members()? {
                    let child = at.child(p);
                    let re = pattern(set, &Value::String(p.clone()), &child)?;
                    pairs.push((re, self.sub(set, &child, s, n)?));
                }
                Rule::PatternProperties(pairs)
            }
            Keyword::AdditionalProperties => {
                // It applies to the members neither of these two keywords covers.
                let declared = keys(Keyword::Properties);
                let patterns = keys(Keyword::PatternProperties)
                    .iter()
                    .map(|p| pattern(set, &Value::String(p.clone()), at))
                    .collect::<Result<_>>()?;
                Rule::AdditionalProperties(self.sub(set, at, v, n)?, declared, patterns)
            }
            Keyword::PropertyNames => Rule::PropertyNames(self.one_schema(kw)?),
            Keyword::UnevaluatedProperties => Rule::UnevaluatedProperties(self.one_schema(kw)?),
            k => unreachable!("`{k}` is not an object keyword"),
        }))
    }

    /// The applicators of no one type: `allOf`, `anyOf`, `oneOf`, `not`, and `if` with the
    /// `then` and `else` it reads.
    fn applicator(&mut self, kw: &Site) -> Result<Option<Rule>> {
        let (set, obj, v, n) = (kw.set, kw.obj, kw.v, kw.n);
        Ok(Some(match kw.k {
            Keyword::AllOf => Rule::AllOf(self.schema_list(kw)?),
            Keyword::AnyOf => Rule::AnyOf(self.schema_list(kw)?),
            Keyword::OneOf => Rule::OneOf(self.schema_list(kw)?),
            Keyword::Not => Rule::Not(self.one_schema(kw)?),
            Keyword::If => {
                let c = self.sub(set, kw.at, v, n)?;
                let mut branch = |key: Keyword| -> Result<Option<usize>> {
                    match obj.get(key.name()) {
                        Some(b) => Ok(Some(self.sub(set, &kw.loc.child(key.name()), b, n)?)),
                        None => Ok(None),
                    }
                };
                let then = branch(Keyword::Then)?;
                Rule::If(c, then, branch(Keyword::Else)?)
            }
            // Without `if`, `then` and `else` do nothing; with it they are compiled above.
            Keyword::Then | Keyword::Else => {
                if !(v.is_object() || v.is_boolean()) {
                    return Err(kw.invalid("must be a schema"));
                }
                return Ok(None);
            }
            k => unreachable!("`{k}` is not an applicator"),
        }))
    }

    /// The nodes of a keyword whose value is a list of schemas. Only `prefixItems` may be empty.
    fn schema_list(&mut self, kw: &Site) -> Result<Vec<usize>> {
        let items =
            kw.v.as_array()
                .filter(|a| !a.is_empty() || kw.k == Keyword::PrefixItems)
                .ok_or_else(|| kw.invalid("must be a non-empty array of schemas"))?;
        let mut ns = Vec::new();
        for (i, item) in items.iter().enumerate() {
            ns.push(self.sub(kw.set, &kw.at.child(&i.to_string()), item, kw.n)?);
        }
        Ok(ns)
    }

    /// The node of a keyword whose value is one schema.
    fn one_schema(&mut self, kw: &Site) -> Result<usize> {
        self.sub(kw.set, kw.at, kw.v, kw.n)
    }

    /// `$ref`, and `$dynamicRef`, which is resolved through the dynamic scope only when its first
    /// target declares the same `$dynamicAnchor`; any other behaves as a `$ref`.
    fn reference(&mut self, kw: &Site) -> Result<Rule> {
        let (set, n) = (kw.set, kw.n);
        let r =
            kw.v.as_str()
                .ok_or_else(|| kw.invalid("must be a string"))?;
        let target = set.resolve(kw.loc, r)?;
        let m = self.intern(set, &target);
        self.edges[n].0.push(m);
        let fragment = r.split_once('#').map_or("", |p| p.1);
        let dynamic = kw.k == Keyword::DynamicRef
            && !fragment.is_empty()
            && !fragment.starts_with('/')
            && set
                .node(&target)
                .and_then(|t| t.get(Keyword::DynamicAnchor.name()))
                .and_then(Value::as_str)
                == Some(fragment);
        if dynamic {
            self.edges[n].1 = true;
            Ok(Rule::DynamicRef(m, fragment.to_owned()))
        } else {
            Ok(Rule::Ref(m))
        }
    }
}
