//! Documents to try: a plausible instance of a schema (its required members, the first value of
//! each enum, strings its pattern takes), and the values around a schema's rules (every enum value,
//! each bound and one past it, each alternative, a member more, a member less, each JSON type).
//! They need not be valid: `search` keeps those one side accepts.

use prp_codegen::SchemaSet;
use prp_vocabulary::{Keyword, Schema, uri};
use serde_json::{Map, Value, json};

/// How deep an instance is built; below, `null`.
const DEPTH: usize = 12;

/// Strings tried, in order, against a `pattern`.
const STRINGS: &[&str] = &[
    "a",
    "a1",
    "x-1",
    "abc",
    "A",
    "0",
    "1",
    "a.b",
    "a/b",
    "a:b",
    "a_b",
    "2026-01-01T00:00:00Z",
    "https://example.com/a",
    "id-1",
    "aaaa1111",
    "",
];

/// A plausible instance of the schema at canonical URI `at`.
pub fn instance(set: &SchemaSet, at: &str, node: &Value, depth: usize) -> Value {
    if depth > DEPTH {
        return Value::Null;
    }
    let Some(o) = node.as_object() else {
        return Value::Null;
    };
    if let Some(r) = o.keyword(Keyword::Ref).and_then(Value::as_str)
        && let Some(target) = set.resolve_from(at, r)
        && let Some((canon, t)) = set.node_at(&target)
    {
        let base = instance(set, &canon, t, depth + 1);
        return merge(base, own(set, at, o, depth));
    }
    let mut v = own(set, at, o, depth);
    let all_of = o.keyword(Keyword::AllOf).and_then(Value::as_array);
    for (i, m) in all_of.into_iter().flatten().enumerate() {
        let part = instance(set, &format!("{at}/allOf/{i}"), m, depth + 1);
        v = merge(v, part);
    }
    // The conditionals whose `if` the instance meets: what their `then`s require.
    let rules = std::iter::once(node).chain(all_of.into_iter().flatten());
    for (i, rule) in rules.enumerate() {
        if let (Some(cond), Some(then), Value::Object(members)) = (
            rule.keyword(Keyword::If),
            rule.keyword(Keyword::Then),
            &mut v,
        ) && meets(cond, members)
        {
            let then_at = match i {
                0 => format!("{at}/then"),
                i => format!("{at}/allOf/{}/then", i - 1),
            };
            required_by(set, at, o, (&then_at, then), members, depth);
        }
    }
    v
}

/// Whether `members` meets an `if` of member constants and required names.
fn meets(cond: &Value, members: &Map<String, Value>) -> bool {
    let required = cond
        .keyword(Keyword::Required)
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    let present = required
        .filter_map(Value::as_str)
        .all(|n| members.contains_key(n));
    let props = cond
        .keyword(Keyword::Properties)
        .and_then(Value::as_object)
        .into_iter()
        .flatten();
    let fixed = props.into_iter().all(|(name, s)| match members.get(name) {
        None => true,
        Some(v) => {
            s.keyword(Keyword::Const).is_none_or(|c| c == v)
                && s.keyword(Keyword::Enum)
                    .and_then(Value::as_array)
                    .is_none_or(|e| e.contains(v))
        }
    });
    present && fixed
}

