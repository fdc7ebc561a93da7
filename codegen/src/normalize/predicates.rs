//! Schemas that only narrow values (`const`, `enum`, `type`, item counts) or objects (`required`,
//! members of such values, `not: {required}`), read as predicates the generated code checks.

use super::{Normalizer, strings};
use crate::load::Loc;
use crate::model::*;
use serde_json::Value;

impl Normalizer<'_> {
    /// A value predicate, when the schema only narrows values.
    pub(super) fn val_pred(&self, loc: &Loc) -> Option<Vec<ValPred>> {
        let node = self.node(loc);
        // A reference to a schema that only narrows values narrows them as the schema would.
        if let Some(o) = node.as_object()
            && o.contains_key("$ref")
            && o.keys()
                .all(|k| matches!(k.as_str(), "$ref" | "description" | "$comment"))
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
            match k.as_str() {
                "description" | "$comment" => {}
                "const" => preds.push(ValPred::In(vec![v.clone()])),
                "enum" => preds.push(ValPred::In(v.as_array()?.clone())),
                "type" => preds.push(ValPred::Types(match v {
                    Value::String(s) => vec![s.clone()],
                    Value::Array(a) => a
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect(),
                    _ => return None,
                })),
                "minItems" => preds.push(ValPred::MinItems(v.as_u64()?)),
                "maxItems" => preds.push(ValPred::MaxItems(v.as_u64()?)),
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
            match k.as_str() {
                "description" | "$comment" => {}
                "type" if v == "object" => {}
                "additionalProperties" if v == &Value::Bool(true) => {}
                "properties" => {
                    for name in v.as_object()?.keys() {
                        p.props.push((
                            name.clone(),
                            self.val_pred(&loc.child("properties").child(name))?,
                        ));
                    }
                }
                "required" => p.required = strings(v)?,
                "not" => {
                    let n = v.as_object()?;
                    if n.len() != 1 {
                        return None;
                    }
                    p.not_required.push(strings(n.get("required")?)?);
                }
                _ => return None,
            }
        }
        Some(p)
    }
}
