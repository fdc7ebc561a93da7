//! `program`: compiles the subschemas a checked type reaches into the node table its runtime
//! checker runs (`prp_codegen_runtime::eval`). Every `$ref` is resolved here, against its base
//! URI, to a node index; every keyword's value is checked, so that a malformed schema is a
//! located error at generation time and never a surprise at run time. The walk is a work list,
//! not a recursion: a schema that refers to itself compiles to a cycle of nodes.

use crate::Format;
use crate::error::Result;
use crate::load::{DIALECT, Loc, SchemaSet};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// Keywords evaluated after every other one of their schema object (they read its annotations).
const LAST: &[&str] = &["unevaluatedItems", "unevaluatedProperties"];

/// The node table of one generated output, shared by all its checked types.
#[derive(Debug, Default)]
pub struct Program {
    nodes: Vec<Value>,
    at: HashMap<Loc, usize>,
    /// Per node: the nodes it refers to, and whether it holds a dynamic `$dynamicRef`.
    edges: Vec<(Vec<usize>, bool)>,
    resources: Vec<Loc>,
    resource_at: HashMap<Loc, usize>,
    /// Per resource: its `$dynamicAnchor`s, compiled.
    dynamic_anchors: HashMap<Loc, Vec<(String, usize)>>,
    queue: VecDeque<(usize, Loc)>,
    formats: BTreeMap<String, Format>,
}

impl Program {
    /// An empty program asserting `formats`.
    pub fn new(formats: BTreeMap<String, Format>) -> Self {
        Program {
            formats,
            ..Default::default()
        }
    }

    /// Whether no node was compiled.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node of the schema at `loc`, compiled with everything it reaches; and whether a
    /// `$dynamicRef` resolved through the dynamic scope is reachable from it (its verdict then
    /// depends on the resources evaluation entered before it).
    pub fn entry(&mut self, set: &SchemaSet, loc: &Loc) -> Result<(usize, bool)> {
        let n = self.intern(set, loc);
        while let Some((i, l)) = self.queue.pop_front() {
            let compiled = self.compile(set, &l)?;
            self.nodes[i] = compiled;
        }
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![n];
        let mut dynamic = false;
        while let Some(m) = stack.pop() {
            if std::mem::replace(&mut seen[m], true) {
                continue;
            }
            dynamic |= self.edges[m].1;
            stack.extend(self.edges[m].0.iter().copied());
        }
        Ok((n, dynamic))
    }

    /// The program as the JSON text the runtime reads.
    pub fn text(&self) -> String {
        let dynamic: Vec<Value> = self
            .resources
            .iter()
            .map(|r| {
                Value::Array(
                    self.dynamic_of(r)
                        .iter()
                        .map(|(name, n)| json!([name, n]))
                        .collect(),
                )
            })
            .collect();
        json!({"nodes": self.nodes, "dynamic": dynamic}).to_string()
    }

    fn dynamic_of(&self, resource: &Loc) -> Vec<(String, usize)> {
        self.dynamic_anchors
            .get(resource)
            .cloned()
            .unwrap_or_default()
    }

    fn intern(&mut self, set: &SchemaSet, loc: &Loc) -> usize {
        if let Some(&n) = self.at.get(loc) {
            return n;
        }
        let n = self.nodes.len();
        self.nodes.push(Value::Null);
        self.edges.push((Vec::new(), false));
        self.at.insert(loc.clone(), n);
        self.queue.push_back((n, loc.clone()));
        // Entering a resource brings its dynamic anchors: a `$dynamicRef` may land on any of them.
        let resource = set.index.base_of(loc).1.clone();
        if !self.resource_at.contains_key(&resource) {
            self.resource_at
                .insert(resource.clone(), self.resources.len());
            self.resources.push(resource.clone());
            let anchors: Vec<(String, Loc)> = set
                .index
                .dynamic_anchors(&resource)
                .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default();
            let mut compiled = Vec::new();
            for (name, l) in anchors {
                compiled.push((name, self.intern(set, &l)));
            }
            self.dynamic_anchors.insert(resource, compiled);
        }
        n
    }

