//! The program as data: nodes of rules, each rule one keyword with its value read and its
//! subschemas replaced by node numbers. The generator builds a [`Program`] as a Rust value and
//! writes it into generated code as the Rust expression that builds it, so nothing is parsed at
//! run time. [`Program::encode`] and [`Program::parse`] give it a JSON form for tools that keep a
//! program apart from code; they are each other's inverse (tested on every program the generator
//! compiles from PRP's schemas and the official suite).
//!
//! A rule's name in the text is its keyword's name in the vocabulary (`prp-vocabulary`); reading
//! one dispatches on the vocabulary's `Keyword`, so a keyword the vocabulary gains is a case the
//! compiler asks for here.

use prp_vocabulary::Keyword;
use serde_json::{Number, Value, json};

/// A compiled schema: the nodes, and per schema resource its `$dynamicAnchor`s.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The nodes; a rule names its subschemas by their index here.
    pub nodes: Vec<Node>,
    /// Per schema resource (a node's `resource`), its `$dynamicAnchor`s and their nodes.
    pub dynamic: Vec<Vec<(String, usize)>>,
}

/// One subschema.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// `true` or `false`.
    Bool(bool),
    /// A schema object: the resource it is in and its rules, in the order they run.
    Schema {
        /// Its resource's index in [`Program::dynamic`].
        resource: usize,
        /// Its rules; `unevaluated*` last, since they read what the others evaluated.
        rules: Vec<Rule>,
    },
}

/// A JSON type, as `type` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    /// `null`.
    Null,
    /// `boolean`.
    Boolean,
    /// `integer`: a number with a zero fraction.
    Integer,
    /// `number`.
    Number,
    /// `string`.
    String,
    /// `array`.
    Array,
    /// `object`.
    Object,
}

impl JsonType {
    /// Every type, in the order `type` lists them here.
    const ALL: [JsonType; 7] = [
        JsonType::Null,
        JsonType::Boolean,
        JsonType::Integer,
        JsonType::Number,
        JsonType::String,
        JsonType::Array,
        JsonType::Object,
    ];

