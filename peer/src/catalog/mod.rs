//! The semantic action catalog (PROTOCOL §3): the 29 Paperclip operations an agent may be offered,
//! in catalog order, each with its placement, effect, required claims, modes, roles and JSON Schema
//! input and output contracts.
//!
//! Being in the catalog grants nothing: exposing and invoking an action is the dispatcher's
//! decision. The catalog is immutable and built once; a declaration carries no execution hooks.
//! Each input contract is derived with schemars from the operation's typed input
//! ([`inputs`]), and decoding that type refuses what the contract refuses, with a code and a JSON
//! pointer. One rule schemars cannot express is written into the contract by hand: a `call_api`
//! file takes exactly one of `artifactId` and `path` (a `oneOf`, also checked when decoding).

pub mod fields;
pub mod inputs;

use inputs::*;
use prp_vocabulary::canonical;
use schemars::JsonSchema;
use serde_json::{Map, Value, json};
use std::sync::LazyLock;

/// The `schema` of a declaration.
pub const DECLARATION_SCHEMA: &str = "paperclip.semantic-action.v1";

/// Where the inventory lives, relative to the project directory.
pub const INVENTORY_PATH: &str = "generated/semantic-action-catalog.json";

/// Whether an action is always offered or only when its claims allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Placement {
    /// Offered in every run whose mode allows it.
    Always,
    /// Offered only when the run holds its claims.
    Optional,
}

/// What an action does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Reads state.
    Read,
    /// Changes state.
    Write,
    /// Reads or changes approvals.
    Governance,
}

/// A run mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `standard`.
    Standard,
    /// `ask`.
    Ask,
    /// `planning`.
    Planning,
    /// `skill_test`.
    SkillTest,
}

impl Placement {
    /// The JSON string.
    pub fn as_str(self) -> &'static str {
        match self {
            Placement::Always => "always",
            Placement::Optional => "optional",
        }
    }
}

impl Effect {
    /// The JSON string.
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Write => "write",
            Effect::Governance => "governance",
        }
    }
}

impl Mode {
    /// The JSON string.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Standard => "standard",
            Mode::Ask => "ask",
            Mode::Planning => "planning",
            Mode::SkillTest => "skill_test",
        }
    }
}

/// Every mode.
pub const ALL: &[Mode] = &[Mode::Standard, Mode::Ask, Mode::Planning, Mode::SkillTest];
/// The modes that do work.
pub const WORK: &[Mode] = &[Mode::Standard, Mode::Planning, Mode::SkillTest];
/// The modes that may finish, block or reshape a task.
pub const STANDARD: &[Mode] = &[Mode::Standard, Mode::SkillTest];

/// What an action answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Output {
    /// Any object.
    Open,
    /// A [`Receipt`].
    Receipt,
}

/// One `paperclip.semantic-action.v1` declaration.
#[derive(Debug, Clone)]
pub struct Declaration {
    /// The stable snake_case id, unique in the catalog.
    pub operation_id: &'static str,
    /// A short name.
    pub title: &'static str,
    /// What it does and when to use it.
    pub description: &'static str,
    /// Always offered, or only with its claims.
    pub placement: Placement,
    /// What it does to state.
    pub effect: Effect,
    /// The claims a run must hold.
    pub required_claims: &'static [&'static str],
    /// The modes it is offered in, in inventory order.
    pub allowed_modes: &'static [Mode],
    /// The roles allowed to call it, when restricted.
    pub allowed_roles: Option<&'static [&'static str]>,
    /// The input contract, derived from the typed input.
    pub input_schema: Value,
    /// The output contract.
    pub output: Output,
    /// Decodes an input with the operation's typed input: the contract's verdict, with a code and
    /// a JSON pointer.
    pub check_input: InputCheck,
}

impl Declaration {
    /// The output contract (each of the two is built once).
    pub fn output_schema(&self) -> &'static Value {
        static OPEN: LazyLock<Value> =
            LazyLock::new(|| json!({"type": "object", "additionalProperties": true}));
        static RECEIPT: LazyLock<Value> = LazyLock::new(contract::<Receipt>);
        match self.output {
            Output::Open => &OPEN,
            Output::Receipt => &RECEIPT,
        }
    }

    /// The declaration as JSON (§3.1), keys in declaration order.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("schema".into(), json!(DECLARATION_SCHEMA));
        m.insert("operationId".into(), json!(self.operation_id));
        m.insert("version".into(), json!(1));
        m.insert("title".into(), json!(self.title));
        m.insert("description".into(), json!(self.description));
        m.insert("placement".into(), json!(self.placement.as_str()));
        m.insert("effect".into(), json!(self.effect.as_str()));
        m.insert("requiredClaims".into(), json!(self.required_claims));
        let modes: Vec<&str> = self.allowed_modes.iter().map(|m| m.as_str()).collect();
        m.insert("allowedModes".into(), json!(modes));
        if let Some(roles) = self.allowed_roles {
            m.insert("allowedRoles".into(), json!(roles));
        }
        m.insert("inputSchema".into(), self.input_schema.clone());
        m.insert("outputSchema".into(), self.output_schema().clone());
        Value::Object(m)
    }
}

