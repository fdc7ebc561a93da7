//! The typed input of every semantic action, and the shared receipt output. Each type derives its
//! JSON Schema contract with schemars from the same field types that check a decoded value, so the
//! type and the contract cannot drift. Decoding (`decode::<T>`) refuses what the contract refuses,
//! with the decoders' codes and JSON pointers: `required`, `additional_properties`, `duplicate_key`,
//! `min_length`, `enum`, ...

use super::fields::{IdList, Int, NullableText, Text};
use prp_codegen_runtime::{self as rt, Failure, Keyword};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};

/// A closed object whose members decode into typed fields, with typed failures. Required members
/// come first, then optional ones (absent is `None`; `default` is what the contract says an
/// absent one means).
macro_rules! closed_object {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $rdoc:literal])*
                $rjson:literal => $rfield:ident : $rty:ty,
            )*
            $(
                ?
                $(#[doc = $odoc:literal])*
                $ojson:literal => $ofield:ident : $oty:ty $(= $default:literal)?,
            )*
        }
        $(check $check:path;)?
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
        #[schemars(deny_unknown_fields)]
        pub struct $name {
            $(
                $(#[doc = $rdoc])*
                #[serde(rename = $rjson)]
                pub $rfield: $rty,
            )*
            $(
                $(#[doc = $odoc])*
                #[serde(rename = $ojson, default, skip_serializing_if = "Option::is_none")]
                $(#[schemars(extend("default" = $default))])?
                pub $ofield: Option<$oty>,
            )*
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str(concat!("an object (", stringify!($name), ")"))
                    }
                    #[allow(unused_mut)]
                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<$name, A::Error> {
                        $( let mut $rfield: Option<$rty> = None; )*
                        $( let mut $ofield: Option<$oty> = None; )*
                        while let Some(key) = map.next_key::<rt::Key<'de>>()? {
                            match key.as_str() {
                                $(
                                    $rjson => {
                                        if $rfield.is_some() {
                                            return Err(rt::duplicate(&mut map, $rjson));
                                        }
                                        $rfield = Some(map.next_value()?);
                                    }
                                )*
                                $(
                                    $ojson => {
                                        if $ofield.is_some() {
                                            return Err(rt::duplicate(&mut map, $ojson));
                                        }
                                        $ofield = Some(map.next_value()?);
                                    }
                                )*
                                other => {
                                    let msg = format!("unknown member `{other}` is not allowed");
                                    map.next_value_seed(rt::Reject(Failure::new(
                                        Keyword::AdditionalProperties,
                                        "",
                                        msg,
                                    )))?;
                                }
                            }
                        }
                        let value = $name {
                            $(
                                $rfield: $rfield.ok_or_else(|| {
                                    rt::fail(
                                        Keyword::Required,
                                        "",
                                        concat!("missing required member `", $rjson, "`"),
                                    )
                                })?,
                            )*
                            $( $ofield, )*
                        };
                        $( $check(&value).map_err(Failure::into_error)?; )?
                        Ok(value)
                    }
                }
                d.deserialize_map(V)
            }
        }
    };
}

/// A closed set of strings.
macro_rules! string_enum {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[doc = $vdoc:literal])* $json:literal => $variant:ident,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $(#[doc = concat!("`", $json, "`")] $(#[doc = $vdoc])* $variant,)*
        }
        impl $name {
            /// The JSON string.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $json,)* }
            }
        }
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                match s.as_str() {
                    $($json => Ok($name::$variant),)*
                    other => Err(rt::fail(
                        Keyword::Enum,
                        "",
                        format_args!("`{other}` is not one of {}", [$(concat!("`", $json, "`")),*].join(", ")),
                    )),
                }
            }
        }
        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({"enum": [$($json),*]})
            }
        }
    };
}

/// `idempotencyKey`: 1 to 240 characters.
pub type IdempotencyKey = Text<1, 240>;
/// A message body: 1 to 20,000 characters.
pub type Body = Text<1, 20000>;
/// Any JSON object.
pub type OpenObject = Map<String, Value>;

closed_object! {
    /// No input.
    pub struct NoInput {}
}

