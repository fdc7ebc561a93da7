//! What each keyword compiles to: an entry `[name, arguments…]` of its schema's node, its value
//! checked first and its subschemas interned as nodes. The keywords are read by family: those
//! on any value, bounds and formats, array keywords, object keywords, the other applicators, and
//! references.

use super::Program;
use crate::Format;
use crate::error::Result;
use crate::index::SchemaSet;
use crate::load::Loc;
use serde_json::{Map, Value, json};

/// One keyword of a schema object being compiled, with what reading it needs.
pub(super) struct Keyword<'s> {
    pub(super) set: &'s SchemaSet,
    /// The schema object holding the keyword.
    pub(super) loc: &'s Loc,
    pub(super) obj: &'s Map<String, Value>,
    /// The keyword's name and value.
    pub(super) k: &'s str,
    pub(super) v: &'s Value,
    /// Where the keyword's value is.
    pub(super) at: &'s Loc,
    /// The node of the schema object.
    pub(super) n: usize,
}

impl Keyword<'_> {
    /// An `invalid_schema` error at the keyword's value: the keyword's name, then `why`.
    fn invalid(&self, why: &str) -> crate::Error {
        self.set
            .error(self.at, "invalid_schema", format!("`{}` {why}", self.k))
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
    fn any_value(&self) -> Result<Option<Value>> {
        let v = self.v;
        Ok(Some(match self.k {
            "type" => {
                const KINDS: &[&str] = &[
                    "null", "boolean", "integer", "number", "string", "array", "object",
                ];
                let kinds = match v {
                    Value::String(s) => vec![s.clone()],
                    _ => self.names(v)?,
                };
                if kinds.iter().any(|t| !KINDS.contains(&t.as_str())) {
                    return Err(self.invalid("names a type JSON does not have"));
                }
                json!(["type", kinds])
            }
            "const" => json!(["const", v]),
            "enum" => {
                if !v.is_array() {
                    return Err(self.invalid("must be an array"));
                }
                json!(["enum", v])
            }
            k => unreachable!("`{k}` is not a keyword on any value"),
        }))
    }
}

/// The pattern `p` at `at`, refused unless it is an ECMA-262 regular expression (Unicode mode) as
/// the runtime runs it.
fn pattern(set: &SchemaSet, p: &Value, at: &Loc) -> Result<String> {
    let p = p
        .as_str()
        .ok_or_else(|| set.error(at, "invalid_schema", "a pattern must be a string"))?;
    regress::Regex::with_flags(p, "u").map_err(|e| {
        set.error(
            at,
            "invalid_pattern",
            format!("pattern {p} is not an ECMA-262 regular expression (Unicode mode): {e}"),
        )
    })?;
    Ok(p.to_owned())
}

impl Program {
    /// The entry the keyword `kw` adds to its node; `None` for a keyword that asserts nothing by
    /// itself (an annotation, or one another keyword reads).
    pub(super) fn keyword(&mut self, kw: &Keyword) -> Result<Option<Value>> {
        match kw.k {
            "type" | "const" | "enum" => kw.any_value(),
            "multipleOf" | "maximum" | "exclusiveMaximum" | "minimum" | "exclusiveMinimum"
            | "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties"
            | "minProperties" | "pattern" | "format" => self.bound(kw),
            "uniqueItems" | "contains" | "minContains" | "maxContains" | "prefixItems"
            | "items" | "unevaluatedItems" => self.array_keyword(kw),
            "required"
            | "dependentRequired"
            | "properties"
            | "dependentSchemas"
            | "patternProperties"
            | "additionalProperties"
            | "propertyNames"
            | "unevaluatedProperties" => self.object_keyword(kw),
            "allOf" | "anyOf" | "oneOf" | "not" | "if" | "then" | "else" => self.applicator(kw),
            "$ref" | "$dynamicRef" => self.reference(kw).map(Some),
            "$defs" => {
                if !kw.v.is_object() {
                    return Err(kw.invalid("must be an object of schemas"));
                }
                Ok(None)
            }
            // Annotations, identifiers and keywords of no vocabulary assert nothing.
            _ => Ok(None),
        }
    }

