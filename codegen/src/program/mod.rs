//! `program`: compiles the subschemas a checked type reaches into the node table its runtime
//! checker runs (`prp_codegen_runtime::eval`). Every `$ref` is resolved here, against its base
//! URI, to a node index; every keyword's value is checked, so that a malformed schema is a
//! located error at generation time and never a surprise at run time. The walk is a work list,
//! not a recursion: a schema that refers to itself compiles to a cycle of nodes. This module
//! holds the table and the walk; what each keyword compiles to is its room's in the runtime
//! (`eval::compile`), and `keywords` answers what a room asks (`eval::Site`).

use crate::Format;
use crate::error::Code;
use crate::error::Result;
use crate::load::Loc;
use crate::model::NodeId;
use crate::set::SchemaSet;
use prp_codegen_runtime::eval::{self, Node};
use prp_vocabulary::Keyword;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, VecDeque};

mod keywords;

use keywords::At;

/// The node table of one generated output, shared by all its checked types.
#[derive(Debug, Default)]
pub struct Program {
    nodes: Vec<Node>,
    at: HashMap<Loc, usize>,
    /// Per node: the nodes it refers to, and whether it holds a dynamic `$dynamicRef`.
    edges: Vec<(Vec<usize>, bool)>,
    resources: Vec<Loc>,
    resource_at: HashMap<Loc, usize>,
    /// Per resource: its `$dynamicAnchor`s, compiled.
    dynamic_anchors: HashMap<Loc, Vec<(String, usize)>>,
    queue: VecDeque<(usize, Loc)>,
    /// Nodes made of some keywords of their schema object only (see [`Program::rule`]).
    only: HashMap<usize, Vec<Keyword>>,
    formats: BTreeMap<String, Format>,
}

impl Program {
    /// An empty program asserting `formats`.
    pub fn new(formats: BTreeMap<String, Format>) -> Self {
        Program {
            formats,
            ..Default::default()
        }
    }

    /// Whether no node was compiled.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node of the schema at `loc`, compiled with everything it reaches; and whether a
    /// `$dynamicRef` resolved through the dynamic scope is reachable from it (its verdict then
    /// depends on the resources evaluation entered before it).
    pub fn entry(&mut self, set: &SchemaSet, loc: &Loc) -> Result<(NodeId, bool)> {
        let n = self.intern(set, loc);
        let (n, dynamic) = self.finish(set, n)?;
        Ok((NodeId(n), dynamic))
    }

    /// A node of only the `keywords` of the schema object at `loc` (the others are read as they
    /// are, by keywords that read their siblings): a rule a typed value is checked against for
    /// what its type does not say. Returned as [`Program::entry`] returns a node.
    pub fn rule(
        &mut self,
        set: &SchemaSet,
        loc: &Loc,
        keywords: &[Keyword],
    ) -> Result<(NodeId, bool)> {
        let n = self.new_node(loc);
        self.only.insert(n, keywords.to_vec());
        self.enter(set, loc);
        let (n, dynamic) = self.finish(set, n)?;
        Ok((NodeId(n), dynamic))
    }

    /// Compiles the queue, then says whether node `n` reaches a dynamic `$dynamicRef`.
    fn finish(&mut self, set: &SchemaSet, n: usize) -> Result<(usize, bool)> {
        while let Some((i, l)) = self.queue.pop_front() {
            let compiled = self.compile(set, i, &l)?;
            self.nodes[i] = compiled;
        }
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![n];
        let mut dynamic = false;
        while let Some(m) = stack.pop() {
            if std::mem::replace(&mut seen[m], true) {
                continue;
            }
            dynamic |= self.edges[m].1;
            stack.extend(self.edges[m].0.iter().copied());
        }
        Ok((n, dynamic))
    }

    /// The program as the runtime's evaluator takes it.
    pub fn program(&self) -> eval::Program {
        eval::Program {
            nodes: self.nodes.clone(),
            dynamic: self.resources.iter().map(|r| self.dynamic_of(r)).collect(),
        }
    }

