//! The witness search: where the two schemas differ (`changes`), which documents to try there
//! (values around each change's rules on both sides, set at the change's place in plausible
//! instances and corpus documents), and the smallest document each direction breaks on.

use crate::{Checker, Direction, Error, Finding, Side, Target, Verdict, normal, sample, witness};
use prp_codegen::{Options, SchemaSet};
use prp_vocabulary::{Keyword, Schema, pointer};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// How many documents a target is tried with at most.
const BUDGET: usize = 20_000;
/// How many of those one change may take: a change listed late still gets its turn.
const PER_CHANGE: usize = 4_000;

/// A place where the two sides' schemas differ: the schema object holding the differing keyword
/// on each side, and the path of the instance it applies to.
#[derive(Debug, Clone)]
pub(crate) struct Change {
    /// The differing keyword: a pointer in the schema's file, or a canonical URI elsewhere.
    pointer: String,
    /// The instance path (member names and item indexes) the schema object applies to.
    path: Vec<String>,
    /// A member NEW declares that OLD's open object does not.
    open_member_added: bool,
    old: (String, Value),
    new: (String, Value),
    /// The schemas the walk went through to get here, outermost first.
    route: Vec<Frame>,
    /// The other instance paths the same schemas apply at.
    also: Vec<Vec<String>>,
}

/// A schema the walk went through: what a document must look like there for the change below
/// to be reached.
#[derive(Debug, Clone)]
struct Frame {
    /// How many instance path tokens lead to the instance it applies to.
    depth: usize,
    old: String,
    new: String,
    /// The walk went into its `then`: its `if` must hold.
    via_then: bool,
    /// It is an `anyOf`/`oneOf` alternative: a document reaches the change through it.
    alternative: bool,
}

/// The findings of one target whose meaning differs.
pub(crate) fn findings(
    old: &Side,
    new: &Side,
    target: &Target,
    corpus: &[Value],
) -> Result<Vec<Finding>, Error> {
    let (oc, nc) = (old.checker(&target.uri)?, new.checker(&target.uri)?);
    let (Some((ou, on)), Some((nu, nn))) =
        (old.set.node_at(&target.uri), new.set.node_at(&target.uri))
    else {
        return Ok(Vec::new());
    };
    let changes = diff(old, new, (&ou, on), (&nu, nn));
    let (bases, built_bases) = bases(old, new, (&ou, on), (&nu, nn), &oc, &nc, corpus);
    let judge = Judge {
        target,
        changes: &changes,
        checkers: (&oc, &nc),
        file_prefix: target.uri.split('#').next().unwrap_or_default(),
    };
    // The smallest witness per direction, with the change it was built for.
    let mut best: [Option<(Finding, usize)>; 2] = [None, None];
    let mut tried = 0;
    'changes: for (i, change) in changes.iter().enumerate() {
        // Built bases, then those routed to the change, then the corpus's documents.
        let (built, corpus) = bases.split_at(built_bases);
        let mut here = built.to_vec();
        for (set, side) in [(old.set, Which::Old), (new.set, Which::New)] {
            here.extend(bases.iter().flat_map(|b| routed(set, side, b, change)));
        }
        here.extend(corpus.iter().cloned());
        let built = here.len() - corpus.len();
        let local = Local::new(old, new, change);
        for doc in candidates(old.set, new.set, change, &here, built, &local).take(PER_CHANGE) {
            tried += 1;
            if tried > BUDGET {
                break 'changes;
            }
            let Some(f) = judge.finding(change, doc) else {
                continue;
            };
            let slot = &mut best[f.direction as usize];
            if slot.as_ref().is_none_or(|(b, _)| size(&f) < size(b)) {
                *slot = Some((f, i));
            }
        }
    }
    let mut out: Vec<Finding> = best
        .into_iter()
        .flatten()
        .map(|(f, i)| judge.shrunk(f, &changes[i]))
        .collect();
    if out.is_empty() {
        // The meaning differs and no document shows it: suspected, both ways.
        let pointer = changes
            .first()
            .map(|c| relative(&c.pointer, judge.file_prefix))
            .unwrap_or_default();
        for direction in [Direction::Backward, Direction::Forward] {
            out.push(Finding {
                id: target.id.clone(),
                defs: target.defs.clone(),
                direction,
                witness: None,
                schema_pointer: pointer.clone(),
                instance_pointer: String::new(),
                old: Verdict {
                    valid: true,
                    code: None,
                },
                new: Verdict {
                    valid: true,
                    code: None,
                },
                open_member_added: false,
            });
        }
    }
    Ok(out)
}