/// The JSON Schema (draft 2020-12) of `T`, inlined, without the `$schema` and `title` keys.
///
/// schemars writes an optional member (`Option<T>`) as "`T` or `null`"; the contracts say that an
/// optional member may be absent, not `null`, so that `null` is taken out again, except where the
/// member's own type admits it ([`fields::NullableText`] marks its schema for this).
pub fn contract<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    let mut v: Value = generator.into_root_schema_for::<T>().into();
    if let Some(o) = v.as_object_mut() {
        o.remove("$schema");
        o.remove("title");
        o.remove("description");
    }
    absent_is_not_null(&mut v);
    v
}

/// Takes the `null` schemars adds to optional members out of every object schema inside `v`, and
/// drops the marker of types that admit `null` themselves.
fn absent_is_not_null(v: &mut Value) {
    let Value::Object(o) = v else {
        if let Value::Array(a) = v {
            a.iter_mut().for_each(absent_is_not_null);
        }
        return;
    };
    let required: Vec<String> = o
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(props)) = o.get_mut("properties") {
        for (name, p) in props.iter_mut() {
            let own_null = p.get(fields::NULLABLE_MARK).is_some();
            if !required.contains(name) && !own_null {
                strip_null(p);
            }
        }
    }
    o.remove(fields::NULLABLE_MARK);
    for (_, x) in o.iter_mut() {
        absent_is_not_null(x);
    }
}

fn strip_null(p: &mut Value) {
    let Some(o) = p.as_object_mut() else { return };
    if let Some(Value::Array(values)) = o.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    if let Some(Value::Array(types)) = o.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types[0].clone();
            o.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(alts)) = o.get("anyOf").cloned() {
        let kept: Vec<Value> = alts
            .into_iter()
            .filter(|a| a.get("type") != Some(&json!("null")))
            .collect();
        if kept.len() == 1 {
            o.remove("anyOf");
            if let Value::Object(inner) = &kept[0] {
                for (k, x) in inner {
                    o.insert(k.clone(), x.clone());
                }
            }
        } else {
            o.insert("anyOf".into(), Value::Array(kept));
        }
    }
}

struct Spec {
    id: &'static str,
    title: &'static str,
    description: &'static str,
    placement: Placement,
    effect: Effect,
    claims: &'static [&'static str],
    modes: &'static [Mode],
    roles: Option<&'static [&'static str]>,
    input: fn() -> Value,
    check: InputCheck,
    output: Output,
}

// One row of the table below per call: the columns of §3.2.
#[allow(clippy::too_many_arguments)]
const fn spec(
    id: &'static str,
    title: &'static str,
    description: &'static str,
    placement: Placement,
    effect: Effect,
    claims: &'static [&'static str],
    modes: &'static [Mode],
    input: fn() -> Value,
    check: InputCheck,
    output: Output,
) -> Spec {
    Spec {
        id,
        title,
        description,
        placement,
        effect,
        claims,
        modes,
        roles: None,
        input,
        check,
        output,
    }
}

/// Decodes an input against an operation's typed contract.
pub type InputCheck = fn(&[u8]) -> Result<(), crate::Issue>;

fn check<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<(), crate::Issue> {
    crate::decode::decode::<T>(bytes).map(|_| ())
}

use Effect::{Governance, Read, Write};
use Output::{Open, Receipt as Rcpt};
use Placement::{Always, Optional};

