//! The program as data: nodes of rules, each rule one keyword with its value read and its
//! subschemas replaced by node numbers. The generator builds a [`Program`] as a Rust value and
//! writes it into generated code as the Rust expression that builds it ([`Literal`]), so nothing
//! is parsed at run time. [`Program::encode`] and [`Program::parse`] give it a JSON form (serde's)
//! for tools that keep a program apart from code; they are each other's inverse (tested on every
//! program the generator compiles from PRP's schemas and the official suite).
//!
//! [`Literal`]: super::Literal

use super::Rule;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Number;

/// A compiled schema: the nodes, and per schema resource its `$dynamicAnchor`s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Program {
    /// The nodes; a rule names its subschemas by their index here.
    pub nodes: Vec<Node>,
    /// Per schema resource (a node's `resource`), its `$dynamicAnchor`s and their nodes.
    pub dynamic: Vec<Vec<(String, usize)>>,
}

/// One subschema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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
    pub const ALL: [JsonType; 7] = [
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

/// A pattern's JSON form is its source.
impl Serialize for Regex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.source)
    }
}

/// A pattern read back is compiled again, and refused when it does not compile.
impl<'de> Deserialize<'de> for Regex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Regex, D::Error> {
        let source = String::deserialize(d)?;
        Regex::new(&source).map_err(serde::de::Error::custom)
    }
}

/// How an asserted `format` is checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FormatTest {
    /// RFC 3339 `date-time`.
    DateTime,
    /// A regular expression the caller gave.
    Pattern(Regex),
}

impl Program {
    /// The program as compact JSON text.
    pub fn encode(&self) -> String {
        serde_json::to_string(self).expect("a program is JSON: its numbers are finite")
    }

    /// Reads a program [`Program::encode`] wrote, or says why the text is not one: JSON of
    /// another shape, a pattern that does not compile, or a node, resource or anchor's node that
    /// is not there (so that checking with a program read here cannot index out of bounds).
    pub fn parse(text: &str) -> Result<Program, String> {
        let program: Program =
            serde_json::from_str(text).map_err(|e| format!("not a schema program: {e}"))?;
        match program.dangling() {
            None => Ok(program),
            Some(why) => Err(format!("not a schema program: {why}")),
        }
    }

    /// The first number that names nothing, in node order: a node's resource or a rule's node;
    /// then an anchor's node.
    fn dangling(&self) -> Option<String> {
        let (nodes, resources) = (self.nodes.len(), self.dynamic.len());
        for (n, node) in self.nodes.iter().enumerate() {
            let Node::Schema { resource, rules } = node else {
                continue;
            };
            if *resource >= resources {
                return Some(format!(
                    "node {n} is in resource {resource}, of {resources}"
                ));
            }
            let mut first = None;
            for rule in rules {
                rule.targets(&mut |t| {
                    if t >= nodes {
                        first.get_or_insert(t);
                    }
                });
            }
            if let Some(t) = first {
                return Some(format!("node {n} refers to node {t}, of {nodes}"));
            }
        }
        let mut anchors = self.dynamic.iter().flatten();
        anchors
            .find(|(_, t)| *t >= nodes)
            .map(|(name, t)| format!("anchor {name} names node {t}, of {nodes}"))
    }
}

/// The node numbers a rule's data holds. In a rule a `usize` is a node number and nothing else
/// (a count is a `u64`), so the numbers are found by type and a rule lists none by hand.
pub(crate) trait Targets {
    /// Calls `out` with each node number held.
    fn targets(&self, _out: &mut dyn FnMut(usize)) {}
}

impl Targets for usize {
    fn targets(&self, out: &mut dyn FnMut(usize)) {
        out(*self)
    }
}

impl Targets for u64 {}
impl Targets for String {}
impl Targets for Number {}
impl Targets for serde_json::Value {}
impl Targets for Regex {}
impl Targets for JsonType {}
impl Targets for FormatTest {}

impl<T: Targets> Targets for Vec<T> {
    fn targets(&self, out: &mut dyn FnMut(usize)) {
        self.iter().for_each(|t| t.targets(out));
    }
}

impl<T: Targets> Targets for Option<T> {
    fn targets(&self, out: &mut dyn FnMut(usize)) {
        if let Some(t) = self {
            t.targets(out);
        }
    }
}

impl<A: Targets, B: Targets> Targets for (A, B) {
    fn targets(&self, out: &mut dyn FnMut(usize)) {
        self.0.targets(out);
        self.1.targets(out);
    }
}

/// A number of a program the generator wrote into code: read from JSON, so finite.
pub fn float(x: f64) -> Number {
    Number::from_f64(x).expect("a number read from JSON is finite")
}