/// The two sides' schemas at a change, compiled on their own: a value one takes and the other
/// refuses there is the core of a witness, so those values are tried first.
struct Local(Option<(Checker, Checker)>);

impl Local {
    fn new(old: &Side, new: &Side, change: &Change) -> Local {
        let pair = old
            .checker(&change.old.0)
            .ok()
            .zip(new.checker(&change.new.0).ok());
        Local(pair)
    }

    /// Whether the two schemas at the change part on `v`.
    fn separates(&self, v: &Value) -> bool {
        self.0
            .as_ref()
            .is_some_and(|(o, n)| o.verdict(v).0.valid != n.verdict(v).0.valid)
    }
}

/// Makes findings of documents: both sides' verdicts, where they part, and the change shown.
struct Judge<'a> {
    target: &'a Target,
    changes: &'a [Change],
    checkers: (&'a Checker, &'a Checker),
    /// The `$id` of the target's file: pointers into it are written relative.
    file_prefix: &'a str,
}

impl Judge<'_> {
    /// The finding `doc` makes, tried for `change`, when one side accepts it and the other not.
    fn finding(&self, change: &Change, doc: Value) -> Option<Finding> {
        let ((ov, op), (nv, np)) = (self.checkers.0.verdict(&doc), self.checkers.1.verdict(&doc));
        let direction = match (ov.valid, nv.valid) {
            (true, false) => Direction::Backward,
            (false, true) => Direction::Forward,
            _ => return None,
        };
        let instance_pointer = if ov.valid { np } else { op };
        let cause = cause(self.changes, change, &instance_pointer);
        Some(Finding {
            id: self.target.id.clone(),
            defs: self.target.defs.clone(),
            direction,
            witness: Some(doc),
            schema_pointer: relative(&cause.pointer, self.file_prefix),
            instance_pointer,
            old: ov,
            new: nv,
            open_member_added: change.open_member_added && direction == Direction::Backward,
        })
    }

    /// `f` with its witness made as small as it goes while the verdicts stay: members and items
    /// removed one at a time, each removal kept if both sides still say what they said.
    fn shrunk(&self, f: Finding, change: &Change) -> Finding {
        let Some(mut doc) = f.witness.clone() else {
            return f;
        };
        let keeps = |d: &Value| {
            self.checkers.0.verdict(d).0.valid == f.old.valid
                && self.checkers.1.verdict(d).0.valid == f.new.valid
        };
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
        self.finding(change, doc).unwrap_or(f)
    }
}

/// How many smaller documents a witness's shrinking tries at most.
const SHRINK_BUDGET: usize = 2_000;