    fn compile(&mut self, set: &SchemaSet, loc: &Loc) -> Result<Value> {
        let node = set.node(loc).cloned().unwrap_or(Value::Null);
        let obj = match node {
            Value::Bool(b) => return Ok(Value::Bool(b)),
            Value::Object(o) => o,
            _ => {
                return Err(set.error(
                    loc,
                    "invalid_schema",
                    "a schema must be an object or a boolean",
                ));
            }
        };
        let n = self.at[loc];
        let resource = self.resource_at[set.index.base_of(loc).1];
        if !loc.pointer.is_empty()
            && let Some(d) = obj.get("$schema")
            && d.as_str() != Some(DIALECT)
        {
            return Err(set.error(
                &loc.child("$schema"),
                "unsupported_schema_dialect",
                format!("an embedded resource declares {d}; only {DIALECT} is generated"),
            ));
        }
        let mut keywords = Vec::new();
        let mut last = Vec::new();
        for (k, v) in &obj {
            let at = loc.child(k);
            let kw = self.keyword(set, loc, &obj, k, v, &at, n)?;
            if let Some(kw) = kw {
                if LAST.contains(&k.as_str()) {
                    last.push(kw);
                } else {
                    keywords.push(kw);
                }
            }
        }
        keywords.extend(last);
        Ok(json!([resource, keywords]))
    }

    fn sub(&mut self, set: &SchemaSet, at: &Loc, v: &Value, from: usize) -> Result<usize> {
        if !(v.is_object() || v.is_boolean()) {
            return Err(set.error(
                at,
                "invalid_schema",
                "expected a schema (an object or a boolean)",
            ));
        }
        let m = self.intern(set, at);
        self.edges[from].0.push(m);
        Ok(m)
    }