/// Adds to `members` what `then` asks of them: the members it requires, as instances of the
/// object's own member schemas (`o`, at `at`), and for each member it gives a schema of its own
/// (a `$ref`, members, constants) that schema's instance over the member; `minItems` stretches an
/// array with instances of its items.
fn required_by(
    set: &SchemaSet,
    at: &str,
    o: &Map<String, Value>,
    (then_at, then): (&str, &Value),
    members: &mut Map<String, Value>,
    depth: usize,
) {
    let props = o.keyword(Keyword::Properties).and_then(Value::as_object);
    let required = then
        .keyword(Keyword::Required)
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    let mut names: Vec<String> = required
        .filter_map(|n| n.as_str().map(str::to_owned))
        .collect();
    for (name, s) in then
        .keyword(Keyword::Properties)
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let says = [
            Keyword::Ref,
            Keyword::Properties,
            Keyword::Const,
            Keyword::Enum,
            Keyword::AllOf,
            Keyword::OneOf,
            Keyword::AnyOf,
        ]
        .into_iter()
        .any(|k| s.has(k));
        if says && !names.contains(name) {
            names.push(name.clone());
        }
    }
    for name in names {
        let here = uri::child(&format!("{at}/properties"), &name);
        let own = props.and_then(|p| p.get(&name));
        let mut v = match members.get(&name) {
            Some(v) => v.clone(),
            None => own.map_or(json!("x"), |s| instance(set, &here, s, depth + 1)),
        };
        let given = then.keyword(Keyword::Properties).and_then(|p| p.get(&name));
        if let Some(g) = given.filter(|g| g.keyword(Keyword::MinItems).is_none()) {
            v = merge(
                v,
                instance(
                    set,
                    &uri::child(&format!("{then_at}/properties"), &name),
                    g,
                    depth + 1,
                ),
            );
        }
        let min = given
            .and_then(|g| g.keyword(Keyword::MinItems))
            .and_then(Value::as_u64);
        if let (Value::Array(items), Some(n)) = (&mut v, min) {
            let item = own
                .and_then(|s| s.keyword(Keyword::Items))
                .map_or(Value::Null, |i| {
                    instance(set, &format!("{here}/items"), i, depth + 1)
                });
            items.resize(n as usize, item);
        }
        members.insert(name, v);
    }
}

/// `members` made to meet the `if` of `node` (at `at`), its constants set, and what its `then`
/// asks added.
pub fn meet(set: &SchemaSet, at: &str, node: &Value, members: &mut Map<String, Value>) {
    let (Some(cond), Some(then), Some(o)) = (
        node.keyword(Keyword::If),
        node.keyword(Keyword::Then),
        node.as_object(),
    ) else {
        return;
    };
    set_constants(cond, members);
    required_by(set, at, o, (&format!("{at}/then"), then), members, 1);
}

/// Sets the members an `if` fixes to its constants (an `enum`'s first value).
fn set_constants(cond: &Value, members: &mut Map<String, Value>) {
    for (name, s) in cond
        .keyword(Keyword::Properties)
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if let Some(v) = s
            .keyword(Keyword::Const)
            .or_else(|| s.keyword(Keyword::Enum).and_then(|e| e.get(0)))
        {
            members.insert(name.clone(), v.clone());
        }
    }
}

/// An instance of the object schema `node` (at `at`) per conditional of its own or of its
/// `allOf` members: the `if`'s constants and required members set, then what the `then` asks.
/// Where a conditional picks a member's schema by a tag (an event's payload by its type), these
/// are the documents in which a change to that schema can show.
pub fn conditional_instances(set: &SchemaSet, at: &str, node: &Value) -> Vec<Value> {
    let Some(o) = node.as_object() else {
        return Vec::new();
    };
    let Value::Object(base) = instance(set, at, node, 0) else {
        return Vec::new();
    };
    let all_of = o
        .keyword(Keyword::AllOf)
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    let mut out = Vec::new();
    for (i, rule) in std::iter::once(node).chain(all_of).enumerate() {
        let (Some(cond), Some(then)) = (rule.keyword(Keyword::If), rule.keyword(Keyword::Then))
        else {
            continue;
        };
        let mut members = base.clone();
        set_constants(cond, &mut members);
        let rule_at = if i == 0 {
            at.to_owned()
        } else {
            format!("{at}/allOf/{}", i - 1)
        };
        required_by(
            set,
            at,
            o,
            (&format!("{rule_at}/then"), then),
            &mut members,
            1,
        );
        out.push(Value::Object(members));
    }
    out
}