/// The size of a finding's witness as JSON text.
fn size(f: &Finding) -> usize {
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
fn removed(doc: &Value, path: &[String]) -> Option<Value> {
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

/// The change a witness shows: the one it was built for when that change applies where the
/// verdicts part (or above), else the change applying deepest above that place (a corpus
/// document can break on another change than the one it was tried for).
fn cause<'c>(changes: &'c [Change], tried: &'c Change, instance_pointer: &str) -> &'c Change {
    let tokens: Vec<String> = instance_pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    let above = |c: &Change| tokens.starts_with(&c.path);
    if above(tried) {
        return tried;
    }
    changes
        .iter()
        .filter(|c| above(c))
        .max_by_key(|c| c.path.len())
        .unwrap_or(tried)
}

/// `uri` as a pointer when it is in the file `prefix` names.
fn relative(uri: &str, prefix: &str) -> String {
    match uri.split_once('#') {
        Some((file, pointer)) if file == prefix => pointer.to_owned(),
        _ => uri.to_owned(),
    }
}

/// A schema node on one side: its canonical URI and its value.
type Node<'a> = (&'a str, &'a Value);

/// Walks the two sides' schemas together and records where they differ.
struct Differ<'a> {
    os: &'a SchemaSet,
    ns: &'a SchemaSet,
    oo: &'a Options,
    no: &'a Options,
    out: Vec<Change>,
    /// The pairs of nodes already walked: a recursive schema is walked once.
    seen: BTreeSet<(String, String)>,
    /// Every instance path each pair of nodes was reached at.
    reached: BTreeMap<(String, String), Vec<Vec<String>>>,
    /// The schemas being walked, outermost first.
    route: Vec<Frame>,
}

/// Every place the schemas `o` (old) and `n` (new) differ, following `$ref`s whose targets
/// differ in meaning.
fn diff(old: &Side, new: &Side, o: Node, n: Node) -> Vec<Change> {
    let mut d = Differ {
        os: old.set,
        ns: new.set,
        oo: old.options,
        no: new.options,
        out: Vec::new(),
        seen: BTreeSet::new(),
        reached: BTreeMap::new(),
        route: Vec::new(),
    };
    d.schemas(o, n, &[]);
    let mut out = d.out;
    for c in &mut out {
        c.also = also(&d.reached, c);
    }
    let hosts: Vec<Change> = out
        .iter()
        .filter_map(|c| conditional_host(old.set, new.set, c))
        .collect();
    out.extend(hosts);
    out
}

/// For a change inside an `if`, the same change seen from the schema holding the conditional:
/// what the `if` now takes or leaves shows through what its `then` or `else` says, so the values
/// of the whole conditional are tried there too.
fn conditional_host(os: &SchemaSet, ns: &SchemaSet, c: &Change) -> Option<Change> {
    let i = c.route.iter().rposition(|f| {
        let cond = format!("{}/if", f.new);
        c.pointer == cond || c.pointer.starts_with(&format!("{cond}/"))
    })?;
    let f = &c.route[i];
    let (ou, on) = os.node_at(&f.old)?;
    let (nu, nn) = ns.node_at(&f.new)?;
    Some(Change {
        pointer: c.pointer.clone(),
        path: c.path.get(..f.depth)?.to_vec(),
        open_member_added: false,
        old: (ou, on.clone()),
        new: (nu, nn.clone()),
        route: c.route[..i].to_vec(),
        also: Vec::new(),
    })
}

/// The other places of the instance where the schemas on `c`'s route apply too (a definition
/// two members refer to): a value that breaks there may break only when it is in all of them.
fn also(reached: &BTreeMap<(String, String), Vec<Vec<String>>>, c: &Change) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for f in &c.route {
        let Some(paths) = reached.get(&(f.old.clone(), f.new.clone())) else {
            continue;
        };
        let rest = c.path.get(f.depth..).unwrap_or_default();
        for p in paths
            .iter()
            .filter(|p| c.path.get(..f.depth) != Some(p.as_slice()))
        {
            let mut full = p.clone();
            full.extend_from_slice(rest);
            if !out.contains(&full) {
                out.push(full);
            }
        }
    }
    out
}

fn at(uri: &str, token: &str) -> String {
    pointer::child(uri, token)
}

