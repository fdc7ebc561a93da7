//! The checker behind schemas no Rust type can say exactly (`anyOf` of shapes, `unevaluated*`,
//! `$dynamicRef`, assertions that apply to one JSON type and let the others through): the
//! generator compiles every subschema such a type reaches into a program of nodes, with each `$ref`
//! already resolved to a node, and this module runs it over the decoded JSON.
//!
//! Each keyword follows draft 2020-12: an assertion ignores values of other types; annotations
//! (members and items evaluated) flow up from the subschemas that pass, for `unevaluated*`; the
//! dynamic scope is the stack of schema resources entered, for `$dynamicRef`.
//!
//! A keyword lives in one room of `keywords` (its compile step, check, sentence and tests); this
//! module holds what every room shares: the program's data
//! ([`Program`](crate::eval::Program)), the walk over nodes, the annotations passed up, and the
//! [`Site`](crate::eval::Site) a compile step asks the generator through.

mod compile;
mod keywords;
mod literal;
mod program;

pub use compile::Site;
pub use keywords::{Rule, compile};
pub use literal::Literal;
pub use program::{FormatTest, JsonType, Node, Program, Regex, float};

use super::{Failure, Keyword as Code};
use serde_json::Value;

impl Program {
    /// Checks `value` against node `entry`: the first failure, located relative to `value`.
    ///
    /// # Panics
    ///
    /// When `entry`, or a number the program holds, names no node. A program the generator
    /// compiled or [`Program::parse`] read holds no such number; one built by hand may.
    pub fn check(&self, entry: usize, value: &Value) -> Result<(), Failure> {
        let mut cx = Cx {
            p: self,
            scope: Vec::new(),
            chain: Vec::new(),
        };
        cx.eval(entry, value).map(|_| ())
    }
}

/// How deep schemas may nest while checking one value: a schema that refers to itself without
/// reaching a smaller value fails here instead of exhausting the stack.
const MAX_DEPTH: usize = 512;

/// What the passing subschemas evaluated: member positions and item indexes (empty: none).
#[derive(Default)]
pub(crate) struct Seen {
    props: Vec<bool>,
    items: Vec<bool>,
}

impl Seen {
    fn prop(&mut self, len: usize, i: usize) {
        if self.props.len() != len {
            self.props = vec![false; len];
        }
        self.props[i] = true;
    }
    fn item(&mut self, len: usize, i: usize) {
        if self.items.len() != len {
            self.items = vec![false; len];
        }
        self.items[i] = true;
    }
    fn merge(&mut self, other: Seen) {
        for (mine, theirs) in [
            (&mut self.props, other.props),
            (&mut self.items, other.items),
        ] {
            if mine.is_empty() {
                *mine = theirs;
            } else {
                for (a, b) in mine.iter_mut().zip(theirs) {
                    *a |= b;
                }
            }
        }
    }
}

/// One check of a value: the program, the dynamic scope, the nodes being evaluated.
pub(crate) struct Cx<'p> {
    p: &'p Program,
    /// The dynamic scope: resources entered, outermost first.
    scope: Vec<usize>,
    /// Nodes being evaluated, with the value each stands on.
    chain: Vec<(usize, *const Value)>,
}

/// A failure of `code` at the value itself.
fn fail(code: Code, message: String) -> Failure {
    Failure::new(code, "", message)
}

/// A `false` schema's failure, said as the keyword that applied it (`additionalProperties: false`).
fn closed(e: Failure, code: Code, message: &str) -> Failure {
    if e.code == Code::FalseSchema && e.rel.is_empty() {
        Failure::new(code, "", message)
    } else {
        e
    }
}

impl Cx<'_> {
    /// Node `n` against `v`: what it evaluated, or its first failure.
    fn eval(&mut self, n: usize, v: &Value) -> Result<Seen, Failure> {
        let p = self.p;
        let (resource, rules) = match &p.nodes[n] {
            Node::Bool(true) => return Ok(Seen::default()),
            Node::Bool(false) => {
                return Err(fail(
                    Code::FalseSchema,
                    "no value is allowed here (the schema is `false`)".into(),
                ));
            }
            Node::Schema { resource, rules } => (*resource, rules),
        };
        let here = v as *const Value;
        let looping = self
            .chain
            .iter()
            .rev()
            .take_while(|(_, at)| *at == here)
            .any(|(m, _)| *m == n);
        if looping || self.chain.len() >= MAX_DEPTH {
            return Err(fail(
                Code::TooDeep,
                "the schema refers to itself without reaching a smaller value".into(),
            ));
        }
        self.chain.push((n, here));
        let entered = self.scope.last() != Some(&resource);
        if entered {
            self.scope.push(resource);
        }
        let mut seen = Seen::default();
        let result = rules.iter().try_for_each(|r| r.check(self, v, &mut seen));
        if entered {
            self.scope.pop();
        }
        self.chain.pop();
        result.map(|()| seen)
    }

    /// The node of the outermost resource in the dynamic scope that declares `anchor`.
    fn dynamic_target(&self, anchor: &str) -> Option<usize> {
        self.scope.iter().find_map(|r| {
            self.p.dynamic[*r]
                .iter()
                .find_map(|(name, node)| (name == anchor).then_some(*node))
        })
    }
}
