//! The keywords on an array's items: `uniqueItems`, `contains` (with the `minContains` and
//! `maxContains` it reads), `prefixItems`, `items` and `unevaluatedItems`. Each says nothing of a
//! value that is not an array. The items an applicator evaluates are recorded in [`Seen`], for
//! `unevaluatedItems`, which runs after its siblings.

use super::super::compile::{Site, count, one_schema, schema_list};
use super::super::{Cx, Seen, closed, fail};
use super::Rule;
use crate::{Failure, Keyword as Code, json_eq};
use prp_vocabulary::Keyword;
use serde_json::Value;

pub(super) fn compile_unique_items<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    match s.value() {
        Value::Bool(true) => Ok(Some(Rule::UniqueItems)),
        Value::Bool(false) => Ok(None),
        _ => Err(s.invalid("must be a boolean")),
    }
}

pub(super) fn check_unique_items(_: &mut Cx, v: &Value, _: &mut Seen) -> Result<(), Failure> {
    let Value::Array(a) = v else {
        return Ok(());
    };
    for j in 1..a.len() {
        if let Some(i) = (0..j).find(|&i| json_eq(&a[i], &a[j])) {
            return Err(Failure::new(
                Code::UniqueItems,
                format!("/{j}"),
                format!("item {j} repeats item {i}; items must be unique"),
            ));
        }
    }
    Ok(())
}

pub(super) fn compile_contains<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    let node = one_schema(s)?;
    // A malformed bound is refused at its own place, when its own step runs.
    let bound = |k: Keyword| s.sibling(k).and_then(|m| count(s, m).ok());
    let min = bound(Keyword::MinContains).unwrap_or(1);
    Ok(Some(Rule::Contains(node, min, bound(Keyword::MaxContains))))
}

/// `minContains` and `maxContains` are read by `contains`; alone they do nothing.
pub(super) fn compile_contains_bound<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    count(s, s.value())?;
    Ok(None)
}

pub(super) fn check_contains(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    node: &usize,
    min: &u64,
    max: &Option<u64>,
) -> Result<(), Failure> {
    let Value::Array(a) = v else {
        return Ok(());
    };
    let mut matched = 0u64;
    for (i, item) in a.iter().enumerate() {
        if cx.eval(*node, item).is_ok() {
            matched += 1;
            seen.item(a.len(), i);
        }
    }
    if matched < *min {
        return Err(fail(
            Code::Contains,
            format!("{matched} items match `contains`, at least {min} must"),
        ));
    }
    match max {
        Some(max) if matched > *max => Err(fail(
            Code::Contains,
            format!("{matched} items match `contains`, at most {max} may"),
        )),
        _ => Ok(()),
    }
}

pub(super) fn compile_prefix_items<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::PrefixItems(schema_list(s, true)?)))
}

pub(super) fn check_prefix_items(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    nodes: &[usize],
) -> Result<(), Failure> {
    let Value::Array(a) = v else {
        return Ok(());
    };
    for (i, (n, item)) in nodes.iter().zip(a).enumerate() {
        cx.eval(*n, item).map_err(|e| e.at_index(i))?;
        seen.item(a.len(), i);
    }
    Ok(())
}

pub(super) fn compile_items<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    if s.value().is_array() {
        return Err(
            s.invalid("must be one schema in draft 2020-12 (a list of schemas is `prefixItems`)")
        );
    }
    let from = s
        .sibling(Keyword::PrefixItems)
        .and_then(Value::as_array)
        .map_or(0, |prefix| prefix.len() as u64);
    Ok(Some(Rule::Items(one_schema(s)?, from)))
}

pub(super) fn check_items(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    node: &usize,
    from: &u64,
) -> Result<(), Failure> {
    let Value::Array(a) = v else {
        return Ok(());
    };
    let from = usize::try_from(*from).unwrap_or(usize::MAX);
    for (i, item) in a.iter().enumerate().skip(from) {
        cx.eval(*node, item).map_err(|e| e.at_index(i))?;
        seen.item(a.len(), i);
    }
    Ok(())
}

pub(super) fn compile_unevaluated_items<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    Ok(Some(Rule::UnevaluatedItems(one_schema(s)?)))
}

pub(super) fn check_unevaluated_items(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    node: &usize,
) -> Result<(), Failure> {
    let Value::Array(a) = v else {
        return Ok(());
    };
    for (i, item) in a.iter().enumerate() {
        if !seen.items.get(i).copied().unwrap_or(false) {
            cx.eval(*node, item).map_err(|e| {
                closed(
                    e,
                    Code::UnevaluatedItems,
                    "no subschema evaluates this item",
                )
                .at_index(i)
            })?;
        }
    }
    seen.items = vec![true; a.len()];
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refused, verdicts};
    use serde_json::json;

    #[test]
    fn unique_items_names_the_repeat_and_contains_counts_matches() {
        let failures = verdicts(
            json!({"uniqueItems": true}),
            &[json!([1, 2, 1.0]), json!([1, "1"])],
        );
        assert_eq!(
            failures,
            [
                Some("unique_items at /2: item 2 repeats item 0; items must be unique".into()),
                None
            ]
        );
        let schema = json!({"contains": {"type": "string"}, "minContains": 2, "maxContains": 2});
        let failures = verdicts(
            schema,
            &[json!(["a", 1]), json!(["a", "b", "c"]), json!(["a", "b"])],
        );
        assert_eq!(
            failures,
            [
                Some("contains: 1 items match `contains`, at least 2 must".into()),
                Some("contains: 3 items match `contains`, at most 2 may".into()),
                None,
            ]
        );
        assert_eq!(
            refused(json!({"contains": true, "maxContains": "2"})),
            "`maxContains` must be a non-negative integer"
        );
    }

    /// `items` starts after `prefixItems`; `unevaluatedItems` sees what both evaluated.
    #[test]
    fn items_follow_the_prefix_and_unevaluated_items_the_rest() {
        let schema = json!({"prefixItems": [{"type": "string"}], "items": {"type": "integer"}});
        let failures = verdicts(schema, &[json!(["a", 1, 2]), json!([1]), json!(["a", "b"])]);
        assert_eq!(
            failures,
            [
                None,
                Some("type at /0: expected string, found an integer".into()),
                Some("type at /1: expected integer, found a string".into()),
            ]
        );
        let schema = json!({"prefixItems": [true], "unevaluatedItems": false});
        let failures = verdicts(schema, &[json!([1]), json!([1, 2])]);
        assert_eq!(
            failures,
            [
                None,
                Some("unevaluated_items at /1: no subschema evaluates this item".into())
            ]
        );
        assert_eq!(
            refused(json!({"items": [true]})),
            "`items` must be one schema in draft 2020-12 (a list of schemas is `prefixItems`)"
        );
    }
}
