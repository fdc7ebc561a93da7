//! Stage 1: version checks on the raw parsed value, before any schema (PROTOCOL §1.7).
//!
//! A check fires only when the member holds a JSON number; a missing or non-number member is left to
//! the schema, which is what keeps "unknown required version" a distinct outcome from "malformed".

use super::{Code, Issue};
use crate::json;
use crate::negotiation::VersionRange;
use serde_json::{Number, Value};

/// The member at `key` when it is a JSON number.
fn number<'a>(object: &'a Value, key: &str) -> Option<&'a Number> {
    object.get(key).and_then(|v| match v {
        Value::Number(n) => Some(n),
        _ => None,
    })
}

fn is(n: &Number, x: f64) -> bool {
    n.as_f64() == Some(x)
}

fn unsupported(path: String, message: String) -> Issue {
    Issue::new(Code::UnsupportedRequiredVersion, path, message)
}

/// The member at `key` when it is a JSON number with an integral value that fits a `u32` (`2.0`
/// is 2): the form in which a version can be compared with a range.
pub(super) fn whole(object: &Value, key: &str) -> Option<u32> {
    let x = number(object, key)?.as_f64()?;
    (x.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&x)).then_some(x as u32)
}

/// Every stage-1 issue of a fixture under `range`, in the order of the table in §1.7.
pub(super) fn fixture_issues(value: &Value, range: VersionRange) -> Vec<Issue> {
    let mut issues = Vec::new();
    if !value.is_object() {
        return issues;
    }
    if let Some(n) = number(value, "fixtureVersion")
        && !is(n, 1.0)
    {
        issues.push(unsupported(
            "/fixtureVersion".into(),
            format!(
                "fixtureVersion {} is unsupported; this implementation requires 1",
                json::number(n)
            ),
        ));
    }
    // A number between the bounds that is not a version (1.5) is the schema's to refuse.
    let bounds = f64::from(range.min())..=f64::from(range.max());
    if let Some(n) = number(value, "protocolVersion")
        && n.as_f64().is_none_or(|x| !bounds.contains(&x))
    {
        issues.push(unsupported(
            "/protocolVersion".into(),
            format!(
                "protocolVersion {} is unsupported; this implementation supports {}-{}",
                json::number(n),
                range.min(),
                range.max()
            ),
        ));
    }
    // The fixture's protocol version, when it is exactly one the range holds.
    let protocol = whole(value, "protocolVersion").filter(|v| range.contains(*v));
    if let Some(events) = value.get("events").and_then(Value::as_array) {
        for (i, event) in events.iter().enumerate() {
            event_issues(i, event, range, protocol, &mut issues);
        }
    }
    if let Some(tools) = value.pointer("/capabilities/semanticTools")
        && let Some(n) = number(tools, "schemaVersion")
        && !is(n, 1.0)
    {
        issues.push(unsupported(
            "/capabilities/semanticTools/schemaVersion".into(),
            format!(
                "semanticTools schemaVersion {} is unsupported; this implementation requires 1",
                json::number(n)
            ),
        ));
    }
    issues
}

/// The event versions a range knows: every version up to its maximum, since a run negotiated at
/// N still carries the events whose shape has not changed since an earlier version.
fn event_version(object: &Value, range: VersionRange) -> Option<u32> {
    whole(object, "schemaVersion").filter(|v| (1..=range.max()).contains(v))
}

fn event_issues(
    i: usize,
    event: &Value,
    range: VersionRange,
    protocol: Option<u32>,
    issues: &mut Vec<Issue>,
) {
    if let Some(n) = number(event, "schemaVersion") {
        match event_version(event, range) {
            None => issues.push(unsupported(
                format!("/events/{i}/schemaVersion"),
                unsupported_event_message(n, range),
            )),
            Some(version) => envelope_issues(i, event, version, protocol, issues),
        }
    }
    let Some(payload) = event.get("payload").filter(|p| p.is_object()) else {
        return;
    };
    for member in ["semantic_tool", "stopReason"] {
        if let Some(inner) = payload.get(member).filter(|v| v.is_object())
            && let Some(n) = number(inner, "schemaVersion")
            && !is(n, 1.0)
        {
            issues.push(unsupported(
                format!("/events/{i}/payload/{member}/schemaVersion"),
                format!(
                    "{member} schemaVersion {} is unsupported; this implementation requires 1",
                    json::number(n)
                ),
            ));
        }
    }
}

/// The decided Open points for an event of a known `version`: no newer than the fixture's
/// protocol (a run negotiated at N carries no event newer than N), and a `schema` that names the
/// same version (a non-string `schema` is the schema's to refuse).
fn envelope_issues(
    i: usize,
    event: &Value,
    version: u32,
    protocol: Option<u32>,
    issues: &mut Vec<Issue>,
) {
    if let Some(p) = protocol
        && version > p
    {
        issues.push(unsupported(
            format!("/events/{i}/schemaVersion"),
            format!("event schemaVersion {version} exceeds the fixture's protocolVersion {p}"),
        ));
    }
    let expected = format!("paperclip.prp.event.v{version}");
    if let Some(schema) = event.get("schema").and_then(Value::as_str)
        && schema != expected
    {
        issues.push(unsupported(
            format!("/events/{i}/schema"),
            format!(
                "event schema {} does not match its schemaVersion {version}, which requires {expected}",
                json::canonical(&Value::String(schema.to_owned()))
            ),
        ));
    }
}

fn unsupported_event_message(n: &Number, range: VersionRange) -> String {
    format!(
        "event schemaVersion {} is unsupported; this implementation supports 1-{}",
        json::number(n),
        range.max()
    )
}

/// The live path's one version check: an event `schemaVersion` beyond what `range` knows.
pub(super) fn event_issue(value: &Value, range: VersionRange) -> Option<Issue> {
    if !value.is_object() {
        return None;
    }
    let n = number(value, "schemaVersion")?;
    if event_version(value, range).is_some() {
        return None;
    }
    Some(unsupported(
        "/schemaVersion".into(),
        unsupported_event_message(n, range),
    ))
}
