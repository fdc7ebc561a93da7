//! Schemas that only narrow values (`const`, `enum`, `type`, item counts) or objects (`required`,
//! members of such values, `not: {required}`), read as predicates the generated code checks.

use super::{Normalizer, strings};
use crate::load::Loc;
use crate::model::*;
use prp_vocabulary::{Keyword, Schema};
use serde_json::Value;

impl Normalizer<'_> {
    /// A value predicate, when the schema only narrows values.
    pub(super) fn val_pred(&self, loc: &Loc) -> Option<Vec<ValPred>> {
        let node = self.node(loc);
        // A reference to a schema that only narrows values narrows them as the schema would.
        if let Some(o) = node.as_object()
            && o.has(Keyword::Ref)
            && o.keys().all(|k| {
                matches!(
                    Keyword::from_name(k),
                    Some(Keyword::Ref | Keyword::Description | Keyword::Comment)
                )
            })
        {
            let target = self.deref(loc).ok()?;
            return if &target == loc {
                None
            } else {
                self.val_pred(&target)
            };
        }
        let obj = match node {
            Value::Bool(false) => return Some(vec![ValPred::Never]),
            Value::Object(o) => o,
            _ => return None,
        };
        let mut preds = Vec::new();
        for (k, v) in obj {
            match Keyword::from_name(k)? {
                Keyword::Description | Keyword::Comment => {}
                // A probe compares scalars: an array or object value is the schema program's.
                Keyword::Const if !is_scalar(v) => return None,
                Keyword::Const => preds.push(ValPred::In(vec![v.clone()])),
                Keyword::Enum if !v.as_array()?.iter().all(is_scalar) => return None,
                Keyword::Enum => preds.push(ValPred::In(v.as_array()?.clone())),
                Keyword::Type => preds.push(ValPred::Types(match v {
                    Value::String(s) => vec![s.clone()],
                    Value::Array(a) => a
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect(),
                    _ => return None,
                })),
                // `minItems: 0` holds for every value: no check (and none comparing a length
                // with zero).
                Keyword::MinItems => match v.as_u64()? {
                    0 => {}
                    n => preds.push(ValPred::MinItems(n)),
                },
                Keyword::MaxItems => preds.push(ValPred::MaxItems(v.as_u64()?)),
                _ => return None,
            }
        }
        // One order whatever the keywords' order, so that a value breaking two of them gets the
        // same failure however the schema spells them.
        preds.sort_by_key(|p| match p {
            ValPred::Types(_) => 0,
            ValPred::In(_) => 1,
            ValPred::Never => 2,
            ValPred::MinItems(_) => 3,
            ValPred::MaxItems(_) => 4,
        });
        Some(preds)
    }

    /// An object predicate (`properties` of value predicates, `required`, `not: {required}`).
    pub(super) fn obj_pred(&self, loc: &Loc) -> Option<ObjPred> {
        let obj = self.node(loc).as_object()?;
        let mut p = ObjPred::default();
        for (k, v) in obj {
            match Keyword::from_name(k)? {
                Keyword::Description | Keyword::Comment => {}
                Keyword::Type if v == "object" => {}
                Keyword::AdditionalProperties if v == &Value::Bool(true) => {}
                Keyword::Properties => {
                    for name in v.as_object()?.keys() {
                        p.props
                            .push((name.clone(), self.val_pred(&loc.child(k).child(name))?));
                    }
                }
                Keyword::Required => p.required = strings(v)?,
                Keyword::Not => {
                    let n = v.as_object()?;
                    if n.len() != 1 {
                        return None;
                    }
                    p.not_required.push(strings(n.keyword(Keyword::Required)?)?);
                }
                _ => return None,
            }
        }
        Some(p)
    }
}

/// Whether `v` is a value a probe compares (not an array or object).
fn is_scalar(v: &Value) -> bool {
    !(v.is_array() || v.is_object())
}
