//! The generator's side of a keyword's compile step: the [`Site`] a room of the runtime's checker
//! (`prp_codegen_runtime::eval`) reads a keyword through. Subschemas become nodes of the
//! [`Program`] being built, references resolve through the index, and a malformed value is a
//! located error of the generator. What each keyword compiles to is the room's business.

use super::Program;
use crate::Format;
use crate::error::{Code, Error, Result};
use crate::load::Loc;
use crate::set::SchemaSet;
use prp_codegen_runtime::eval::{FormatTest, Regex, Site};
use prp_vocabulary::Keyword;
use serde_json::{Map, Value};

/// One keyword of a schema object being compiled into `program`.
pub(super) struct At<'s> {
    pub(super) program: &'s mut Program,
    pub(super) set: &'s SchemaSet,
    /// The schema object holding the keyword.
    pub(super) loc: &'s Loc,
    pub(super) obj: &'s Map<String, Value>,
    /// The keyword and its value.
    pub(super) k: Keyword,
    pub(super) v: &'s Value,
    /// Where the keyword's value is.
    pub(super) at: Loc,
    /// The node of the schema object.
    pub(super) n: usize,
}

impl At<'_> {
    /// The place `path` under the keyword's value.
    fn under(&self, path: &[&str]) -> Loc {
        path.iter().fold(self.at.clone(), |l, t| l.child(t))
    }
}

impl Site for At<'_> {
    type Error = Error;

    fn keyword(&self) -> Keyword {
        self.k
    }

    fn value(&self) -> &Value {
        self.v
    }

    fn sibling(&self, k: Keyword) -> Option<&Value> {
        self.obj.get(k.name())
    }

    fn invalid(&self, why: &str) -> Error {
        self.set.error(
            &self.at,
            Code::InvalidSchema,
            format!("`{}` {why}", self.k.name()),
        )
    }

    fn schema(&mut self, path: &[&str]) -> Result<usize> {
        let at = self.under(path);
        let v = path.iter().try_fold(self.v, |v, t| match v {
            Value::Array(a) => t.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => v.get(*t),
        });
        self.program
            .sub(self.set, &at, v.unwrap_or(&Value::Null), self.n)
    }

    fn sibling_schema(&mut self, k: Keyword) -> Result<Option<usize>> {
        let Some(v) = self.obj.get(k.name()) else {
            return Ok(None);
        };
        let at = self.loc.child(k.name());
        self.program.sub(self.set, &at, v, self.n).map(Some)
    }

    fn pattern(&self, path: &[&str], source: &str) -> Result<Regex> {
        Regex::new(source).map_err(|e| {
            self.set.error(
                &self.under(path),
                Code::InvalidPattern,
                format!(
                    "pattern {source} is not an ECMA-262 regular expression (Unicode mode): {e}"
                ),
            )
        })
    }

    fn format(&self, name: &str) -> Result<Option<FormatTest>> {
        Ok(Some(match self.program.formats.get(name) {
            None => return Ok(None),
            Some(Format::DateTime) => FormatTest::DateTime,
            Some(Format::Pattern(p)) => FormatTest::Pattern(Regex::new(p).map_err(|e| {
                self.set.error(
                    &self.at,
                    Code::InvalidOption,
                    format!("the regex given for format `{name}` does not compile: {e}"),
                )
            })?),
        }))
    }

    fn reference(&mut self, reference: &str) -> Result<(usize, Option<String>)> {
        let target = self.set.resolve(self.loc, reference)?;
        let m = self.program.intern(self.set, &target);
        self.program.edges[self.n].0.push(m);
        let anchor = (self.set.node(&target))
            .and_then(|t| t.get(Keyword::DynamicAnchor.name()))
            .and_then(Value::as_str);
        Ok((m, anchor.map(str::to_owned)))
    }

    fn dynamic(&mut self) {
        self.program.edges[self.n].1 = true;
    }
}
