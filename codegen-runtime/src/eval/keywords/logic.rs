//! The applicators of no one type: `allOf`, `anyOf`, `oneOf`, `not`, and `if` with the `then`
//! and `else` it reads. Each applies other nodes to the value in place and merges what the
//! passing ones evaluated.

use super::super::compile::{Site, one_schema, schema_list};
use super::super::{Cx, Seen, fail};
use super::Rule;
use crate::{Failure, Keyword as Code};
use prp_vocabulary::Keyword;
use serde_json::Value;

pub(super) fn compile_all_of<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::AllOf(schema_list(s, false)?)))
}

pub(super) fn check_all_of(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    nodes: &[usize],
) -> Result<(), Failure> {
    for n in nodes {
        seen.merge(cx.eval(*n, v)?);
    }
    Ok(())
}

pub(super) fn compile_any_of<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::AnyOf(schema_list(s, false)?)))
}

/// Every alternative runs, so that all the passing ones' annotations are merged.
pub(super) fn check_any_of(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    nodes: &[usize],
) -> Result<(), Failure> {
    let mut first = None;
    let mut any = false;
    for n in nodes {
        match cx.eval(*n, v) {
            Ok(s) => {
                any = true;
                seen.merge(s);
            }
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    if any {
        return Ok(());
    }
    Err(fail(
        Code::AnyOf,
        format!(
            "the value matches none of the `anyOf` alternatives{}",
            first_of(first)
        ),
    ))
}

/// The first alternative's failure, as the sentence's last clause.
fn first_of(first: Option<Failure>) -> String {
    first
        .map(|e| format!(" (the first: {e})"))
        .unwrap_or_default()
}

pub(super) fn compile_one_of<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::OneOf(schema_list(s, false)?)))
}

pub(super) fn check_one_of(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    nodes: &[usize],
) -> Result<(), Failure> {
    let mut passed = Vec::new();
    let mut first = None;
    for (i, n) in nodes.iter().enumerate() {
        match cx.eval(*n, v) {
            Ok(s) => passed.push((i, s)),
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    match passed.as_slice() {
        [_] => {
            seen.merge(passed.pop().map(|p| p.1).unwrap_or_default());
            Ok(())
        }
        [] => Err(fail(
            Code::OneOf,
            format!(
                "the value matches none of the `oneOf` alternatives{}",
                first_of(first)
            ),
        )),
        [(a, _), (b, _), ..] => Err(fail(
            Code::OneOf,
            format!("the value matches `oneOf` alternatives {a} and {b}; exactly one may match"),
        )),
    }
}

pub(super) fn compile_not<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::Not(one_schema(s)?)))
}

pub(super) fn check_not(cx: &mut Cx, v: &Value, _: &mut Seen, node: &usize) -> Result<(), Failure> {
    match cx.eval(*node, v) {
        Ok(_) => Err(fail(
            Code::Not,
            "the value matches the schema under `not`".into(),
        )),
        Err(_) => Ok(()),
    }
}

pub(super) fn compile_if<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    let cond = one_schema(s)?;
    let then = s.sibling_schema(Keyword::Then)?;
    Ok(Some(Rule::If(cond, then, s.sibling_schema(Keyword::Else)?)))
}

/// Without `if`, `then` and `else` do nothing; with it, `if` compiles them.
pub(super) fn compile_branch<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    if !(s.value().is_object() || s.value().is_boolean()) {
        return Err(s.invalid("must be a schema"));
    }
    Ok(None)
}

pub(super) fn check_if(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    cond: &usize,
    then: &Option<usize>,
    otherwise: &Option<usize>,
) -> Result<(), Failure> {
    let branch = match cx.eval(*cond, v) {
        Ok(s) => {
            seen.merge(s);
            then
        }
        Err(_) => otherwise,
    };
    if let Some(b) = branch {
        seen.merge(cx.eval(*b, v)?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refused, verdicts};
    use serde_json::json;

    #[test]
    fn any_of_and_one_of_say_how_many_alternatives_matched() {
        let schema = json!({"anyOf": [{"type": "string"}, {"minimum": 2}]});
        let failures = verdicts(schema, &[json!(1), json!(3)]);
        assert_eq!(
            failures,
            [
                Some("any_of: the value matches none of the `anyOf` alternatives (the first: type: expected string, found an integer)".into()),
                None,
            ]
        );
        let schema = json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]});
        let failures = verdicts(schema, &[json!(3), json!(1), json!(2.5)]);
        assert_eq!(
            failures,
            [
                Some(
                    "one_of: the value matches `oneOf` alternatives 0 and 1; exactly one may match"
                        .into()
                ),
                None,
                None,
            ]
        );
        assert_eq!(
            refused(json!({"allOf": []})),
            "`allOf` must be a non-empty array of schemas"
        );
    }

    #[test]
    fn not_refuses_a_match_and_if_chooses_its_branch() {
        let failures = verdicts(json!({"not": {"type": "null"}}), &[json!(null), json!(0)]);
        assert_eq!(
            failures,
            [
                Some("not: the value matches the schema under `not`".into()),
                None
            ]
        );
        let schema = json!({"if": {"type": "string"}, "then": {"minLength": 1}, "else": {"type": "integer"}});
        let failures = verdicts(schema, &[json!(""), json!(1.5), json!("a"), json!(1)]);
        assert_eq!(
            failures,
            [
                Some("min_length: 0 characters, at least 1 required".into()),
                Some("type: expected integer, found a number".into()),
                None,
                None,
            ]
        );
        assert_eq!(refused(json!({"then": 1})), "`then` must be a schema");
    }
}
