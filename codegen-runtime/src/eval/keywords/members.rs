//! The keywords on an object's members: `required` and `dependentRequired`, and the applicators
//! to members (`properties`, `patternProperties`, `additionalProperties`, `dependentSchemas`,
//! `propertyNames`, `unevaluatedProperties`). Each says nothing of a value that is not an object.
//! The members an applicator evaluates are recorded in [`Seen`], for `unevaluatedProperties`.

use super::super::compile::{Site, named_schemas, names, one_schema, sibling_keys};
use super::super::{Cx, Regex, Seen, closed, fail};
use super::Rule;
use crate::{Failure, Keyword as Code, escape_token};
use prp_vocabulary::Keyword;
use serde_json::Value;

pub(super) fn compile_required<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::Required(names(s, s.value())?)))
}

pub(super) fn check_required(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    required: &[String],
) -> Result<(), Failure> {
    let Value::Object(o) = v else {
        return Ok(());
    };
    match required.iter().find(|k| !o.contains_key(k.as_str())) {
        Some(missing) => Err(fail(
            Code::Required,
            format!("the required member `{missing}` is absent"),
        )),
        None => Ok(()),
    }
}

pub(super) fn compile_dependent_required<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    let m = s
        .value()
        .as_object()
        .ok_or_else(|| s.invalid("must be an object"))?;
    let mut rules = Vec::new();
    for (name, list) in m {
        rules.push((name.clone(), names(s, list)?));
    }
    Ok(Some(Rule::DependentRequired(rules)))
}

pub(super) fn check_dependent_required(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    rules: &[(String, Vec<String>)],
) -> Result<(), Failure> {
    let Value::Object(o) = v else {
        return Ok(());
    };
    for (k, names) in rules {
        if o.contains_key(k)
            && let Some(missing) = names.iter().find(|m| !o.contains_key(m.as_str()))
        {
            return Err(fail(
                Code::DependentRequired,
                format!("member `{k}` requires member `{missing}`, which is absent"),
            ));
        }
    }
    Ok(())
}

pub(super) fn compile_properties<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::Properties(named_schemas(s)?)))
}

pub(super) fn check_properties(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    props: &[(String, usize)],
) -> Result<(), Failure> {
    let Value::Object(o) = v else {
        return Ok(());
    };
    for (i, (k, member)) in o.iter().enumerate() {
        if let Some((_, n)) = props.iter().find(|(name, _)| name == k) {
            cx.eval(*n, member).map_err(|e| e.at(k))?;
            seen.prop(o.len(), i);
        }
    }
    Ok(())
}

pub(super) fn compile_dependent_schemas<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::DependentSchemas(named_schemas(s)?)))
}

pub(super) fn check_dependent_schemas(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    rules: &[(String, usize)],
) -> Result<(), Failure> {
    let Value::Object(o) = v else {
        return Ok(());
    };
    for (k, n) in rules {
        if o.contains_key(k) {
            seen.merge(cx.eval(*n, v)?);
        }
    }
    Ok(())
}

pub(super) fn compile_pattern_properties<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    let patterns: Vec<String> = (s.value().as_object())
        .ok_or_else(|| s.invalid("must be an object of schemas"))?
        .keys()
        .cloned()
        .collect();
    let mut pairs = Vec::new();
    for p in patterns {
        let re = s.pattern(&[&p], &p)?;
        pairs.push((re, s.schema(&[&p])?));
    }
    Ok(Some(Rule::PatternProperties(pairs)))
}

pub(super) fn check_pattern_properties(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    patterns: &[(Regex, usize)],
) -> Result<(), Failure> {
    let Value::Object(o) = v else {
        return Ok(());
    };
    for (i, (k, member)) in o.iter().enumerate() {
        for (re, n) in patterns {
            if re.matches(k) {
                cx.eval(*n, member).map_err(|e| e.at(k))?;
                seen.prop(o.len(), i);
            }
        }
    }
    Ok(())
}

/// `additionalProperties` applies to the members neither `properties` nor `patternProperties`
/// covers, so it carries their names and patterns.
pub(super) fn compile_additional_properties<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    let declared = sibling_keys(s, Keyword::Properties);
    let patterns = sibling_keys(s, Keyword::PatternProperties)
        .iter()
        .map(|p| s.pattern(&[], p))
        .collect::<Result<_, _>>()?;
    Ok(Some(Rule::AdditionalProperties(
        one_schema(s)?,
        declared,
        patterns,
    )))
}

