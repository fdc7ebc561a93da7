//! The run-scoped dispatcher (PROTOCOL §4): which semantic actions an agent may see and call in one
//! run, decided from the run's current context.
//!
//! This module holds the authorization decision of §4.3 ([`decide`]) over a typed
//! [`RunContext`] (§4.2), and the bounded record of decisions (§4.10). `dispatch` and discovery
//! build on them.
//!
//! Decision on the Open point of §4.3: `effectiveClaims` are sorted by UTF-16 code unit, not with
//! locale collation, so the order is the same on every platform (it agrees with the reference for
//! every claim in the catalog).
//!
//! Decision on the Open point of §4.10: one record per dispatch. The step-10 re-check writes its
//! own record only when it denies, in place of the first decision's; when it allows, the first
//! decision is the one recorded.

mod discovery;
mod dispatch;
mod records;

pub use discovery::{DiscoveryRequest, namespace};
pub use dispatch::{
    Binding, Call, ConstructionError, ContextProvider, Correlation, DispatchError, DispatchResult,
    Dispatcher, Invocation, boundary, message, operation_receipt_id, outcome, retryable,
};
pub use records::{AuthorizationRecord, AuthorizationRecords};

use crate::catalog::{Declaration, Effect};
use serde::Deserialize;

/// The run context (§4.2), read anew from the context provider on every call.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunContext {
    /// The run.
    pub run_id: String,
    /// The company the run belongs to.
    pub company_id: String,
    /// Who the agent acts as.
    pub actor: Actor,
    /// The task the run works on.
    pub active_task: ActiveTask,
    /// The claims delegated to the run; only those the actor also holds take effect.
    pub delegated_claims: Vec<String>,
    /// Company policy, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy>,
}

/// The acting actor.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Actor {
    /// The actor.
    pub id: String,
    /// Its company.
    pub company_id: String,
    /// `active`, or anything else (not allowed to act).
    pub status: String,
    /// Its role (compared trimmed and lowercased).
    pub role: String,
    /// The claims it holds.
    pub claims: Vec<String>,
}

/// The task the run works on.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActiveTask {
    /// The task.
    pub id: String,
    /// Its company.
    pub company_id: String,
    /// Who it is assigned to.
    pub assignee_actor_id: Option<String>,
    /// The run executing it.
    pub execution_run_id: Option<String>,
    /// Its status (`done`, `cancelled` and `canceled` refuse mutations).
    pub status: String,
    /// The mode it is worked in (`standard`, `ask`, `planning`, `skill_test`).
    pub work_mode: String,
}

/// Company policy on the run.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Policy {
    /// Operations never offered nor run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub denied_operation_ids: Option<Vec<String>>,
    /// The interaction kinds `request_human_input` may ask for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_interaction_kinds: Option<Vec<String>>,
}

/// When a decision is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Whether to list the action.
    Exposure,
    /// Whether to run it.
    Invocation,
}

impl Phase {
    /// The JSON string.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Exposure => "exposure",
            Phase::Invocation => "invocation",
        }
    }
}

/// The decision codes of §4.3, in check order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DecisionCode {
    /// 1: a context member is not well formed.
    AuthorityContextInvalid,
    /// 3: the context is another run's.
    RunMismatch,
    /// 4: the actor or the task belongs to another company.
    CompanyMismatch,
    /// 5: the actor is not active.
    ActorInactive,
    /// 6: the task is not this actor's, or not executed by this run.
    TaskOwnershipDenied,
    /// 7: the task's work mode is not among the action's modes.
    TaskModeDenied,
    /// 8: a mutation on a finished task.
    TaskStateDenied,
    /// 9: policy denies the operation.
    PolicyDenied,
    /// 10: the actor's role is not among the action's roles.
    ActorRoleDenied,
    /// 11: a required claim is not effective.
    RequiredClaimMissing,
    /// 12: policy does not allow the interaction kind asked for.
    InteractionKindDenied,
    /// 13: allowed.
    Allowed,
}

impl DecisionCode {
    /// The stable snake_case code.
    pub fn as_str(self) -> &'static str {
        use DecisionCode::*;
        match self {
            AuthorityContextInvalid => "authority_context_invalid",
            RunMismatch => "run_mismatch",
            CompanyMismatch => "company_mismatch",
            ActorInactive => "actor_inactive",
            TaskOwnershipDenied => "task_ownership_denied",
            TaskModeDenied => "task_mode_denied",
            TaskStateDenied => "task_state_denied",
            PolicyDenied => "policy_denied",
            ActorRoleDenied => "actor_role_denied",
            RequiredClaimMissing => "required_claim_missing",
            InteractionKindDenied => "interaction_kind_denied",
            Allowed => "allowed",
        }
    }
}

/// An authorization decision (§4.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Whether the action may be listed (exposure) or run (invocation).
    pub allowed: bool,
    /// When it was taken.
    pub phase: Phase,
    /// The operation.
    pub operation_id: &'static str,
    /// Why: the first check that failed, or `allowed`.
    pub code: DecisionCode,
    /// A sentence for people; not part of the contract (tests compare codes).
    pub reason: String,
    /// The delegated claims the actor holds, distinct, in UTF-16 code-unit order.
    pub effective_claims: Vec<String>,
}

/// A stable id: the generated `StableId1To240` rule (1 to 240 characters of `[A-Za-z0-9._:-]`,
/// starting with a letter or digit).
pub fn is_stable_id(s: &str) -> bool {
    crate::types::StableId1To240::try_from(s).is_ok()
}

