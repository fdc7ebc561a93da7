//! The schema program of the checked types, written as the Rust expression that builds it: the
//! generated code holds the program as data, and nothing is parsed when it first runs.

use proc_macro2::TokenStream;
use prp_codegen_runtime::eval::{FormatTest, JsonType, Node, Program, Regex, Rule};
use quote::quote;
use serde_json::{Number, Value};

/// The block that builds `p` (with the runtime in scope as `rt`): the names it uses are imported
/// in the block, so that the data reads as data.
pub(super) fn program(p: &Program) -> TokenStream {
    let nodes = p.nodes.iter().map(node);
    let dynamic = p.dynamic.iter().map(|anchors| {
        let anchors = anchors
            .iter()
            .map(|(name, n)| quote! { (#name.into(), #n) });
        quote! { Vec::from([#(#anchors),*]) }
    });
    quote! {
        {
            #[allow(unused_imports)]
            use rt::eval::{FormatTest, JsonType, Node, Program, Regex, Rule, float};
            #[allow(unused_imports)]
            use rt::serde_json::{Map, Number, Value};
            #[allow(unused_imports)]
            use ::core::option::Option::{None, Some};
            use ::std::vec::Vec;
            Program {
                nodes: Vec::from([#(#nodes),*]),
                dynamic: Vec::from([#(#dynamic),*]),
            }
        }
    }
}

fn node(n: &Node) -> TokenStream {
    match n {
        Node::Bool(b) => quote! { Node::Bool(#b) },
        Node::Schema { resource, rules } => {
            let rules = rules.iter().map(rule);
            quote! { Node::Schema { resource: #resource, rules: Vec::from([#(#rules),*]) } }
        }
    }
}

fn rule(r: &Rule) -> TokenStream {
    let strings = |names: &[String]| quote! { Vec::from([#(#names.into()),*]) };
    let named = |pairs: &[(String, usize)]| {
        let pairs = pairs.iter().map(|(k, n)| quote! { (#k.into(), #n) });
        quote! { Vec::from([#(#pairs),*]) }
    };
    let regexes = |rs: &[Regex]| {
        let rs = rs.iter().map(regex);
        quote! { Vec::from([#(#rs),*]) }
    };
    match r {
        Rule::Type(ts) => {
            let ts = ts.iter().map(json_type);
            quote! { Rule::Type(Vec::from([#(#ts),*])) }
        }
        Rule::Const(v) => {
            let v = value(v);
            quote! { Rule::Const(#v) }
        }
        Rule::Enum(vs) => {
            let vs = vs.iter().map(value);
            quote! { Rule::Enum(Vec::from([#(#vs),*])) }
        }
        Rule::MultipleOf(n) => bound(quote! { MultipleOf }, n),
        Rule::Maximum(n) => bound(quote! { Maximum }, n),
        Rule::ExclusiveMaximum(n) => bound(quote! { ExclusiveMaximum }, n),
        Rule::Minimum(n) => bound(quote! { Minimum }, n),
        Rule::ExclusiveMinimum(n) => bound(quote! { ExclusiveMinimum }, n),
        Rule::MaxLength(c) => quote! { Rule::MaxLength(#c) },
        Rule::MinLength(c) => quote! { Rule::MinLength(#c) },
        Rule::MaxItems(c) => quote! { Rule::MaxItems(#c) },
        Rule::MinItems(c) => quote! { Rule::MinItems(#c) },
        Rule::MaxProperties(c) => quote! { Rule::MaxProperties(#c) },
        Rule::MinProperties(c) => quote! { Rule::MinProperties(#c) },
        Rule::Pattern(re) => {
            let re = regex(re);
            quote! { Rule::Pattern(#re) }
        }
        Rule::Format(name, test) => {
            let test = match test {
                FormatTest::DateTime => quote! { FormatTest::DateTime },
                FormatTest::Pattern(re) => {
                    let re = regex(re);
                    quote! { FormatTest::Pattern(#re) }
                }
            };
            quote! { Rule::Format(#name.into(), #test) }
        }
        Rule::UniqueItems => quote! { Rule::UniqueItems },
        Rule::Contains(n, min, max) => {
            let max = option(max.map(|m| quote! { #m }));
            quote! { Rule::Contains(#n, #min, #max) }
        }
        Rule::Required(names) => {
            let names = strings(names);
            quote! { Rule::Required(#names) }
        }
        Rule::DependentRequired(deps) => {
            let deps = deps.iter().map(|(k, names)| {
                let names = strings(names);
                quote! { (#k.into(), #names) }
            });
            quote! { Rule::DependentRequired(Vec::from([#(#deps),*])) }
        }
        Rule::AllOf(ns) => quote! { Rule::AllOf(Vec::from([#(#ns),*])) },
        Rule::AnyOf(ns) => quote! { Rule::AnyOf(Vec::from([#(#ns),*])) },
        Rule::OneOf(ns) => quote! { Rule::OneOf(Vec::from([#(#ns),*])) },
        Rule::PrefixItems(ns) => quote! { Rule::PrefixItems(Vec::from([#(#ns),*])) },
        Rule::Not(n) => quote! { Rule::Not(#n) },
        Rule::Ref(n) => quote! { Rule::Ref(#n) },
        Rule::PropertyNames(n) => quote! { Rule::PropertyNames(#n) },
        Rule::UnevaluatedItems(n) => quote! { Rule::UnevaluatedItems(#n) },
        Rule::UnevaluatedProperties(n) => quote! { Rule::UnevaluatedProperties(#n) },
        Rule::If(c, then, otherwise) => {
            let then = option(then.map(|n| quote! { #n }));
            let otherwise = option(otherwise.map(|n| quote! { #n }));
            quote! { Rule::If(#c, #then, #otherwise) }
        }
        Rule::DependentSchemas(pairs) => {
            let pairs = named(pairs);
            quote! { Rule::DependentSchemas(#pairs) }
        }
        Rule::Properties(pairs) => {
            let pairs = named(pairs);
            quote! { Rule::Properties(#pairs) }
        }
        Rule::DynamicRef(n, anchor) => {
            quote! { Rule::DynamicRef(#n, #anchor.into()) }
        }
        Rule::Items(n, from) => quote! { Rule::Items(#n, #from) },
        Rule::PatternProperties(pairs) => {
            let pairs = pairs.iter().map(|(re, n)| {
                let re = regex(re);
                quote! { (#re, #n) }
            });
            quote! { Rule::PatternProperties(Vec::from([#(#pairs),*])) }
        }
        Rule::AdditionalProperties(n, names, patterns) => {
            let names = strings(names);
            let patterns = regexes(patterns);
            quote! { Rule::AdditionalProperties(#n, #names, #patterns) }
        }
    }
}

fn bound(variant: TokenStream, n: &Number) -> TokenStream {
    let n = number(n);
    quote! { Rule::#variant(#n) }
}

fn option(v: Option<TokenStream>) -> TokenStream {
    match v {
        Some(v) => quote! { Some(#v) },
        None => quote! { None },
    }
}

fn regex(re: &Regex) -> TokenStream {
    let source = re.source();
    quote! { Regex::generated(#source) }
}

fn json_type(t: &JsonType) -> TokenStream {
    match t {
        JsonType::Null => quote! { JsonType::Null },
        JsonType::Boolean => quote! { JsonType::Boolean },
        JsonType::Integer => quote! { JsonType::Integer },
        JsonType::Number => quote! { JsonType::Number },
        JsonType::String => quote! { JsonType::String },
        JsonType::Array => quote! { JsonType::Array },
        JsonType::Object => quote! { JsonType::Object },
    }
}

/// A JSON number as the expression of the same `serde_json::Number`.
fn number(n: &Number) -> TokenStream {
    if let Some(u) = n.as_u64() {
        quote! { Number::from(#u) }
    } else if let Some(i) = n.as_i64() {
        quote! { Number::from(#i) }
    } else {
        let f = n.as_f64().unwrap_or_default();
        quote! { float(#f) }
    }
}

/// A JSON value as the expression that builds it, member order kept.
fn value(v: &Value) -> TokenStream {
    match v {
        Value::Null => quote! { Value::Null },
        Value::Bool(b) => quote! { Value::Bool(#b) },
        Value::Number(n) => {
            let n = number(n);
            quote! { Value::Number(#n) }
        }
        Value::String(s) => quote! { Value::String(#s.into()) },
        Value::Array(a) => {
            let a = a.iter().map(value);
            quote! { Value::Array(Vec::from([#(#a),*])) }
        }
        Value::Object(o) => {
            let members = o.iter().map(|(k, v)| {
                let v = value(v);
                quote! { (#k.into(), #v) }
            });
            quote! { Value::Object(Map::from_iter([#(#members),*])) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A number is written as the kind it is read as (a float stays a float), and an object's
    /// members in their order. (That every program round-trips is the features' test: each
    /// checked feature's generated program is compiled and run.)
    #[test]
    fn numbers_and_values_keep_their_kind() {
        let n = |s: &str| number(&serde_json::from_str(s).unwrap()).to_string();
        assert!(n("5").contains("from (5u64)"), "{}", n("5"));
        assert!(n("-5").contains("from (- 5i64)"), "{}", n("-5"));
        assert!(n("1.5").contains("float (1.5f64)"), "{}", n("1.5"));
        let v = value(&serde_json::json!({"b": [1, null], "a": "x"})).to_string();
        assert!(
            v.find("\"b\"").unwrap() < v.find("\"a\"").unwrap(),
            "order kept: {v}"
        );
    }
}