pub(super) fn check_additional_properties(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    node: &usize,
    declared: &[String],
    patterns: &[Regex],
) -> Result<(), Failure> {
    let Value::Object(o) = v else {
        return Ok(());
    };
    for (i, (k, member)) in o.iter().enumerate() {
        if declared.iter().any(|name| name == k) || patterns.iter().any(|re| re.matches(k)) {
            continue;
        }
        cx.eval(*node, member).map_err(|e| {
            closed(
                e,
                Code::AdditionalProperties,
                "undeclared members are not allowed",
            )
            .at(k)
        })?;
        seen.prop(o.len(), i);
    }
    Ok(())
}

pub(super) fn compile_property_names<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::PropertyNames(one_schema(s)?)))
}

/// A member name's failure is located at the member and says which name it is.
pub(super) fn check_property_names(
    cx: &mut Cx,
    v: &Value,
    _: &mut Seen,
    node: &usize,
) -> Result<(), Failure> {
    let Value::Object(o) = v else {
        return Ok(());
    };
    for k in o.keys() {
        let name = Value::String(k.clone());
        if let Err(e) = cx.eval(*node, &name) {
            return Err(Failure::new(
                e.code,
                format!("/{}", escape_token(k)),
                format!("the member name `{k}` is not allowed: {}", e.message),
            ));
        }
    }
    Ok(())
}

pub(super) fn compile_unevaluated_properties<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::UnevaluatedProperties(one_schema(s)?)))
}

pub(super) fn check_unevaluated_properties(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    node: &usize,
) -> Result<(), Failure> {
    let Value::Object(o) = v else {
        return Ok(());
    };
    for (i, (k, member)) in o.iter().enumerate() {
        if !seen.props.get(i).copied().unwrap_or(false) {
            cx.eval(*node, member).map_err(|e| {
                closed(
                    e,
                    Code::UnevaluatedProperties,
                    "no subschema evaluates this member",
                )
                .at(k)
            })?;
        }
    }
    seen.props = vec![true; o.len()];
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refused, verdicts};
    use serde_json::json;

    #[test]
    fn required_and_dependent_required_name_the_absent_member() {
        let schema = json!({"required": ["a"], "dependentRequired": {"a": ["b"]}});
        let failures = verdicts(
            schema,
            &[
                json!({}),
                json!({"a": 1}),
                json!({"a": 1, "b": 2}),
                json!([]),
            ],
        );
        assert_eq!(
            failures,
            [
                Some("required: the required member `a` is absent".into()),
                Some("dependent_required: member `a` requires member `b`, which is absent".into()),
                None,
                None,
            ]
        );
        assert_eq!(
            refused(json!({"required": [1]})),
            "`required` must be an array of strings"
        );
    }

    /// `additionalProperties` skips what `properties` and `patternProperties` cover; a failure
    /// under a member is located at it, its name escaped.
    #[test]
    fn member_applicators_locate_their_failures_at_the_member() {
        let schema = json!({
            "properties": {"a/b": {"type": "string"}},
            "patternProperties": {"^x": true},
            "additionalProperties": false
        });
        let failures = verdicts(
            schema,
            &[
                json!({"a/b": 1}),
                json!({"x1": 1, "y": 1}),
                json!({"a/b": "s", "xy": 0}),
            ],
        );
        assert_eq!(
            failures,
            [
                Some("type at /a~1b: expected string, found an integer".into()),
                Some("additional_properties at /y: undeclared members are not allowed".into()),
                None,
            ]
        );
        let failures = verdicts(
            json!({"propertyNames": {"maxLength": 1}}),
            &[json!({"ab": 1})],
        );
        assert_eq!(
            failures,
            [Some("max_length at /ab: the member name `ab` is not allowed: 2 characters, at most 1 allowed".into())]
        );
        let schema = json!({"dependentSchemas": {"a": {"required": ["b"]}}, "properties": {"a": true}, "unevaluatedProperties": false});
        let failures = verdicts(schema, &[json!({"a": 1}), json!({"a": 1, "b": 2})]);
        assert_eq!(
            failures,
            [
                Some("required: the required member `b` is absent".into()),
                Some("unevaluated_properties at /b: no subschema evaluates this member".into()),
            ]
        );
        assert!(
            refused(json!({"patternProperties": {"(": true}}))
                .starts_with("pattern ( does not compile")
        );
    }
}