impl Differ<'_> {
    /// The schemas `o` and `n`, applying to the instance at `path`.
    fn schemas(&mut self, o: Node, n: Node, path: &[String]) {
        let key = (o.0.to_owned(), n.0.to_owned());
        self.reached
            .entry(key.clone())
            .or_default()
            .push(path.to_vec());
        if !self.seen.insert(key) || path.len() > 16 {
            return;
        }
        let (Some(oo), Some(no)) = (o.1.as_object(), n.1.as_object()) else {
            if o.1 != n.1 {
                self.record(o, n, path, "");
            }
            return;
        };
        let alternative = [Keyword::AnyOf, Keyword::OneOf].iter().any(|k| {
            let (parent, _) = o.0.rsplit_once('/').unwrap_or_default();
            parent.ends_with(&format!("/{}", k.name()))
        });
        self.route.push(Frame {
            depth: path.len(),
            old: o.0.to_owned(),
            new: n.0.to_owned(),
            via_then: false,
            alternative,
        });
        let keys: BTreeSet<&String> = oo.keys().chain(no.keys()).collect();
        for k in keys
            .into_iter()
            .filter(|k| !normal::keyword(k).is_some_and(normal::ignored))
        {
            match (oo.get(k.as_str()), no.get(k.as_str())) {
                (Some(ov), Some(nv)) => self.keyword(o, n, path, k, (ov, nv)),
                _ => self.record(o, n, path, k),
            }
        }
        self.route.pop();
    }

    /// The keyword `k`, on both sides with the values `v`.
    fn keyword(&mut self, o: Node, n: Node, path: &[String], k: &str, v: (&Value, &Value)) {
        let (ov, nv) = v;
        let Some(kw) = normal::keyword(k) else {
            if ov != nv {
                self.record(o, n, path, k);
            }
            return;
        };
        match kw {
            Keyword::DynamicRef => self.dynamic(o, n, path, (ov, nv)),
            Keyword::Ref => {
                let targets = (
                    ov.as_str().and_then(|r| self.os.resolve_from(o.0, r)),
                    nv.as_str().and_then(|r| self.ns.resolve_from(n.0, r)),
                );
                let (Some(ot), Some(nt)) = targets else {
                    return self.record(o, n, path, k);
                };
                if normal::meaning(self.os, self.oo, &ot) == normal::meaning(self.ns, self.no, &nt)
                {
                    return;
                }
                if ot != nt {
                    // Pointed elsewhere: the change is the reference itself.
                    return self.record(o, n, path, k);
                }
                if let (Some((ou, on)), Some((nu, nn))) =
                    (self.os.node_at(&ot), self.ns.node_at(&nt))
                {
                    self.schemas((&ou, on), (&nu, nn), path);
                }
            }
            Keyword::Properties | Keyword::PatternProperties | Keyword::DependentSchemas => {
                match (ov.as_object(), nv.as_object()) {
                    (Some(om), Some(nm)) => self.members(o, n, path, kw, (om, nm)),
                    _ => self.record(o, n, path, k),
                }
            }
            Keyword::AllOf | Keyword::AnyOf | Keyword::OneOf | Keyword::PrefixItems => {
                match (ov.as_array(), nv.as_array()) {
                    (Some(a), Some(b)) if a.len() == b.len() => {
                        for (i, (x, y)) in a.iter().zip(b).enumerate() {
                            let mut p = path.to_vec();
                            if kw == Keyword::PrefixItems {
                                p.push(i.to_string());
                            }
                            let (ou, nu) = (
                                at(&at(o.0, k), &i.to_string()),
                                at(&at(n.0, k), &i.to_string()),
                            );
                            self.schemas((&ou, x), (&nu, y), &p);
                        }
                    }
                    _ => self.record(o, n, path, k),
                }
            }
            Keyword::Items
            | Keyword::AdditionalProperties
            | Keyword::If
            | Keyword::Then
            | Keyword::Else
            | Keyword::Not
            | Keyword::PropertyNames => {
                let mut p = path.to_vec();
                match kw {
                    Keyword::Items => p.push("0".into()),
                    Keyword::AdditionalProperties => p.push("compatProbe".into()),
                    _ => {}
                }
                let text = ov.to_string();
                if ov != nv || text.contains("\"$ref\"") || text.contains("\"$dynamicRef\"") {
                    let then = kw == Keyword::Then;
                    if let Some(f) = self.route.last_mut() {
                        f.via_then = then;
                    }
                    self.schemas((&at(o.0, k), ov), (&at(n.0, k), nv), &p);
                    if let Some(f) = self.route.last_mut() {
                        f.via_then = false;
                    }
                }
            }
            _ if ov != nv => self.record(o, n, path, k),
            _ => {}
        }
    }

    /// A `$dynamicRef` on both sides: each schema it may land on, where both sides have it and
    /// its meaning differs, is walked; a reference that may land elsewhere is the change.
    fn dynamic(&mut self, o: Node, n: Node, path: &[String], (ov, nv): (&Value, &Value)) {
        let targets = |set: &SchemaSet, at: &str, v: &Value| {
            v.as_str()
                .map(|r| normal::dynamic_targets(set, at, r))
                .unwrap_or_default()
        };
        let (ots, nts) = (targets(self.os, o.0, ov), targets(self.ns, n.0, nv));
        if ots != nts {
            return self.record(o, n, path, Keyword::DynamicRef.name());
        }
        for t in ots {
            if normal::meaning(self.os, self.oo, &t) == normal::meaning(self.ns, self.no, &t) {
                continue;
            }
            if let (Some((ou, on)), Some((nu, nn))) = (self.os.node_at(&t), self.ns.node_at(&t)) {
                self.schemas((&ou, on), (&nu, nn), path);
            }
        }
    }

    /// A map of member schemas (`properties`, ...), `k`, on both sides.
    fn members(
        &mut self,
        o: Node,
        n: Node,
        path: &[String],
        kw: Keyword,
        maps: (&Map<String, Value>, &Map<String, Value>),
    ) {
        let k = kw.name();
        let (om, nm) = maps;
        let names: BTreeSet<&String> = om.keys().chain(nm.keys()).collect();
        for name in names {
            let mut p = path.to_vec();
            match kw {
                Keyword::DependentSchemas => {}
                // A member whose name the pattern matches.
                Keyword::PatternProperties => {
                    p.push(crate::pattern::example(name).unwrap_or_else(|| name.clone()));
                }
                _ => p.push(name.clone()),
            }
            let (ou, nu) = (at(&at(o.0, k), name), at(&at(n.0, k), name));
            let (a, b) = (om.get(name.as_str()), nm.get(name.as_str()));
            if let (Some(a), Some(b)) = (a, b) {
                self.schemas((&ou, a), (&nu, b), &p);
                continue;
            }
            // Declared on one side only: the values around its schema, set at the member,
            // against whatever the other side lets through there.
            let closed = |key: Keyword| o.1.keyword(key) == Some(&json!(false));
            let open = kw == Keyword::Properties
                && a.is_none()
                && !closed(Keyword::AdditionalProperties)
                && !closed(Keyword::UnevaluatedProperties);
            self.out.push(Change {
                pointer: if b.is_some() { nu.clone() } else { ou.clone() },
                path: p,
                old: (ou, a.cloned().unwrap_or(json!({}))),
                new: (nu, b.cloned().unwrap_or(json!({}))),
                open_member_added: open,
                route: self.route.clone(),
                also: Vec::new(),
            });
        }
    }

    /// The keyword `key` of `o` and `n` differs in a way not walked further.
    fn record(&mut self, o: Node, n: Node, path: &[String], key: &str) {
        self.out.push(Change {
            pointer: if key.is_empty() {
                n.0.to_owned()
            } else {
                at(n.0, key)
            },
            path: path.to_vec(),
            old: (o.0.to_owned(), o.1.clone()),
            new: (n.0.to_owned(), n.1.clone()),
            open_member_added: false,
            route: self.route.clone(),
            also: Vec::new(),
        });
    }
}

