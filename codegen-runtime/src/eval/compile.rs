//! What a keyword's compile step asks of the generator. The step itself lives in the keyword's
//! room (`keywords/…`): it reads the keyword's value, refuses a malformed one, and asks the
//! [`Site`] for the nodes of the subschemas it applies. The generator implements [`Site`] over
//! its index of schemas, so a room knows nothing of files, URIs or how errors are located.
//!
//! The steps are generic over the site: they are compiled only in the generator, never in a crate
//! that only runs generated code.

use super::{FormatTest, Regex};
use prp_vocabulary::Keyword;
use serde_json::Value;

/// One keyword of a schema object being compiled.
pub trait Site {
    /// The generator's error, located at the place it names.
    type Error;

    /// The keyword.
    fn keyword(&self) -> Keyword;

    /// Its value.
    fn value(&self) -> &Value;

    /// The value of keyword `k` in the same schema object.
    fn sibling(&self, k: Keyword) -> Option<&Value>;

    /// The schema is malformed at the keyword's value: `why` follows the keyword's name.
    fn invalid(&self, why: &str) -> Self::Error;

    /// The node of the subschema at `path` under the keyword's value (empty: the value itself),
    /// refused unless it is an object or a boolean.
    fn schema(&mut self, path: &[&str]) -> Result<usize, Self::Error>;

    /// The node of sibling keyword `k`'s schema, when the object has it.
    fn sibling_schema(&mut self, k: Keyword) -> Result<Option<usize>, Self::Error>;

    /// `source` as a pattern, refused (at `path` under the keyword's value) unless it is an
    /// ECMA-262 regular expression in Unicode mode.
    fn pattern(&self, path: &[&str], source: &str) -> Result<Regex, Self::Error>;

    /// How format `name` is asserted; `None` when the caller leaves it an annotation.
    fn format(&self, name: &str) -> Result<Option<FormatTest>, Self::Error>;

    /// The node `reference` resolves to, and the `$dynamicAnchor` its schema declares, if any.
    fn reference(&mut self, reference: &str) -> Result<(usize, Option<String>), Self::Error>;

    /// Records that the node holds a `$dynamicRef` resolved through the dynamic scope: its
    /// verdict then depends on the resources entered before it.
    fn dynamic(&mut self);
}

/// `v` as a count: a non-negative integer, which JSON may write as `2.0`.
pub(super) fn count<S: Site>(site: &S, v: &Value) -> Result<u64, S::Error> {
    match v.as_f64() {
        Some(f) if f >= 0.0 && f.fract() == 0.0 && f <= u64::MAX as f64 => {
            Ok(v.as_u64().unwrap_or(f as u64))
        }
        _ => Err(site.invalid("must be a non-negative integer")),
    }
}

/// `v` as a list of member or type names.
pub(super) fn names<S: Site>(site: &S, v: &Value) -> Result<Vec<String>, S::Error> {
    v.as_array()
        .and_then(|a| a.iter().map(|s| s.as_str().map(str::to_owned)).collect())
        .ok_or_else(|| site.invalid("must be an array of strings"))
}

/// The keyword's value as a number.
pub(super) fn number<S: Site>(site: &S) -> Result<serde_json::Number, S::Error> {
    match site.value() {
        Value::Number(n) => Ok(n.clone()),
        _ => Err(site.invalid("must be a number")),
    }
}

/// The nodes of a keyword whose value is a list of schemas, which may be empty only if `empty`.
pub(super) fn schema_list<S: Site>(site: &mut S, empty: bool) -> Result<Vec<usize>, S::Error> {
    let len = site
        .value()
        .as_array()
        .map(Vec::len)
        .filter(|&n| n > 0 || empty)
        .ok_or_else(|| site.invalid("must be a non-empty array of schemas"))?;
    (0..len).map(|i| site.schema(&[&i.to_string()])).collect()
}

/// The node of a keyword whose value is one schema.
pub(super) fn one_schema<S: Site>(site: &mut S) -> Result<usize, S::Error> {
    site.schema(&[])
}

/// The names and nodes of a keyword whose value is an object of schemas.
pub(super) fn named_schemas<S: Site>(site: &mut S) -> Result<Vec<(String, usize)>, S::Error> {
    let names: Vec<String> = site
        .value()
        .as_object()
        .ok_or_else(|| site.invalid("must be an object of schemas"))?
        .keys()
        .cloned()
        .collect();
    names
        .into_iter()
        .map(|name| Ok((name.clone(), site.schema(&[&name])?)))
        .collect()
}

/// The member names of sibling `k`'s object (none when it is absent).
pub(super) fn sibling_keys<S: Site>(site: &S, k: Keyword) -> Vec<String> {
    site.sibling(k)
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}
