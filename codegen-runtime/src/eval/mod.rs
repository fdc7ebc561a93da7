//! The checker behind schemas no Rust type can say exactly (`anyOf` of shapes, `unevaluated*`,
//! `$dynamicRef`, assertions that apply to one JSON type and let the others through): the
//! generator compiles every subschema such a type reaches into a program of nodes, with each `$ref`
//! already resolved to a node, and this module runs it over the decoded JSON.
//!
//! Each keyword follows draft 2020-12: an assertion ignores values of other types; annotations
//! (members and items evaluated) flow up from the subschemas that pass, for `unevaluated*`; the
//! dynamic scope is the stack of schema resources entered, for `$dynamicRef`.

mod program;

pub use program::{FormatTest, JsonType, Node, Program, Regex, Rule, float};

use super::{Failure, Keyword, escape_token, is_rfc3339_date_time, json_eq};
use serde_json::{Number, Value};
use std::cmp::Ordering;

impl Program {
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

/// How deep schemas may nest while checking one value: a schema that refers to itself without
/// reaching a smaller value fails here instead of exhausting the stack.
const MAX_DEPTH: usize = 512;

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

impl JsonType {
    fn accepts(self, v: &Value) -> bool {
        match (self, v) {
            (JsonType::Null, Value::Null) => true,
            (JsonType::Boolean, Value::Bool(_)) => true,
            (JsonType::Integer, Value::Number(n)) => is_integer(n),
            (JsonType::Number, Value::Number(_)) => true,
            (JsonType::String, Value::String(_)) => true,
            (JsonType::Array, Value::Array(_)) => true,
            (JsonType::Object, Value::Object(_)) => true,
            _ => false,
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
            Node::Schema { resource, rules } => (*resource, rules),
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

    fn keywords(&mut self, keywords: &[Rule], v: &Value) -> Result<Seen, Failure> {
        let mut seen = Seen::default();
        for kw in keywords {
            self.keyword(kw, v, &mut seen)?;
        }
        Ok(seen)
    }

    /// One keyword of a node against `v`, by the family it belongs to.
    fn keyword(&mut self, kw: &Rule, v: &Value, seen: &mut Seen) -> Result<(), Failure> {
        match kw {
            Rule::Type(..)
            | Rule::Const(..)
            | Rule::Enum(..)
            | Rule::MultipleOf(..)
            | Rule::Maximum(..)
            | Rule::ExclusiveMaximum(..)
            | Rule::Minimum(..)
            | Rule::ExclusiveMinimum(..)
            | Rule::MaxLength(..)
            | Rule::MinLength(..)
            | Rule::Pattern(..)
            | Rule::Format(..) => Self::assertion(kw, v),
            Rule::MaxItems(..)
            | Rule::MinItems(..)
            | Rule::UniqueItems
            | Rule::Contains(..)
            | Rule::PrefixItems(..)
            | Rule::Items(..)
            | Rule::UnevaluatedItems(..) => self.array_keyword(kw, v, seen),
            Rule::MaxProperties(..)
            | Rule::MinProperties(..)
            | Rule::Required(..)
            | Rule::DependentRequired(..)
            | Rule::DependentSchemas(..)
            | Rule::Properties(..)
            | Rule::PatternProperties(..)
            | Rule::AdditionalProperties(..)
            | Rule::PropertyNames(..)
            | Rule::UnevaluatedProperties(..) => self.object_keyword(kw, v, seen),
            Rule::AllOf(..)
            | Rule::AnyOf(..)
            | Rule::OneOf(..)
            | Rule::Not(..)
            | Rule::If(..)
            | Rule::Ref(..)
            | Rule::DynamicRef(..) => self.applicator(kw, v, seen),
        }
    }

    /// An assertion on the value itself (its type, a number's bounds, a string's length, pattern
    /// or format): true of any value of another JSON type.
    fn assertion(kw: &Rule, v: &Value) -> Result<(), Failure> {
        match (kw, v) {
            (Rule::Type(kinds), _) if !kinds.iter().any(|k| k.accepts(v)) => {
                let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
                return Err(fail(
                    Keyword::Type,
                    format!("expected {}, found {}", names.join(" or "), kind_of(v)),
                ));
            }
            (Rule::Const(c), _) if !json_eq(c, v) => {
                return Err(fail(Keyword::Const, format!("the value must be {c}")));
            }
            (Rule::Enum(values), _) if !values.iter().any(|c| json_eq(c, v)) => {
                return Err(fail(
                    Keyword::Enum,
                    format!("{v} is not one of the `enum` values"),
                ));
            }
            (Rule::MultipleOf(d), Value::Number(x)) if !is_multiple(x, d) => {
                return Err(fail(
                    Keyword::MultipleOf,
                    format!("{x} is not a multiple of {d}"),
                ));
            }
            (Rule::Maximum(m), Value::Number(x))
                if !matches!(compare(x, m), Some(Ordering::Less | Ordering::Equal)) =>
            {
                return Err(fail(
                    Keyword::Maximum,
                    format!("{x} is above the maximum {m}"),
                ));
            }
            (Rule::ExclusiveMaximum(m), Value::Number(x))
                if compare(x, m) != Some(Ordering::Less) =>
            {
                return Err(fail(
                    Keyword::ExclusiveMaximum,
                    format!("{x} must be below {m}"),
                ));
            }
            (Rule::Minimum(m), Value::Number(x))
                if !matches!(compare(x, m), Some(Ordering::Greater | Ordering::Equal)) =>
            {
                return Err(fail(
                    Keyword::Minimum,
                    format!("{x} is below the minimum {m}"),
                ));
            }
            (Rule::ExclusiveMinimum(m), Value::Number(x))
                if compare(x, m) != Some(Ordering::Greater) =>
            {
                return Err(fail(
                    Keyword::ExclusiveMinimum,
                    format!("{x} must be above {m}"),
                ));
            }
            (Rule::MaxLength(max), Value::String(s)) => {
                let n = s.chars().count() as u64;
                if n > *max {
                    return Err(fail(
                        Keyword::MaxLength,
                        format!("{n} characters, at most {max} allowed"),
                    ));
                }
            }
            (Rule::MinLength(min), Value::String(s)) => {
                let n = s.chars().count() as u64;
                if n < *min {
                    return Err(fail(
                        Keyword::MinLength,
                        format!("{n} characters, at least {min} required"),
                    ));
                }
            }
            (Rule::Pattern(re), Value::String(s)) if !re.matches(s) => {
                return Err(fail(
                    Keyword::Pattern,
                    format!("{v} does not match the pattern {}", re.source()),
                ));
            }
            (Rule::Format(name, test), Value::String(s)) => {
                let ok = match test {
                    FormatTest::DateTime => is_rfc3339_date_time(s),
                    FormatTest::Pattern(re) => re.matches(s),
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
    fn array_keyword(&mut self, kw: &Rule, v: &Value, seen: &mut Seen) -> Result<(), Failure> {
        match (kw, v) {
            (Rule::MaxItems(max), Value::Array(a)) if a.len() as u64 > *max => {
                return Err(fail(
                    Keyword::MaxItems,
                    format!("{} items, at most {max} allowed", a.len()),
                ));
            }
            (Rule::MinItems(min), Value::Array(a)) if (a.len() as u64) < *min => {
                return Err(fail(
                    Keyword::MinItems,
                    format!("{} items, at least {min} required", a.len()),
                ));
            }
            (Rule::UniqueItems, Value::Array(a)) => {
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
            (Rule::Contains(n, min, max), Value::Array(a)) => {
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
            (Rule::PrefixItems(ns), Value::Array(a)) => {
                for (i, (n, item)) in ns.iter().zip(a).enumerate() {
                    self.eval(*n, item).map_err(|e| e.at_index(i))?;
                    seen.item(a.len(), i);
                }
            }
            (Rule::Items(n, from), Value::Array(a)) => {
                for (i, item) in a.iter().enumerate().skip(*from) {
                    self.eval(*n, item).map_err(|e| e.at_index(i))?;
                    seen.item(a.len(), i);
                }
            }
            (Rule::UnevaluatedItems(n), Value::Array(a)) => {
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
    fn object_keyword(&mut self, kw: &Rule, v: &Value, seen: &mut Seen) -> Result<(), Failure> {
        match (kw, v) {
            (Rule::MaxProperties(max), Value::Object(o)) if o.len() as u64 > *max => {
                return Err(fail(
                    Keyword::MaxProperties,
                    format!("{} members, at most {max} allowed", o.len()),
                ));
            }
            (Rule::MinProperties(min), Value::Object(o)) if (o.len() as u64) < *min => {
                return Err(fail(
                    Keyword::MinProperties,
                    format!("{} members, at least {min} required", o.len()),
                ));
            }
            (Rule::Required(names), Value::Object(o)) => {
                if let Some(missing) = names.iter().find(|k| !o.contains_key(k.as_str())) {
                    return Err(fail(
                        Keyword::Required,
                        format!("the required member `{missing}` is absent"),
                    ));
                }
            }
            (Rule::DependentRequired(rules), Value::Object(o)) => {
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
            (Rule::DependentSchemas(rules), Value::Object(o)) => {
                for (k, n) in rules {
                    if o.contains_key(k) {
                        seen.merge(self.eval(*n, v)?);
                    }
                }
            }
            (Rule::Properties(props), Value::Object(o)) => {
                for (i, (k, member)) in o.iter().enumerate() {
                    if let Some((_, n)) = props.iter().find(|(name, _)| name == k) {
                        self.eval(*n, member).map_err(|e| e.at(k))?;
                        seen.prop(o.len(), i);
                    }
                }
            }
            (Rule::PatternProperties(pats), Value::Object(o)) => {
                for (i, (k, member)) in o.iter().enumerate() {
                    for (re, n) in pats {
                        if re.matches(k) {
                            self.eval(*n, member).map_err(|e| e.at(k))?;
                            seen.prop(o.len(), i);
                        }
                    }
                }
            }
            (Rule::AdditionalProperties(n, names, pats), Value::Object(o)) => {
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
            (Rule::PropertyNames(n), Value::Object(o)) => {
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
            (Rule::UnevaluatedProperties(n), Value::Object(o)) => {
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
    fn applicator(&mut self, kw: &Rule, v: &Value, seen: &mut Seen) -> Result<(), Failure> {
        match (kw, v) {
            (Rule::AllOf(ns), _) => {
                for n in ns {
                    seen.merge(self.eval(*n, v)?);
                }
            }
            (Rule::AnyOf(ns), _) => {
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
            (Rule::OneOf(ns), _) => {
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
            (Rule::Not(n), _) if self.eval(*n, v).is_ok() => {
                return Err(fail(
                    Keyword::Not,
                    "the value matches the schema under `not`".into(),
                ));
            }
            (Rule::If(cond, then, otherwise), _) => match self.eval(*cond, v) {
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
            (Rule::Ref(n), _) => seen.merge(self.eval(*n, v)?),
            (Rule::DynamicRef(n, anchor), _) => {
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
