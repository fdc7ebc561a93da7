//! The keywords, a room each (or one per small family that shares its code): a room holds a
//! keyword's compile step (its value read and refused when malformed, its subschemas asked of the
//! [`Site`]), its check, the sentence a failure says, and its tests.
//!
//! This file registers the rooms, once: [`rules!`] declares every [`Rule`] with the room function
//! that checks it, and [`compile`] matches every keyword of the vocabulary (`prp-vocabulary`) to
//! the room function that compiles it, so that a keyword the vocabulary gains is a compile error
//! here until it has a room. A new assertion keyword is its vocabulary row, its room, a line in
//! each list below, and its failure code.

mod items;
mod logic;
mod members;
mod numbers;
mod refs;
mod sizes;
mod strings;
mod types;

use super::compile::Site;
use super::literal::{Literal, call};
use super::program::Targets;
use super::{Cx, FormatTest, JsonType, Regex, Seen};
use crate::Failure;
use prp_vocabulary::Keyword;
use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

/// Declares [`Rule`], one variant per keyword with its data (fields named for the call), and the
/// dispatch of each to its room's check: `Name(field: Type, …) => room::check_fn`. A variant's
/// name is its keyword's name in the vocabulary. A field that names a node is a `usize`, and only
/// such a field is: a count is a `u64` (a program read from text is checked by that).
macro_rules! rules {
    ($($(#[$doc:meta])* $name:ident $(($($field:ident: $ty:ty),+))? => $room:ident::$check:ident,)+) => {
        /// One keyword of a schema object, read: its value checked, its subschemas replaced by
        /// node numbers.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub enum Rule {
            $($(#[$doc])* $name $(($($ty),+))?,)+
        }

        impl Rule {
            /// The keyword the rule is.
            pub fn keyword(&self) -> Keyword {
                match self {
                    $(Rule::$name { .. } => Keyword::$name,)+
                }
            }

            /// Checks `v`, adding to `seen` the members and items the rule evaluated.
            pub(in crate::eval) fn check(
                &self,
                cx: &mut Cx,
                v: &Value,
                seen: &mut Seen,
            ) -> Result<(), Failure> {
                match self {
                    $(Rule::$name $(($($field),+))? => $room::$check(cx, v, seen $($(, $field)+)?),)+
                }
            }
        }

        impl Targets for Rule {
            fn targets(&self, out: &mut dyn FnMut(usize)) {
                match self {
                    $(Rule::$name $(($($field),+))? => { $($($field.targets(out);)+)? })+
                }
            }
        }

        impl Literal for Rule {
            fn literal(&self, out: &mut String) {
                match self {
                    $(Rule::$name $(($($field),+))? => {
                        let name = concat!("Rule::", stringify!($name));
                        rules!(@literal out, name $($(, $field)+)?);
                    })+
                }
            }
        }
    };
    (@literal $out:ident, $name:ident) => {
        $out.push_str($name)
    };
    (@literal $out:ident, $name:ident $(, $field:ident)+) => {
        call($out, $name, &[$($field),+])
    };
}

rules! {
    /// `type`.
    Type(kinds: Vec<JsonType>) => types::check_type,
    /// `const`.
    Const(value: Value) => types::check_const,
    /// `enum`.
    Enum(values: Vec<Value>) => types::check_enum,
    /// `multipleOf`.
    MultipleOf(d: Number) => numbers::check_multiple_of,
    /// `maximum`.
    Maximum(m: Number) => numbers::check_maximum,
    /// `exclusiveMaximum`.
    ExclusiveMaximum(m: Number) => numbers::check_exclusive_maximum,
    /// `minimum`.
    Minimum(m: Number) => numbers::check_minimum,
    /// `exclusiveMinimum`.
    ExclusiveMinimum(m: Number) => numbers::check_exclusive_minimum,
    /// `maxLength`.
    MaxLength(max: u64) => sizes::check_max_length,
    /// `minLength`.
    MinLength(min: u64) => sizes::check_min_length,
    /// `pattern`.
    Pattern(re: Regex) => strings::check_pattern,
    /// An asserted `format`: its name and check.
    Format(name: String, test: FormatTest) => strings::check_format,
    /// `maxItems`.
    MaxItems(max: u64) => sizes::check_max_items,
    /// `minItems`.
    MinItems(min: u64) => sizes::check_min_items,
    /// `uniqueItems: true`.
    UniqueItems => items::check_unique_items,
    /// `contains`, with `minContains` (1 when absent) and `maxContains`.
    Contains(node: usize, min: u64, max: Option<u64>) => items::check_contains,
    /// `maxProperties`.
    MaxProperties(max: u64) => sizes::check_max_properties,
    /// `minProperties`.
    MinProperties(min: u64) => sizes::check_min_properties,
    /// `required`.
    Required(names: Vec<String>) => members::check_required,
    /// `dependentRequired`.
    DependentRequired(rules: Vec<(String, Vec<String>)>) => members::check_dependent_required,
    /// `allOf`.
    AllOf(nodes: Vec<usize>) => logic::check_all_of,
    /// `anyOf`.
    AnyOf(nodes: Vec<usize>) => logic::check_any_of,
    /// `oneOf`.
    OneOf(nodes: Vec<usize>) => logic::check_one_of,
    /// `not`.
    Not(node: usize) => logic::check_not,
    /// `if`, with its `then` and `else`.
    If(cond: usize, then: Option<usize>, otherwise: Option<usize>) => logic::check_if,
    /// `dependentSchemas`.
    DependentSchemas(rules: Vec<(String, usize)>) => members::check_dependent_schemas,
    /// `$ref`.
    Ref(node: usize) => refs::check_ref,
    /// A `$dynamicRef` resolved through the dynamic scope: its first target and its anchor.
    DynamicRef(node: usize, anchor: String) => refs::check_dynamic_ref,
    /// `prefixItems`.
    PrefixItems(nodes: Vec<usize>) => items::check_prefix_items,
    /// `items`, and the index its items start at (after `prefixItems`).
    Items(node: usize, from: u64) => items::check_items,
    /// `properties`.
    Properties(props: Vec<(String, usize)>) => members::check_properties,
    /// `patternProperties`.
    PatternProperties(patterns: Vec<(Regex, usize)>) => members::check_pattern_properties,
    /// `additionalProperties`, with the members and patterns its siblings cover.
    AdditionalProperties(node: usize, declared: Vec<String>, patterns: Vec<Regex>) =>
        members::check_additional_properties,
    /// `propertyNames`.
    PropertyNames(node: usize) => members::check_property_names,
    /// `unevaluatedItems`.
    UnevaluatedItems(node: usize) => items::check_unevaluated_items,
    /// `unevaluatedProperties`.
    UnevaluatedProperties(node: usize) => members::check_unevaluated_properties,
}

impl Rule {
    /// Whether the rule reads what its siblings evaluated (`unevaluated*`): it runs after them.
    pub fn runs_last(&self) -> bool {
        matches!(
            self,
            Rule::UnevaluatedItems(_) | Rule::UnevaluatedProperties(_)
        )
    }
}

/// The rule the keyword at `site` adds to its node, compiled by the keyword's room; `None` for a
/// keyword that asserts nothing by itself (an annotation, or one another keyword reads).
pub fn compile<S: Site>(site: &mut S) -> Result<Option<Rule>, S::Error> {
    match site.keyword() {
        Keyword::Type => types::compile_type(site),
        Keyword::Const => types::compile_const(site),
        Keyword::Enum => types::compile_enum(site),
        Keyword::MultipleOf => numbers::compile_multiple_of(site),
        Keyword::Maximum => numbers::compile_bound(site, Rule::Maximum),
        Keyword::ExclusiveMaximum => numbers::compile_bound(site, Rule::ExclusiveMaximum),
        Keyword::Minimum => numbers::compile_bound(site, Rule::Minimum),
        Keyword::ExclusiveMinimum => numbers::compile_bound(site, Rule::ExclusiveMinimum),
        Keyword::MaxLength => sizes::compile_size(site, Rule::MaxLength),
        Keyword::MinLength => sizes::compile_size(site, Rule::MinLength),
        Keyword::Pattern => strings::compile_pattern(site),
        Keyword::Format => strings::compile_format(site),
        Keyword::MaxItems => sizes::compile_size(site, Rule::MaxItems),
        Keyword::MinItems => sizes::compile_size(site, Rule::MinItems),
        Keyword::UniqueItems => items::compile_unique_items(site),
        Keyword::Contains => items::compile_contains(site),
        Keyword::MinContains | Keyword::MaxContains => items::compile_contains_bound(site),
        Keyword::MaxProperties => sizes::compile_size(site, Rule::MaxProperties),
        Keyword::MinProperties => sizes::compile_size(site, Rule::MinProperties),
        Keyword::Required => members::compile_required(site),
        Keyword::DependentRequired => members::compile_dependent_required(site),
        Keyword::AllOf => logic::compile_all_of(site),
        Keyword::AnyOf => logic::compile_any_of(site),
        Keyword::OneOf => logic::compile_one_of(site),
        Keyword::Not => logic::compile_not(site),
        Keyword::If => logic::compile_if(site),
        Keyword::Then | Keyword::Else => logic::compile_branch(site),
        Keyword::DependentSchemas => members::compile_dependent_schemas(site),
        Keyword::Ref | Keyword::DynamicRef => refs::compile_ref(site),
        Keyword::PrefixItems => items::compile_prefix_items(site),
        Keyword::Items => items::compile_items(site),
        Keyword::Properties => members::compile_properties(site),
        Keyword::PatternProperties => members::compile_pattern_properties(site),
        Keyword::AdditionalProperties => members::compile_additional_properties(site),
        Keyword::PropertyNames => members::compile_property_names(site),
        Keyword::UnevaluatedItems => items::compile_unevaluated_items(site),
        Keyword::UnevaluatedProperties => members::compile_unevaluated_properties(site),
        Keyword::Defs => match site.value() {
            Value::Object(_) => Ok(None),
            _ => Err(site.invalid("must be an object of schemas")),
        },
        // Identifiers and annotations assert nothing; the keywords of other dialects are unknown
        // keywords in draft 2020-12, the spelling programs are compiled from, and assert nothing
        // either.
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

/// A site over one schema document, for the rooms' tests: every reference resolves to the root,
/// and `date-time` is the one asserted format.
#[cfg(test)]
pub(super) mod tests {
    use super::super::{FormatTest, Node, Program, Regex};
    use super::{Rule, Site, compile};
    use prp_vocabulary::Keyword;
    use serde_json::{Map, Value};

    struct At<'a> {
        nodes: &'a mut Vec<Node>,
        root: &'a Value,
        obj: &'a Map<String, Value>,
        k: Keyword,
        v: &'a Value,
    }

    fn node(nodes: &mut Vec<Node>, root: &Value, schema: &Value) -> Result<usize, String> {
        let n = nodes.len();
        nodes.push(Node::Bool(false));
        let obj = match schema {
            Value::Bool(b) => {
                nodes[n] = Node::Bool(*b);
                return Ok(n);
            }
            Value::Object(o) => o,
            _ => return Err("expected a schema".into()),
        };
        let (mut rules, mut last) = (Vec::new(), Vec::new());
        for (name, v) in obj {
            let Some(k) = Keyword::from_name(name) else {
                continue;
            };
            let mut at = At {
                nodes,
                root,
                obj,
                k,
                v,
            };
            match compile(&mut at)? {
                Some(r) if r.runs_last() => last.push(r),
                Some(r) => rules.push(r),
                None => {}
            }
        }
        rules.extend(last);
        nodes[n] = Node::Schema { resource: 0, rules };
        Ok(n)
    }

    impl Site for At<'_> {
        type Error = String;
        fn keyword(&self) -> Keyword {
            self.k
        }
        fn value(&self) -> &Value {
            self.v
        }
        fn sibling(&self, k: Keyword) -> Option<&Value> {
            self.obj.get(k.name())
        }
        fn invalid(&self, why: &str) -> String {
            format!("`{}` {why}", self.k.name())
        }
        fn schema(&mut self, path: &[&str]) -> Result<usize, String> {
            let mut v = self.v;
            for token in path {
                v = match v {
                    Value::Array(a) => &a[token.parse::<usize>().unwrap()],
                    _ => &v[*token],
                };
            }
            node(self.nodes, self.root, v)
        }
        fn sibling_schema(&mut self, k: Keyword) -> Result<Option<usize>, String> {
            let obj = self.obj;
            obj.get(k.name())
                .map(|v| node(self.nodes, self.root, v))
                .transpose()
        }
        fn pattern(&self, _: &[&str], source: &str) -> Result<Regex, String> {
            Regex::new(source)
        }
        fn format(&self, name: &str) -> Result<Option<FormatTest>, String> {
            Ok((name == "date-time").then_some(FormatTest::DateTime))
        }
        fn reference(&mut self, _: &str) -> Result<(usize, Option<String>), String> {
            let anchor = self.root.get("$dynamicAnchor").and_then(Value::as_str);
            Ok((0, anchor.map(str::to_owned)))
        }
        fn dynamic(&mut self) {}
    }

    /// The program of `schema`, its root node 0.
    pub(crate) fn compiled(schema: Value) -> Result<Program, String> {
        let mut nodes = Vec::new();
        node(&mut nodes, &schema, &schema)?;
        let anchor = schema.get("$dynamicAnchor").and_then(Value::as_str);
        let dynamic = Vec::from([anchor.map(|a| (a.to_owned(), 0)).into_iter().collect()]);
        Ok(Program { nodes, dynamic })
    }

    /// Why `schema` does not compile.
    pub(crate) fn refused(schema: Value) -> String {
        compiled(schema).expect_err("the schema is refused")
    }

    /// Each value's failure against `schema`, as it is displayed; `None` for a value that passes.
    pub(crate) fn verdicts(schema: Value, values: &[Value]) -> Vec<Option<String>> {
        let program = compiled(schema).unwrap();
        values
            .iter()
            .map(|v| program.check(0, v).err().map(|e| e.to_string()))
            .collect()
    }

    /// Every rule's JSON form reads back as the rule, and its Rust expression names its variant.
    #[test]
    fn a_rule_reads_back_from_its_json_and_writes_its_rust() {
        use super::super::Literal;
        let program = compiled(serde_json::json!({
            "type": "object", "properties": {"a": {"pattern": "^a", "format": "date-time"}},
            "contains": {"const": 1}, "maxContains": 2, "uniqueItems": true,
            "if": true, "else": false, "items": {"$ref": "#"}, "unevaluatedProperties": false
        }))
        .unwrap();
        assert_eq!(Program::parse(&program.encode()).unwrap(), program);
        let rust = program.to_literal();
        for part in [
            "Rule::Type(Vec::from([JsonType::Object]))",
            "Rule::Contains(2usize, 1u64, Some(2u64))",
            "Rule::UniqueItems",
            "Rule::If(3usize, None, Some(4usize))",
            "Rule::Format(\"date-time\".into(), FormatTest::DateTime)",
            "Rule::Pattern(Regex::generated(\"^a\"))",
        ] {
            assert!(rust.contains(part), "{part} in {rust}");
        }
        let Node::Schema { rules, .. } = &program.nodes[0] else {
            panic!("the root is a schema object");
        };
        assert_eq!(
            rules.last().map(Rule::keyword),
            Some(Keyword::UnevaluatedProperties)
        );
    }

    /// A program read from text names only nodes, resources and anchors it has; each way of
    /// naming one that is not there is refused, with the number, before anything is checked.
    #[test]
    fn a_program_read_back_names_only_what_it_has() {
        let program = compiled(serde_json::json!({
            "$dynamicAnchor": "t",
            "prefixItems": [true], "items": {"not": {"$ref": "#"}},
            "properties": {"a": false}
        }))
        .unwrap();
        let text = program.encode();
        assert_eq!(Program::parse(&text).unwrap(), program);
        let nodes = program.nodes.len();
        let edits = [
            (
                r#""Not":3"#.to_owned(),
                format!(r#""Not":{nodes}"#),
                format!("refers to node {nodes}"),
            ),
            (
                r#""resource":0"#.to_owned(),
                r#""resource":1"#.to_owned(),
                "is in resource 1, of 1".to_owned(),
            ),
            (
                r#"["t",0]"#.to_owned(),
                format!(r#"["t",{nodes}]"#),
                format!("anchor t names node {nodes}"),
            ),
        ];
        for (from, to, why) in edits {
            assert!(text.contains(&from), "{from} in {text}");
            let err = Program::parse(&text.replacen(&from, &to, 1)).unwrap_err();
            assert!(err.contains(&why), "{why} in {err}");
        }
        // The prefix count of `items` is a count, not a node: any size reads back.
        let wide = text.replacen(r#""Items":[2,1]"#, r#""Items":[2,4000000000]"#, 1);
        assert!(wide.contains("4000000000"), "{wide}");
        assert!(Program::parse(&wide).is_ok(), "{wide}");
    }

    /// A float reads back from the program's JSON as the very number the schema held, when its
    /// shortest text needs correct rounding (serde_json's `float_roundtrip`: without it, this
    /// one read back a unit in the last place away).
    #[test]
    fn a_float_reads_back_as_itself() {
        let schema = serde_json::from_str(r#"{"const": 907015299447099199254790991}"#).unwrap();
        let program = compiled(schema).unwrap();
        assert_eq!(Program::parse(&program.encode()).unwrap(), program);
    }
}
