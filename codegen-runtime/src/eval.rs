//! The checker behind schemas no Rust type can say exactly (`anyOf` of shapes, `unevaluated*`,
//! `$dynamicRef`, assertions that apply to one JSON type and let the others through): the
//! generator compiles every subschema such a type reaches into a program of nodes, with each `$ref`
//! already resolved to a node, and this module runs it over the decoded JSON.
//!
//! Each keyword follows draft 2020-12: an assertion ignores values of other types; annotations
//! (members and items evaluated) flow up from the subschemas that pass, for `unevaluated*`; the
//! dynamic scope is the stack of schema resources entered, for `$dynamicRef`.

use super::{Failure, Keyword, escape_token, is_rfc3339_date_time, json_eq};
use serde_json::{Number, Value};
use std::cmp::Ordering;

/// A compiled schema: the nodes, and per schema resource its `$dynamicAnchor`s.
pub struct Program {
    nodes: Vec<Node>,
    dynamic: Vec<Vec<(String, usize)>>,
}

enum Node {
    Bool(bool),
    Schema { resource: usize, keywords: Vec<Kw> },
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Null,
    Boolean,
    Integer,
    Number,
    String,
    Array,
    Object,
}

enum FormatTest {
    DateTime,
    Pattern(regress::Regex),
}

struct Regex {
    source: String,
    regex: regress::Regex,
}

enum Kw {
    Type(Vec<Kind>),
    Const(Value),
    Enum(Vec<Value>),
    MultipleOf(Number),
    Maximum(Number),
    ExclusiveMaximum(Number),
    Minimum(Number),
    ExclusiveMinimum(Number),
    MaxLength(u64),
    MinLength(u64),
    Pattern(Regex),
    Format(String, FormatTest),
    MaxItems(u64),
    MinItems(u64),
    UniqueItems,
    Contains(usize, u64, Option<u64>),
    MaxProperties(u64),
    MinProperties(u64),
    Required(Vec<String>),
    DependentRequired(Vec<(String, Vec<String>)>),
    AllOf(Vec<usize>),
    AnyOf(Vec<usize>),
    OneOf(Vec<usize>),
    Not(usize),
    If(usize, Option<usize>, Option<usize>),
    DependentSchemas(Vec<(String, usize)>),
    Ref(usize),
    DynamicRef(usize, String),
    PrefixItems(Vec<usize>),
    Items(usize, usize),
    Properties(Vec<(String, usize)>),
    PatternProperties(Vec<(Regex, usize)>),
    AdditionalProperties(usize, Vec<String>, Vec<Regex>),
    PropertyNames(usize),
    UnevaluatedItems(usize),
    UnevaluatedProperties(usize),
}

/// How deep schemas may nest while checking one value: a schema that refers to itself without
/// reaching a smaller value fails here instead of exhausting the stack.
const MAX_DEPTH: usize = 512;

fn bad(what: &str) -> String {
    format!("the generated schema program is malformed ({what}); regenerate the code")
}

fn node_index(v: &Value) -> Result<usize, String> {
    v.as_u64()
        .map(|n| n as usize)
        .ok_or_else(|| bad("node index"))
}

fn nodes(v: &Value) -> Result<Vec<usize>, String> {
    v.as_array()
        .ok_or_else(|| bad("node list"))?
        .iter()
        .map(node_index)
        .collect()
}

fn strings(v: &Value) -> Result<Vec<String>, String> {
    v.as_array()
        .ok_or_else(|| bad("name list"))?
        .iter()
        .map(|s| s.as_str().map(str::to_owned).ok_or_else(|| bad("name")))
        .collect()
}

fn named_nodes(v: &Value) -> Result<Vec<(String, usize)>, String> {
    v.as_array()
        .ok_or_else(|| bad("named nodes"))?
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([Value::String(k), n]) => Ok((k.clone(), node_index(n)?)),
            _ => Err(bad("named node")),
        })
        .collect()
}

fn regex(v: &Value) -> Result<Regex, String> {
    let source = v.as_str().ok_or_else(|| bad("pattern"))?;
    let regex = regress::Regex::with_flags(source, "u")
        .map_err(|e| format!("pattern {source} does not compile: {e}"))?;
    Ok(Regex {
        source: source.to_owned(),
        regex,
    })
}

