//! Values built from a schema's keywords, to tell it apart from another: for each keyword, values
//! on both sides of what it says. Each enum value and one beside it; each bound, half a step and a
//! step past it, and multiples; strings at and past each length, outside the pattern, and the
//! empty one; arrays one item shorter and longer than allowed, with a wrong item, a repeated
//! one, or none that `contains` asks for; objects with one member too many or too few, an
//! undeclared member, a member named outside `propertyNames`, a dependent member alone; an
//! instance of a `not`; instances meeting an `if` with a value its `then` refuses, and missing
//! it; each alternative's instance, and two at once for a `oneOf`. At a change, both sides'
//! values are tried: for an edit of one keyword, one of them is the witness or its core, so the
//! witness is built rather than searched for.

use crate::pattern;
use crate::sample::{instance, meet, parts};
use prp_codegen::SchemaSet;
use prp_vocabulary::{Keyword, Schema, uri};
use serde_json::{Map, Value, json};

/// How deep into items, members and alternatives values are built.
const DEPTH: usize = 3;
/// How many values a subschema contributes to its host's.
const PER_SUBSCHEMA: usize = 48;
/// How many values one schema gives at most.
const MAX: usize = 1_500;

/// The values of the schema `node` (at canonical URI `at`), its own instance first, then one of
/// each JSON type.
pub(crate) fn values(set: &SchemaSet, at: &str, node: &Value) -> Vec<Value> {
    build(set, at, node, 0)
}

/// Whatever the values, one of each JSON type.
pub(crate) fn each_type() -> [Value; 8] {
    [
        Value::Null,
        json!(true),
        json!(false),
        json!(0),
        json!(1.5),
        json!("x"),
        json!({}),
        json!([]),
    ]
}

fn build(set: &SchemaSet, at: &str, node: &Value, depth: usize) -> Vec<Value> {
    let base = instance(set, at, node, 0);
    let mut out = vec![base.clone()];
    out.extend(each_type());
    let b = Builder { set, depth };
    for (part_at, part) in parts(set, at, node) {
        let Some(o) = part.as_object() else { continue };
        scalars(o, &mut out);
        b.arrays(&part_at, o, &base, &mut out);
        b.objects(&part_at, o, &base, &mut out);
        b.applicators(&part_at, o, &base, &mut out);
        if out.len() > MAX {
            break;
        }
    }
    unique(out)
}

/// The values without repeats, in their first order.
fn unique(values: Vec<Value>) -> Vec<Value> {
    let mut seen = std::collections::HashSet::new();
    values
        .into_iter()
        .filter(|v| seen.insert(v.to_string()))
        .collect()
}

/// A value of the same kind as `v` but another: what an `enum` or `const` just misses.
fn beside(v: &Value) -> Value {
    match v {
        Value::String(s) => json!(format!("{s}_x")),
        Value::Number(n) => n
            .as_i64()
            .map(|i| json!(i.wrapping_add(1)))
            .or_else(|| n.as_f64().map(|f| json!(f + 1.0)))
            .unwrap_or(Value::Null),
        Value::Bool(b) => json!(!b),
        Value::Null => json!(0),
        Value::Array(a) => {
            let mut a = a.clone();
            a.push(Value::Null);
            Value::Array(a)
        }
        Value::Object(o) => {
            let mut o = o.clone();
            o.insert("compatProbe".into(), Value::Null);
            Value::Object(o)
        }
    }
}

/// `x` as JSON, an integer where it is one.
fn number(x: f64) -> Vec<Value> {
    let mut out = vec![json!(x)];
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        out.insert(0, json!(x as i64));
    }
    out
}