    /// Numeric bounds, size bounds of strings, arrays and objects, `pattern`, and `format` (only
    /// the formats the caller asserts).
    fn bound(&self, kw: &Keyword) -> Result<Option<Value>> {
        let (k, v, at) = (kw.k, kw.v, kw.at);
        Ok(Some(match k {
            "multipleOf" => match v.as_f64() {
                Some(f) if f > 0.0 => json!([k, v]),
                _ => return Err(kw.invalid("must be a number above zero")),
            },
            "maximum" | "exclusiveMaximum" | "minimum" | "exclusiveMinimum" => {
                if !v.is_number() {
                    return Err(kw.invalid("must be a number"));
                }
                json!([k, v])
            }
            "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties"
            | "minProperties" => json!([k, kw.count(v)?]),
            "pattern" => json!(["pattern", pattern(kw.set, v, at)?]),
            "format" => {
                let name = v.as_str().ok_or_else(|| kw.invalid("must be a string"))?;
                match self.formats.get(name) {
                    None => return Ok(None),
                    Some(Format::DateTime) => json!(["format", name, null]),
                    Some(Format::Pattern(p)) => {
                        regress::Regex::with_flags(p, "u").map_err(|e| {
                            kw.set.error(
                                at,
                                "invalid_option",
                                format!(
                                    "the regex given for format `{name}` does not compile: {e}"
                                ),
                            )
                        })?;
                        json!(["format", name, p])
                    }
                }
            }
            k => unreachable!("`{k}` is not a bound"),
        }))
    }

    /// The keywords on arrays: `uniqueItems`, `contains` (with the `minContains` and
    /// `maxContains` it reads), `prefixItems`, `items` and `unevaluatedItems`.
    fn array_keyword(&mut self, kw: &Keyword) -> Result<Option<Value>> {
        let (obj, v) = (kw.obj, kw.v);
        Ok(Some(match kw.k {
            "uniqueItems" => match v {
                Value::Bool(true) => json!(["uniqueItems"]),
                Value::Bool(false) => return Ok(None),
                _ => return Err(kw.invalid("must be a boolean")),
            },
            "contains" => {
                let c = self.sub(kw.set, kw.at, v, kw.n)?;
                let min = match obj.get("minContains") {
                    Some(m) => kw.count(m)?,
                    None => 1,
                };
                let max = match obj.get("maxContains") {
                    Some(m) => Some(kw.count(m)?),
                    None => None,
                };
                json!(["contains", c, min, max])
            }
            "minContains" | "maxContains" => {
                kw.count(v)?;
                return Ok(None);
            }
            "prefixItems" => self.schema_list(kw)?,
            "items" => {
                if v.is_array() {
                    return Err(kw.invalid(
                        "must be one schema in draft 2020-12 (a list of schemas is `prefixItems`)",
                    ));
                }
                let from = obj
                    .get("prefixItems")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                json!(["items", self.sub(kw.set, kw.at, v, kw.n)?, from])
            }
            "unevaluatedItems" => self.one_schema(kw)?,
            k => unreachable!("`{k}` is not an array keyword"),
        }))
    }