fn count(v: &Value) -> Result<u64, String> {
    v.as_u64().ok_or_else(|| bad("count"))
}

fn number(v: &Value) -> Result<Number, String> {
    match v {
        Value::Number(n) => Ok(n.clone()),
        _ => Err(bad("number")),
    }
}

fn keyword(kw: &[Value]) -> Result<Kw, String> {
    let arg = |i: usize| kw.get(i).ok_or_else(|| bad("missing argument"));
    let name = kw
        .first()
        .and_then(Value::as_str)
        .ok_or_else(|| bad("keyword"))?;
    Ok(match name {
        "type" => Kw::Type(
            strings(arg(1)?)?
                .iter()
                .map(|k| {
                    Ok(match k.as_str() {
                        "null" => Kind::Null,
                        "boolean" => Kind::Boolean,
                        "integer" => Kind::Integer,
                        "number" => Kind::Number,
                        "string" => Kind::String,
                        "array" => Kind::Array,
                        "object" => Kind::Object,
                        _ => return Err(bad("type name")),
                    })
                })
                .collect::<Result<_, String>>()?,
        ),
        "const" => Kw::Const(arg(1)?.clone()),
        "enum" => Kw::Enum(arg(1)?.as_array().ok_or_else(|| bad("enum"))?.clone()),
        "multipleOf" => Kw::MultipleOf(number(arg(1)?)?),
        "maximum" => Kw::Maximum(number(arg(1)?)?),
        "exclusiveMaximum" => Kw::ExclusiveMaximum(number(arg(1)?)?),
        "minimum" => Kw::Minimum(number(arg(1)?)?),
        "exclusiveMinimum" => Kw::ExclusiveMinimum(number(arg(1)?)?),
        "maxLength" => Kw::MaxLength(count(arg(1)?)?),
        "minLength" => Kw::MinLength(count(arg(1)?)?),
        "pattern" => Kw::Pattern(regex(arg(1)?)?),
        "format" => {
            let name = arg(1)?.as_str().ok_or_else(|| bad("format"))?.to_owned();
            let test = match arg(2)? {
                Value::Null => FormatTest::DateTime,
                p => FormatTest::Pattern(regex(p)?.regex),
            };
            Kw::Format(name, test)
        }
        "maxItems" => Kw::MaxItems(count(arg(1)?)?),
        "minItems" => Kw::MinItems(count(arg(1)?)?),
        "uniqueItems" => Kw::UniqueItems,
        "contains" => Kw::Contains(node_index(arg(1)?)?, count(arg(2)?)?, arg(3)?.as_u64()),
        "maxProperties" => Kw::MaxProperties(count(arg(1)?)?),
        "minProperties" => Kw::MinProperties(count(arg(1)?)?),
        "required" => Kw::Required(strings(arg(1)?)?),
        "dependentRequired" => Kw::DependentRequired(
            arg(1)?
                .as_array()
                .ok_or_else(|| bad("dependentRequired"))?
                .iter()
                .map(|pair| match pair.as_array().map(Vec::as_slice) {
                    Some([Value::String(k), names]) => Ok((k.clone(), strings(names)?)),
                    _ => Err(bad("dependentRequired")),
                })
                .collect::<Result<_, String>>()?,
        ),
        "allOf" => Kw::AllOf(nodes(arg(1)?)?),
        "anyOf" => Kw::AnyOf(nodes(arg(1)?)?),
        "oneOf" => Kw::OneOf(nodes(arg(1)?)?),
        "not" => Kw::Not(node_index(arg(1)?)?),
        "if" => Kw::If(
            node_index(arg(1)?)?,
            arg(2)?.as_u64().map(|n| n as usize),
            arg(3)?.as_u64().map(|n| n as usize),
        ),
        "dependentSchemas" => Kw::DependentSchemas(named_nodes(arg(1)?)?),
        "$ref" => Kw::Ref(node_index(arg(1)?)?),
        "$dynamicRef" => Kw::DynamicRef(
            node_index(arg(1)?)?,
            arg(2)?.as_str().ok_or_else(|| bad("anchor"))?.to_owned(),
        ),
        "prefixItems" => Kw::PrefixItems(nodes(arg(1)?)?),
        "items" => Kw::Items(node_index(arg(1)?)?, count(arg(2)?)? as usize),
        "properties" => Kw::Properties(named_nodes(arg(1)?)?),
        "patternProperties" => Kw::PatternProperties(
            arg(1)?
                .as_array()
                .ok_or_else(|| bad("patternProperties"))?
                .iter()
                .map(|pair| match pair.as_array().map(Vec::as_slice) {
                    Some([p, n]) => Ok((regex(p)?, node_index(n)?)),
                    _ => Err(bad("patternProperties")),
                })
                .collect::<Result<_, String>>()?,
        ),
        "additionalProperties" => Kw::AdditionalProperties(
            node_index(arg(1)?)?,
            strings(arg(2)?)?,
            arg(3)?
                .as_array()
                .ok_or_else(|| bad("patterns"))?
                .iter()
                .map(regex)
                .collect::<Result<_, String>>()?,
        ),
        "propertyNames" => Kw::PropertyNames(node_index(arg(1)?)?),
        "unevaluatedItems" => Kw::UnevaluatedItems(node_index(arg(1)?)?),
        "unevaluatedProperties" => Kw::UnevaluatedProperties(node_index(arg(1)?)?),
        _ => return Err(bad("unknown keyword")),
    })
}