/// Values around the keywords about strings, numbers and listed values.
fn scalars(o: &Map<String, Value>, out: &mut Vec<Value>) {
    let listed = o.keyword(Keyword::Enum).and_then(Value::as_array);
    for v in listed
        .into_iter()
        .flatten()
        .chain(o.keyword(Keyword::Const))
    {
        out.extend([v.clone(), beside(v)]);
    }
    for k in [
        Keyword::Minimum,
        Keyword::Maximum,
        Keyword::ExclusiveMinimum,
        Keyword::ExclusiveMaximum,
    ] {
        if let Some(b) = o.keyword(k).and_then(Value::as_f64) {
            for d in [0.0, -1.0, 1.0, -0.5, 0.5] {
                out.extend(number(b + d));
            }
        }
    }
    if let Some(m) = o.keyword(Keyword::MultipleOf).and_then(Value::as_f64) {
        for x in [m, 2.0 * m, 1.5 * m, m / 2.0, 1.0, 0.5, 3.0] {
            out.extend(number(x));
        }
    }
    for k in [Keyword::MinLength, Keyword::MaxLength] {
        if let Some(n) = o.keyword(k).and_then(Value::as_u64) {
            let n = n as usize;
            for len in [n.saturating_sub(1), n, n + 1] {
                out.push(json!("a".repeat(len)));
            }
        }
    }
    if let Some(p) = o.keyword(Keyword::Pattern).and_then(Value::as_str) {
        out.push(json!(""));
        if let Some(e) = pattern::example(p) {
            // Past the pattern's own counts too: its least string three times over.
            let thrice = e.repeat(3);
            out.extend([
                json!(format!("{e}!")),
                json!(format!("!{e}")),
                json!(e),
                json!(thrice),
            ]);
        }
        let other = pattern::example_with_any(p, 'x');
        if let Some(e) = other.filter(|x| Some(x) != pattern::example(p).as_ref()) {
            out.push(json!(e));
        }
    }
    if o.keyword(Keyword::Format) == Some(&json!("date-time")) {
        out.extend([
            json!("2026-01-01T00:00:00Z"),
            json!("2026-01-01T00:00:00.000Z"),
            json!("2026-01-01T00:00:00+01:00"),
            json!("2026-01-01T00:00:00.1Z"),
            json!("2026-01-01"),
        ]);
    }
}

/// Whether `o` says anything of arrays.
fn about_arrays(o: &Map<String, Value>) -> bool {
    says_type(o, "array")
        || [
            Keyword::Items,
            Keyword::PrefixItems,
            Keyword::Contains,
            Keyword::MinItems,
            Keyword::MaxItems,
            Keyword::UniqueItems,
            Keyword::MinContains,
            Keyword::MaxContains,
            Keyword::UnevaluatedItems,
        ]
        .into_iter()
        .any(|k| o.has(k))
}

/// Whether `o` says anything of objects.
fn about_objects(o: &Map<String, Value>) -> bool {
    says_type(o, "object")
        || [
            Keyword::Properties,
            Keyword::Required,
            Keyword::AdditionalProperties,
            Keyword::PatternProperties,
            Keyword::PropertyNames,
            Keyword::MinProperties,
            Keyword::MaxProperties,
            Keyword::DependentRequired,
            Keyword::DependentSchemas,
            Keyword::UnevaluatedProperties,
        ]
        .into_iter()
        .any(|k| o.has(k))
}

fn says_type(o: &Map<String, Value>, name: &str) -> bool {
    match o.keyword(Keyword::Type) {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(ts)) => ts.iter().any(|t| t == name),
        _ => false,
    }
}

/// `v`'s members over `base`'s where both are objects; else `v`.
fn over(base: &Value, v: Value) -> Value {
    match (base, v) {
        (Value::Object(b), Value::Object(m)) => {
            let mut out = b.clone();
            out.extend(m);
            Value::Object(out)
        }
        (_, v) => v,
    }
}

/// Builds the values of one schema, `depth` below the change.
struct Builder<'a> {
    set: &'a SchemaSet,
    depth: usize,
}