fn is_text(s: &str) -> bool {
    (1..=240).contains(&s.chars().count())
}

fn is_list(list: &[String]) -> bool {
    list.len() <= 1000 && list.iter().all(|s| is_text(s))
}

/// Check 1: every member the decision reads is well formed.
fn well_formed(ctx: &RunContext, requested_run_id: &str) -> bool {
    let ids = [
        requested_run_id,
        &ctx.run_id,
        &ctx.company_id,
        &ctx.actor.id,
        &ctx.actor.company_id,
        &ctx.active_task.id,
        &ctx.active_task.company_id,
    ];
    let optional = [
        ctx.active_task.assignee_actor_id.as_deref(),
        ctx.active_task.execution_run_id.as_deref(),
    ];
    let policy_ok = ctx.policy.as_ref().is_none_or(|p| {
        p.denied_operation_ids.as_deref().is_none_or(is_list)
            && p.allowed_interaction_kinds.as_deref().is_none_or(is_list)
    });
    ids.iter().all(|s| is_stable_id(s))
        && optional.iter().flatten().all(|s| is_stable_id(s))
        && [
            &ctx.actor.status,
            &ctx.actor.role,
            &ctx.active_task.status,
            &ctx.active_task.work_mode,
        ]
        .iter()
        .all(|s| is_text(s))
        && is_list(&ctx.actor.claims)
        && is_list(&ctx.delegated_claims)
        && policy_ok
}

/// The delegated claims the actor also holds, distinct, in UTF-16 code-unit order.
pub fn effective_claims(ctx: &RunContext) -> Vec<String> {
    let mut out: Vec<String> = ctx
        .delegated_claims
        .iter()
        .filter(|c| ctx.actor.claims.contains(c))
        .cloned()
        .collect();
    out.sort_by(|a, b| crate::json::utf16_cmp(a, b));
    out.dedup();
    out
}

/// The authorization decision of §4.3: the checks in order, the first failure wins.
/// `input` is the call's input at invocation (for the interaction-kind check).
pub fn decide(
    action: &'static Declaration,
    ctx: &RunContext,
    phase: Phase,
    requested_run_id: &str,
    input: Option<&serde_json::Value>,
) -> Decision {
    let id = action.operation_id;
    let deny = |code: DecisionCode, reason: String, claims: Vec<String>| Decision {
        allowed: false,
        phase,
        operation_id: id,
        code,
        reason,
        effective_claims: claims,
    };
    if !well_formed(ctx, requested_run_id) {
        return deny(
            DecisionCode::AuthorityContextInvalid,
            "The run context is not well formed.".into(),
            Vec::new(),
        );
    }
    let claims = effective_claims(ctx);
    use DecisionCode::*;
    let task = &ctx.active_task;
    let failed: Option<(DecisionCode, String)> = if ctx.run_id != requested_run_id {
        Some((
            RunMismatch,
            format!(
                "The context is for run {}, not {requested_run_id}.",
                ctx.run_id
            ),
        ))
    } else if ctx.actor.company_id != ctx.company_id || task.company_id != ctx.company_id {
        Some((
            CompanyMismatch,
            "The actor or the task belongs to another company.".into(),
        ))
    } else if ctx.actor.status != "active" {
        Some((ActorInactive, format!("The actor is {}.", ctx.actor.status)))
    } else if task.assignee_actor_id.as_deref() != Some(ctx.actor.id.as_str())
        || task.execution_run_id.as_deref() != Some(ctx.run_id.as_str())
    {
        Some((
            TaskOwnershipDenied,
            "The task is not this actor's in this run.".into(),
        ))
    } else if !action
        .allowed_modes
        .iter()
        .any(|m| m.as_str() == task.work_mode)
    {
        Some((
            TaskModeDenied,
            format!("{id} is not offered in {} mode.", task.work_mode),
        ))
    } else if action.effect != Effect::Read
        && matches!(task.status.as_str(), "done" | "cancelled" | "canceled")
    {
        Some((TaskStateDenied, format!("The task is {}.", task.status)))
    } else if ctx
        .policy
        .as_ref()
        .and_then(|p| p.denied_operation_ids.as_ref())
        .is_some_and(|d| d.iter().any(|x| x == id))
    {
        Some((PolicyDenied, format!("Policy denies {id}.")))
    } else if action.allowed_roles.is_some_and(|roles| {
        let role = ctx.actor.role.trim().to_lowercase();
        !roles.contains(&role.as_str())
    }) {
        Some((
            ActorRoleDenied,
            format!("The role {} may not call {id}.", ctx.actor.role),
        ))
    } else if let Some(missing) = action
        .required_claims
        .iter()
        .find(|c| !claims.iter().any(|e| e == *c))
    {
        Some((
            RequiredClaimMissing,
            format!("The claim {missing} is not held."),
        ))
    } else if phase == Phase::Invocation
        && id == "request_human_input"
        && let Some(kinds) = ctx
            .policy
            .as_ref()
            .and_then(|p| p.allowed_interaction_kinds.as_ref())
        && let Some(kind) = input
            .and_then(|i| i.get("interactionKind"))
            .and_then(|k| k.as_str())
        && !kinds.iter().any(|k| k == kind)
    {
        Some((
            InteractionKindDenied,
            format!("Policy does not allow {kind} interactions."),
        ))
    } else {
        None
    };
    match failed {
        Some((code, reason)) => deny(code, reason, claims),
        None => Decision {
            allowed: true,
            phase,
            operation_id: id,
            code: Allowed,
            reason: "Allowed.".into(),
            effective_claims: claims,
        },
    }
}
