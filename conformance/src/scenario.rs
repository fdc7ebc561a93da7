//! Dispatcher conformance scenarios: a run context, canned bindings and a list of steps, run
//! through a real [`Dispatcher`] so that another implementation can be checked against the same
//! file. `prp dispatch SCENARIO` is a thin shell over [`run`].
//!
//! ```text
//! { "context": <run context>,
//!   "bindings": { "<operationId>": {"returns": {value, code?, references?, stateRevision?, auditReceiptId?}}
//!                                | {"fails": "<message>"} },
//!   "storeFaults": {"claim"?, "complete"?, "recover"?, "release"?},   (memory store only)
//!   "steps": [ {"dispatch": <call>}, {"context": <run context>}, {"discover": {query, namespace?, limit?}},
//!              {"alwaysAvailable": {}}, {"records": {}} ] }
//! ```

use crate::issue::{Code, Issue};
use crate::store::{Faults, IdempotencyStore, MemoryStore};
use prp_peer::dispatcher::{
    Binding, Call, ConstructionError, DiscoveryRequest, Dispatcher, Invocation, RunContext,
};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// What a canned binding does.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum CannedBinding {
    /// Returns this object.
    Returns(Value),
    /// Fails with this message.
    Fails(String),
}

/// One step.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Step {
    /// Dispatches a call.
    Dispatch(Call),
    /// Replaces the current context for later steps.
    Context(Box<RunContext>),
    /// Runs discovery.
    Discover(DiscoveryRequest),
    /// Lists the always-available tools.
    AlwaysAvailable(Map<String, Value>),
    /// Prints the authorization records.
    Records(Map<String, Value>),
}

/// A scenario file.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scenario {
    /// The context the run starts with.
    pub context: RunContext,
    /// The bound operations.
    pub bindings: BTreeMap<String, CannedBinding>,
    /// Failures to inject into the memory store.
    #[serde(default)]
    pub store_faults: Option<Faults>,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// The store a scenario runs against.
pub enum ScenarioStore {
    /// A fresh in-memory store (the scenario's `storeFaults` apply).
    Memory,
    /// A durable store (faults are refused: they are for the memory store).
    Durable(Arc<dyn IdempotencyStore>),
}

/// Runs `bytes` as a scenario: one JSON value per step, in order, or the located issue that makes
/// the scenario invalid (nothing is run then).
pub fn run(bytes: &[u8], store: ScenarioStore) -> Result<Vec<Value>, Issue> {
    let scenario: Scenario = crate::decode::decode(bytes)?;
    let store: Arc<dyn IdempotencyStore> = match store {
        ScenarioStore::Memory => {
            let memory = MemoryStore::new();
            if let Some(f) = scenario.store_faults {
                memory.set_faults(f);
            }
            Arc::new(memory)
        }
        ScenarioStore::Durable(s) if scenario.store_faults.is_none() => s,
        ScenarioStore::Durable(_) => {
            return Err(Issue::new(
                Code::Keyword(prp_types::Keyword::AdditionalProperties),
                "/storeFaults",
                "storeFaults apply to the memory store only",
            ));
        }
    };
    let current = Arc::new(Mutex::new(scenario.context.clone()));
    let provider = {
        let current = current.clone();
        move |_: &str| -> Result<RunContext, String> {
            Ok(current.lock().unwrap_or_else(|p| p.into_inner()).clone())
        }
    };
    let mut counts: BTreeMap<String, Arc<AtomicUsize>> = BTreeMap::new();
    let mut bindings: Vec<(String, Box<dyn Binding>)> = Vec::new();
    for (id, canned) in &scenario.bindings {
        let runs = Arc::new(AtomicUsize::new(0));
        counts.insert(id.clone(), runs.clone());
        let canned = canned.clone();
        let binding = move |_: &Invocation<'_>| -> Result<Value, String> {
            runs.fetch_add(1, Ordering::SeqCst);
            match &canned {
                CannedBinding::Returns(v) => Ok(v.clone()),
                CannedBinding::Fails(m) => Err(m.clone()),
            }
        };
        bindings.push((id.clone(), Box::new(binding)));
    }
    let run_id = scenario.context.run_id.clone();
    let dispatcher = Dispatcher::new(provider, bindings, Some(store), None).map_err(|e| {
        let id = match &e {
            ConstructionError::UnknownBinding(id) | ConstructionError::DuplicateBinding(id) => {
                id.clone()
            }
        };
        Issue::new(
            Code::Keyword(prp_types::Keyword::Enum),
            format!("/bindings/{id}"),
            e.to_string(),
        )
    })?;
    let mut out = Vec::new();
    for step in &scenario.steps {
        out.push(match step {
            Step::Dispatch(call) => {
                let result = dispatcher.dispatch(call);
                let mut v = prp_codegen_runtime::to_json(&result).unwrap_or(Value::Null);
                // Receipts are PRP documents: they go out through the checked encoder.
                let receipts = [
                    ("inputReceipt", &result.input_receipt),
                    ("resultReceipt", &result.result_receipt),
                ];
                for (key, receipt) in receipts {
                    if let Some(r) = receipt {
                        let bytes = crate::encode(r)?;
                        v[key] = serde_json::from_slice(&bytes).map_err(|e| {
                            Issue::new(Code::Keyword(prp_types::Keyword::Encode), "", e.to_string())
                        })?;
                    }
                }
                let n = counts
                    .get(&call.operation_id)
                    .map_or(0, |c| c.load(Ordering::SeqCst));
                v["executions"] = json!(n);
                v
            }
            Step::Context(ctx) => {
                *current.lock().unwrap_or_else(|p| p.into_inner()) = (**ctx).clone();
                json!({"contextReplaced": true})
            }
            Step::Discover(request) => match dispatcher.discover_tools(&run_id, request) {
                Ok(v) => v,
                Err(issue) => json!({"error": {"code": issue.code, "message": issue.message}}),
            },
            Step::AlwaysAvailable(_) => {
                json!({"tools": dispatcher.list_always_available_tools(&run_id)})
            }
            Step::Records(_) => json!({"records": dispatcher.authorization_records()}),
        });
    }
    Ok(out)
}
