//! §7.4.3: question adapter fixtures — the schema, then what the schema cannot say about a question
//! set and its response, then the adapter's native request.
//!
//! Decision on the Open point: the acpx projection of an `elicitation/create` form onto the
//! canonical question set is not ported (its id scheme and field mapping are not specified beyond
//! one example); the acpx check is that the native request is an `elicitation/create` form request.

use super::problem;
use crate::decode::decode;
use crate::issue::{Code, Issue};
use crate::types::{
    Question, QuestionAdapterFixture, QuestionAnswerMode, QuestionResponseAnswersValue,
    TextValidationInputType,
};
use serde_json::Value;
use std::collections::HashSet;

/// Checks one question fixture, adding every failure to `problems`.
pub(super) fn check(rel: &str, bytes: &[u8], problems: &mut Vec<Issue>) {
    let fixture = match decode::<QuestionAdapterFixture>(bytes) {
        Ok(f) => f,
        Err(e) => {
            problems.push(problem(
                Code::InvalidQuestionAdapterFixture,
                format!("{rel}: {e}"),
            ));
            return;
        }
    };
    for detail in generic(&fixture) {
        problems.push(problem(
            Code::InvalidQuestionAdapterFixture,
            format!("{rel}: {detail}"),
        ));
    }
    if let Some(p) = adapter(rel, &fixture) {
        problems.push(p);
    }
}

/// The adapter's own requirement on the native request.
fn adapter(rel: &str, fixture: &QuestionAdapterFixture) -> Option<Issue> {
    let request = &fixture.native_request;
    let method = request.get("method").and_then(Value::as_str);
    match fixture.adapter.as_str() {
        "codex" if method != Some("item/tool/requestUserInput") => Some(problem(
            Code::InvalidCodexQuestionFixture,
            format!("{rel}: nativeRequest.method must be item/tool/requestUserInput"),
        )),
        "acpx" => {
            let form = method == Some("elicitation/create")
                && request.pointer("/params/mode").and_then(Value::as_str) == Some("form")
                && request
                    .pointer("/params/requestedSchema")
                    .is_some_and(Value::is_object);
            (!form).then(|| {
                problem(
                    Code::InvalidAcpxQuestionFixture,
                    format!("{rel}: nativeRequest must be an elicitation/create form request with a requestedSchema object"),
                )
            })
        }
        "codex" | "opencode" => None,
        other => Some(problem(
            Code::UnsupportedProvider,
            format!("{rel}: adapter {other} is not a known question adapter"),
        )),
    }
}

/// The checks every adapter shares; each returned line is one failure.
fn generic(fixture: &QuestionAdapterFixture) -> Vec<String> {
    let mut out = Vec::new();
    let questions = &fixture.canonical_question_set.questions;
    let mut ids = HashSet::new();
    for q in questions {
        if !ids.insert(q.id.as_str()) {
            out.push(format!("question id {} is repeated", q.id));
        }
        let mut options = HashSet::new();
        for o in q.options.iter().flatten() {
            if !options.insert(o.id.as_str()) {
                out.push(format!("question {}: option id {} is repeated", q.id, o.id));
            }
        }
        if let Some(v) = &q.text_validation {
            if let (Some(lo), Some(hi)) = (v.min_length, v.max_length)
                && lo > hi
            {
                out.push(format!("question {}: minLength exceeds maxLength", q.id));
            }
            if let (Some(lo), Some(hi)) = (v.minimum, v.maximum)
                && lo > hi
            {
                out.push(format!("question {}: minimum exceeds maximum", q.id));
            }
            if let Some(p) = &v.pattern
                && let Err(e) = regress::Regex::new(p)
            {
                out.push(format!("question {}: pattern does not compile: {e}", q.id));
            }
        }
    }
    let answers = &fixture.canonical_response.answers.extra;
    for (id, answer) in answers {
        match questions.iter().find(|q| q.id == id.as_str()) {
            None => out.push(format!("answer {id} names no question")),
            Some(q) => answer_issues(q, answer, &mut out),
        }
    }
    for q in questions.iter().filter(|q| q.required) {
        if answers.get(q.id.as_str()).is_none_or(|a| !answered(a)) {
            out.push(format!("required question {} has no answer", q.id));
        }
    }
    out
}

