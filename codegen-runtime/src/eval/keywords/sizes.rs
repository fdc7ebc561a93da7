//! The size bounds: `maxLength` and `minLength` of a string (in characters), `maxItems` and
//! `minItems` of an array, `maxProperties` and `minProperties` of an object. Each is true of a
//! value of another type.

use super::super::compile::{Site, count};
use super::super::{Cx, Seen, fail};
use super::Rule;
use crate::{Failure, Keyword as Code};
use serde_json::Value;

/// The size `v` has for a bound of `code`'s kind, or `None` for a value of another type.
fn size(code: Code, v: &Value) -> Option<u64> {
    match (code, v) {
        (Code::MaxLength | Code::MinLength, Value::String(s)) => Some(s.chars().count() as u64),
        (Code::MaxItems | Code::MinItems, Value::Array(a)) => Some(a.len() as u64),
        (Code::MaxProperties | Code::MinProperties, Value::Object(o)) => Some(o.len() as u64),
        _ => None,
    }
}

/// What is counted, for the sentence.
fn unit(code: Code) -> &'static str {
    match code {
        Code::MaxLength | Code::MinLength => "characters",
        Code::MaxItems | Code::MinItems => "items",
        _ => "members",
    }
}

/// A size bound's compile step: the count read, in the rule `bound` makes of it.
pub(super) fn compile_size<S: Site>(
    s: &mut S,
    bound: fn(u64) -> Rule,
) -> Result<Option<Rule>, S::Error> {
    Ok(Some(bound(count(s, s.value())?)))
}

/// At most `max`.
fn at_most(code: Code, v: &Value, max: u64) -> Result<(), Failure> {
    match size(code, v) {
        Some(n) if n > max => Err(fail(
            code,
            format!("{n} {}, at most {max} allowed", unit(code)),
        )),
        _ => Ok(()),
    }
}

/// At least `min`.
fn at_least(code: Code, v: &Value, min: u64) -> Result<(), Failure> {
    match size(code, v) {
        Some(n) if n < min => Err(fail(
            code,
            format!("{n} {}, at least {min} required", unit(code)),
        )),
        _ => Ok(()),
    }
}

pub(super) fn check_max_length(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    max: &u64,
) -> Result<(), Failure> {
    at_most(Code::MaxLength, v, *max)
}

pub(super) fn check_min_length(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    min: &u64,
) -> Result<(), Failure> {
    at_least(Code::MinLength, v, *min)
}

pub(super) fn check_max_items(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    max: &u64,
) -> Result<(), Failure> {
    at_most(Code::MaxItems, v, *max)
}

pub(super) fn check_min_items(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    min: &u64,
) -> Result<(), Failure> {
    at_least(Code::MinItems, v, *min)
}

pub(super) fn check_max_properties(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    max: &u64,
) -> Result<(), Failure> {
    at_most(Code::MaxProperties, v, *max)
}

pub(super) fn check_min_properties(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    min: &u64,
) -> Result<(), Failure> {
    at_least(Code::MinProperties, v, *min)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{compiled, refused, verdicts};
    use serde_json::json;

    /// A length counts characters, not bytes; each bound passes the types it does not count.
    #[test]
    fn sizes_count_characters_items_and_members() {
        let schema = json!({"maxLength": 2, "minItems": 2, "maxProperties": 0});
        let failures = verdicts(
            schema,
            &[
                json!("héé"),
                json!("éé"),
                json!([1]),
                json!({"a": 1}),
                json!(7),
            ],
        );
        assert_eq!(
            failures,
            [
                Some("max_length: 3 characters, at most 2 allowed".into()),
                None,
                Some("min_items: 1 items, at least 2 required".into()),
                Some("max_properties: 1 members, at most 0 allowed".into()),
                None,
            ]
        );
        let failures = verdicts(
            json!({"minLength": 1, "maxItems": 0, "minProperties": 1}),
            &[json!(""), json!([0]), json!({})],
        );
        assert_eq!(
            failures,
            [
                Some("min_length: 0 characters, at least 1 required".into()),
                Some("max_items: 1 items, at most 0 allowed".into()),
                Some("min_properties: 0 members, at least 1 required".into()),
            ]
        );
        assert!(compiled(json!({"maxLength": 2.0})).is_ok());
        assert_eq!(
            refused(json!({"minItems": -1})),
            "`minItems` must be a non-negative integer"
        );
    }
}
