//! One verdict per document, as text or (`--json`) as one JSON object per line.
//!
//! Schema keywords are reported with the code `schema_validation` and the keyword named beside it
//! (`"keyword"` in JSON, in parentheses in text), every other code as itself, so that a script
//! can rely on the short list of codes `prp validate --help` gives.

use prp_types::Issue;
use serde_json::{Value, json};
use std::io::{self, Write};

/// The JSON object of one issue: `{code, path, message}`, plus `keyword` for a schema keyword.
pub fn issue_json(issue: &Issue) -> Value {
    let mut v = json!({
        "code": issue.code.report_name(),
        "path": issue.path(),
        "message": message(issue),
    });
    if issue.code.is_schema_keyword() {
        v["keyword"] = json!(issue.code.as_str());
    }
    v
}

/// One issue as a line of text: `code at path: message`.
pub fn issue_text(issue: &Issue) -> String {
    format!(
        "{} at {}: {}",
        issue.code.report_name(),
        issue.path(),
        message(issue)
    )
}

fn message(issue: &Issue) -> String {
    if issue.code.is_schema_keyword() {
        format!("{} ({})", issue.message, issue.code.as_str())
    } else {
        issue.message.clone()
    }
}

/// Writes the verdict on `source`: valid when `issues` is empty.
pub fn verdict(
    out: &mut impl Write,
    source: &str,
    issues: &[Issue],
    as_json: bool,
) -> io::Result<()> {
    if as_json {
        let list: Vec<Value> = issues.iter().map(issue_json).collect();
        writeln!(
            out,
            "{}",
            json!({"source": source, "valid": issues.is_empty(), "issues": list})
        )
    } else if issues.is_empty() {
        writeln!(out, "{source}: valid")
    } else {
        let list: Vec<String> = issues.iter().map(issue_text).collect();
        writeln!(out, "{source}: invalid: {}", list.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prp_types::Code;

    #[test]
    fn keywords_are_grouped_and_named() {
        let i = Issue::new(
            Code::Keyword(prp_types::Keyword::MaxLength),
            "/runId",
            "string has 200 characters",
        );
        assert_eq!(
            issue_json(&i),
            json!({"code": "schema_validation", "keyword": "max_length", "path": "/runId",
                   "message": "string has 200 characters (max_length)"})
        );
        let i = Issue::new(Code::Keyword(prp_types::Keyword::TooDeep), "", "deep");
        assert_eq!(issue_text(&i), "too_deep at /: deep");
        let mut out = Vec::new();
        verdict(&mut out, "a.json", &[], false).unwrap();
        assert_eq!(out, b"a.json: valid\n");
    }
}