    /// The type's name.
    pub fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }

    /// The type `name` names.
    pub fn from_name(name: &str) -> Option<JsonType> {
        JsonType::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// An ECMA-262 regular expression (Unicode mode) with its source.
#[derive(Debug, Clone)]
pub struct Regex {
    source: String,
    regex: regress::Regex,
}

impl Regex {
    /// A pattern of a program the generator wrote into code: the generator compiled `source`
    /// with this same engine, so it compiles here (as the typed path's patterns do).
    pub fn generated(source: &str) -> Regex {
        Regex::new(source).expect("pattern compiled at generation time")
    }

    /// Compiles `source`, or says why it is not an ECMA-262 regular expression.
    pub fn new(source: &str) -> Result<Regex, String> {
        let regex = regress::Regex::with_flags(source, "u")
            .map_err(|e| format!("pattern {source} does not compile: {e}"))?;
        Ok(Regex {
            source: source.to_owned(),
            regex,
        })
    }

    /// The pattern as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether it matches somewhere in `s`.
    pub fn matches(&self, s: &str) -> bool {
        self.regex.find(s).is_some()
    }
}

impl PartialEq for Regex {
    fn eq(&self, other: &Regex) -> bool {
        self.source == other.source
    }
}

/// How an asserted `format` is checked.
#[derive(Debug, Clone, PartialEq)]
pub enum FormatTest {
    /// RFC 3339 `date-time`.
    DateTime,
    /// A regular expression the caller gave.
    Pattern(Regex),
}

/// One keyword of a schema object, read.
#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    /// `type`.
    Type(Vec<JsonType>),
    /// `const`.
    Const(Value),
    /// `enum`.
    Enum(Vec<Value>),
    /// `multipleOf`.
    MultipleOf(Number),
    /// `maximum`.
    Maximum(Number),
    /// `exclusiveMaximum`.
    ExclusiveMaximum(Number),
    /// `minimum`.
    Minimum(Number),
    /// `exclusiveMinimum`.
    ExclusiveMinimum(Number),
    /// `maxLength`.
    MaxLength(u64),
    /// `minLength`.
    MinLength(u64),
    /// `pattern`.
    Pattern(Regex),
    /// An asserted `format`: its name and check.
    Format(String, FormatTest),
    /// `maxItems`.
    MaxItems(u64),
    /// `minItems`.
    MinItems(u64),
    /// `uniqueItems: true`.
    UniqueItems,
    /// `contains`, with `minContains` (1 when absent) and `maxContains`.
    Contains(usize, u64, Option<u64>),
    /// `maxProperties`.
    MaxProperties(u64),
    /// `minProperties`.
    MinProperties(u64),
    /// `required`.
    Required(Vec<String>),
    /// `dependentRequired`.
    DependentRequired(Vec<(String, Vec<String>)>),
    /// `allOf`.
    AllOf(Vec<usize>),
    /// `anyOf`.
    AnyOf(Vec<usize>),
    /// `oneOf`.
    OneOf(Vec<usize>),
    /// `not`.
    Not(usize),
    /// `if`, with its `then` and `else`.
    If(usize, Option<usize>, Option<usize>),
    /// `dependentSchemas`.
    DependentSchemas(Vec<(String, usize)>),
    /// `$ref`.
    Ref(usize),
    /// A `$dynamicRef` resolved through the dynamic scope: its first target and its anchor.
    DynamicRef(usize, String),
    /// `prefixItems`.
    PrefixItems(Vec<usize>),
    /// `items`, and the index its items start at (after `prefixItems`).
    Items(usize, usize),
    /// `properties`.
    Properties(Vec<(String, usize)>),
    /// `patternProperties`.
    PatternProperties(Vec<(Regex, usize)>),
    /// `additionalProperties`, with the members and patterns its siblings cover.
    AdditionalProperties(usize, Vec<String>, Vec<Regex>),
    /// `propertyNames`.
    PropertyNames(usize),
    /// `unevaluatedItems`.
    UnevaluatedItems(usize),
    /// `unevaluatedProperties`.
    UnevaluatedProperties(usize),
}

impl Rule {
    /// The keyword the rule is.
    pub fn keyword(&self) -> Keyword {
        match self {
            Rule::Type(_) => Keyword::Type,
            Rule::Const(_) => Keyword::Const,
            Rule::Enum(_) => Keyword::Enum,
            Rule::MultipleOf(_) => Keyword::MultipleOf,
            Rule::Maximum(_) => Keyword::Maximum,
            Rule::ExclusiveMaximum(_) => Keyword::ExclusiveMaximum,
            Rule::Minimum(_) => Keyword::Minimum,
            Rule::ExclusiveMinimum(_) => Keyword::ExclusiveMinimum,
            Rule::MaxLength(_) => Keyword::MaxLength,
            Rule::MinLength(_) => Keyword::MinLength,
            Rule::Pattern(_) => Keyword::Pattern,
            Rule::Format(..) => Keyword::Format,
            Rule::MaxItems(_) => Keyword::MaxItems,
            Rule::MinItems(_) => Keyword::MinItems,
            Rule::UniqueItems => Keyword::UniqueItems,
            Rule::Contains(..) => Keyword::Contains,
            Rule::MaxProperties(_) => Keyword::MaxProperties,
            Rule::MinProperties(_) => Keyword::MinProperties,
            Rule::Required(_) => Keyword::Required,
            Rule::DependentRequired(_) => Keyword::DependentRequired,
            Rule::AllOf(_) => Keyword::AllOf,
            Rule::AnyOf(_) => Keyword::AnyOf,
            Rule::OneOf(_) => Keyword::OneOf,
            Rule::Not(_) => Keyword::Not,
            Rule::If(..) => Keyword::If,
            Rule::DependentSchemas(_) => Keyword::DependentSchemas,
            Rule::Ref(_) => Keyword::Ref,
            Rule::DynamicRef(..) => Keyword::DynamicRef,
            Rule::PrefixItems(_) => Keyword::PrefixItems,
            Rule::Items(..) => Keyword::Items,
            Rule::Properties(_) => Keyword::Properties,
            Rule::PatternProperties(_) => Keyword::PatternProperties,
            Rule::AdditionalProperties(..) => Keyword::AdditionalProperties,
            Rule::PropertyNames(_) => Keyword::PropertyNames,
            Rule::UnevaluatedItems(_) => Keyword::UnevaluatedItems,
            Rule::UnevaluatedProperties(_) => Keyword::UnevaluatedProperties,
        }
    }

