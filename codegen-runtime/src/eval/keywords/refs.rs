//! `$ref` and `$dynamicRef`. The generator resolves a reference to a node when it compiles; a
//! `$dynamicRef` is resolved again at run time, through the dynamic scope, only when its first
//! target declares the `$dynamicAnchor` its fragment names (draft 2020-12's bookending rule);
//! any other `$dynamicRef` is a `$ref`.

use super::super::compile::Site;
use super::super::{Cx, Seen};
use super::Rule;
use crate::Failure;
use prp_vocabulary::Keyword;
use serde_json::Value;

pub(super) fn compile_ref<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    let reference = s
        .value()
        .as_str()
        .ok_or_else(|| s.invalid("must be a string"))?
        .to_owned();
    let (node, anchor) = s.reference(&reference)?;
    let fragment = reference.split_once('#').map_or("", |p| p.1);
    let dynamic = s.keyword() == Keyword::DynamicRef
        && !fragment.is_empty()
        && !fragment.starts_with('/')
        && anchor.as_deref() == Some(fragment);
    if dynamic {
        s.dynamic();
        return Ok(Some(Rule::DynamicRef(node, fragment.to_owned())));
    }
    Ok(Some(Rule::Ref(node)))
}

pub(super) fn check_ref(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    node: &usize,
) -> Result<(), Failure> {
    seen.merge(cx.eval(*node, v)?);
    Ok(())
}

/// The outermost resource entered that declares the anchor wins; the first target otherwise.
pub(super) fn check_dynamic_ref(
    cx: &mut Cx,
    v: &Value,
    seen: &mut Seen,
    node: &usize,
    anchor: &str,
) -> Result<(), Failure> {
    let target = cx.dynamic_target(anchor).unwrap_or(*node);
    seen.merge(cx.eval(target, v)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{compiled, verdicts};
    use serde_json::json;

    /// A `$ref` to the root recurses into smaller values; a `$dynamicRef` whose target declares
    /// its anchor is dynamic, one to a pointer is a `$ref`.
    #[test]
    fn references_recurse_and_only_a_bookended_dynamic_ref_is_dynamic() {
        let schema = json!({"type": ["array", "integer"], "items": {"$ref": "#"}});
        let failures = verdicts(schema, &[json!([1, [2, [3]]]), json!([1, ["x"]])]);
        assert_eq!(
            failures,
            [
                None,
                Some("type at /1/0: expected array or integer, found a string".into())
            ]
        );
        let program =
            compiled(json!({"$dynamicAnchor": "t", "items": {"$dynamicRef": "#t"}})).unwrap();
        assert!(format!("{:?}", program.nodes).contains("DynamicRef(0, \"t\")"));
        let program = compiled(json!({"items": {"$dynamicRef": "#"}})).unwrap();
        assert!(format!("{:?}", program.nodes).contains("Ref(0)"));
    }
}
