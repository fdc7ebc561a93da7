//! A consumer's view: decode the project's sample documents and match on typed events and payloads.

use prp_types::types::{Event, EventPayload, EventType, PlanStepStatus, ToolExecutionStatus};
use prp_types::{Document, decode_document, decode_str};

fn sample(name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/documents")
            .join(name),
    )
    .unwrap()
}

#[test]
fn plan_updated_carries_a_typed_plan() {
    let event: Event = decode_str(&sample("event-plan-updated.json")).unwrap();
    assert_eq!(event.event_type, EventType::PlanUpdated);
    assert_eq!(event.source_seq, 7);
    let EventPayload::Plan(plan) = &event.payload else {
        panic!("expected a plan, got {:?}", event.payload)
    };
    assert_eq!(plan.steps.len(), 2);
    assert_eq!(plan.steps[1].status, PlanStepStatus::InProgress);
    // `explanation` is optional and nullable: present as null, not absent.
    assert!(plan.explanation.is_null());
    // The unknown top-level member is kept and written back.
    assert_eq!(
        event.extra["laterAddition"],
        serde_json::json!({ "kept": true })
    );
    let again: serde_json::Value = serde_json::to_value(&event).unwrap();
    let input: serde_json::Value =
        serde_json::from_str(&sample("event-plan-updated.json")).unwrap();
    assert_eq!(again, input);
}

#[test]
fn tool_execution_and_document_union() {
    let doc = decode_document(sample("event-tool-execution.json").as_bytes()).unwrap();
    let Document::Event(event) = doc else {
        panic!("expected a v1 event")
    };
    match &event.payload {
        EventPayload::ToolExecution(t) => {
            assert_eq!(t.status, ToolExecutionStatus::Completed);
            assert_eq!(t.exit_code.as_value().and_then(|c| c.as_i64()), Some(0));
            assert_eq!(t.output_digest, None);
        }
        other => panic!("expected a tool execution, got {other:?}"),
    }
    assert_eq!(
        <Event as prp_types::SchemaDocument>::SCHEMA.id,
        "https://paperclip.dev/schemas/prp/v1/event.schema.json"
    );
    assert_eq!(
        <Event as prp_types::SchemaDocument>::SCHEMA.sha256.len(),
        64
    );
}

/// README's "Depending on prp" shows code from the example crates; each snippet after an
/// `<!-- excerpt of PATH -->` line must appear verbatim in PATH, which the workspace compiles, so
/// the README cannot show code that no longer builds.
#[test]
fn readme_snippets_are_excerpts_of_compiled_examples() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let marker = "<!-- excerpt of ";
    let mut checked = 0;
    for (at, _) in readme.match_indices(marker) {
        let rest = &readme[at + marker.len()..];
        let path = &rest[..rest.find(" -->").expect("the marker is closed")];
        let block = rest
            .split_once("```rust\n")
            .and_then(|(_, b)| b.split_once("```\n"))
            .map(|(code, _)| code)
            .unwrap_or_else(|| panic!("a rust block follows the excerpt of {path}"));
        let file = std::fs::read_to_string(root.join(path))
            .unwrap_or_else(|e| panic!("README names {path}: {e}"));
        assert!(
            file.contains(block),
            "README's excerpt of {path} is not in the file:\n{block}"
        );
        checked += 1;
    }
    assert_eq!(checked, 4, "one excerpt per way of depending on prp");
}
