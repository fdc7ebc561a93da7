//! Scalars: strings, integers and numbers with their bounds; `const` and `enum` as enums of
//! strings or integers; and the named types constrained strings get once the model is built.

use super::Normalizer;
use crate::error::Code;
use crate::error::Result;
use crate::load::Loc;
use crate::model::*;
use crate::names::{pascal, unique, unique_type};
use prp_vocabulary::{Keyword, Schema};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

impl Normalizer<'_> {
    /// Gives every constrained string rule its own type (`Text1To160`, `StableId`, `DateTime`) and
    /// puts it in place of the rule.
    pub(super) fn texts(&mut self) {
        let mut rules: Vec<StrRule> = Vec::new();
        self.model.walk_mut(|t| {
            if let Ty::Str(r) = t
                && *r != StrRule::default()
                && !rules.contains(r)
            {
                rules.push(r.clone());
            }
        });
        let base = |r: &StrRule| match &r.pattern {
            Some(p) => self
                .pattern_names
                .get(p)
                .and_then(|sites| pattern_name(sites)),
            None if r.format.as_ref().is_some_and(|(n, _)| n == "date-time") => {
                Some("DateTime".to_owned())
            }
            None if r.format.is_some() => r.format.as_ref().map(|(n, _)| pascal(n)),
            None => None,
        };
        let bases: Vec<Option<String>> = rules.iter().map(base).collect();
        let mut names = Vec::new();
        for (r, b) in rules.iter().zip(&bases) {
            let shared = bases.iter().filter(|o| *o == b).count() > 1;
            let lengths = match (r.min.unwrap_or(0), r.max) {
                (0, None) => String::new(),
                (1, None) if b.is_none() => "NonEmpty".to_owned(),
                (min, None) => format!("{min}OrMore"),
                (min, Some(max)) => format!("{min}To{max}"),
            };
            names.push(match b {
                Some(b) if shared => format!("{b}{lengths}"),
                Some(b) => b.clone(),
                None if lengths == "NonEmpty" => "NonEmptyText".to_owned(),
                None => format!("Text{lengths}"),
            });
        }
        let mut ids = Vec::new();
        for (rule, name) in rules.iter().zip(names) {
            let name = unique_type(name, &mut self.taken);
            ids.push(self.push(Item::Text(Text {
                name,
                rule: rule.clone(),
            })));
        }
        self.model.walk_mut(|t| {
            if let Ty::Str(r) = t
                && let Some(i) = rules.iter().position(|x| x == r)
            {
                *t = Ty::Named(ids[i]);
            }
        });
    }

    /// The rule of a string schema: length bounds, a pattern that must compile (its declaration
    /// remembered to name the type), and the `format` if the caller asserts it.
    pub(super) fn string_rule(&mut self, loc: &Loc, obj: &Map<String, Value>) -> Result<StrRule> {
        let uint = |k: Keyword| obj.keyword(k).and_then(Value::as_u64);
        Ok(StrRule {
            min: uint(Keyword::MinLength),
            max: uint(Keyword::MaxLength),
            pattern: match obj.keyword(Keyword::Pattern) {
                Some(Value::String(p)) => {
                    if let Err(e) = regress::Regex::with_flags(p, "u") {
                        return Err(self.err(
                            loc,
                            Code::InvalidPattern,
                            format!("pattern {p} does not compile: {e}"),
                        ));
                    }
                    self.name_pattern(loc, p);
                    Some(p.clone())
                }
                Some(_) => {
                    return Err(self.err(loc, Code::InvalidSchema, "`pattern` must be a string"));
                }
                None => None,
            },
            format: obj
                .keyword(Keyword::Format)
                .and_then(Value::as_str)
                .and_then(|f| self.formats.get(f).map(|c| (f.to_owned(), c.clone()))),
        })
    }

    /// Remembers where the pattern of the string schema at `loc` is declared, to name its type.
    /// The branch of a nullable (`{"oneOf": [{"type": "string", "pattern": …}, {"type": "null"}]}`)
    /// is declared where the nullable is, as `{"type": ["string", "null"], "pattern": …}` would be.
    fn name_pattern(&mut self, loc: &Loc, pattern: &str) {
        let mut pointer = loc.pointer.as_str();
        if let Some((head, _)) = pointer.rsplit_once('/')
            && let Some(stripped) = head.strip_suffix("/oneOf").or(head.strip_suffix("/anyOf"))
            && self.nullable_branches(loc, head)
        {
            pointer = stripped;
        }
        let mut tokens = pointer.rsplit('/');
        let (Some(last), parent) = (tokens.next(), tokens.next()) else {
            return;
        };
        let is_def = parent == Some("$defs");
        if !is_def && parent != Some("properties") {
            return;
        }
        let name = pascal(&prp_vocabulary::pointer::unescape(last));
        self.pattern_names
            .entry(pattern.to_owned())
            .or_default()
            .push((is_def, name));
    }

    /// Whether the alternatives at `list` (a pointer in `loc`'s file) are two, one of them `null`.
    fn nullable_branches(&self, loc: &Loc, list: &str) -> bool {
        let at = Loc {
            file: loc.file,
            pointer: list.to_owned(),
        };
        match self.node(&at).as_array().map(Vec::as_slice) {
            Some([a, b]) => [a, b]
                .iter()
                .any(|s| s.keyword(Keyword::Type) == Some(&Value::from("null"))),
            _ => false,
        }
    }

    /// An integer's `minimum` or `maximum`, which must be a whole number (`1.0` counts).
    pub(super) fn int_bound(
        &self,
        loc: &Loc,
        obj: &Map<String, Value>,
        key: Keyword,
    ) -> Result<Option<i64>> {
        match obj.keyword(key) {
            None => Ok(None),
            Some(v) => v
                .as_i64()
                .or_else(|| {
                    v.as_f64()
                        .filter(|f| f.fract() == 0.0 && f.abs() < 9.2e18)
                        .map(|f| f as i64)
                })
                .map(Some)
                .ok_or_else(|| {
                    self.err(
                        loc,
                        Code::UnsupportedKeyword,
                        format!("`{key}` on an integer must be an integer"),
                    )
                }),
        }
    }

    /// The type of a `const` (one value) or an `enum`: an enum of strings or of integers, a
    /// boolean constant, or `null`.
    pub(super) fn enumeration(&mut self, loc: &Loc, values: &[Value], hint: &str) -> Result<Ty> {
        if values.is_empty() {
            return Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "an empty `enum` accepts no value; no typed shape says that",
            ));
        }
        if values.iter().all(Value::is_string) {
            let name = self.name_for(loc, hint);
            let mut taken = BTreeSet::new();
            let values = values
                .iter()
                .filter_map(Value::as_str)
                .map(|v| (v.to_owned(), unique(pascal(v), &mut taken)))
                .collect();
            let id = self.push(Item::Enum(Enum {
                name,
                doc: self.doc(loc),
                values,
            }));
            return Ok(Ty::Named(id));
        }
        if values.iter().all(|v| v.as_i64().is_some()) {
            let name = self.name_for(loc, hint);
            let mut taken = BTreeSet::new();
            let values = values
                .iter()
                .filter_map(Value::as_i64)
                .map(|v| {
                    let variant = if v < 0 {
                        format!("Minus{}", v.unsigned_abs())
                    } else {
                        format!("V{v}")
                    };
                    (v, unique(variant, &mut taken))
                })
                .collect();
            let id = self.push(Item::IntEnum(IntEnum {
                name,
                doc: self.doc(loc),
                values,
            }));
            return Ok(Ty::Named(id));
        }
        match values {
            [Value::Bool(b)] => Ok(Ty::Bool(Some(*b))),
            [Value::Null] => Ok(Ty::Null),
            _ => Err(self.err(
                loc,
                Code::UnsupportedKeyword,
                "an `enum` must hold only strings, only integers, one boolean or null",
            )),
        }
    }
}

/// The name of a pattern's type: the `$defs` key most files declare it under (the first on a tie),
/// else the first member that uses it.
fn pattern_name(sites: &[(bool, String)]) -> Option<String> {
    let defs: Vec<&String> = sites.iter().filter(|s| s.0).map(|s| &s.1).collect();
    let count = |n: &String| defs.iter().filter(|d| **d == n).count();
    let mut best: Option<&String> = None;
    for d in &defs {
        if best.is_none_or(|b| count(d) > count(b)) {
            best = Some(d);
        }
    }
    best.or_else(|| sites.first().map(|s| &s.1)).cloned()
}
