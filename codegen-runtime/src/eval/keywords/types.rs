//! `type`, `const` and `enum`: the keywords that apply to every value.

use super::super::compile::{Site, names};
use super::super::{Cx, JsonType, Seen, fail};
use super::Rule;
use crate::{Failure, Keyword as Code, json_eq};
use serde_json::{Number, Value};

/// Whether `n` is an integer: JSON's integers include `2.0`.
fn is_integer(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

impl JsonType {
    /// Whether `v` is of this type.
    pub fn accepts(self, v: &Value) -> bool {
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

/// The type of `v` as a sentence names it.
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

pub(super) fn compile_type<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    let names = match s.value() {
        Value::String(t) => vec![t.clone()],
        v => names(s, v)?,
    };
    let types: Option<Vec<JsonType>> = names.iter().map(|t| JsonType::from_name(t)).collect();
    let types = types.ok_or_else(|| s.invalid("names a type JSON does not have"))?;
    Ok(Some(Rule::Type(types)))
}

pub(super) fn check_type(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    kinds: &[JsonType],
) -> Result<(), Failure> {
    if kinds.iter().any(|k| k.accepts(v)) {
        return Ok(());
    }
    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    Err(fail(
        Code::Type,
        format!("expected {}, found {}", names.join(" or "), kind_of(v)),
    ))
}

pub(super) fn compile_const<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::Const(s.value().clone())))
}

pub(super) fn check_const(_: &mut Cx, v: &Value, _: &mut Seen, c: &Value) -> Result<(), Failure> {
    if json_eq(c, v) {
        return Ok(());
    }
    Err(fail(Code::Const, format!("the value must be {c}")))
}

pub(super) fn compile_enum<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    let values = s
        .value()
        .as_array()
        .ok_or_else(|| s.invalid("must be an array"))?;
    Ok(Some(Rule::Enum(values.clone())))
}

pub(super) fn check_enum(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    values: &[Value],
) -> Result<(), Failure> {
    if values.iter().any(|c| json_eq(c, v)) {
        return Ok(());
    }
    Err(fail(
        Code::Enum,
        format!("{v} is not one of the `enum` values"),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{compiled, refused, verdicts};
    use serde_json::json;

    #[test]
    fn type_names_its_types_and_the_one_found() {
        let failures = verdicts(
            json!({"type": ["string", "null"]}),
            &[json!(2.0), json!("a")],
        );
        assert_eq!(
            failures[0].as_deref(),
            Some("type: expected string or null, found an integer")
        );
        assert_eq!(failures[1], None);
        assert_eq!(
            refused(json!({"type": "text"})),
            "`type` names a type JSON does not have"
        );
    }

    #[test]
    fn const_and_enum_compare_numbers_by_value() {
        let failures = verdicts(json!({"const": 1}), &[json!(1.0), json!(2)]);
        assert_eq!(failures, [None, Some("const: the value must be 1".into())]);
        let failures = verdicts(json!({"enum": [1, "a"]}), &[json!("a"), json!("b")]);
        assert_eq!(
            failures,
            [
                None,
                Some("enum: \"b\" is not one of the `enum` values".into())
            ]
        );
        assert_eq!(refused(json!({"enum": 1})), "`enum` must be an array");
        assert!(compiled(json!({"const": null})).is_ok());
    }
}
