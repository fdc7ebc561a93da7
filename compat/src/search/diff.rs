//! Where the two sides' schemas differ: the walk over both at once, and each change with the
//! route of schemas that leads to it.

use crate::{Side, normal};
use prp_codegen::{Options, SchemaSet};
use prp_vocabulary::{Keyword, Schema, uri};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// A place where the two sides' schemas differ: the schema object holding the differing keyword
/// on each side, and the path of the instance it applies to.
#[derive(Debug, Clone)]
pub(super) struct Change {
    /// The differing keyword: a pointer in the schema's file, or a canonical URI elsewhere.
    pub(super) pointer: String,
    /// The instance path (member names and item indexes) the schema object applies to.
    pub(super) path: Vec<String>,
    /// A member NEW declares that OLD's open object does not.
    pub(super) open_member_added: bool,
    pub(super) old: (String, Value),
    pub(super) new: (String, Value),
    /// The schemas the walk went through to get here, outermost first.
    pub(super) route: Vec<Frame>,
    /// The other instance paths the same schemas apply at.
    pub(super) also: Vec<Vec<String>>,
}

/// A schema the walk went through: what a document must look like there for the change below
/// to be reached.
#[derive(Debug, Clone)]
pub(super) struct Frame {
    /// How many instance path tokens lead to the instance it applies to.
    pub(super) depth: usize,
    pub(super) old: String,
    pub(super) new: String,
    /// The walk went into its `then`: its `if` must hold.
    pub(super) via_then: bool,
    /// It is an `anyOf`/`oneOf` alternative: a document reaches the change through it.
    pub(super) alternative: bool,
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
pub(super) fn diff(old: &Side, new: &Side, o: Node, n: Node) -> Vec<Change> {
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
    uri::child(uri, token)
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
                let (Some(a), Some(b)) = (ov.as_array(), nv.as_array()) else {
                    return self.record(o, n, path, k);
                };
                if a.len() != b.len() {
                    self.record(o, n, path, k);
                }
                // Same length: pairwise. Else the pairs written alike (an alternative added or
                // removed at the end), whose `$ref`s may still land on changed schemas.
                let same = a.len() == b.len();
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    if !same && x != y {
                        continue;
                    }
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
            Keyword::Items
            | Keyword::AdditionalProperties
            | Keyword::If
            | Keyword::Then
            | Keyword::Else
            | Keyword::Not
            | Keyword::PropertyNames => {
                let mut p = path.to_vec();
                match kw {
                    // The first item `items` applies to: the one after the prefix.
                    Keyword::Items => p.push(prefix_len(o.1, n.1).to_string()),
                    Keyword::AdditionalProperties => p.push(self.undeclared_name(n)),
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

    /// A member name `n`'s `properties` does not declare, for a change of what undeclared
    /// members may be: a string its `propertyNames` allows (as far as a plausible instance
    /// goes), else `compatProbe`.
    fn undeclared_name(&self, n: Node) -> String {
        let probe = || "compatProbe".to_owned();
        let Some(o) = n.1.as_object() else {
            return probe();
        };
        let declared = |name: &str| {
            o.keyword(Keyword::Properties)
                .and_then(Value::as_object)
                .is_some_and(|p| p.contains_key(name))
        };
        let Some(names) = o.keyword(Keyword::PropertyNames) else {
            return probe();
        };
        // Names are strings: the schema's instance asked for as one.
        let mut names = names.clone();
        if let Value::Object(m) = &mut names {
            m.entry(Keyword::Type.name()).or_insert(json!("string"));
        }
        let at = at(n.0, Keyword::PropertyNames.name());
        match crate::sample::instance(self.ns, &at, &names, 1) {
            Value::String(name) if !declared(&name) => name,
            _ => probe(),
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

/// How many items `prefixItems` covers on either side (the longer): where `items` begins.
fn prefix_len(o: &Value, n: &Value) -> usize {
    [o, n]
        .iter()
        .filter_map(|s| {
            Some(
                s.as_object()?
                    .keyword(Keyword::PrefixItems)?
                    .as_array()?
                    .len(),
            )
        })
        .max()
        .unwrap_or(0)
}