    /// The rule as its text entry: `[name, arguments…]`.
    fn encode(&self) -> Value {
        let k = self.keyword().name();
        let named = |pairs: &[(String, usize)]| -> Vec<Value> {
            pairs.iter().map(|(n, i)| json!([n, i])).collect()
        };
        match self {
            Rule::Type(ts) => json!([k, ts.iter().map(|t| t.name()).collect::<Vec<_>>()]),
            Rule::Const(v) => json!([k, v]),
            Rule::Enum(vs) => json!([k, vs]),
            Rule::MultipleOf(n)
            | Rule::Maximum(n)
            | Rule::ExclusiveMaximum(n)
            | Rule::Minimum(n)
            | Rule::ExclusiveMinimum(n) => json!([k, n]),
            Rule::MaxLength(c)
            | Rule::MinLength(c)
            | Rule::MaxItems(c)
            | Rule::MinItems(c)
            | Rule::MaxProperties(c)
            | Rule::MinProperties(c) => json!([k, c]),
            Rule::Pattern(r) => json!([k, r.source()]),
            Rule::Format(name, FormatTest::DateTime) => json!([k, name, null]),
            Rule::Format(name, FormatTest::Pattern(r)) => json!([k, name, r.source()]),
            Rule::UniqueItems => json!([k]),
            Rule::Contains(n, min, max) => json!([k, n, min, max]),
            Rule::Required(names) => json!([k, names]),
            Rule::DependentRequired(deps) => json!([k, deps]),
            Rule::AllOf(ns) | Rule::AnyOf(ns) | Rule::OneOf(ns) | Rule::PrefixItems(ns) => {
                json!([k, ns])
            }
            Rule::Not(n)
            | Rule::Ref(n)
            | Rule::PropertyNames(n)
            | Rule::UnevaluatedItems(n)
            | Rule::UnevaluatedProperties(n) => json!([k, n]),
            Rule::If(c, then, otherwise) => json!([k, c, then, otherwise]),
            Rule::DependentSchemas(pairs) | Rule::Properties(pairs) => json!([k, named(pairs)]),
            Rule::DynamicRef(n, anchor) => json!([k, n, anchor]),
            Rule::Items(n, from) => json!([k, n, from]),
            Rule::PatternProperties(pairs) => {
                let pairs: Vec<Value> = pairs.iter().map(|(r, n)| json!([r.source(), n])).collect();
                json!([k, pairs])
            }
            Rule::AdditionalProperties(n, names, patterns) => {
                let sources: Vec<&str> = patterns.iter().map(Regex::source).collect();
                json!([k, n, names, sources])
            }
        }
    }
}

impl Program {
    /// The program as the compact text generated code carries (`{"nodes": [...], "dynamic":
    /// [...]}`).
    pub fn encode(&self) -> String {
        let nodes: Vec<Value> = self
            .nodes
            .iter()
            .map(|n| match n {
                Node::Bool(b) => json!(b),
                Node::Schema { resource, rules } => {
                    json!([resource, rules.iter().map(Rule::encode).collect::<Vec<_>>()])
                }
            })
            .collect();
        let dynamic: Vec<Vec<Value>> = self
            .dynamic
            .iter()
            .map(|anchors| anchors.iter().map(|(n, i)| json!([n, i])).collect())
            .collect();
        json!({ "nodes": nodes, "dynamic": dynamic }).to_string()
    }

    /// Reads a program [`Program::encode`] wrote.
    pub fn parse(text: &str) -> Result<Program, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
        let nodes = doc["nodes"]
            .as_array()
            .ok_or_else(|| bad("nodes"))?
            .iter()
            .map(node)
            .collect::<Result<_, String>>()?;
        let dynamic = doc["dynamic"]
            .as_array()
            .ok_or_else(|| bad("dynamic"))?
            .iter()
            .map(named_nodes)
            .collect::<Result<_, String>>()?;
        Ok(Program { nodes, dynamic })
    }
}