closed_object! {
    /// `search_api`: find Paperclip API operations by text.
    pub struct SearchApiInput {
        /// What to look for.
        "query" => query: Text<1, 500>,
        ?
        /// Where a previous page ended.
        "cursor" => cursor: Text<0, 200>,
        ?
        /// How many operations to return.
        "limit" => limit: Int<1, 10> = 5,
    }
}

// schemars cannot say "exactly one of": the `oneOf` is added to the contract by hand (see
// `ApiFiles`) and decoding checks it (`exactly_one_source`).
closed_object! {
    /// One file sent with `call_api`: exactly one of `artifactId` (an uploaded artifact) and
    /// `path` (a file in the workspace).
    pub struct ApiFile {
        ?
        /// An uploaded artifact.
        "artifactId" => artifact_id: String,
        ?
        /// The request field the file goes in.
        "field" => field: String,
        ?
        /// A file relative to the active issue workspace.
        "path" => path: String,
    }
    check exactly_one_source;
}

fn exactly_one_source(f: &ApiFile) -> Result<(), Failure> {
    match (&f.artifact_id, &f.path) {
        (Some(_), None) | (None, Some(_)) => Ok(()),
        (Some(_), Some(_)) => Err(Failure::new(
            Keyword::OneOf,
            "",
            "a file takes `artifactId` or `path`, not both",
        )),
        (None, None) => Err(Failure::new(
            Keyword::OneOf,
            "",
            "a file takes `artifactId` or `path`",
        )),
    }
}

/// At most 10 files.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ApiFiles(pub Vec<ApiFile>);

impl<'de> Deserialize<'de> for ApiFiles {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let files = Vec::<ApiFile>::deserialize(d)?;
        rt::items_failure(&files, None, Some(10), false).map_err(Failure::into_error)?;
        Ok(ApiFiles(files))
    }
}

impl schemars::JsonSchema for ApiFiles {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ApiFiles".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut item = g.subschema_for::<ApiFile>();
        if let Some(o) = item.as_object_mut() {
            o.insert(
                "oneOf".into(),
                serde_json::json!([
                    {"required": ["artifactId"], "properties": {"artifactId": {}}},
                    {"required": ["path"], "properties": {"path": {}}}
                ]),
            );
        }
        schemars::json_schema!({"type": "array", "items": item, "maxItems": 10})
    }
}

closed_object! {
    /// `call_api`: call a discovered Paperclip API operation.
    pub struct CallApiInput {
        /// The exact operation id `search_api` returned.
        "operationId" => operation_id: Text<1, 500>,
        ?
        /// The request value, any JSON.
        "body" => body: Value,
        ?
        /// The request's content type.
        "contentType" => content_type: Text<0, 120>,
        ?
        /// Files to send, each an artifact or a workspace path.
        "files" => files: ApiFiles,
        ?
        /// Path parameters.
        "pathParams" => path_params: std::collections::BTreeMap<String, String>,
        ?
        /// Query parameters.
        "query" => query: OpenObject,
    }
}

closed_object! {
    /// `get_task_history`.
    pub struct GetTaskHistoryInput {
        ?
        /// How many entries.
        "limit" => limit: Int<1, 200> = 50,
    }
}

closed_object! {
    /// `read_document`.
    pub struct ReadDocumentInput {
        /// The document key.
        "key" => key: Text<1, 120>,
    }
}

closed_object! {
    /// `list_document_revisions`.
    pub struct ListDocumentRevisionsInput {
        /// The document key.
        "key" => key: Text<1, 120>,
        ?
        /// How many revisions.
        "limit" => limit: Int<1, 200> = 50,
    }
}

closed_object! {
    /// `report_progress` and `answer_status_question`: a message.
    pub struct MessageInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// The message.
        "body" => body: Body,
    }
}

closed_object! {
    /// `write_document`: create or revise a document.
    pub struct WriteDocumentInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// The document key.
        "key" => key: Text<1, 120>,
        /// The document title.
        "title" => title: Text<1, 300>,
        /// The document text.
        "body" => body: Text<1, 200000>,
        /// The revision this one replaces, or `null` for a new document.
        "baseRevisionId" => base_revision_id: NullableText<240>,
        ?
        /// What changed.
        "changeSummary" => change_summary: NullableText<20000>,
    }
}