/// The instance `o`'s own keywords describe.
fn own(set: &SchemaSet, at: &str, o: &Map<String, Value>, depth: usize) -> Value {
    if let Some(c) = o.keyword(Keyword::Const) {
        return c.clone();
    }
    if let Some(e) = o
        .keyword(Keyword::Enum)
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return e.clone();
    }
    // The first alternative: the value itself, or what it adds to the object's own members.
    let alt = [Keyword::OneOf, Keyword::AnyOf]
        .into_iter()
        .find_map(|key| {
            let first = o.keyword(key).and_then(Value::as_array)?.first()?;
            Some(instance(set, &format!("{at}/{key}/0"), first, depth + 1))
        });
    let v = match first_type(o) {
        Some("object") => Value::Object(members(set, at, o, depth)),
        None if o.has(Keyword::Properties) || o.has(Keyword::Required) => {
            Value::Object(members(set, at, o, depth))
        }
        Some("array") => Value::Array(items(set, at, o, depth)),
        None if o.has(Keyword::PrefixItems) => Value::Array(items(set, at, o, depth)),
        Some("string") => json!(string(o)),
        Some("integer") => json!(number(o).round() as i64),
        Some("number") => json!(number(o)),
        Some("boolean") => json!(true),
        _ => Value::Null,
    };
    match alt {
        Some(alt) => merge(v, alt),
        None => v,
    }
}

/// An array's items: an instance of each `prefixItems` schema, then of `items` up to
/// `minItems`.
fn items(set: &SchemaSet, at: &str, o: &Map<String, Value>, depth: usize) -> Vec<Value> {
    let prefix = o.keyword(Keyword::PrefixItems).and_then(Value::as_array);
    let mut out: Vec<Value> = prefix
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, p)| instance(set, &format!("{at}/prefixItems/{i}"), p, depth + 1))
        .collect();
    let item = o
        .keyword(Keyword::Items)
        .map(|i| instance(set, &format!("{at}/items"), i, depth + 1))
        .unwrap_or(Value::Null);
    let n = o
        .keyword(Keyword::MinItems)
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .min(64) as usize;
    if out.len() < n {
        out.resize(n, item);
    }
    out
}

/// The first non-null type a schema names.
fn first_type(o: &Map<String, Value>) -> Option<&str> {
    match o.keyword(Keyword::Type)? {
        Value::String(t) => Some(t),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

/// The required members, each an instance of its declared schema (`"x"` when undeclared).
fn members(set: &SchemaSet, at: &str, o: &Map<String, Value>, depth: usize) -> Map<String, Value> {
    let props = o.keyword(Keyword::Properties).and_then(Value::as_object);
    let mut out = Map::new();
    for r in o
        .keyword(Keyword::Required)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(name) = r.as_str() else { continue };
        let v = match props.and_then(|p| p.get(name)) {
            Some(s) => instance(
                set,
                &uri::child(&format!("{at}/properties"), name),
                s,
                depth + 1,
            ),
            None => json!("x"),
        };
        out.insert(name.to_owned(), v);
    }
    out
}

/// A string within the schema's lengths that its pattern takes, when one of [`STRINGS`] does.
fn string(o: &Map<String, Value>) -> String {
    let min = o
        .keyword(Keyword::MinLength)
        .and_then(Value::as_u64)
        .unwrap_or(0) as usize;
    let max = o
        .keyword(Keyword::MaxLength)
        .and_then(Value::as_u64)
        .map(|m| m as usize);
    let pattern = o
        .keyword(Keyword::Pattern)
        .and_then(Value::as_str)
        .and_then(|p| regress::Regex::with_flags(p, "u").ok());
    let fits = |s: &str| {
        let n = s.chars().count();
        n >= min
            && max.is_none_or(|m| n <= m)
            && pattern.as_ref().is_none_or(|r| r.find(s).is_some())
    };
    if o.keyword(Keyword::Format) == Some(&json!("date-time")) && fits(STRINGS[11]) {
        return STRINGS[11].to_owned();
    }
    let built = o
        .keyword(Keyword::Pattern)
        .and_then(Value::as_str)
        .and_then(crate::pattern::example);
    if let Some(s) = built.filter(|s| fits(s)) {
        return s;
    }
    for s in STRINGS {
        let padded = if s.chars().count() < min {
            format!("{s}{}", "a".repeat(min - s.chars().count()))
        } else {
            (*s).to_owned()
        };
        if fits(&padded) {
            return padded;
        }
    }
    "a".repeat(min.max(1))
}

/// A number within the schema's bounds.
fn number(o: &Map<String, Value>) -> f64 {
    let min = o.keyword(Keyword::Minimum).and_then(Value::as_f64);
    let max = o.keyword(Keyword::Maximum).and_then(Value::as_f64);
    match (min, max) {
        (Some(m), _) => m,
        (None, Some(m)) if m < 0.0 => m,
        _ => 0.0,
    }
}

/// `b`'s members over `a`'s when both are objects; else whichever says more.
fn merge(a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Object(mut a), Value::Object(b)) => {
            for (k, v) in b {
                let merged = match a.remove(&k) {
                    Some(old) => merge(old, v),
                    None => v,
                };
                a.insert(k, merged);
            }
            Value::Object(a)
        }
        (a, Value::Null) => a,
        (_, b) => b,
    }
}