const SPECS: &[Spec] = &[
    spec(
        "search_api",
        "Search the Paperclip API",
        "Find Paperclip API operations by what they do, for the rare case no dedicated action fits.",
        Optional,
        Read,
        &["api:discover"],
        ALL,
        contract::<SearchApiInput>,
        check::<SearchApiInput>,
        Open,
    ),
    spec(
        "call_api",
        "Call the Paperclip API",
        "Call an operation found with search_api, with the caller's own permissions, when no dedicated action fits. Never a way around a denial. A file takes exactly one of `artifactId` and `path`.",
        Optional,
        Write,
        &["api:call"],
        ALL,
        contract::<CallApiInput>,
        check::<CallApiInput>,
        Open,
    ),
    spec(
        "get_task_context",
        "Read the task",
        "The current task: its description, state, comments and related work.",
        Always,
        Read,
        &[],
        ALL,
        contract::<NoInput>,
        check::<NoInput>,
        Open,
    ),
    spec(
        "get_task_history",
        "Read the task history",
        "Recent events of the current task, newest first.",
        Always,
        Read,
        &[],
        ALL,
        contract::<GetTaskHistoryInput>,
        check::<GetTaskHistoryInput>,
        Open,
    ),
    spec(
        "list_documents",
        "List documents",
        "The documents attached to the current task.",
        Always,
        Read,
        &[],
        ALL,
        contract::<NoInput>,
        check::<NoInput>,
        Open,
    ),
    spec(
        "read_document",
        "Read a document",
        "One document of the current task, by key.",
        Always,
        Read,
        &[],
        ALL,
        contract::<ReadDocumentInput>,
        check::<ReadDocumentInput>,
        Open,
    ),
    spec(
        "list_document_revisions",
        "List document revisions",
        "The revisions of one document, newest first.",
        Always,
        Read,
        &[],
        ALL,
        contract::<ListDocumentRevisionsInput>,
        check::<ListDocumentRevisionsInput>,
        Open,
    ),
    spec(
        "report_progress",
        "Report progress",
        "Post a progress note on the current task.",
        Always,
        Write,
        &[],
        ALL,
        contract::<MessageInput>,
        check::<MessageInput>,
        Rcpt,
    ),
    spec(
        "answer_status_question",
        "Answer a status question",
        "Answer a question about the task's status.",
        Always,
        Write,
        &[],
        ALL,
        contract::<MessageInput>,
        check::<MessageInput>,
        Rcpt,
    ),
    spec(
        "write_document",
        "Write a document",
        "Create a document, or revise one from the revision it replaces.",
        Always,
        Write,
        &[],
        WORK,
        contract::<WriteDocumentInput>,
        check::<WriteDocumentInput>,
        Rcpt,
    ),
    spec(
        "request_human_input",
        "Ask a human",
        "Ask a person to confirm, choose, answer questions or judge items, and say what happens after.",
        Always,
        Write,
        &[],
        ALL,
        contract::<RequestHumanInputInput>,
        check::<RequestHumanInputInput>,
        Rcpt,
    ),
    spec(
        "register_deliverable",
        "Register a deliverable",
        "Record a file the task produced, by content reference and SHA-256.",
        Always,
        Write,
        &[],
        WORK,
        contract::<RegisterDeliverableInput>,
        check::<RegisterDeliverableInput>,
        Rcpt,
    ),
    spec(
        "finish_task",
        "Finish the task",
        "Mark the current task done, with a summary.",
        Always,
        Write,
        &[],
        STANDARD,
        contract::<SummaryInput>,
        check::<SummaryInput>,
        Rcpt,
    ),
    spec(
        "block_task",
        "Block the task",
        "Mark the current task blocked, with the reason and the tasks it waits for.",
        Always,
        Write,
        &[],
        STANDARD,
        contract::<BlockTaskInput>,
        check::<BlockTaskInput>,
        Rcpt,
    ),
    spec(
        "request_review",
        "Request review",
        "Send the current task to review, with a summary.",
        Always,
        Write,
        &[],
        STANDARD,
        contract::<SummaryInput>,
        check::<SummaryInput>,
        Rcpt,
    ),
    spec(
        "list_agents",
        "List agents",
        "The agents of the company.",
        Optional,
        Read,
        &["discovery:agents:read"],
        ALL,
        contract::<NoInput>,
        check::<NoInput>,
        Open,
    ),
    spec(
        "get_agent",
        "Read an agent",
        "One agent, by actor id.",
        Optional,
        Read,
        &["discovery:agents:read"],
        ALL,
        contract::<GetAgentInput>,
        check::<GetAgentInput>,
        Open,
    ),
    spec(
        "search_tasks",
        "Search tasks",
        "Tasks by text and status.",
        Optional,
        Read,
        &["discovery:tasks:read"],
        ALL,
        contract::<SearchTasksInput>,
        check::<SearchTasksInput>,
        Open,
    ),
    spec(
        "list_approvals",
        "List approvals",
        "The approvals that concern the run.",
        Optional,
        Governance,
        &["governance:approvals:read"],
        ALL,
        contract::<NoInput>,
        check::<NoInput>,
        Open,
    ),
    spec(
        "get_approval",
        "Read an approval",
        "One approval, by id.",
        Optional,
        Governance,
        &["governance:approvals:read"],
        ALL,
        contract::<ApprovalInput>,
        check::<ApprovalInput>,
        Open,
    ),
    spec(
        "get_approval_context",
        "Read an approval's context",
        "What an approval is about and what it affects.",
        Optional,
        Governance,
        &["governance:approvals:read"],
        ALL,
        contract::<ApprovalInput>,
        check::<ApprovalInput>,
        Open,
    ),
    spec(
        "get_workspace_runtime",
        "Read the workspace runtime",
        "The services of the task's workspace and their state.",
        Optional,
        Read,
        &["workspace:read"],
        ALL,
        contract::<NoInput>,
        check::<NoInput>,
        Open,
    ),
    spec(
        "control_workspace_service",
        "Start or stop a workspace service",
        "Start or stop one service of the task's workspace.",
        Optional,
        Write,
        &["workspace:control"],
        STANDARD,
        contract::<ControlWorkspaceServiceInput>,
        check::<ControlWorkspaceServiceInput>,
        Rcpt,
    ),
    spec(
        "set_dependencies",
        "Set dependencies",
        "Replace the tasks the current task waits for.",
        Optional,
        Write,
        &["dependencies:write"],
        STANDARD,
        contract::<SetDependenciesInput>,
        check::<SetDependenciesInput>,
        Rcpt,
    ),
    spec(
        "create_task",
        "Create a task",
        "Create a task, optionally assigned, prioritised and waiting on others.",
        Optional,
        Write,
        &["delegation:tasks:create"],
        STANDARD,
        contract::<CreateTaskInput>,
        check::<CreateTaskInput>,
        Rcpt,
    ),
    spec(
        "request_approval",
        "Request an approval",
        "Ask for an approval of a given type.",
        Optional,
        Governance,
        &["governance:approvals:request"],
        STANDARD,
        contract::<RequestApprovalInput>,
        check::<RequestApprovalInput>,
        Rcpt,
    ),
    Spec {
        roles: Some(&["board", "approver", "security"]),
        ..spec(
            "decide_approval",
            "Decide an approval",
            "Approve, reject or cancel an approval, with a note. Only the board, approvers and security may.",
            Optional,
            Governance,
            &["governance:approvals:decide"],
            STANDARD,
            contract::<DecideApprovalInput>,
            check::<DecideApprovalInput>,
            Rcpt,
        )
    },
    spec(
        "comment_on_approval",
        "Comment on an approval",
        "Add a comment to an approval.",
        Optional,
        Governance,
        &["governance:approvals:comment"],
        ALL,
        contract::<CommentOnApprovalInput>,
        check::<CommentOnApprovalInput>,
        Rcpt,
    ),
    spec(
        "schedule_wake",
        "Schedule a wake",
        "Wake the task's assignee later, for a stated reason.",
        Optional,
        Write,
        &["control_plane:wakes"],
        STANDARD,
        contract::<ScheduleWakeInput>,
        check::<ScheduleWakeInput>,
        Rcpt,
    ),
];