impl Program {
    /// Reads a program the generator wrote (`{"nodes": [...], "dynamic": [...]}`).
    pub fn parse(text: &str) -> Result<Program, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
        let mut nodes = Vec::new();
        for n in doc["nodes"].as_array().ok_or_else(|| bad("nodes"))? {
            nodes.push(match n {
                Value::Bool(b) => Node::Bool(*b),
                Value::Array(parts) => match parts.as_slice() {
                    [r, Value::Array(kws)] => Node::Schema {
                        resource: node_index(r)?,
                        keywords: kws
                            .iter()
                            .map(|k| keyword(k.as_array().ok_or_else(|| bad("keyword"))?))
                            .collect::<Result<_, String>>()?,
                    },
                    _ => return Err(bad("node")),
                },
                _ => return Err(bad("node")),
            });
        }
        let dynamic = doc["dynamic"]
            .as_array()
            .ok_or_else(|| bad("dynamic"))?
            .iter()
            .map(named_nodes)
            .collect::<Result<_, String>>()?;
        Ok(Program { nodes, dynamic })
    }

    /// Checks `value` against node `entry`: the first failure, located relative to `value`.
    pub fn check(&self, entry: usize, value: &Value) -> Result<(), Failure> {
        let mut cx = Cx {
            p: self,
            scope: Vec::new(),
            chain: Vec::new(),
        };
        cx.eval(entry, value).map(|_| ())
    }
}

/// What the passing subschemas evaluated: member positions and item indexes (empty: none).
#[derive(Default)]
struct Seen {
    props: Vec<bool>,
    items: Vec<bool>,
}

impl Seen {
    fn prop(&mut self, len: usize, i: usize) {
        if self.props.len() != len {
            self.props = vec![false; len];
        }
        self.props[i] = true;
    }
    fn item(&mut self, len: usize, i: usize) {
        if self.items.len() != len {
            self.items = vec![false; len];
        }
        self.items[i] = true;
    }
    fn merge(&mut self, other: Seen) {
        for (mine, theirs) in [
            (&mut self.props, other.props),
            (&mut self.items, other.items),
        ] {
            if mine.is_empty() {
                *mine = theirs;
            } else {
                for (a, b) in mine.iter_mut().zip(theirs) {
                    *a |= b;
                }
            }
        }
    }
}

