//! Stage 1: version checks on the raw parsed value, before any schema (PROTOCOL §1.7).
//!
//! A check fires only when the member holds a JSON number; a missing or non-number member is left to
//! the schema, which is what keeps "unknown required version" a distinct outcome from "malformed".

use super::{Code, Issue};
use crate::json;
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

/// The version a union variant's tag names: `paperclip.prp.event.v2` is 2.
pub(crate) fn tag_version(tag: &str) -> Option<u32> {
    tag.rsplit_once(".v")?.1.parse().ok()
}

/// The issue of a typed value of a version the schemas describe but this implementation does not
/// read: generated unions gain a variant when a version's schema joins them, and the code reading
/// them fails closed on it, as stage 1 does on the JSON.
pub(crate) fn unread_version(tag: &str) -> Issue {
    unsupported(
        String::new(),
        format!("`{tag}` is a version this implementation does not read"),
    )
}

fn unsupported(path: String, message: String) -> Issue {
    Issue::new(Code::UnsupportedRequiredVersion, path, message)
}

/// Every stage-1 issue of a fixture, in the order of the table in §1.7.
pub(super) fn fixture_issues(value: &Value) -> Vec<Issue> {
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
    let protocol = number(value, "protocolVersion");
    if let Some(n) = protocol
        && n.as_f64().is_none_or(|x| !(1.0..=2.0).contains(&x))
    {
        issues.push(unsupported(
            "/protocolVersion".into(),
            format!(
                "protocolVersion {} is unsupported; this implementation supports 1-2",
                json::number(n)
            ),
        ));
    }
    // The fixture's protocol version, when it is exactly one the implementation supports.
    let protocol = protocol
        .and_then(Number::as_f64)
        .filter(|x| *x == 1.0 || *x == 2.0);
    if let Some(events) = value.get("events").and_then(Value::as_array) {
        for (i, event) in events.iter().enumerate() {
            event_issues(i, event, protocol, &mut issues);
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

fn event_issues(i: usize, event: &Value, protocol: Option<f64>, issues: &mut Vec<Issue>) {
    if let Some(n) = number(event, "schemaVersion") {
        if !(is(n, 1.0) || is(n, 2.0)) {
            issues.push(unsupported(
                format!("/events/{i}/schemaVersion"),
                unsupported_event_message(n),
            ));
        } else if let Some(p) = protocol
            && n.as_f64().is_some_and(|v| v > p)
        {
            // The Open point of §1.7, decided: a run negotiated at protocol N carries no event newer than N.
            issues.push(unsupported(
                format!("/events/{i}/schemaVersion"),
                format!(
                    "event schemaVersion {} exceeds the fixture's protocolVersion {}",
                    json::number(n),
                    json::ecma_f64(p)
                ),
            ));
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

fn unsupported_event_message(n: &Number) -> String {
    format!(
        "event schemaVersion {} is unsupported; this implementation supports 1-2",
        json::number(n)
    )
}

/// The live path's one version check: an event `schemaVersion` outside {1, 2}.
pub(super) fn event_issue(value: &Value) -> Option<Issue> {
    if !value.is_object() {
        return None;
    }
    let n = number(value, "schemaVersion")?;
    if is(n, 1.0) || is(n, 2.0) {
        return None;
    }
    Some(unsupported(
        "/schemaVersion".into(),
        unsupported_event_message(n),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_names_its_version() {
        assert_eq!(tag_version("paperclip.prp.event.v2"), Some(2));
        assert_eq!(tag_version("paperclip.prp.capabilities.v12"), Some(12));
        assert_eq!(tag_version("paperclip.prp.event"), None);
        assert_eq!(tag_version("paperclip.prp.event.vx"), None);
        let issue = unread_version("paperclip.prp.event.v3");
        assert_eq!(issue.code, Code::UnsupportedRequiredVersion);
        assert!(issue.message.contains("paperclip.prp.event.v3"));
    }
}