/// Values around the rules of the schema `node` (at `at`) of one side: each enum value and
/// constant, each bound and one past it, strings at and past each length, each alternative,
/// the instance with a member more or less, the instance with an `if`'s constants, and one
/// value of each JSON type.
pub fn around(set: &SchemaSet, at: &str, node: &Value) -> Vec<Value> {
    let mut out = vec![instance(set, at, node, 0)];
    let Some(o) = node.as_object() else {
        return out;
    };
    out.extend(
        o.keyword(Keyword::Enum)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
    );
    out.extend(o.keyword(Keyword::Const).cloned());
    for (k, delta) in [
        (Keyword::Minimum, -1.0),
        (Keyword::Maximum, 1.0),
        (Keyword::ExclusiveMinimum, 0.0),
        (Keyword::ExclusiveMaximum, 0.0),
    ] {
        if let Some(b) = o.keyword(k).and_then(Value::as_f64) {
            out.extend([json!(b), json!(b + delta)]);
            if b.fract() == 0.0 {
                out.extend([json!(b as i64), json!((b + delta) as i64)]);
            }
        }
    }
    for k in [Keyword::MinLength, Keyword::MaxLength] {
        if let Some(n) = o.keyword(k).and_then(Value::as_u64) {
            let n = n as usize;
            out.extend([
                json!("a".repeat(n)),
                json!("a".repeat(n + 1)),
                json!("a".repeat(n.saturating_sub(1))),
            ]);
        }
    }
    for key in [Keyword::OneOf, Keyword::AnyOf] {
        for (i, alt) in o
            .keyword(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            out.push(instance(set, &format!("{at}/{key}/{i}"), alt, 1));
            out.push(Value::Object(constants(alt)));
        }
    }
    if let Value::Object(base) = instance(set, at, node, 0) {
        out.extend(object_variants(set, at, o, &base));
    }
    out.extend([
        Value::Null,
        json!(true),
        json!(0),
        json!(1.5),
        json!("x"),
        json!({}),
        json!([]),
    ]);
    out
}

/// `base` with each optional member added, each member removed, an undeclared member added, and
/// each `if`'s constants (its own, or in an `allOf` member) set.
fn object_variants(
    set: &SchemaSet,
    at: &str,
    o: &Map<String, Value>,
    base: &Map<String, Value>,
) -> Vec<Value> {
    let mut out = Vec::new();
    for (name, s) in o
        .keyword(Keyword::Properties)
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let mut with = base.clone();
        with.insert(
            name.clone(),
            instance(set, &uri::child(&format!("{at}/properties"), name), s, 1),
        );
        out.push(Value::Object(with));
    }
    for name in base.keys() {
        let mut without = base.clone();
        without.remove(name);
        out.push(Value::Object(without));
    }
    let mut extra = base.clone();
    extra.insert("compatProbe".into(), json!(true));
    out.push(Value::Object(extra));
    let mut ifs: Vec<&Value> = o.keyword(Keyword::If).into_iter().collect();
    for m in o
        .keyword(Keyword::AllOf)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        ifs.extend(m.keyword(Keyword::If));
    }
    for cond in ifs {
        let mut set_to = base.clone();
        set_constants(cond, &mut set_to);
        for r in cond
            .keyword(Keyword::Required)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(name) = r.as_str() {
                set_to.entry(name).or_insert(json!("x"));
            }
        }
        out.push(Value::Object(set_to));
    }
    out
}