/// Instances to set candidate values into: a plausible instance of each side's schema, and the
/// corpus documents either side accepts; with how many are built (the corpus's come after).
fn bases(
    old: &Side,
    new: &Side,
    o: (&str, &Value),
    n: (&str, &Value),
    oc: &Checker,
    nc: &Checker,
    corpus: &[Value],
) -> (Vec<Value>, usize) {
    let mut out = vec![
        sample::instance(old.set, o.0, o.1, 0),
        sample::instance(new.set, n.0, n.1, 0),
    ];
    out.extend(sample::conditional_instances(old.set, o.0, o.1));
    out.extend(sample::conditional_instances(new.set, n.0, n.1));
    let built = out.len();
    let mut accepted: Vec<&Value> = corpus
        .iter()
        .filter(|d| oc.verdict(d).0.valid || nc.verdict(d).0.valid)
        .collect();
    // Smaller documents first: a witness is the smallest found.
    accepted.sort_by_key(|d| d.to_string().len());
    out.extend(accepted.into_iter().take(64).cloned());
    (out, built)
}

/// The documents tried for `change`: each value around its rules on either side, set at its path
/// in each base; each base without the member at the path; the values themselves at the root.
fn candidates<'a>(
    os: &'a SchemaSet,
    ns: &'a SchemaSet,
    change: &'a Change,
    bases: &'a [Value],
    built: usize,
    local: &Local,
) -> impl Iterator<Item = Value> + 'a {
    let parts: Vec<(&SchemaSet, String, Value)> = [(os, &change.old), (ns, &change.new)]
        .into_iter()
        .flat_map(|(set, (at, node))| {
            sample::parts(set, at, node)
                .into_iter()
                .map(move |(a, n)| (set, a, n))
        })
        .collect();
    let mut values = Vec::new();
    for (set, at, node) in &parts {
        values.extend(witness::values(set, at, node));
        values.extend(sample::around(set, at, node));
    }
    let nodes: Vec<&Value> = parts.iter().map(|p| &p.2).collect();
    values.extend(sample::at_lengths(&values, &nodes));
    let mut seen = std::collections::HashSet::new();
    let (mut unique, rest): (Vec<Value>, Vec<Value>) = values
        .into_iter()
        .filter(|v| seen.insert(v.to_string()))
        .partition(|v| local.separates(v));
    unique.extend(rest);
    let path = &change.path;
    let also = &change.also;
    let firsts = bases.iter().flat_map(move |b| {
        let edited = value_at(b, path).map(edits).unwrap_or_default();
        let edited = edited.into_iter().filter_map(move |v| with(b, path, v));
        std::iter::once(b.clone())
            .chain(removed(b, path))
            .chain(edited)
    });
    // Then the values, a block at a time over every base, so that each base meets the first
    // values before the budget runs out. At the root a value replaces the base: once is enough.
    // The built bases take every value before the corpus's documents take any.
    let (built, corpus) = bases.split_at(built);
    let placed = [built, corpus].into_iter().flat_map(move |group| {
        let unique = unique.clone();
        let blocks = (0..unique.len()).step_by(BLOCK);
        blocks.flat_map(move |start| {
            let block: Vec<Value> = unique.iter().skip(start).take(BLOCK).cloned().collect();
            group.iter().enumerate().flat_map(move |(i, b)| {
                // At the root a value replaces the base: once is enough.
                let replace = !path.is_empty() || (i == 0 && group.as_ptr() == bases.as_ptr());
                let block = block.clone();
                block
                    .into_iter()
                    .flat_map(move |v| placed(b, path, also, v, replace))
            })
        })
    });
    firsts.chain(placed)
}