/// A number of a program the generator wrote into code: read from JSON, so finite.
pub fn float(x: f64) -> Number {
    Number::from_f64(x).expect("a number read from JSON is finite")
}

fn bad(what: &str) -> String {
    format!("the generated schema program is malformed ({what}); regenerate the code")
}

fn node(v: &Value) -> Result<Node, String> {
    match v {
        Value::Bool(b) => Ok(Node::Bool(*b)),
        Value::Array(parts) => match parts.as_slice() {
            [r, Value::Array(rules)] => Ok(Node::Schema {
                resource: node_index(r)?,
                rules: rules
                    .iter()
                    .map(|k| rule(k.as_array().ok_or_else(|| bad("rule"))?))
                    .collect::<Result<_, String>>()?,
            }),
            _ => Err(bad("node")),
        },
        _ => Err(bad("node")),
    }
}

fn node_index(v: &Value) -> Result<usize, String> {
    v.as_u64()
        .map(|n| n as usize)
        .ok_or_else(|| bad("node index"))
}

fn optional_node(v: &Value) -> Result<Option<usize>, String> {
    if v.is_null() {
        Ok(None)
    } else {
        node_index(v).map(Some)
    }
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

fn pairs<T>(
    v: &Value,
    what: &str,
    f: impl Fn(&Value, &Value) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    v.as_array()
        .ok_or_else(|| bad(what))?
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([a, b]) => f(a, b),
            _ => Err(bad(what)),
        })
        .collect()
}

fn named_nodes(v: &Value) -> Result<Vec<(String, usize)>, String> {
    pairs(v, "named nodes", |k, n| {
        Ok((
            k.as_str().ok_or_else(|| bad("name"))?.to_owned(),
            node_index(n)?,
        ))
    })
}