/// Each string of `values` stretched or cut to the lengths around either side's bounds, by
/// repeating its last character: a string one side's pattern takes, at a length only one side
/// allows.
pub fn at_lengths(values: &[Value], nodes: &[&Value]) -> Vec<Value> {
    let mut lengths = Vec::new();
    for node in nodes {
        for k in [Keyword::MinLength, Keyword::MaxLength] {
            if let Some(n) = node.keyword(k).and_then(Value::as_u64) {
                let n = n as usize;
                lengths.extend([n.saturating_sub(1), n, n + 1]);
            }
        }
    }
    let mut out = Vec::new();
    for s in values.iter().filter_map(Value::as_str) {
        let Some(last) = s.chars().last() else {
            continue;
        };
        for &n in &lengths {
            let have = s.chars().count();
            let v: String = if n >= have {
                s.chars()
                    .chain(std::iter::repeat_n(last, n - have))
                    .collect()
            } else {
                s.chars().take(n).collect()
            };
            out.push(json!(v));
        }
    }
    out
}

/// The schema `node` (at `at`) and the schemas applying to the same instance through its `$ref`s
/// and `allOf` members, transitively: where its rules are when they are not written in it.
pub fn parts(set: &SchemaSet, at: &str, node: &Value) -> Vec<(String, Value)> {
    let mut out = vec![(at.to_owned(), node.clone())];
    let mut i = 0;
    while i < out.len() && out.len() < 32 {
        let (at, node) = out[i].clone();
        if let Some(r) = node.keyword(Keyword::Ref).and_then(Value::as_str)
            && let Some(target) = set.resolve_from(&at, r)
            && let Some((canon, t)) = set.node_at(&target)
            && !out.iter().any(|(a, _)| *a == canon)
        {
            out.push((canon, t.clone()));
        }
        for (j, m) in node
            .keyword(Keyword::AllOf)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            out.push((format!("{at}/allOf/{j}"), m.clone()));
        }
        i += 1;
    }
    out
}

/// The members an object schema fixes to one value (`const`, or an `enum`'s first): what tells
/// its alternative apart, to be set over a document that is otherwise right.
fn constants(node: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    set_constants(node, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use prp_codegen::{Format, Options, SchemaSet};
    use prp_vocabulary::{Keyword, Schema};
    use serde_json::Value;

    /// The search starts from these: every PRP schema's and definition's instance is one its
    /// schema accepts.
    #[test]
    fn the_instance_of_every_prp_schema_and_definition_is_valid() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
        if !dir.is_dir() {
            // The crate tested from its package, which holds no workspace files.
            let in_ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true"));
            assert!(
                !in_ci,
                "{} not found (required when CI=true)",
                dir.display()
            );
            eprintln!("skipped: PRP's schemas not found at {}", dir.display());
            return;
        }
        let set = SchemaSet::load(&dir).unwrap();
        let options = Options::new().format("date-time", Format::DateTime);
        let mut refused = Vec::new();
        let mut count = 0;
        for f in &set.files {
            let defs = f.root.keyword(Keyword::Defs).and_then(Value::as_object);
            let names = defs.into_iter().flatten();
            let names = names.map(|(name, _)| prp_vocabulary::uri::definition(&f.id, name));
            for uri in std::iter::once(f.id.clone()).chain(names) {
                let (canon, node) = set.node_at(&uri).unwrap();
                let c = prp_codegen::compile_checker(&set, &uri, &options).unwrap();
                let doc = super::instance(&set, &canon, node, 0);
                if let Err(e) = c.program.check(c.entry, &doc) {
                    refused.push(format!("{uri}: {} at {}: {doc}", e.code.as_str(), e.rel));
                }
                count += 1;
            }
        }
        assert!(count > 70, "{count}");
        assert!(refused.is_empty(), "{}", refused.join("\n"));
    }
}