/// How many values are tried over every base before the next ones.
const BLOCK: usize = 48;

/// `v` at `path` in `b` (with `replace`); for an object, also its members set over what `b` has
/// there (a document right in all but the members a change is about).
fn placed(b: &Value, path: &[String], also: &[Vec<String>], v: Value, replace: bool) -> Vec<Value> {
    let mut out = Vec::new();
    if let (Some(Value::Object(here)), Value::Object(m)) = (value_at(b, path), &v) {
        let mut merged = here.clone();
        merged.extend(m.clone());
        out.extend(with(b, path, Value::Object(merged)));
    }
    if replace {
        out.extend(with(b, path, v.clone()));
    }
    // The same value everywhere else the changed schema applies, where the base has a value.
    if !also.is_empty() {
        let everywhere: Vec<Value> = out
            .iter()
            .map(|d| {
                also.iter()
                    .fold(d.clone(), |acc, p| match value_at(&acc, p) {
                        Some(_) => with(&acc, p, v.clone()).unwrap_or(acc),
                        None => acc,
                    })
            })
            .collect();
        out.extend(everywhere);
    }
    out
}

/// The value a base has at a change, edited the ways a change of counts, uniqueness or required
/// members shows on a document otherwise right: each member removed; the first item repeated,
/// the last removed.
fn edits(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    match v {
        Value::Object(o) => {
            for name in o.keys() {
                let mut less = o.clone();
                less.shift_remove(name);
                out.push(Value::Object(less));
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let mut more = a.clone();
            more.push(a[0].clone());
            out.push(Value::Array(more));
            out.push(Value::Array(a[..a.len() - 1].to_vec()));
        }
        _ => {}
    }
    out
}

/// `base` with `v` at `path`, the objects on the way made as needed (also in place of `null`);
/// `None` where the path crosses another value that is not an object or array.
fn with(base: &Value, path: &[String], v: Value) -> Option<Value> {
    let Some((first, rest)) = path.split_first() else {
        return Some(v);
    };
    // Nothing there yet (`null`): an object to hold the member.
    let mut out = match base {
        Value::Null => json!({}),
        b => b.clone(),
    };
    match &mut out {
        Value::Object(o) => {
            let inner = o.get(first).cloned().unwrap_or(json!({}));
            o.insert(first.clone(), with(&inner, rest, v)?);
        }
        Value::Array(a) => {
            let i: usize = first.parse().ok()?;
            if a.len() <= i {
                a.resize(i + 1, Value::Null);
            }
            a[i] = with(&a[i], rest, v)?;
        }
        _ => return None,
    }
    Some(out)
}

/// The value at `path` in `v`.
fn value_at<'v>(v: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(v, |v, token| match v {
        Value::Object(o) => o.get(token),
        Value::Array(a) => a.get(token.parse::<usize>().ok()?),
        _ => None,
    })
}