static CATALOG: LazyLock<Vec<Declaration>> = LazyLock::new(|| {
    SPECS
        .iter()
        .map(|s| Declaration {
            operation_id: s.id,
            title: s.title,
            description: s.description,
            placement: s.placement,
            effect: s.effect,
            required_claims: s.claims,
            allowed_modes: s.modes,
            allowed_roles: s.roles,
            input_schema: (s.input)(),
            output: s.output,
            check_input: s.check,
        })
        .collect()
});

/// Every declaration, in catalog order.
pub fn catalog() -> &'static [Declaration] {
    &CATALOG
}

/// The declaration with this id, if there is one.
pub fn lookup(operation_id: &str) -> Option<&'static Declaration> {
    catalog().iter().find(|d| d.operation_id == operation_id)
}

/// The ids that appear more than once (empty for this catalog; a test holds it so).
pub fn duplicate_ids() -> Vec<&'static str> {
    let mut out = Vec::new();
    for (i, d) in SPECS.iter().enumerate() {
        if SPECS[..i].iter().any(|e| e.id == d.id) && !out.contains(&d.id) {
            out.push(d.id);
        }
    }
    out
}

/// The inventory's exact text (§3.3): the catalog as a pretty JSON array, keys sorted recursively.
pub fn inventory() -> String {
    let all: Vec<Value> = catalog()
        .iter()
        .map(|d| canonical::sorted(&d.to_json(), canonical::Order::Utf16))
        .collect();
    crate::json::pretty(&Value::Array(all))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_looked_up() {
        assert_eq!(catalog().len(), 29);
        assert!(duplicate_ids().is_empty());
        assert_eq!(
            lookup("write_document").map(|d| d.effect),
            Some(Effect::Write)
        );
        assert!(lookup("run_shell").is_none());
        let roles: Vec<&str> = catalog()
            .iter()
            .filter(|d| d.allowed_roles.is_some())
            .map(|d| d.operation_id)
            .collect();
        assert_eq!(roles, ["decide_approval"]);
    }
}
