//! A witness made smaller.

use crate::Finding;
use serde_json::Value;

/// How many smaller documents a witness's shrinking tries at most.
const SHRINK_BUDGET: usize = 2_000;

/// `doc` with members and items removed one at a time, each removal kept while `keeps` holds,
/// until no single removal keeps it or the budget is spent.
pub(super) fn smallest(mut doc: Value, keeps: impl Fn(&Value) -> bool) -> Value {
    let mut budget = SHRINK_BUDGET;
    'again: while budget > 0 {
        for smaller in removals(&doc) {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                break 'again;
            }
            if keeps(&smaller) {
                doc = smaller;
                continue 'again;
            }
        }
        break;
    }
    doc
}

/// The size of a finding's witness as JSON text.
pub(super) fn size(f: &Finding) -> usize {
    f.witness.as_ref().map_or(0, |w| w.to_string().len())
}

/// `doc` with one member or item removed, for each member and item, outermost first.
fn removals(doc: &Value) -> Vec<Value> {
    let mut paths = Vec::new();
    let mut queue = vec![(Vec::<String>::new(), doc)];
    while let Some((path, v)) = queue.pop() {
        let children: Vec<(String, &Value)> = match v {
            Value::Object(o) => o.iter().map(|(k, v)| (k.clone(), v)).collect(),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), v))
                .collect(),
            _ => continue,
        };
        for (token, child) in children {
            let mut p = path.clone();
            p.push(token);
            paths.push(p.clone());
            queue.insert(0, (p, child));
        }
    }
    paths.iter().filter_map(|p| removed(doc, p)).collect()
}

/// `doc` without the member or item at `path`.
pub(super) fn removed(doc: &Value, path: &[String]) -> Option<Value> {
    let (last, parent) = path.split_last()?;
    let mut out = doc.clone();
    let mut at = &mut out;
    for token in parent {
        at = match at {
            Value::Object(o) => o.get_mut(token)?,
            Value::Array(a) => a.get_mut(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    match at {
        Value::Object(o) => {
            o.shift_remove(last)?;
        }
        Value::Array(a) => {
            let i: usize = last.parse().ok()?;
            (i < a.len()).then(|| a.remove(i))?;
        }
        _ => return None,
    }
    Some(out)
}
