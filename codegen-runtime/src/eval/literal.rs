//! A program as the Rust expression that builds it. Generated code holds its program as this
//! expression (the generator parses the text into tokens and formats it with the rest), so the
//! program is data in the binary and nothing is read at run time. The expression names what the
//! generated block imports: `Program`, `Node`, `Rule`, `JsonType`, `FormatTest`, `Regex`, `float`,
//! `Number`, `Value`, `Map`, `Vec`, `Some` and `None`.

use super::{FormatTest, JsonType, Node, Program, Regex};
use serde_json::{Number, Value};
use std::fmt::Write;

/// A value that can be written as the Rust expression that builds it.
pub trait Literal {
    /// Appends the expression to `out`.
    fn literal(&self, out: &mut String);

    /// The expression alone.
    fn to_literal(&self) -> String {
        let mut out = String::new();
        self.literal(&mut out);
        out
    }
}

/// `name(a, b, …)`: a call, a tuple (with an empty name) or a tuple variant.
pub(super) fn call(out: &mut String, name: &str, args: &[&dyn Literal]) {
    out.push_str(name);
    out.push('(');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        a.literal(out);
    }
    out.push(')');
}

impl Literal for bool {
    fn literal(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

impl Literal for usize {
    fn literal(&self, out: &mut String) {
        let _ = write!(out, "{self}usize");
    }
}

impl Literal for u64 {
    fn literal(&self, out: &mut String) {
        let _ = write!(out, "{self}u64");
    }
}

/// A string literal escaped as Rust reads it back: `"…".into()`.
impl Literal for str {
    fn literal(&self, out: &mut String) {
        out.push('"');
        let mut chars = self.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                // `\0` before a digit would read as an octal escape Rust does not have.
                '\0' if chars.peek().is_some_and(char::is_ascii_digit) => out.push_str("\\x00"),
                '\'' => out.push(c),
                _ => out.extend(c.escape_debug()),
            }
        }
        out.push_str("\".into()");
    }
}

impl Literal for String {
    fn literal(&self, out: &mut String) {
        self.as_str().literal(out);
    }
}

impl<T: Literal> Literal for Vec<T> {
    fn literal(&self, out: &mut String) {
        out.push_str("Vec::from([");
        for (i, x) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            x.literal(out);
        }
        out.push_str("])");
    }
}

impl<T: Literal> Literal for Option<T> {
    fn literal(&self, out: &mut String) {
        match self {
            Some(x) => call(out, "Some", &[x]),
            None => out.push_str("None"),
        }
    }
}

impl<A: Literal, B: Literal> Literal for (A, B) {
    fn literal(&self, out: &mut String) {
        call(out, "", &[&self.0, &self.1]);
    }
}

/// A number as the kind it is read as: an integer stays an integer, a float a float.
impl Literal for Number {
    fn literal(&self, out: &mut String) {
        if let Some(u) = self.as_u64() {
            call(out, "Number::from", &[&u]);
        } else if let Some(i) = self.as_i64() {
            let _ = write!(out, "Number::from({i}i64)");
        } else {
            let f = self.as_f64().unwrap_or_default();
            let _ = write!(out, "float({f}f64)");
        }
    }
}

/// A JSON value, its members in their order.
impl Literal for Value {
    fn literal(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("Value::Null"),
            Value::Bool(b) => call(out, "Value::Bool", &[b]),
            Value::Number(n) => call(out, "Value::Number", &[n]),
            Value::String(s) => call(out, "Value::String", &[s]),
            Value::Array(a) => call(out, "Value::Array", &[a]),
            Value::Object(o) => {
                out.push_str("Value::Object(Map::from_iter([");
                for (i, (k, v)) in o.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    call(out, "", &[k, v]);
                }
                out.push_str("]))");
            }
        }
    }
}

impl Literal for Regex {
    fn literal(&self, out: &mut String) {
        out.push_str("Regex::generated(");
        // The source as a plain `&str` literal, without `.into()`.
        let mut s = String::new();
        self.source().literal(&mut s);
        out.push_str(s.strip_suffix(".into()").unwrap_or(&s));
        out.push(')');
    }
}

impl Literal for JsonType {
    fn literal(&self, out: &mut String) {
        let _ = write!(out, "JsonType::{self:?}");
    }
}

impl Literal for FormatTest {
    fn literal(&self, out: &mut String) {
        match self {
            FormatTest::DateTime => out.push_str("FormatTest::DateTime"),
            FormatTest::Pattern(re) => call(out, "FormatTest::Pattern", &[re]),
        }
    }
}

impl Literal for Node {
    fn literal(&self, out: &mut String) {
        match self {
            Node::Bool(b) => call(out, "Node::Bool", &[b]),
            Node::Schema { resource, rules } => {
                out.push_str("Node::Schema { resource: ");
                resource.literal(out);
                out.push_str(", rules: ");
                rules.literal(out);
                out.push_str(" }");
            }
        }
    }
}

impl Literal for Program {
    fn literal(&self, out: &mut String) {
        out.push_str("Program { nodes: ");
        self.nodes.literal(out);
        out.push_str(", dynamic: ");
        self.dynamic.literal(out);
        out.push_str(" }");
    }
}

#[cfg(test)]
mod tests {
    use super::Literal;
    use serde_json::{Number, json};

    /// A number keeps its kind, a string its escapes, an object its member order.
    #[test]
    fn values_are_written_as_the_expressions_that_build_them() {
        let n = |s: &str| serde_json::from_str::<Number>(s).unwrap().to_literal();
        assert_eq!(n("5"), "Number::from(5u64)");
        assert_eq!(n("-5"), "Number::from(-5i64)");
        assert_eq!(n("1.5"), "float(1.5f64)");
        assert_eq!("a\"b\\\0".to_literal(), r#""a\"b\\\0".into()"#);
        assert_eq!("\u{0}1".to_literal(), r#""\x001".into()"#);
        assert_eq!(
            json!({"b": [1, null], "a": "x"}).to_literal(),
            r#"Value::Object(Map::from_iter([("b".into(), Value::Array(Vec::from([Value::Number(Number::from(1u64)), Value::Null]))), ("a".into(), Value::String("x".into()))]))"#
        );
    }
}
