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

    /// Reads a program [`Program::encode`] wrote, or says why the text is not one.
    pub fn parse(text: &str) -> Result<Program, String> {
        serde_json::from_str(text).map_err(|e| format!("not a schema program: {e}"))
    }
}

/// A number of a program the generator wrote into code: read from JSON, so finite.
pub fn float(x: f64) -> Number {
    Number::from_f64(x).expect("a number read from JSON is finite")
}
