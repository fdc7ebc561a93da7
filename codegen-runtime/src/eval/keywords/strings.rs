//! `pattern` and an asserted `format`: assertions on a string, true of any other value. A format
//! is asserted only when the generator's caller asks (`date-time` by RFC 3339, others by a
//! regular expression the caller gives); otherwise it is an annotation and compiles to nothing.

use super::super::compile::Site;
use super::super::{Cx, FormatTest, Regex, Seen, fail};
use super::Rule;
use crate::{Failure, Keyword as Code, is_rfc3339_date_time};
use serde_json::Value;

pub(super) fn compile_pattern<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    let source = s
        .value()
        .as_str()
        .ok_or_else(|| s.invalid("must be a string"))?;
    Ok(Some(Rule::Pattern(s.pattern(&[], source)?)))
}

pub(super) fn check_pattern(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    re: &Regex,
) -> Result<(), Failure> {
    match v {
        Value::String(s) if !re.matches(s) => Err(fail(
            Code::Pattern,
            format!("{v} does not match the pattern {}", re.source()),
        )),
        _ => Ok(()),
    }
}

pub(super) fn compile_format<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    let name = s
        .value()
        .as_str()
        .ok_or_else(|| s.invalid("must be a string"))?;
    Ok(s.format(name)?
        .map(|test| Rule::Format(name.to_owned(), test)))
}

pub(super) fn check_format(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    name: &str,
    test: &FormatTest,
) -> Result<(), Failure> {
    let Value::String(s) = v else {
        return Ok(());
    };
    let ok = match test {
        FormatTest::DateTime => is_rfc3339_date_time(s),
        FormatTest::Pattern(re) => re.matches(s),
    };
    if ok {
        return Ok(());
    }
    Err(fail(Code::Format, format!("{v} is not a valid {name}")))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{compiled, refused, verdicts};
    use serde_json::json;

    /// A pattern matches anywhere in the string, in Unicode mode; an unasserted format is no rule.
    #[test]
    fn pattern_searches_and_format_asserts_only_when_asked() {
        let failures = verdicts(
            json!({"pattern": "^\\p{L}+$"}),
            &[json!("héllo"), json!("a1"), json!(1)],
        );
        assert_eq!(
            failures,
            [
                None,
                Some("pattern: \"a1\" does not match the pattern ^\\p{L}+$".into()),
                None
            ]
        );
        let failures = verdicts(
            json!({"format": "date-time"}),
            &[json!("2026-12-05T10:00:00Z"), json!("today")],
        );
        assert_eq!(
            failures,
            [
                None,
                Some("format: \"today\" is not a valid date-time".into())
            ]
        );
        let program = compiled(json!({"format": "email"})).unwrap();
        assert_eq!(
            format!("{:?}", program.nodes),
            "[Schema { resource: 0, rules: [] }]"
        );
        assert!(refused(json!({"pattern": "("})).starts_with("pattern ( does not compile"));
        assert_eq!(refused(json!({"format": 1})), "`format` must be a string");
    }
}