string_enum! {
    /// What kind of human input is asked for.
    pub enum InteractionKind {
        "confirmation" => Confirmation,
        "checkbox" => Checkbox,
        "questions" => Questions,
        "suggest_tasks" => SuggestTasks,
        "item_verdicts" => ItemVerdicts,
    }
}

string_enum! {
    /// What happens once the human answers.
    pub enum ContinuationPolicy {
        "none" => None,
        "wake_assignee" => WakeAssignee,
        "wake_assignee_on_accept" => WakeAssigneeOnAccept,
    }
}

closed_object! {
    /// `request_human_input`.
    pub struct RequestHumanInputInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// The kind of interaction.
        "interactionKind" => interaction_kind: InteractionKind,
        /// Its title.
        "title" => title: Text<1, 300>,
        /// What the human is asked.
        "prompt" => prompt: Text<1, 10000>,
        /// What happens after the answer.
        "continuationPolicy" => continuation_policy: ContinuationPolicy,
        ?
        /// Kind-specific details.
        "payload" => payload: OpenObject,
        ?
        /// The revision the request is about, or `null`.
        "targetRevisionId" => target_revision_id: NullableText<240>,
    }
}

/// A SHA-256 in hex, either case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Sha256Hex(String);

impl<'de> Deserialize<'de> for Sha256Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
            Ok(Sha256Hex(s))
        } else {
            Err(rt::fail(
                Keyword::Pattern,
                "",
                "string does not match the pattern ^[a-fA-F0-9]{64}$",
            ))
        }
    }
}

impl schemars::JsonSchema for Sha256Hex {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Sha256Hex".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string", "pattern": "^[a-fA-F0-9]{64}$"})
    }
}

closed_object! {
    /// `register_deliverable`.
    pub struct RegisterDeliverableInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// The file name.
        "filename" => filename: Text<1, 500>,
        /// Its content type.
        "contentType" => content_type: Text<1, 200>,
        /// Its size in bytes.
        "byteSize" => byte_size: Int<0, 100000000>,
        /// Its SHA-256.
        "sha256" => sha256: Sha256Hex,
        /// Where its content is.
        "contentRef" => content_ref: Text<1, 2000>,
        /// Its title.
        "title" => title: Text<1, 500>,
    }
}

closed_object! {
    /// `finish_task` and `request_review`: a summary.
    pub struct SummaryInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// The summary.
        "summary" => summary: Body,
    }
}

closed_object! {
    /// `block_task`.
    pub struct BlockTaskInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// Why the task is blocked.
        "reason" => reason: Body,
        ?
        /// The tasks it waits for.
        "blockedByTaskIds" => blocked_by_task_ids: IdList<200>,
    }
}

closed_object! {
    /// `get_agent`.
    pub struct GetAgentInput {
        /// The agent's actor id.
        "actorId" => actor_id: Text<1, 200>,
    }
}

string_enum! {
    /// A task status.
    pub enum TaskStatus {
        "backlog" => Backlog,
        "todo" => Todo,
        "in_progress" => InProgress,
        "in_review" => InReview,
        "done" => Done,
        "blocked" => Blocked,
        "cancelled" => Cancelled,
    }
}

/// Distinct task statuses, at most 7.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Statuses(pub Vec<TaskStatus>);

impl<'de> Deserialize<'de> for Statuses {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = Vec::<TaskStatus>::deserialize(d)?;
        rt::items_failure(&items, None, Some(7), true).map_err(Failure::into_error)?;
        Ok(Statuses(items))
    }
}

impl schemars::JsonSchema for Statuses {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Statuses".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let item = g.subschema_for::<TaskStatus>();
        schemars::json_schema!({"type": "array", "items": item, "maxItems": 7, "uniqueItems": true})
    }
}

closed_object! {
    /// `search_tasks`.
    pub struct SearchTasksInput {
        ?
        /// Text to look for.
        "query" => query: Text<0, 500>,
        ?
        /// Only tasks in these statuses.
        "statuses" => statuses: Statuses,
        ?
        /// How many tasks.
        "limit" => limit: Int<1, 200> = 50,
    }
}