    #[allow(clippy::too_many_arguments)]
    fn keyword(
        &mut self,
        set: &SchemaSet,
        loc: &Loc,
        obj: &Map<String, Value>,
        k: &str,
        v: &Value,
        at: &Loc,
        n: usize,
    ) -> Result<Option<Value>> {
        let invalid = |why: &str| set.error(at, "invalid_schema", format!("`{k}` {why}"));
        let count = |v: &Value| -> Result<u64> {
            match v.as_f64() {
                Some(f) if f >= 0.0 && f.fract() == 0.0 && f <= u64::MAX as f64 => {
                    Ok(v.as_u64().unwrap_or(f as u64))
                }
                _ => Err(invalid("must be a non-negative integer")),
            }
        };
        let names = |v: &Value| -> Result<Vec<String>> {
            v.as_array()
                .and_then(|a| a.iter().map(|s| s.as_str().map(str::to_owned)).collect())
                .ok_or_else(|| invalid("must be an array of strings"))
        };
        let pattern = |p: &Value, at: &Loc| -> Result<String> {
            let p = p
                .as_str()
                .ok_or_else(|| set.error(at, "invalid_schema", "a pattern must be a string"))?;
            regress::Regex::with_flags(p, "u").map_err(|e| {
                set.error(
                    at,
                    "invalid_pattern",
                    format!(
                        "pattern {p} is not an ECMA-262 regular expression (Unicode mode): {e}"
                    ),
                )
            })?;
            Ok(p.to_owned())
        };
        Ok(Some(match k {
            "type" => {
                const KINDS: &[&str] = &[
                    "null", "boolean", "integer", "number", "string", "array", "object",
                ];
                let kinds = match v {
                    Value::String(s) => vec![s.clone()],
                    _ => names(v)?,
                };
                if kinds.iter().any(|t| !KINDS.contains(&t.as_str())) {
                    return Err(invalid("names a type JSON does not have"));
                }
                json!(["type", kinds])
            }
            "const" => json!(["const", v]),
            "enum" => {
                if !v.is_array() {
                    return Err(invalid("must be an array"));
                }
                json!(["enum", v])
            }
            "multipleOf" => match v.as_f64() {
                Some(f) if f > 0.0 => json!([k, v]),
                _ => return Err(invalid("must be a number above zero")),
            },
            "maximum" | "exclusiveMaximum" | "minimum" | "exclusiveMinimum" => {
                if !v.is_number() {
                    return Err(invalid("must be a number"));
                }
                json!([k, v])
            }
            "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties"
            | "minProperties" => json!([k, count(v)?]),
            "pattern" => json!(["pattern", pattern(v, at)?]),
            "format" => {
                let name = v.as_str().ok_or_else(|| invalid("must be a string"))?;
                match self.formats.get(name) {
                    None => return Ok(None),
                    Some(Format::DateTime) => json!(["format", name, null]),
                    Some(Format::Pattern(p)) => {
                        regress::Regex::with_flags(p, "u").map_err(|e| {
                            set.error(
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
            "uniqueItems" => match v {
                Value::Bool(true) => json!(["uniqueItems"]),
                Value::Bool(false) => return Ok(None),
                _ => return Err(invalid("must be a boolean")),
            },
            "required" => json!(["required", names(v)?]),
            "dependentRequired" => {
                let m = v.as_object().ok_or_else(|| invalid("must be an object"))?;
                let mut rules = Vec::new();
                for (name, list) in m {
                    rules.push(json!([name, names(list)?]));
                }
                json!(["dependentRequired", rules])
            }
            "contains" => {
                let c = self.sub(set, at, v, n)?;
                let min = match obj.get("minContains") {
                    Some(m) => count(m)?,
                    None => 1,
                };
                let max = match obj.get("maxContains") {
                    Some(m) => Some(count(m)?),
                    None => None,
                };
                json!(["contains", c, min, max])
            }
            "minContains" | "maxContains" => {
                count(v)?;
                return Ok(None);
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                let items = v
                    .as_array()
                    .filter(|a| !a.is_empty() || k == "prefixItems")
                    .ok_or_else(|| invalid("must be a non-empty array of schemas"))?;
                let mut ns = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    ns.push(self.sub(set, &at.child(&i.to_string()), item, n)?);
                }
                json!([k, ns])
            }
            "items" => {
                if v.is_array() {
                    return Err(invalid(
                        "must be one schema in draft 2020-12 (a list of schemas is `prefixItems`)",
                    ));
                }
                let from = obj
                    .get("prefixItems")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                json!(["items", self.sub(set, at, v, n)?, from])
            }
            "not" | "propertyNames" | "unevaluatedItems" | "unevaluatedProperties" => {
                json!([k, self.sub(set, at, v, n)?])
            }
            "if" => {
                let c = self.sub(set, at, v, n)?;
                let mut branch = |key: &str| -> Result<Option<usize>> {
                    match obj.get(key) {
                        Some(b) => Ok(Some(self.sub(set, &loc.child(key), b, n)?)),
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
                    return Err(invalid("must be a schema"));
                }
                return Ok(None);
            }
            "properties" | "dependentSchemas" => {
                let m = v
                    .as_object()
                    .ok_or_else(|| invalid("must be an object of schemas"))?;
                let mut pairs = Vec::new();
                for (name, s) in m {
                    pairs.push(json!([name, self.sub(set, &at.child(name), s, n)?]));
                }
                json!([k, pairs])
            }
            "patternProperties" => {
                let m = v
                    .as_object()
                    .ok_or_else(|| invalid("must be an object of schemas"))?;
                let mut pairs = Vec::new();
                for (p, s) in m {
                    let child = at.child(p);
                    let p = pattern(&Value::String(p.clone()), &child)?;
                    pairs.push(json!([p, self.sub(set, &child, s, n)?]));
                }
                json!([k, pairs])
            }
            "additionalProperties" => {
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
            "$ref" | "$dynamicRef" => {
                let r = v.as_str().ok_or_else(|| invalid("must be a string"))?;
                let target = set.resolve(loc, r)?;
                let m = self.intern(set, &target);
                self.edges[n].0.push(m);
                // A `$dynamicRef` whose first target declares the same `$dynamicAnchor` is resolved
                // through the dynamic scope; any other behaves as a `$ref`.
                let fragment = r.split_once('#').map_or("", |p| p.1);
                let dynamic = k == "$dynamicRef"
                    && !fragment.is_empty()
                    && !fragment.starts_with('/')
                    && set
                        .node(&target)
                        .and_then(|t| t.get("$dynamicAnchor"))
                        .and_then(Value::as_str)
                        == Some(fragment);
                if dynamic {
                    self.edges[n].1 = true;
                    json!(["$dynamicRef", m, fragment])
                } else {
                    json!(["$ref", m])
                }
            }
            "$defs" => {
                if !v.is_object() {
                    return Err(invalid("must be an object of schemas"));
                }
                return Ok(None);
            }
            // Annotations, identifiers and keywords of no vocabulary assert nothing.
            _ => return Ok(None),
        }))
    }
}
