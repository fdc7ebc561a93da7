//! Discovery (PROTOCOL §4.9): the tools a run may see, always-available and found by query.
//!
//! Decision on the Open point of §4.9, the namespace of each operation (see [`namespace`]):
//! `search_api`/`call_api` → `api_fallback`; the approval operations → `governance`;
//! `list_agents`, `get_agent`, `search_tasks` → `discovery`; `create_task`, `set_dependencies` →
//! `delegation`; the workspace operations → `workspace`; the document operations → `documents`;
//! `schedule_wake` → `continuation`; the rest → `active_task`.

use super::{Dispatcher, Phase, decide};
use crate::catalog::{self, Declaration, Placement};
use crate::issue::{Code, Issue};
use serde_json::{Value, json};

/// The namespace an operation is discovered under.
pub fn namespace(operation_id: &str) -> &'static str {
    match operation_id {
        "search_api" | "call_api" => "api_fallback",
        "list_agents" | "get_agent" | "search_tasks" => "discovery",
        "create_task" | "set_dependencies" => "delegation",
        "get_workspace_runtime" | "control_workspace_service" => "workspace",
        "list_documents" | "read_document" | "list_document_revisions" | "write_document" => {
            "documents"
        }
        "schedule_wake" => "continuation",
        id if id.contains("approval") => "governance",
        _ => "active_task",
    }
}

/// A tool definition as discovery lists it.
fn tool(d: &Declaration) -> Value {
    json!({
        "name": d.operation_id,
        "description": d.description,
        "inputSchema": d.input_schema,
        "outputSchema": d.output_schema(),
        "annotations": {
            "semanticContract": catalog::DECLARATION_SCHEMA,
            "version": 1,
            "placement": d.placement.as_str(),
            "effect": d.effect.as_str(),
            "requiredClaims": d.required_claims,
        }
    })
}

/// A discovery request.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoveryRequest {
    /// What to look for: 1 to 500 characters once trimmed.
    pub query: String,
    /// Only this namespace.
    #[serde(default)]
    pub namespace: Option<String>,
    /// How many to return: clamp(floor(limit, default 5), 1, 8).
    #[serde(default)]
    pub limit: Option<f64>,
}

impl Dispatcher {
    /// The bound actions of `placement` the run may see now, recording an exposure decision for
    /// each one considered.
    fn visible(&self, run_id: &str, placement: Placement) -> Vec<&'static Declaration> {
        let Ok(ctx) = self.provider.context(run_id) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for d in catalog::catalog() {
            if d.placement != placement || !self.bindings.contains_key(d.operation_id) {
                continue;
            }
            let decision = decide(d, &ctx, Phase::Exposure, run_id, None);
            self.records
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(&decision, &ctx, None, None, None);
            if decision.allowed {
                out.push(d);
            }
        }
        out
    }

    /// The bound, authorized `always` actions, as tool definitions.
    pub fn list_always_available_tools(&self, run_id: &str) -> Vec<Value> {
        self.visible(run_id, Placement::Always)
            .into_iter()
            .map(tool)
            .collect()
    }

    /// The bound, authorized `optional` actions that match a query, best first (§4.9).
    pub fn discover_tools(&self, run_id: &str, request: &DiscoveryRequest) -> Result<Value, Issue> {
        let q = request.query.trim().to_lowercase();
        if !(1..=500).contains(&q.chars().count()) {
            return Err(Issue::new(
                Code::SemanticDiscoveryQueryInvalid,
                "/query",
                "the query must be 1 to 500 characters once trimmed",
            ));
        }
        let ns = request.namespace.as_ref().map(|n| n.to_lowercase());
        if let Some(n) = &ns {
            let b = n.as_bytes();
            let ok = !b.is_empty()
                && b.len() <= 64
                && b[0].is_ascii_lowercase()
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_');
            if !ok {
                return Err(Issue::new(
                    Code::SemanticDiscoveryNamespaceInvalid,
                    "/namespace",
                    "a namespace matches ^[a-z][a-z0-9_]{0,63}$",
                ));
            }
        }
        let limit = request
            .limit
            .filter(|l| l.is_finite())
            .map_or(5.0, f64::floor)
            .clamp(1.0, 8.0) as usize;
        let tokens: Vec<&str> = q
            .split(|c: char| !c.is_ascii_lowercase() && !c.is_ascii_digit())
            .filter(|t| t.len() > 1)
            .collect();
        let mut scored: Vec<(u32, &'static Declaration)> = self
            .visible(run_id, Placement::Optional)
            .into_iter()
            .filter(|d| ns.as_deref().is_none_or(|n| namespace(d.operation_id) == n))
            .filter_map(|d| {
                let space = namespace(d.operation_id);
                let haystack = format!("{} {} {} {space}", d.operation_id, d.title, d.description)
                    .to_lowercase();
                let mut score = if d.operation_id == q {
                    100
                } else if space == q {
                    50
                } else {
                    0
                };
                for t in &tokens {
                    score += if d.operation_id.contains(t) { 12 } else { 0 }
                        + if space.contains(t) { 8 } else { 0 }
                        + if haystack.contains(t) { 3 } else { 0 };
                }
                (score > 0).then_some((score, d))
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.operation_id.cmp(b.1.operation_id)));
        let truncated = scored.len() > limit;
        let operations: Vec<Value> = scored
            .into_iter()
            .take(limit)
            .map(|(_, d)| tool(d))
            .collect();
        Ok(json!({
            "schema": "paperclip.semantic-discovery.v1",
            "query": request.query,
            "namespace": ns,
            "operations": operations,
            "truncated": truncated,
        }))
    }
}