closed_object! {
    /// `get_approval` and `get_approval_context`.
    pub struct ApprovalInput {
        /// The approval.
        "approvalId" => approval_id: Text<1, 200>,
    }
}

string_enum! {
    /// Start or stop.
    pub enum ServiceAction {
        "start" => Start,
        "stop" => Stop,
    }
}

closed_object! {
    /// `control_workspace_service`.
    pub struct ControlWorkspaceServiceInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// The service.
        "serviceId" => service_id: Text<1, 200>,
        /// What to do.
        "action" => action: ServiceAction,
    }
}

closed_object! {
    /// `set_dependencies`.
    pub struct SetDependenciesInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// The tasks this one waits for.
        "blockedByTaskIds" => blocked_by_task_ids: IdList<200>,
    }
}

string_enum! {
    /// A task priority.
    pub enum Priority {
        "critical" => Critical,
        "high" => High,
        "medium" => Medium,
        "low" => Low,
    }
}

closed_object! {
    /// `create_task`.
    pub struct CreateTaskInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// The task title.
        "title" => title: Text<1, 500>,
        ?
        /// Its description, or `null`.
        "description" => description: NullableText<20000>,
        ?
        /// Who it is for, or `null`.
        "assigneeActorId" => assignee_actor_id: NullableText<200>,
        ?
        /// Its priority.
        "priority" => priority: Priority,
        ?
        /// The tasks it waits for.
        "blockedByTaskIds" => blocked_by_task_ids: IdList<200>,
    }
}

closed_object! {
    /// `request_approval`.
    pub struct RequestApprovalInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// The kind of approval.
        "approvalType" => approval_type: Text<1, 200>,
        /// What is to be approved.
        "payload" => payload: OpenObject,
    }
}

string_enum! {
    /// An approval decision.
    pub enum Decision {
        "approved" => Approved,
        "rejected" => Rejected,
        "cancelled" => Cancelled,
    }
}

closed_object! {
    /// `decide_approval`.
    pub struct DecideApprovalInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// The approval.
        "approvalId" => approval_id: Text<1, 200>,
        /// The decision.
        "decision" => decision: Decision,
        /// Why.
        "note" => note: Body,
    }
}

closed_object! {
    /// `comment_on_approval`.
    pub struct CommentOnApprovalInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// The approval.
        "approvalId" => approval_id: Text<1, 200>,
        /// The comment.
        "body" => body: Body,
    }
}

string_enum! {
    /// Why a wake is scheduled.
    pub enum WakeReason {
        "manual" => Manual,
        "issue_commented" => IssueCommented,
        "interaction_resolved" => InteractionResolved,
        "approval_resolved" => ApprovalResolved,
        "blockers_resolved" => BlockersResolved,
        "scheduled_retry" => ScheduledRetry,
        "resume" => Resume,
    }
}

closed_object! {
    /// `schedule_wake`.
    pub struct ScheduleWakeInput {
        /// Makes a retried call a duplicate of the first.
        "idempotencyKey" => idempotency_key: IdempotencyKey,
        /// Why.
        "reason" => reason: WakeReason,
        /// In how many seconds.
        "delaySeconds" => delay_seconds: Int<1, 86400>,
        ?
        /// What the woken run gets.
        "payload" => payload: OpenObject,
    }
}

string_enum! {
    /// Whether a mutation took effect now or had already.
    pub enum Disposition {
        "applied" => Applied,
        "duplicate" => Duplicate,
    }
}

closed_object! {
    /// The output of every mutation: what the control plane did.
    pub struct Receipt {
        /// The command that carried the mutation.
        "commandId" => command_id: Text<1, 200>,
        /// Applied now, or a duplicate of an earlier call.
        "disposition" => disposition: Disposition,
        /// The state revision after it.
        "stateRevision" => state_revision: Int<0, { i64::MAX }>,
        /// The entities it touched.
        "entityRefs" => entity_refs: IdList<200>,
        /// The wakes it scheduled.
        "scheduledWakeIds" => scheduled_wake_ids: IdList<200>,
    }
}