fn blank(s: Option<&str>) -> bool {
    s.is_none_or(|t| t.trim().is_empty())
}

/// Whether an answer says something: a selected option or non-blank text.
fn answered(a: &QuestionResponseAnswersValue) -> bool {
    a.selected_option_ids
        .as_ref()
        .is_some_and(|s| !s.is_empty())
        || !blank(a.text.as_deref())
        || !blank(a.custom_text.as_deref())
}

fn answer_issues(q: &Question, a: &QuestionResponseAnswersValue, out: &mut Vec<String>) {
    let id = &q.id;
    if matches!(q.answer_mode, QuestionAnswerMode::Text) {
        if a.selected_option_ids.is_some() || a.custom_text.is_some() {
            out.push(format!("answer {id}: a text question carries only `text`"));
        }
        if let Some(text) = &a.text {
            text_issues(q, text, out);
        }
        return;
    }
    if a.text.is_some() {
        out.push(format!("answer {id}: a select question carries no `text`"));
    }
    let selected = a.selected_option_ids.as_deref().unwrap_or_default();
    let mut seen = HashSet::new();
    for option in selected {
        if !q.options.iter().flatten().any(|o| o.id == *option) {
            out.push(format!(
                "answer {id}: option {option} is not an option of the question"
            ));
        }
        if !seen.insert(option) {
            out.push(format!("answer {id}: option {option} is selected twice"));
        }
    }
    if matches!(q.answer_mode, QuestionAnswerMode::SingleSelect) && selected.len() > 1 {
        out.push(format!(
            "answer {id}: a single_select question takes at most one option"
        ));
    }
    // `customAnswer.enabled` is `const: true`: a present customAnswer is enabled.
    if a.custom_text.is_some() && q.custom_answer.is_none() {
        out.push(format!(
            "answer {id}: customText needs customAnswer enabled"
        ));
    }
}

/// Length in UTF-16 code units (the reference measures JavaScript strings), pattern and bounds.
fn text_issues(q: &Question, text: &str, out: &mut Vec<String>) {
    let Some(v) = &q.text_validation else { return };
    let id = &q.id;
    let len = text.encode_utf16().count() as i64;
    if v.min_length.is_some_and(|m| len < m) || v.max_length.is_some_and(|m| len > m) {
        out.push(format!(
            "answer {id}: text length {len} is outside the allowed range"
        ));
    }
    if let Some(p) = &v.pattern
        && let Ok(re) = regress::Regex::new(p)
        && re.find(text).is_none()
    {
        out.push(format!("answer {id}: text does not match the pattern"));
    }
    let numeric = matches!(
        v.input_type,
        Some(TextValidationInputType::Number | TextValidationInputType::Integer)
    );
    if !(numeric || v.minimum.is_some() || v.maximum.is_some()) {
        return;
    }
    // Digits, sign, point and exponent only: Rust would also read `inf` and `NaN`.
    let trimmed = text.trim();
    let number = trimmed
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | 'e' | 'E'))
        .then(|| trimmed.parse::<f64>().ok())
        .flatten()
        .filter(|n| n.is_finite());
    match number {
        None => out.push(format!("answer {id}: text is not a number")),
        Some(n) => {
            if matches!(v.input_type, Some(TextValidationInputType::Integer)) && n.fract() != 0.0 {
                out.push(format!("answer {id}: text is not an integer"));
            }
            if v.minimum.is_some_and(|m| n < m) || v.maximum.is_some_and(|m| n > m) {
                out.push(format!("answer {id}: {n} is outside the allowed bounds"));
            }
        }
    }
}