    /// The keywords on objects: `required`, `dependentRequired`, and the applicators to members
    /// (`properties`, `dependentSchemas`, `patternProperties`, `additionalProperties`,
    /// `propertyNames`, `unevaluatedProperties`).
    fn object_keyword(&mut self, kw: &Keyword) -> Result<Option<Value>> {
        let (set, obj, k, v, at, n) = (kw.set, kw.obj, kw.k, kw.v, kw.at, kw.n);
        Ok(Some(match k {
            "required" => json!(["required", kw.names(v)?]),
            "dependentRequired" => {
                let m = v
                    .as_object()
                    .ok_or_else(|| kw.invalid("must be an object"))?;
                let mut rules = Vec::new();
                for (name, list) in m {
                    rules.push(json!([name, kw.names(list)?]));
                }
                json!(["dependentRequired", rules])
            }
            "properties" | "dependentSchemas" => {
                let m = v
                    .as_object()
                    .ok_or_else(|| kw.invalid("must be an object of schemas"))?;
                let mut pairs = Vec::new();
                for (name, s) in m {
                    pairs.push(json!([name, self.sub(set, &at.child(name), s, n)?]));
                }
                json!([k, pairs])
            }
            "patternProperties" => {
                let m = v
                    .as_object()
                    .ok_or_else(|| kw.invalid("must be an object of schemas"))?;
                let mut pairs = Vec::new();
                for (p, s) in m {
                    let child = at.child(p);
                    let p = pattern(set, &Value::String(p.clone()), &child)?;
                    pairs.push(json!([p, self.sub(set, &child, s, n)?]));
                }
                json!([k, pairs])
            }
            "additionalProperties" => {
                // It applies to the members neither of these two keywords covers.
                let declared: Vec<String> = obj
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|m| m.keys().cloned().collect())
                    .unwrap_or_default();
                let patterns: Vec<String> = obj
                    .get("patternProperties")
                    .and_then(Value::as_object)
                    .map(|m| m.keys().cloned().collect())
                    .unwrap_or_default();
                json!([k, self.sub(set, at, v, n)?, declared, patterns])
            }
            "propertyNames" | "unevaluatedProperties" => self.one_schema(kw)?,
            k => unreachable!("`{k}` is not an object keyword"),
        }))
    }

    /// The applicators of no one type: `allOf`, `anyOf`, `oneOf`, `not`, and `if` with the
    /// `then` and `else` it reads.
    fn applicator(&mut self, kw: &Keyword) -> Result<Option<Value>> {
        let (set, obj, v, n) = (kw.set, kw.obj, kw.v, kw.n);
        Ok(Some(match kw.k {
            "allOf" | "anyOf" | "oneOf" => self.schema_list(kw)?,
            "not" => self.one_schema(kw)?,
            "if" => {
                let c = self.sub(set, kw.at, v, n)?;
                let mut branch = |key: &str| -> Result<Option<usize>> {
                    match obj.get(key) {
                        Some(b) => Ok(Some(self.sub(set, &kw.loc.child(key), b, n)?)),
                        None => Ok(None),
                    }
                };
                let then = branch("then")?;
                let otherwise = branch("else")?;
                json!(["if", c, then, otherwise])
            }
            // Without `if`, `then` and `else` do nothing; with it they are compiled above.
            "then" | "else" => {
                if !(v.is_object() || v.is_boolean()) {
                    return Err(kw.invalid("must be a schema"));
                }
                return Ok(None);
            }
            k => unreachable!("`{k}` is not an applicator"),
        }))
    }

    /// A keyword whose value is a list of schemas: `[k, nodes]`. Only `prefixItems` may be empty.
    fn schema_list(&mut self, kw: &Keyword) -> Result<Value> {
        let items =
            kw.v.as_array()
                .filter(|a| !a.is_empty() || kw.k == "prefixItems")
                .ok_or_else(|| kw.invalid("must be a non-empty array of schemas"))?;
        let mut ns = Vec::new();
        for (i, item) in items.iter().enumerate() {
            ns.push(self.sub(kw.set, &kw.at.child(&i.to_string()), item, kw.n)?);
        }
        Ok(json!([kw.k, ns]))
    }

    /// A keyword whose value is one schema: `[k, node]`.
    fn one_schema(&mut self, kw: &Keyword) -> Result<Value> {
        Ok(json!([kw.k, self.sub(kw.set, kw.at, kw.v, kw.n)?]))
    }

    /// `$ref`, and `$dynamicRef`, which is resolved through the dynamic scope only when its first
    /// target declares the same `$dynamicAnchor`; any other behaves as a `$ref`.
    fn reference(&mut self, kw: &Keyword) -> Result<Value> {
        let (set, n) = (kw.set, kw.n);
        let r =
            kw.v.as_str()
                .ok_or_else(|| kw.invalid("must be a string"))?;
        let target = set.resolve(kw.loc, r)?;
        let m = self.intern(set, &target);
        self.edges[n].0.push(m);
        let fragment = r.split_once('#').map_or("", |p| p.1);
        let dynamic = kw.k == "$dynamicRef"
            && !fragment.is_empty()
            && !fragment.starts_with('/')
            && set
                .node(&target)
                .and_then(|t| t.get("$dynamicAnchor"))
                .and_then(Value::as_str)
                == Some(fragment);
        if dynamic {
            self.edges[n].1 = true;
            Ok(json!(["$dynamicRef", m, fragment]))
        } else {
            Ok(json!(["$ref", m]))
        }
    }
}