fn regex(v: &Value) -> Result<Regex, String> {
    Regex::new(v.as_str().ok_or_else(|| bad("pattern"))?)
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

/// One rule read from `[name, arguments…]`, by the keyword its name is.
fn rule(entry: &[Value]) -> Result<Rule, String> {
    let arg = |i: usize| entry.get(i).ok_or_else(|| bad("missing argument"));
    let name = entry
        .first()
        .and_then(Value::as_str)
        .ok_or_else(|| bad("keyword"))?;
    let keyword = Keyword::from_name(name).ok_or_else(|| bad("unknown keyword"))?;
    Ok(match keyword {
        Keyword::Type => Rule::Type(
            strings(arg(1)?)?
                .iter()
                .map(|t| JsonType::from_name(t).ok_or_else(|| bad("type name")))
                .collect::<Result<_, String>>()?,
        ),
        Keyword::Const => Rule::Const(arg(1)?.clone()),
        Keyword::Enum => Rule::Enum(arg(1)?.as_array().ok_or_else(|| bad("enum"))?.clone()),
        Keyword::MultipleOf => Rule::MultipleOf(number(arg(1)?)?),
        Keyword::Maximum => Rule::Maximum(number(arg(1)?)?),
        Keyword::ExclusiveMaximum => Rule::ExclusiveMaximum(number(arg(1)?)?),
        Keyword::Minimum => Rule::Minimum(number(arg(1)?)?),
        Keyword::ExclusiveMinimum => Rule::ExclusiveMinimum(number(arg(1)?)?),
        Keyword::MaxLength => Rule::MaxLength(count(arg(1)?)?),
        Keyword::MinLength => Rule::MinLength(count(arg(1)?)?),
        Keyword::Pattern => Rule::Pattern(regex(arg(1)?)?),
        Keyword::Format => {
            let name = arg(1)?.as_str().ok_or_else(|| bad("format"))?.to_owned();
            let test = match arg(2)? {
                Value::Null => FormatTest::DateTime,
                p => FormatTest::Pattern(regex(p)?),
            };
            Rule::Format(name, test)
        }
        Keyword::MaxItems => Rule::MaxItems(count(arg(1)?)?),
        Keyword::MinItems => Rule::MinItems(count(arg(1)?)?),
        Keyword::UniqueItems => Rule::UniqueItems,
        Keyword::Contains => {
            Rule::Contains(node_index(arg(1)?)?, count(arg(2)?)?, arg(3)?.as_u64())
        }
        Keyword::MaxProperties => Rule::MaxProperties(count(arg(1)?)?),
        Keyword::MinProperties => Rule::MinProperties(count(arg(1)?)?),
        Keyword::Required => Rule::Required(strings(arg(1)?)?),
        Keyword::DependentRequired => {
            Rule::DependentRequired(pairs(arg(1)?, "dependentRequired", |k, names| {
                Ok((
                    k.as_str().ok_or_else(|| bad("name"))?.to_owned(),
                    strings(names)?,
                ))
            })?)
        }
        Keyword::AllOf => Rule::AllOf(nodes(arg(1)?)?),
        Keyword::AnyOf => Rule::AnyOf(nodes(arg(1)?)?),
        Keyword::OneOf => Rule::OneOf(nodes(arg(1)?)?),
        Keyword::Not => Rule::Not(node_index(arg(1)?)?),
        Keyword::If => Rule::If(
            node_index(arg(1)?)?,
            optional_node(arg(2)?)?,
            optional_node(arg(3)?)?,
        ),
        Keyword::DependentSchemas => Rule::DependentSchemas(named_nodes(arg(1)?)?),
        Keyword::Ref => Rule::Ref(node_index(arg(1)?)?),
        Keyword::DynamicRef => Rule::DynamicRef(
            node_index(arg(1)?)?,
            arg(2)?.as_str().ok_or_else(|| bad("anchor"))?.to_owned(),
        ),
        Keyword::PrefixItems => Rule::PrefixItems(nodes(arg(1)?)?),
        Keyword::Items => Rule::Items(node_index(arg(1)?)?, count(arg(2)?)? as usize),
        Keyword::Properties => Rule::Properties(named_nodes(arg(1)?)?),
        Keyword::PatternProperties => {
            Rule::PatternProperties(pairs(arg(1)?, "patternProperties", |p, n| {
                Ok((regex(p)?, node_index(n)?))
            })?)
        }
        Keyword::AdditionalProperties => Rule::AdditionalProperties(
            node_index(arg(1)?)?,
            strings(arg(2)?)?,
            arg(3)?
                .as_array()
                .ok_or_else(|| bad("patterns"))?
                .iter()
                .map(regex)
                .collect::<Result<_, String>>()?,
        ),
        Keyword::PropertyNames => Rule::PropertyNames(node_index(arg(1)?)?),
        Keyword::UnevaluatedItems => Rule::UnevaluatedItems(node_index(arg(1)?)?),
        Keyword::UnevaluatedProperties => Rule::UnevaluatedProperties(node_index(arg(1)?)?),
        // Keywords that are no rule of their own: identifiers, annotations, and those another
        // rule reads (`then`, `else`, `minContains`, `maxContains`), or that 2020-12, the
        // spelling programs are compiled from, does not have.
        Keyword::Schema
        | Keyword::Id
        | Keyword::LegacyId
        | Keyword::Anchor
        | Keyword::DynamicAnchor
        | Keyword::RecursiveAnchor
        | Keyword::Vocabulary
        | Keyword::Defs
        | Keyword::Definitions
        | Keyword::Comment
        | Keyword::RecursiveRef
        | Keyword::Then
        | Keyword::Else
        | Keyword::AdditionalItems
        | Keyword::Dependencies
        | Keyword::MaxContains
        | Keyword::MinContains
        | Keyword::Title
        | Keyword::Description
        | Keyword::Default
        | Keyword::Deprecated
        | Keyword::ReadOnly
        | Keyword::WriteOnly
        | Keyword::Examples
        | Keyword::ContentEncoding
        | Keyword::ContentMediaType
        | Keyword::ContentSchema => return Err(bad("a keyword that is no rule")),
    })
}