/// Which side's schemas a routed base is built from.
#[derive(Clone, Copy)]
enum Which {
    Old,
    New,
}

/// `base` made to reach `change` along its route on one side: where the route's instance is
/// missing, an instance of the schema there; where the route went into a `then`, its `if`'s
/// constants set and what the `then` asks added; where it went into an `anyOf`/`oneOf`
/// alternative, that alternative's instance, set over what is there and in its place. The
/// documents that differ from `base`.
fn routed(set: &SchemaSet, side: Which, base: &Value, change: &Change) -> Vec<Value> {
    let mut docs = vec![base.clone()];
    for f in &change.route {
        let at = match side {
            Which::Old => &f.old,
            Which::New => &f.new,
        };
        let Some((canon, node)) = set.node_at(at) else {
            return Vec::new();
        };
        let Some(prefix) = change.path.get(..f.depth) else {
            return Vec::new();
        };
        let mut next = Vec::new();
        for doc in docs {
            for v in step(set, (&canon, node), f, value_at(&doc, prefix)) {
                next.extend(with(&doc, prefix, v));
            }
            if next.is_empty() {
                next.push(doc);
            }
        }
        next.truncate(ROUTES);
        docs = next;
    }
    docs.retain(|d| d != base);
    docs
}

/// How many documents a route keeps at most (each alternative on the way doubles them).
const ROUTES: usize = 8;

/// The values to set where the frame `f` (the schema `node`) applies, given what is there.
fn step(
    set: &SchemaSet,
    (canon, node): (&str, &Value),
    f: &Frame,
    here: Option<&Value>,
) -> Vec<Value> {
    if f.via_then {
        let mut members = match here {
            Some(Value::Object(m)) => m.clone(),
            _ => match sample::instance(set, canon, node, 1) {
                Value::Object(m) => m,
                _ => return Vec::new(),
            },
        };
        sample::meet(set, canon, node, &mut members);
        return vec![Value::Object(members)];
    }
    let missing = here.is_none_or(Value::is_null);
    if f.alternative && !missing {
        let alt = sample::instance(set, canon, node, 1);
        let mut out = vec![alt.clone()];
        if let (Some(Value::Object(h)), Value::Object(a)) = (here, &alt) {
            let mut m = h.clone();
            m.extend(a.clone());
            out.push(Value::Object(m));
        }
        return out;
    }
    if missing {
        return vec![sample::instance(set, canon, node, 1)];
    }
    Vec::new()
}