impl Builder<'_> {
    /// The values of a subschema, fewer: what an item, member or alternative contributes.
    fn sub(&self, at: &str, node: &Value) -> Vec<Value> {
        if self.depth >= DEPTH {
            return vec![instance(self.set, at, node, 1)];
        }
        let mut v = build(self.set, at, node, self.depth + 1);
        v.truncate(PER_SUBSCHEMA);
        v
    }

    /// Arrays around `items`, `prefixItems`, `contains`, item counts and `uniqueItems`.
    fn arrays(&self, at: &str, o: &Map<String, Value>, base: &Value, out: &mut Vec<Value>) {
        if !about_arrays(o) {
            return;
        }
        // `unevaluatedItems` stands for `items` where there is none (what the values try is
        // the same: an item after the prefix).
        let items = [Keyword::Items, Keyword::UnevaluatedItems]
            .into_iter()
            .find_map(|k| Some((format!("{at}/{}", k.name()), o.keyword(k)?)))
            .filter(|(_, i)| i.is_object());
        let item = items
            .as_ref()
            .map_or(Value::Null, |(here, i)| instance(self.set, here, i, 1));
        let mut prefix: Vec<Value> = self.prefix(at, o);
        if o.keyword(Keyword::UniqueItems) == Some(&json!(true)) {
            self.distinct(at, o, &mut prefix);
        }
        let array = |n: usize| -> Value {
            let mut a: Vec<Value> = prefix.iter().take(n).cloned().collect();
            a.resize(n, item.clone());
            Value::Array(a)
        };
        let mut lengths = vec![0, 1, 2, 3, prefix.len(), prefix.len() + 1];
        for k in [Keyword::MinItems, Keyword::MaxItems] {
            if let Some(n) = o.keyword(k).and_then(Value::as_u64) {
                let n = n.min(64) as usize;
                lengths.extend([n.saturating_sub(1), n, n + 1]);
            }
        }
        out.extend(lengths.into_iter().map(array));
        let min = o.keyword(Keyword::MinItems).and_then(Value::as_u64);
        let at_least = (min.unwrap_or(1).clamp(1, 64) as usize).max(prefix.len() + 1);
        if let Some((here, i)) = &items {
            for v in self.sub(here, i) {
                let Value::Array(mut a) = array(at_least) else {
                    continue;
                };
                a[prefix.len()] = v;
                out.push(Value::Array(a));
            }
        }
        for (i, p) in prefix_schemas(o).enumerate() {
            for v in self.sub(&format!("{at}/prefixItems/{i}"), p) {
                let mut a = prefix.clone();
                a[i] = v;
                out.push(Value::Array(a));
            }
        }
        if let Some(c) = o.keyword(Keyword::Contains) {
            self.contains(&format!("{at}/contains"), c, o, out);
        }
        if let Value::Array(a) = array(at_least.max(2)) {
            let mut twice = a.clone();
            twice.push(a[0].clone());
            out.push(Value::Array(twice));
        }
        if let Value::Array(a) = base
            && let Some(first) = a.first()
        {
            let mut twice = a.clone();
            twice.push(first.clone());
            out.push(Value::Array(twice));
        }
    }

    /// Arrays of the values around the `contains` schema `c`: each alone and twice, repeated
    /// to each count around `minContains`/`maxContains`, and two of them mixed (one item that
    /// matches among others that may not).
    fn contains(&self, at: &str, c: &Value, o: &Map<String, Value>, out: &mut Vec<Value>) {
        let values = self.sub(at, c);
        let mut counts = vec![1, 2, 3];
        for k in [Keyword::MinContains, Keyword::MaxContains] {
            if let Some(n) = o.keyword(k).and_then(Value::as_u64) {
                let n = n.min(64) as usize;
                counts.extend([n.saturating_sub(1), n, n + 1]);
            }
        }
        for v in &values {
            out.extend(counts.iter().map(|&n| Value::Array(vec![v.clone(); n])));
        }
        let few = &values[..values.len().min(10)];
        for u in few {
            for v in few.iter().filter(|v| *v != u) {
                out.push(json!([u, v, v]));
            }
        }
    }

    /// The instances of the `prefixItems` schemas.
    fn prefix(&self, at: &str, o: &Map<String, Value>) -> Vec<Value> {
        prefix_schemas(o)
            .enumerate()
            .map(|(i, p)| instance(self.set, &format!("{at}/prefixItems/{i}"), p, 1))
            .collect()
    }

    /// `prefix` with each item that repeats an earlier one replaced, where its schema's values
    /// hold another of the same type: what `uniqueItems` asks of the items before a change.
    fn distinct(&self, at: &str, o: &Map<String, Value>, prefix: &mut [Value]) {
        for (i, p) in prefix_schemas(o).enumerate() {
            if !prefix[..i].contains(&prefix[i]) {
                continue;
            }
            let kind = std::mem::discriminant(&prefix[i]);
            let values = self.sub(&format!("{at}/prefixItems/{i}"), p);
            if let Some(v) = values
                .into_iter()
                .find(|v| std::mem::discriminant(v) == kind && !prefix[..i].contains(v))
            {
                prefix[i] = v;
            }
        }
    }

    /// Objects around the keywords about members.
    fn objects(&self, at: &str, o: &Map<String, Value>, base: &Value, out: &mut Vec<Value>) {
        if !about_objects(o) {
            return;
        }
        let base: Map<String, Value> = base.as_object().cloned().unwrap_or_default();
        let with = |name: &str, v: Value| {
            let mut m = base.clone();
            m.insert(name.to_owned(), v);
            Value::Object(m)
        };
        out.push(json!({}));
        for name in base.keys() {
            let mut m = base.clone();
            m.remove(name);
            out.push(Value::Object(m));
        }
        let props = o.keyword(Keyword::Properties).and_then(Value::as_object);
        for (name, s) in props.into_iter().flatten() {
            let here = uri::child(&format!("{at}/properties"), name);
            out.extend(self.sub(&here, s).into_iter().map(|v| with(name, v)));
        }
        let undeclared = [
            Keyword::AdditionalProperties,
            Keyword::UnevaluatedProperties,
        ]
        .into_iter()
        .find_map(|k| Some((k, o.keyword(k).filter(|s| s.is_object())?)));
        let extra = match undeclared {
            Some((k, s)) => self.sub(&format!("{at}/{}", k.name()), s),
            None => each_type().to_vec(),
        };
        for name in self.spare_names(at, o) {
            out.extend(extra.iter().map(|v| with(&name, v.clone())));
        }
        self.pattern_members(at, o, &with, out);
        self.names(at, o, &base, out);
        self.counts(at, o, &base, out);
        dependents(o, &base, out);
        self.dependent_schemas(at, o, &base, out);
    }

    /// For each `dependentSchemas` trigger, the values of its schema with the trigger present:
    /// what that schema asks holds only once the trigger is there. The trigger's value is an
    /// instance of what `properties` (of the host, else of the dependent schema) says of it, else
    /// each JSON type.
    fn dependent_schemas(
        &self,
        at: &str,
        o: &Map<String, Value>,
        base: &Map<String, Value>,
        out: &mut Vec<Value>,
    ) {
        let schemas = o
            .keyword(Keyword::DependentSchemas)
            .and_then(Value::as_object);
        let host = Value::Object(base.clone());
        for (trigger, s) in schemas.into_iter().flatten() {
            let here = uri::child(&format!("{at}/dependentSchemas"), trigger);
            let declared = [(Some(o), at), (s.as_object(), here.as_str())]
                .into_iter()
                .find_map(|(m, at)| {
                    let t = m?.keyword(Keyword::Properties)?.as_object()?.get(trigger)?;
                    let at = uri::child(&format!("{at}/properties"), trigger);
                    Some(instance(self.set, &at, t, 1))
                });
            let values = declared.map_or_else(|| each_type().to_vec(), |v| vec![v]);
            for v in self.sub(&here, s) {
                let Value::Object(mut m) = v else { continue };
                if m.contains_key(trigger) {
                    out.push(over(&host, Value::Object(m)));
                    continue;
                }
                for t in &values {
                    m.insert(trigger.clone(), t.clone());
                    out.push(over(&host, Value::Object(m.clone())));
                }
            }
        }
    }

    /// Members named to match each `patternProperties` pattern, with values around its schema.
    fn pattern_members(
        &self,
        at: &str,
        o: &Map<String, Value>,
        with: &dyn Fn(&str, Value) -> Value,
        out: &mut Vec<Value>,
    ) {
        let patterns = o
            .keyword(Keyword::PatternProperties)
            .and_then(Value::as_object);
        for (p, s) in patterns.into_iter().flatten() {
            let name = pattern::example(p).unwrap_or_else(|| "a".into());
            let here = uri::child(&format!("{at}/patternProperties"), p);
            out.extend(self.sub(&here, s).into_iter().map(|v| with(&name, v)));
        }
    }

    /// Names for members `properties` does not declare: `compatProbe`, and where `propertyNames`
    /// limits names, a few of the strings around its schema (some of which it takes).
    fn spare_names(&self, at: &str, o: &Map<String, Value>) -> Vec<String> {
        let mut names = vec!["compatProbe".to_owned()];
        let Some(s) = o.keyword(Keyword::PropertyNames) else {
            return names;
        };
        let props = o.keyword(Keyword::Properties).and_then(Value::as_object);
        for v in self.sub(&format!("{at}/propertyNames"), s) {
            let Value::String(name) = v else { continue };
            let declared = props.is_some_and(|p| p.contains_key(&name));
            if !declared && !names.contains(&name) && names.len() < 4 {
                names.push(name);
            }
        }
        names
    }

    /// Members named by the strings around the `propertyNames` schema.
    fn names(
        &self,
        at: &str,
        o: &Map<String, Value>,
        base: &Map<String, Value>,
        out: &mut Vec<Value>,
    ) {
        let Some(s) = o.keyword(Keyword::PropertyNames) else {
            return;
        };
        let mut names = vec![String::new(), "compatProbe".into(), "!".into()];
        let strings = self.sub(&format!("{at}/propertyNames"), s);
        names.extend(
            strings
                .into_iter()
                .filter_map(|v| v.as_str().map(str::to_owned)),
        );
        for name in names {
            let mut m = base.clone();
            m.insert(name, json!(true));
            out.push(Value::Object(m));
        }
    }

    /// The instance with members added up to and past `minProperties`/`maxProperties`, and
    /// below them (the declared names first).
    fn counts(
        &self,
        at: &str,
        o: &Map<String, Value>,
        base: &Map<String, Value>,
        out: &mut Vec<Value>,
    ) {
        let props = o.keyword(Keyword::Properties).and_then(Value::as_object);
        let declared = props.into_iter().flatten().map(|(n, _)| n.clone());
        let spare = (0..).map(|i| format!("compatProbe{i}"));
        let names: Vec<String> = declared
            .chain(spare)
            .filter(|n| !base.contains_key(n))
            .take(80)
            .collect();
        // Padded with the declared members' instances first, or with undeclared names alone.
        let fill = |name: &String| {
            let declared = props.and_then(|p| p.get(name));
            let here = uri::child(&format!("{at}/properties"), name);
            declared.map_or(json!(true), |s| instance(self.set, &here, s, 1))
        };
        let spare: Vec<String> = (0..80).map(|i| format!("compatProbe{i}")).collect();
        for k in [Keyword::MinProperties, Keyword::MaxProperties] {
            let Some(n) = o.keyword(k).and_then(Value::as_u64) else {
                continue;
            };
            let n = n.min(64) as usize;
            for (want, names) in [n.saturating_sub(1), n, n + 1]
                .into_iter()
                .flat_map(|w| [(w, &names), (w, &spare)])
            {
                let mut m = base.clone();
                for name in names {
                    if m.len() >= want {
                        break;
                    }
                    m.insert(name.clone(), fill(name));
                }
                while m.len() > want {
                    let Some(last) = m.keys().next_back().cloned() else {
                        break;
                    };
                    m.remove(&last);
                }
                out.push(Value::Object(m));
            }
        }
    }

    /// `not`, conditionals and alternatives.
    fn applicators(&self, at: &str, o: &Map<String, Value>, base: &Value, out: &mut Vec<Value>) {
        if let Some(n) = o.keyword(Keyword::Not) {
            let values = self.sub(&format!("{at}/not"), n);
            out.extend(values.into_iter().map(|v| over(base, v)));
        }
        self.conditional(at, o, base, out);
        for key in [Keyword::AnyOf, Keyword::OneOf] {
            let alts = o.keyword(key).and_then(Value::as_array);
            let mut firsts = Vec::new();
            for (i, alt) in alts.into_iter().flatten().enumerate() {
                let here = format!("{at}/{}/{i}", key.name());
                let values = self.sub(&here, alt);
                firsts.extend(values.first().cloned());
                out.extend(values.into_iter().map(|v| over(base, v)));
            }
            // Two alternatives' instances at once: what a `oneOf` refuses.
            for pair in firsts.windows(2) {
                out.push(over(&over(base, pair[0].clone()), pair[1].clone()));
            }
        }
    }

    /// Instances meeting the `if` with values around what the `then` says, and missing it with
    /// values around what the `else` says.
    fn conditional(&self, at: &str, o: &Map<String, Value>, base: &Value, out: &mut Vec<Value>) {
        let Some(cond) = o.keyword(Keyword::If) else {
            return;
        };
        out.extend(
            self.sub(&format!("{at}/if"), cond)
                .into_iter()
                .map(|v| over(base, v)),
        );
        let node = Value::Object(o.clone());
        let mut met = base.as_object().cloned().unwrap_or_default();
        meet(self.set, at, &node, &mut met);
        let met = Value::Object(met);
        out.push(met.clone());
        // Missing it: each member it fixes set to another value, each it requires removed.
        let mut missed = base.as_object().cloned().unwrap_or_default();
        let fixed = cond.keyword(Keyword::Properties).and_then(Value::as_object);
        for (name, s) in fixed.into_iter().flatten() {
            let listed = s.keyword(Keyword::Enum).and_then(|e| e.get(0));
            if let Some(c) = s.keyword(Keyword::Const).or(listed) {
                missed.insert(name.clone(), beside(c));
            }
        }
        let required = cond.keyword(Keyword::Required).and_then(Value::as_array);
        for name in required.into_iter().flatten().filter_map(Value::as_str) {
            missed.shift_remove(name);
        }
        let missed = Value::Object(missed);
        out.push(missed.clone());
        for (branch, host) in [(Keyword::Then, &met), (Keyword::Else, &missed)] {
            let Some(s) = o.keyword(branch) else { continue };
            let here = format!("{at}/{}", branch.name());
            // Over the host, and bare: set over a document's own value, the bare members keep
            // what the document has (an `if` it meets or misses its own way).
            for v in self.sub(&here, s) {
                out.extend([over(host, v.clone()), v]);
            }
        }
    }
}

fn prefix_schemas(o: &Map<String, Value>) -> impl Iterator<Item = &Value> {
    o.keyword(Keyword::PrefixItems)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// For each `dependentRequired`/`dependentSchemas` trigger: the instance with the trigger and
/// without what it asks, and with both.
fn dependents(o: &Map<String, Value>, base: &Map<String, Value>, out: &mut Vec<Value>) {
    let required = o
        .keyword(Keyword::DependentRequired)
        .and_then(Value::as_object);
    for (trigger, names) in required.into_iter().flatten() {
        let mut m = base.clone();
        m.insert(trigger.clone(), json!("x"));
        for n in names
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            m.remove(n);
        }
        out.push(Value::Object(m.clone()));
        for n in names
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            m.insert(n.to_owned(), json!("x"));
        }
        out.push(Value::Object(m));
    }
    let schemas = o
        .keyword(Keyword::DependentSchemas)
        .and_then(Value::as_object);
    for trigger in schemas.into_iter().flatten().map(|(t, _)| t) {
        let mut m = base.clone();
        m.insert(trigger.clone(), json!("x"));
        out.push(Value::Object(m));
    }
}