struct Cx<'p> {
    p: &'p Program,
    /// The dynamic scope: resources entered, outermost first.
    scope: Vec<usize>,
    /// Nodes being evaluated, with the value each stands on.
    chain: Vec<(usize, *const Value)>,
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if is_integer(n) => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn is_integer(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

impl Kind {
    fn accepts(self, v: &Value) -> bool {
        match (self, v) {
            (Kind::Null, Value::Null) => true,
            (Kind::Boolean, Value::Bool(_)) => true,
            (Kind::Integer, Value::Number(n)) => is_integer(n),
            (Kind::Number, Value::Number(_)) => true,
            (Kind::String, Value::String(_)) => true,
            (Kind::Array, Value::Array(_)) => true,
            (Kind::Object, Value::Object(_)) => true,
            _ => false,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Boolean => "boolean",
            Kind::Integer => "integer",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Array => "array",
            Kind::Object => "object",
        }
    }
}

fn integer(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// A number as `mantissa * 10^exponent`, read from its shortest decimal text.
fn decimal(n: &Number) -> Option<(u128, i32)> {
    let text = n.to_string();
    let text = text.trim_start_matches('-');
    let (digits, exp) = match text.split_once(['e', 'E']) {
        Some((d, e)) => (d, e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let mantissa = format!("{int}{frac}").parse::<u128>().ok()?;
    Some((mantissa, exp - frac.len() as i32))
}

/// Whether `x` is an integer multiple of `d` (> 0), exactly in decimal: with `x = mx·10^ex` and
/// `d = md·10^ed`, whether `md·10^(ed-ex)` divides `mx` (when `ed > ex`) or `md` divides
/// `mx·10^(ex-ed)`, the latter in modular arithmetic so that `1e308` against `0.5` is exact too.
fn is_multiple(x: &Number, d: &Number) -> bool {
    if let (Some((mx, ex)), Some((md, ed))) = (decimal(x), decimal(d)) {
        if md == 0 {
            return false;
        }
        if mx == 0 {
            return true;
        }
        let k = i64::from(ex) - i64::from(ed);
        if k >= 0 {
            return mul_mod(mx % md, pow10_mod(k as u64, md), md) == 0;
        }
        // A divisor beyond 128 bits is larger than any mantissa, which is not zero here.
        return u32::try_from(-k)
            .ok()
            .and_then(|e| 10u128.checked_pow(e))
            .and_then(|p| md.checked_mul(p))
            .is_some_and(|div| mx % div == 0);
    }
    match (x.as_f64(), d.as_f64()) {
        (Some(a), Some(b)) => {
            let q = a / b;
            q.is_finite() && q == q.trunc()
        }
        _ => false,
    }
}

/// `a·b mod m` for `a, b < m`, without overflowing 128 bits.
fn mul_mod(mut a: u128, mut b: u128, m: u128) -> u128 {
    if let Some(p) = a.checked_mul(b) {
        return p % m;
    }
    let mut acc = 0u128;
    while b > 0 {
        if b & 1 == 1 {
            acc = add_mod(acc, a, m);
        }
        a = add_mod(a, a, m);
        b >>= 1;
    }
    acc
}

/// `a + b mod m` for `a, b < m`.
fn add_mod(a: u128, b: u128, m: u128) -> u128 {
    if a >= m - b { a - (m - b) } else { a + b }
}

/// `10^k mod m`.
fn pow10_mod(mut k: u64, m: u128) -> u128 {
    let (mut base, mut acc) = (10 % m, 1 % m);
    while k > 0 {
        if k & 1 == 1 {
            acc = mul_mod(acc, base, m);
        }
        base = mul_mod(base, base, m);
        k >>= 1;
    }
    acc
}

impl Regex {
    fn matches(&self, s: &str) -> bool {
        self.regex.find(s).is_some()
    }
}

/// A `false` schema's failure, said as the keyword that applied it (`additionalProperties: false`).
fn closed(e: Failure, code: Keyword, message: &str) -> Failure {
    if e.code == Keyword::FalseSchema && e.rel.is_empty() {
        Failure::new(code, "", message)
    } else {
        e
    }
}

fn fail(code: Keyword, message: String) -> Failure {
    Failure::new(code, "", message)
}

impl Cx<'_> {
    fn eval(&mut self, n: usize, v: &Value) -> Result<Seen, Failure> {
        let (resource, keywords) = match &self.p.nodes[n] {
            Node::Bool(true) => return Ok(Seen::default()),
            Node::Bool(false) => {
                return Err(fail(
                    Keyword::FalseSchema,
                    "no value is allowed here (the schema is `false`)".into(),
                ));
            }
            Node::Schema { resource, keywords } => (*resource, keywords),
        };
        let here = v as *const Value;
        let looping = self
            .chain
            .iter()
            .rev()
            .take_while(|(_, at)| *at == here)
            .any(|(m, _)| *m == n);
        if looping || self.chain.len() >= MAX_DEPTH {
            return Err(fail(
                Keyword::TooDeep,
                "the schema refers to itself without reaching a smaller value".into(),
            ));
        }
        self.chain.push((n, here));
        let entered = self.scope.last() != Some(&resource);
        if entered {
            self.scope.push(resource);
        }
        let result = self.keywords(keywords, v);
        if entered {
            self.scope.pop();
        }
        self.chain.pop();
        result
    }

    fn keywords(&mut self, keywords: &[Kw], v: &Value) -> Result<Seen, Failure> {
        let mut seen = Seen::default();
        for kw in keywords {
            self.keyword(kw, v, &mut seen)?;
        }
        Ok(seen)
    }

    /// One keyword of a node against `v`, by the family it belongs to.
    fn keyword(&mut self, kw: &Kw, v: &Value, seen: &mut Seen) -> Result<(), Failure> {
        match kw {
            Kw::Type(..)
            | Kw::Const(..)
            | Kw::Enum(..)
            | Kw::MultipleOf(..)
            | Kw::Maximum(..)
            | Kw::ExclusiveMaximum(..)
            | Kw::Minimum(..)
            | Kw::ExclusiveMinimum(..)
            | Kw::MaxLength(..)
            | Kw::MinLength(..)
            | Kw::Pattern(..)
            | Kw::Format(..) => Self::assertion(kw, v),
            Kw::MaxItems(..)
            | Kw::MinItems(..)
            | Kw::UniqueItems
            | Kw::Contains(..)
            | Kw::PrefixItems(..)
            | Kw::Items(..)
            | Kw::UnevaluatedItems(..) => self.array_keyword(kw, v, seen),
            Kw::MaxProperties(..)
            | Kw::MinProperties(..)
            | Kw::Required(..)
            | Kw::DependentRequired(..)
            | Kw::DependentSchemas(..)
            | Kw::Properties(..)
            | Kw::PatternProperties(..)
            | Kw::AdditionalProperties(..)
            | Kw::PropertyNames(..)
            | Kw::UnevaluatedProperties(..) => self.object_keyword(kw, v, seen),
            Kw::AllOf(..)
            | Kw::AnyOf(..)
            | Kw::OneOf(..)
            | Kw::Not(..)
            | Kw::If(..)
            | Kw::Ref(..)
            | Kw::DynamicRef(..) => self.applicator(kw, v, seen),
        }
    }

    /// An assertion on the value itself (its type, a number's bounds, a string's length, pattern
    /// or format): true of any value of another JSON type.
    fn assertion(kw: &Kw, v: &Value) -> Result<(), Failure> {
        match (kw, v) {
            (Kw::Type(kinds), _) if !kinds.iter().any(|k| k.accepts(v)) => {
                let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
                return Err(fail(
                    Keyword::Type,
                    format!("expected {}, found {}", names.join(" or "), kind_of(v)),
                ));
            }
            (Kw::Const(c), _) if !json_eq(c, v) => {
                return Err(fail(Keyword::Const, format!("the value must be {c}")));
            }
            (Kw::Enum(values), _) if !values.iter().any(|c| json_eq(c, v)) => {
                return Err(fail(
                    Keyword::Enum,
                    format!("{v} is not one of the `enum` values"),
                ));
            }
            (Kw::MultipleOf(d), Value::Number(x)) if !is_multiple(x, d) => {
                return Err(fail(
                    Keyword::MultipleOf,
                    format!("{x} is not a multiple of {d}"),
                ));
            }
            (Kw::Maximum(m), Value::Number(x))
                if !matches!(compare(x, m), Some(Ordering::Less | Ordering::Equal)) =>
            {
                return Err(fail(
                    Keyword::Maximum,
                    format!("{x} is above the maximum {m}"),
                ));
            }
            (Kw::ExclusiveMaximum(m), Value::Number(x))
                if compare(x, m) != Some(Ordering::Less) =>
            {
                return Err(fail(
                    Keyword::ExclusiveMaximum,
                    format!("{x} must be below {m}"),
                ));
            }
            (Kw::Minimum(m), Value::Number(x))
                if !matches!(compare(x, m), Some(Ordering::Greater | Ordering::Equal)) =>
            {
                return Err(fail(
                    Keyword::Minimum,
                    format!("{x} is below the minimum {m}"),
                ));
            }
            (Kw::ExclusiveMinimum(m), Value::Number(x))
                if compare(x, m) != Some(Ordering::Greater) =>
            {
                return Err(fail(
                    Keyword::ExclusiveMinimum,
                    format!("{x} must be above {m}"),
                ));
            }
            (Kw::MaxLength(max), Value::String(s)) => {
                let n = s.chars().count() as u64;
                if n > *max {
                    return Err(fail(
                        Keyword::MaxLength,
                        format!("{n} characters, at most {max} allowed"),
                    ));
                }
            }
            (Kw::MinLength(min), Value::String(s)) => {
                let n = s.chars().count() as u64;
                if n < *min {
                    return Err(fail(
                        Keyword::MinLength,
                        format!("{n} characters, at least {min} required"),
                    ));
                }
            }
            (Kw::Pattern(re), Value::String(s)) if !re.matches(s) => {
                return Err(fail(
                    Keyword::Pattern,
                    format!("{v} does not match the pattern {}", re.source),
                ));
            }
            (Kw::Format(name, test), Value::String(s)) => {
                let ok = match test {
                    FormatTest::DateTime => is_rfc3339_date_time(s),
                    FormatTest::Pattern(re) => re.find(s).is_some(),
                };
                if !ok {
                    return Err(fail(Keyword::Format, format!("{v} is not a valid {name}")));
                }
            }
            // A value of another JSON type, or an assertion that holds.
            _ => {}
        }
        Ok(())
    }

    /// A keyword about an array's items, their count and uniqueness; nothing to say of other values.
    fn array_keyword(&mut self, kw: &Kw, v: &Value, seen: &mut Seen) -> Result<(), Failure> {
        match (kw, v) {
            (Kw::MaxItems(max), Value::Array(a)) if a.len() as u64 > *max => {
                return Err(fail(
                    Keyword::MaxItems,
                    format!("{} items, at most {max} allowed", a.len()),
                ));
            }
            (Kw::MinItems(min), Value::Array(a)) if (a.len() as u64) < *min => {
                return Err(fail(
                    Keyword::MinItems,
                    format!("{} items, at least {min} required", a.len()),
                ));
            }
            (Kw::UniqueItems, Value::Array(a)) => {
                for j in 1..a.len() {
                    if let Some(i) = (0..j).find(|&i| json_eq(&a[i], &a[j])) {
                        return Err(Failure::new(
                            Keyword::UniqueItems,
                            format!("/{j}"),
                            format!("item {j} repeats item {i}; items must be unique"),
                        ));
                    }
                }
            }
            (Kw::Contains(n, min, max), Value::Array(a)) => {
                let mut matched = 0u64;
                for (i, item) in a.iter().enumerate() {
                    if self.eval(*n, item).is_ok() {
                        matched += 1;
                        seen.item(a.len(), i);
                    }
                }
                if matched < *min {
                    return Err(fail(
                        Keyword::Contains,
                        format!("{matched} items match `contains`, at least {min} must"),
                    ));
                }
                if let Some(max) = max
                    && matched > *max
                {
                    return Err(fail(
                        Keyword::Contains,
                        format!("{matched} items match `contains`, at most {max} may"),
                    ));
                }
            }
            (Kw::PrefixItems(ns), Value::Array(a)) => {
                for (i, (n, item)) in ns.iter().zip(a).enumerate() {
                    self.eval(*n, item).map_err(|e| e.at_index(i))?;
                    seen.item(a.len(), i);
                }
            }
            (Kw::Items(n, from), Value::Array(a)) => {
                for (i, item) in a.iter().enumerate().skip(*from) {
                    self.eval(*n, item).map_err(|e| e.at_index(i))?;
                    seen.item(a.len(), i);
                }
            }
            (Kw::UnevaluatedItems(n), Value::Array(a)) => {
                for (i, item) in a.iter().enumerate() {
                    if !seen.items.get(i).copied().unwrap_or(false) {
                        self.eval(*n, item).map_err(|e| {
                            closed(
                                e,
                                Keyword::UnevaluatedItems,
                                "no subschema evaluates this item",
                            )
                            .at_index(i)
                        })?;
                    }
                }
                seen.items = vec![true; a.len()];
            }
            // Not an array, or a count that holds.
            _ => {}
        }
        Ok(())
    }

    /// A keyword about an object's members and their count; nothing to say of other values.
    fn object_keyword(&mut self, kw: &Kw, v: &Value, seen: &mut Seen) -> Result<(), Failure> {
        match (kw, v) {
            (Kw::MaxProperties(max), Value::Object(o)) if o.len() as u64 > *max => {
                return Err(fail(
                    Keyword::MaxProperties,
                    format!("{} members, at most {max} allowed", o.len()),
                ));
            }
            (Kw::MinProperties(min), Value::Object(o)) if (o.len() as u64) < *min => {
                return Err(fail(
                    Keyword::MinProperties,
                    format!("{} members, at least {min} required", o.len()),
                ));
            }
            (Kw::Required(names), Value::Object(o)) => {
                if let Some(missing) = names.iter().find(|k| !o.contains_key(k.as_str())) {
                    return Err(fail(
                        Keyword::Required,
                        format!("the required member `{missing}` is absent"),
                    ));
                }
            }
            (Kw::DependentRequired(rules), Value::Object(o)) => {
                for (k, names) in rules {
                    if o.contains_key(k)
                        && let Some(missing) = names.iter().find(|m| !o.contains_key(m.as_str()))
                    {
                        return Err(fail(
                            Keyword::DependentRequired,
                            format!("member `{k}` requires member `{missing}`, which is absent"),
                        ));
                    }
                }
            }
            (Kw::DependentSchemas(rules), Value::Object(o)) => {
                for (k, n) in rules {
                    if o.contains_key(k) {
                        seen.merge(self.eval(*n, v)?);
                    }
                }
            }
            (Kw::Properties(props), Value::Object(o)) => {
                for (i, (k, member)) in o.iter().enumerate() {
                    if let Some((_, n)) = props.iter().find(|(name, _)| name == k) {
                        self.eval(*n, member).map_err(|e| e.at(k))?;
                        seen.prop(o.len(), i);
                    }
                }
            }
            (Kw::PatternProperties(pats), Value::Object(o)) => {
                for (i, (k, member)) in o.iter().enumerate() {
                    for (re, n) in pats {
                        if re.matches(k) {
                            self.eval(*n, member).map_err(|e| e.at(k))?;
                            seen.prop(o.len(), i);
                        }
                    }
                }
            }
            (Kw::AdditionalProperties(n, names, pats), Value::Object(o)) => {
                for (i, (k, member)) in o.iter().enumerate() {
                    if !names.iter().any(|name| name == k) && !pats.iter().any(|re| re.matches(k)) {
                        self.eval(*n, member).map_err(|e| {
                            closed(
                                e,
                                Keyword::AdditionalProperties,
                                "undeclared members are not allowed",
                            )
                            .at(k)
                        })?;
                        seen.prop(o.len(), i);
                    }
                }
            }
            (Kw::PropertyNames(n), Value::Object(o)) => {
                for k in o.keys() {
                    let name = Value::String(k.clone());
                    if let Err(e) = self.eval(*n, &name) {
                        return Err(Failure::new(
                            e.code,
                            format!("/{}", escape_token(k)),
                            format!("the member name `{k}` is not allowed: {}", e.message),
                        ));
                    }
                }
            }
            (Kw::UnevaluatedProperties(n), Value::Object(o)) => {
                for (i, (k, member)) in o.iter().enumerate() {
                    if !seen.props.get(i).copied().unwrap_or(false) {
                        self.eval(*n, member).map_err(|e| {
                            closed(
                                e,
                                Keyword::UnevaluatedProperties,
                                "no subschema evaluates this member",
                            )
                            .at(k)
                        })?;
                    }
                }
                seen.props = vec![true; o.len()];
            }
            // Not an object, or a count that holds.
            _ => {}
        }
        Ok(())
    }

    /// A keyword that applies other nodes to the value in place (`allOf`, `anyOf`, `oneOf`, `not`,
    /// `if`, `$ref`, `$dynamicRef`), merging what they evaluated into `seen`.
    fn applicator(&mut self, kw: &Kw, v: &Value, seen: &mut Seen) -> Result<(), Failure> {
        match (kw, v) {
            (Kw::AllOf(ns), _) => {
                for n in ns {
                    seen.merge(self.eval(*n, v)?);
                }
            }
            (Kw::AnyOf(ns), _) => {
                let mut first = None;
                let mut any = false;
                for n in ns {
                    match self.eval(*n, v) {
                        Ok(s) => {
                            any = true;
                            seen.merge(s);
                        }
                        Err(e) => {
                            first.get_or_insert(e);
                        }
                    }
                }
                if !any {
                    let why = first
                        .map(|e| format!(" (the first: {e})"))
                        .unwrap_or_default();
                    return Err(fail(
                        Keyword::AnyOf,
                        format!("the value matches none of the `anyOf` alternatives{why}"),
                    ));
                }
            }
            (Kw::OneOf(ns), _) => {
                let mut passed = Vec::new();
                let mut first = None;
                for (i, n) in ns.iter().enumerate() {
                    match self.eval(*n, v) {
                        Ok(s) => passed.push((i, s)),
                        Err(e) => {
                            first.get_or_insert(e);
                        }
                    }
                }
                match passed.len() {
                    1 => seen.merge(passed.pop().map(|p| p.1).unwrap_or_default()),
                    0 => {
                        let why = first
                            .map(|e| format!(" (the first: {e})"))
                            .unwrap_or_default();
                        return Err(fail(
                            Keyword::OneOf,
                            format!("the value matches none of the `oneOf` alternatives{why}"),
                        ));
                    }
                    _ => {
                        return Err(fail(
                            Keyword::OneOf,
                            format!(
                                "the value matches `oneOf` alternatives {} and {}; exactly one may match",
                                passed[0].0, passed[1].0
                            ),
                        ));
                    }
                }
            }
            (Kw::Not(n), _) if self.eval(*n, v).is_ok() => {
                return Err(fail(
                    Keyword::Not,
                    "the value matches the schema under `not`".into(),
                ));
            }
            (Kw::If(cond, then, otherwise), _) => match self.eval(*cond, v) {
                Ok(s) => {
                    seen.merge(s);
                    if let Some(t) = then {
                        seen.merge(self.eval(*t, v)?);
                    }
                }
                Err(_) => {
                    if let Some(e) = otherwise {
                        seen.merge(self.eval(*e, v)?);
                    }
                }
            },
            (Kw::Ref(n), _) => seen.merge(self.eval(*n, v)?),
            (Kw::DynamicRef(n, anchor), _) => {
                let target = self
                    .scope
                    .iter()
                    .find_map(|r| {
                        self.p.dynamic[*r]
                            .iter()
                            .find_map(|(name, node)| (name == anchor).then_some(*node))
                    })
                    .unwrap_or(*n);
                seen.merge(self.eval(target, v)?);
            }
            // A `not` whose node fails: the value passes.
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::is_multiple;
    use serde_json::Number;

    fn n(text: &str) -> Number {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn multiples_are_exact_in_decimal_at_any_size() {
        let cases = [
            ("1e308", "0.5", true),
            ("1e308", "3", false),
            ("1e308", "1e307", true),
            ("1e307", "1e308", false),
            ("0.3", "0.1", true),
            ("0.35", "0.1", false),
            ("4.5", "1.5", true),
            ("1e-5", "1e-7", true),
            ("1e-7", "1e-5", false),
            ("0", "0.0001", true),
            ("-7.5", "2.5", true),
            ("9007199254740993", "2", false),
            ("12345678901234567890", "5", true),
            ("12345678901234567890", "4", false),
            ("1e20", "256", true),
            ("1e20", "3", false),
            ("1e20", "1048576", true),
            ("1e20", "2097152", false),
        ];
        for (x, d, want) in cases {
            assert_eq!(is_multiple(&n(x), &n(d)), want, "{x} multipleOf {d}");
        }
    }
}