    /// The compiled `$dynamicAnchor`s of `resource`, by name.
    fn dynamic_of(&self, resource: &Loc) -> Vec<(String, usize)> {
        self.dynamic_anchors
            .get(resource)
            .cloned()
            .unwrap_or_default()
    }

    /// The node of the schema at `loc`, made (and queued for compiling) on first use, so that
    /// every reference to one schema shares its node and a cycle ends.
    fn intern(&mut self, set: &SchemaSet, loc: &Loc) -> usize {
        if let Some(&n) = self.at.get(loc) {
            return n;
        }
        let n = self.new_node(loc);
        self.at.insert(loc.clone(), n);
        self.enter(set, loc);
        n
    }

    /// A new node for the schema at `loc`, queued for compiling.
    fn new_node(&mut self, loc: &Loc) -> usize {
        let n = self.nodes.len();
        // A placeholder until the queue compiles it.
        self.nodes.push(Node::Bool(false));
        self.edges.push((Vec::new(), false));
        self.queue.push_back((n, loc.clone()));
        n
    }

    /// Registers the resource of `loc`, the first time, with its dynamic anchors compiled.
    fn enter(&mut self, set: &SchemaSet, loc: &Loc) {
        // Entering a resource brings its dynamic anchors: a `$dynamicRef` may land on any of them.
        let resource = set.index.base_of(loc).1.clone();
        if !self.resource_at.contains_key(&resource) {
            self.resource_at
                .insert(resource.clone(), self.resources.len());
            self.resources.push(resource.clone());
            let anchors: Vec<(String, Loc)> = set
                .index
                .dynamic_anchors(&resource)
                .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default();
            let mut compiled = Vec::new();
            for (name, l) in anchors {
                compiled.push((name, self.intern(set, &l)));
            }
            self.dynamic_anchors.insert(resource, compiled);
        }
    }

    /// The node of the schema at `loc`: its resource and its keywords' entries, the keywords that
    /// read annotations last.
    fn compile(&mut self, set: &SchemaSet, n: usize, loc: &Loc) -> Result<Node> {
        let node = set.node(loc).cloned().unwrap_or(Value::Null);
        let obj = match node {
            Value::Bool(b) => return Ok(Node::Bool(b)),
            Value::Object(o) => o,
            _ => {
                return Err(set.error(
                    loc,
                    Code::InvalidSchema,
                    "a schema must be an object or a boolean",
                ));
            }
        };
        let resource = self.resource_at[set.index.base_of(loc).1];
        let mut rules = Vec::new();
        let mut last = Vec::new();
        let only = self.only.get(&n).cloned();
        for (name, v) in &obj {
            // A name the vocabulary does not have is an unknown keyword: it asserts nothing.
            let Some(k) = Keyword::from_name(name) else {
                continue;
            };
            if only.as_ref().is_some_and(|o| !o.contains(&k)) {
                continue;
            }
            let mut at = At {
                program: self,
                set,
                loc,
                obj: &obj,
                k,
                v,
                at: loc.child(name),
                n,
            };
            match eval::compile(&mut at)? {
                Some(rule) if rule.runs_last() => last.push(rule),
                Some(rule) => rules.push(rule),
                None => {}
            }
        }
        rules.extend(last);
        Ok(Node::Schema { resource, rules })
    }

    /// The node of the subschema `v` at `at`, recorded as an edge of node `from`.
    fn sub(&mut self, set: &SchemaSet, at: &Loc, v: &Value, from: usize) -> Result<usize> {
        if !(v.is_object() || v.is_boolean()) {
            return Err(set.error(
                at,
                Code::InvalidSchema,
                "expected a schema (an object or a boolean)",
            ));
        }
        let m = self.intern(set, at);
        self.edges[from].0.push(m);
        Ok(m)
    }
}
