//! `normalize` and `plan`: turn schema nodes into model types, naming every item that needs a name.
//!
//! Rules, in short: a `$ref` to an object, enum or union becomes a named item shared by every user; a
//! `$ref` to a scalar is inlined with its constraints. `const`/`enum` become enums, of strings or of
//! integers. `oneOf` becomes a tagged enum (decided by a constant member), a by-type enum, or a
//! nullable. `allOf` members that only narrow values (`const`, `enum`, `type`, item counts) become
//! checks on the shared type; members with structure are merged. `if`/`then` on sibling constants
//! become conditional checks, or, when `then` gives a member a whole schema, a selected type.

use crate::error::Result;
use crate::load::{Loc, SchemaSet};
use crate::model::*;
use crate::names::{join, join_plain, pascal, singular, snake, unique, unversioned, variant_names};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};

const KNOWN: &[&str] = &[
    "$schema",
    "$id",
    "$anchor",
    "$defs",
    "$comment",
    "$ref",
    "title",
    "description",
    "default",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "enum",
    "const",
    "oneOf",
    "anyOf",
    "allOf",
    "if",
    "then",
    "not",
    "pattern",
    "format",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
];

/// Keywords that assert nothing: a node made only of these accepts any value.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$anchor",
    "$defs",
    "$comment",
    "title",
    "description",
    "default",
];

/// Names of the standard prelude that a generated type must not shadow.
const RESERVED: &[&str] = &[
    "Option", "Result", "String", "Vec", "Box", "Some", "None", "Ok", "Err", "Self", "Default",
];

/// Where a caller-chosen type name applies: the root or `$defs` entry that `key` (`$id#pointer`)
/// names, once the name is checked to be a usable type name.
fn chosen_name_target(set: &SchemaSet, key: &str, name: &str) -> Result<Loc> {
    let fail = |msg: String| crate::Error::new("invalid_type_name", "", "", msg);
    let ident = name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric());
    if !ident || RESERVED.contains(&name) {
        return Err(fail(format!(
            "`{name}` (chosen for `{key}`) is not a usable type name: expected PascalCase ASCII \
             letters and digits, not a prelude name"
        )));
    }
    let (id, pointer) = key.split_once('#').unwrap_or((key, ""));
    let Some(file) = set.files.iter().position(|f| f.id == id) else {
        return Err(fail(format!("no schema has the `$id` `{id}` (in `{key}`)")));
    };
    let root = Loc {
        file,
        pointer: String::new(),
    };
    if pointer.is_empty() {
        return Ok(root);
    }
    let def = pointer
        .strip_prefix("/$defs/")
        .filter(|k| !k.contains('/'))
        .map(|k| k.replace("~1", "/").replace("~0", "~"))
        .filter(|k| {
            set.files[file]
                .root
                .get("$defs")
                .and_then(Value::as_object)
                .is_some_and(|d| d.contains_key(k))
        });
    match def {
        Some(k) => Ok(root.child("$defs").child(&k)),
        None => Err(fail(format!(
            "`{key}` names neither the root nor a `$defs` entry of its schema"
        ))),
    }
}

/// Builds the [`Model`] of a schema set, one named item per schema node that needs a name.
pub struct Normalizer<'a> {
    set: &'a SchemaSet,
    /// The model built so far.
    pub model: Model,
    taken: BTreeSet<String>,
    memo: HashMap<Loc, Ty>,
    /// The nodes whose type is being worked out, to refuse a schema that contains itself.
    active: BTreeSet<Loc>,
    def_names: HashMap<Loc, String>,
    /// Where each string pattern is declared: (under `$defs`, key) per site, in visiting order.
    pattern_names: HashMap<String, Vec<(bool, String)>>,
    formats: BTreeMap<String, crate::Format>,
    /// The node table of the checked types.
    program: crate::program::Program,
    /// How many `ty` calls are under way: 0 for a file's root or a `$defs` entry of its own.
    depth: usize,
    /// Checked items whose verdict depends on the dynamic scope.
    dynamic: BTreeSet<usize>,
}

impl<'a> Normalizer<'a> {
    /// A normalizer over `set`, with the caller's type `names` (see [`crate::Options::names`]).
    pub fn new(set: &'a SchemaSet, options: &crate::Options) -> Result<Self> {
        let names = &options.names;
        // Roots are named after their file; `$defs` after their key, prefixed by the file when the key
        // is used by more than one file (their constraints may differ).
        let mut def_names = HashMap::new();
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for f in &set.files {
            *counts.entry(file_stem_name(&f.path)).or_default() += 1;
            if let Some(defs) = f.root.get("$defs").and_then(Value::as_object) {
                for k in defs.keys() {
                    *counts.entry(pascal(k)).or_default() += 1;
                }
            }
        }
        for (i, f) in set.files.iter().enumerate() {
            let mut root = file_stem_name(&f.path);
            if RESERVED.contains(&root.as_str()) {
                root = pascal(&f.title);
            }
            def_names.insert(
                Loc {
                    file: i,
                    pointer: String::new(),
                },
                root,
            );
            if let Some(defs) = f.root.get("$defs").and_then(Value::as_object) {
                for k in defs.keys() {
                    let plain = pascal(k);
                    let name = if counts[&plain] > 1 || RESERVED.contains(&plain.as_str()) {
                        format!("{}{}", file_stem_name(&f.path), plain)
                    } else {
                        plain
                    };
                    def_names.insert(
                        Loc {
                            file: i,
                            pointer: String::new(),
                        }
                        .child("$defs")
                        .child(k),
                        name,
                    );
                }
            }
        }
        for (key, name) in names {
            let loc = chosen_name_target(set, key, name)?;
            def_names.insert(loc, name.clone());
        }
        Ok(Normalizer {
            set,
            model: Model::default(),
            taken: BTreeSet::new(),
            memo: HashMap::new(),
            active: BTreeSet::new(),
            def_names,
            pattern_names: HashMap::new(),
            formats: options.formats.clone(),
            program: crate::program::Program::new(options.formats.clone()),
            depth: 0,
            dynamic: BTreeSet::new(),
        })
    }

    /// Normalizes every file's root and named `$defs`, then gives constrained strings their types.
    pub fn run(mut self) -> Result<Model> {
        for file in 0..self.set.files.len() {
            let loc = Loc {
                file,
                pointer: String::new(),
            };
            let ty = self.ty(&loc, "")?;
            self.model.roots.push(Root { file, ty, loc });
        }
        for file in 0..self.set.files.len() {
            let f = &self.set.files[file];
            let names: Vec<String> = f
                .root
                .get("$defs")
                .and_then(Value::as_object)
                .map(|d| d.keys().cloned().collect())
                .unwrap_or_default();
            for name in names {
                let loc = Loc {
                    file,
                    pointer: String::new(),
                }
                .child("$defs")
                .child(&name);
                let hint = self
                    .def_names
                    .get(&loc)
                    .cloned()
                    .unwrap_or_else(|| pascal(&name));
                let ty = self.ty(&loc, &hint)?;
                let key = format!("{}#/$defs/{}", self.set.files[file].id, name);
                self.model.defs.push((key, ty));
            }
        }
        self.texts();
        if !self.program.is_empty() {
            self.model.program = self.program.text();
        }
        Ok(self.model)
    }

    /// Gives every constrained string rule its own type (`Text1To160`, `StableId`, `DateTime`) and
    /// puts it in place of the rule.
    fn texts(&mut self) {
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
            let name = unique(name, &mut self.taken);
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

    /// Remembers where the pattern of the string schema at `loc` is declared, to name its type.
    fn name_pattern(&mut self, loc: &Loc, pattern: &str) {
        let mut tokens = loc.pointer.rsplit('/');
        let (Some(last), parent) = (tokens.next(), tokens.next()) else {
            return;
        };
        let is_def = parent == Some("$defs");
        if !is_def && parent != Some("properties") {
            return;
        }
        let name = pascal(&last.replace("~1", "/").replace("~0", "~"));
        self.pattern_names
            .entry(pattern.to_owned())
            .or_default()
            .push((is_def, name));
    }

    fn node(&self, loc: &Loc) -> &'a Value {
        self.set.node(loc).unwrap_or(&Value::Null)
    }

    fn err(&self, loc: &Loc, code: &'static str, msg: impl Into<String>) -> crate::Error {
        self.set.error(loc, code, msg)
    }

    fn name_for(&mut self, loc: &Loc, hint: &str) -> String {
        let mut base = self
            .def_names
            .get(loc)
            .cloned()
            .unwrap_or_else(|| hint.to_owned());
        // A `$defs` entry whose name a type made earlier holds is named after its file as well.
        if self.taken.contains(&base)
            && let Some(key) = loc.pointer.strip_prefix("/$defs/")
            && !key.contains('/')
        {
            let stem = file_stem_name(&self.set.files[loc.file].path);
            base = format!("{stem}{}", pascal(key));
        }
        // A hint can come out empty (a member of an unnamed `allOf`): name it after its place.
        if base.is_empty() {
            base = join(
                &file_stem_name(&self.set.files[loc.file].path),
                &pascal(
                    loc.pointer
                        .rsplit('/')
                        .find(|s| !s.is_empty() && !s.chars().all(|c| c.is_ascii_digit()))
                        .unwrap_or("Part"),
                ),
            );
        }
        unique(base, &mut self.taken)
    }

    fn push(&mut self, item: Item) -> usize {
        self.model.items.push(item);
        self.model.items.len() - 1
    }

    fn doc(&self, loc: &Loc) -> Option<String> {
        let n = self.node(loc);
        let d = n.get("description").and_then(Value::as_str);
        let t = if loc.pointer.is_empty() {
            n.get("title").and_then(Value::as_str)
        } else {
            None
        };
        match (t, d) {
            (Some(t), Some(d)) => Some(format!("{t}.\n\n{d}")),
            (Some(t), None) => Some(format!("{t}.")),
            (None, Some(d)) => Some(d.to_owned()),
            (None, None) => None,
        }
    }

    fn check_keywords(&self, loc: &Loc, obj: &Map<String, Value>) -> Result<()> {
        for k in obj.keys() {
            if !KNOWN.contains(&k.as_str()) {
                return Err(self.err(
                    loc,
                    "unsupported_keyword",
                    format!("unsupported keyword `{k}`"),
                ));
            }
        }
        if let Some(f) = obj.get("format")
            && !f.is_string()
        {
            return Err(self.err(loc, "invalid_schema", "`format` must be a string"));
        }
        Ok(())
    }

    /// The type of the schema node at `loc`; `hint` names any item it needs. A node the typed
    /// shapes cannot say exactly (the typed path answers `unsupported_keyword`) becomes a checked
    /// type: its JSON, checked by the compiled schema program.
    pub fn ty(&mut self, loc: &Loc, hint: &str) -> Result<Ty> {
        if let Some(t) = self.memo.get(loc) {
            let t = t.clone();
            return self.usable_here(loc, t);
        }
        if !self.active.insert(loc.clone()) {
            return Err(self.err(
                loc,
                "unsupported_keyword",
                "a schema that contains itself (a recursive `$ref`) has no finite typed shape",
            ));
        }
        let mark = self.model.items.len();
        self.depth += 1;
        let t = self.ty_uncached(loc, hint);
        self.depth -= 1;
        self.active.remove(loc);
        let t = match t {
            Err(e) if e.code == "unsupported_keyword" => {
                self.rollback(mark);
                self.checked(loc, hint, e)?
            }
            t => t?,
        };
        if matches!(t, Ty::Named(_)) {
            self.memo.insert(loc.clone(), t.clone());
        }
        self.usable_here(loc, t)
    }

    /// Whether a value of `ty` may be `null` (a checked type is not looked into).
    fn may_accept_null(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Any | Ty::Null | Ty::Nullable(_) => true,
            Ty::Refined(t, _) => self.may_accept_null(t),
            Ty::Named(i) => match &self.model.items[*i] {
                Item::Checked(_) => true,
                Item::ByType(b) => b.variants.iter().any(|v| v.0 == "null"),
                _ => false,
            },
            _ => false,
        }
    }

    /// Forgets the items a failed typed attempt made.
    fn rollback(&mut self, mark: usize) {
        for item in self.model.items.drain(mark..) {
            self.taken.remove(item.name());
        }
        self.memo
            .retain(|_, t| named_id(t).is_none_or(|id| id < mark));
        self.dynamic.retain(|&id| id < mark);
    }

    /// A checked type for the node at `loc`.
    fn checked(&mut self, loc: &Loc, hint: &str, why: crate::Error) -> Result<Ty> {
        let (node, dynamic) = self.program.entry(self.set, loc)?;
        let name = self.name_for(loc, hint);
        let doc = self.doc(loc);
        let id = self.push(Item::Checked(Checked {
            name,
            doc,
            node,
            why: why.message,
        }));
        if dynamic {
            self.dynamic.insert(id);
        }
        Ok(Ty::Named(id))
    }

    /// `t`, unless it is a checked type whose `$dynamicRef`s depend on the dynamic scope and the
    /// node is reached from another schema: its verdict would then depend on resources the typed
    /// code around it does not track, so the enclosing schema is checked whole instead.
    fn usable_here(&self, loc: &Loc, t: Ty) -> Result<Ty> {
        match t {
            Ty::Named(id) if self.depth > 0 && self.dynamic.contains(&id) => Err(self.err(
                loc,
                "unsupported_keyword",
                "a `$dynamicRef` resolved through the dynamic scope is checked from the root it is reached from",
            )),
            t => Ok(t),
        }
    }

    fn ty_uncached(&mut self, loc: &Loc, hint: &str) -> Result<Ty> {
        let node = self.node(loc);
        let obj = match node {
            Value::Bool(true) => return Ok(Ty::Any),
            Value::Bool(false) => return Ok(Ty::Never),
            Value::Object(o) => o,
            _ => {
                return Err(self.err(
                    loc,
                    "invalid_schema",
                    "a schema must be an object or a boolean",
                ));
            }
        };
        self.check_keywords(loc, obj)?;
        if obj.contains_key("allOf") || obj.contains_key("if") {
            return self.all_of(loc, hint);
        }
        if let Some(r) = obj.get("$ref") {
            let r = r
                .as_str()
                .ok_or_else(|| self.err(loc, "invalid_schema", "`$ref` must be a string"))?;
            let target = self.set.resolve(loc, r)?;
            let extra: Vec<&String> = obj
                .keys()
                .filter(|k| !matches!(k.as_str(), "$ref" | "description" | "$comment"))
                .collect();
            if !extra.is_empty() {
                return Err(self.err(
                    loc,
                    "unsupported_keyword",
                    "`$ref` with sibling keywords is not supported; use `allOf`",
                ));
            }
            let target_hint = self
                .def_names
                .get(&target)
                .cloned()
                .unwrap_or_else(|| hint.to_owned());
            return self.ty(&target, &target_hint);
        }
        if obj.contains_key("not") {
            return Err(self.err(
                loc,
                "unsupported_keyword",
                "`not` is supported only inside `then`",
            ));
        }
        if obj.get("type") == Some(&Value::from("object")) {
            return self.typed(loc, obj, "object", hint);
        }
        if let Some(alts) = obj.get("oneOf").or_else(|| obj.get("anyOf")) {
            return self.union(loc, alts, hint);
        }
        if let Some(c) = obj.get("const") {
            return self.enumeration(loc, std::slice::from_ref(c), hint);
        }
        if let Some(e) = obj.get("enum") {
            let values = e
                .as_array()
                .ok_or_else(|| self.err(loc, "invalid_schema", "`enum` must be an array"))?;
            return self.enumeration(loc, values, hint);
        }
        match obj.get("type") {
            // Without `type` an assertion applies to the values of its own kind and lets every
            // other value through (`maxItems` accepts any string); a Rust type cannot say that, so
            // such a schema is refused rather than narrowed or dropped.
            None => match obj.keys().find(|k| {
                // An unasserted `format` is an annotation too.
                let unasserted_format = k.as_str() == "format"
                    && obj["format"]
                        .as_str()
                        .is_some_and(|f| !self.formats.contains_key(f));
                !(ANNOTATIONS.contains(&k.as_str()) || unasserted_format)
            }) {
                None => Ok(Ty::Any),
                Some(k) => Err(self.err(
                    loc,
                    "unsupported_keyword",
                    format!(
                        "`{k}` without `type` is not supported: it would also have to accept every \
                         value of another type"
                    ),
                )),
            },
            Some(Value::String(t)) => self.typed(loc, obj, t, hint),
            Some(Value::Array(ts)) => {
                let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
                match names.as_slice() {
                    [t, "null"] | ["null", t] => {
                        Ok(Ty::Nullable(Box::new(self.typed(loc, obj, t, hint)?)))
                    }
                    [t] => self.typed(loc, obj, t, hint),
                    _ => Err(self.err(
                        loc,
                        "unsupported_keyword",
                        "a `type` list must be one type and `null`",
                    )),
                }
            }
            Some(_) => Err(self.err(loc, "invalid_schema", "`type` must be a string or an array")),
        }
    }

    fn typed(&mut self, loc: &Loc, obj: &Map<String, Value>, t: &str, hint: &str) -> Result<Ty> {
        let uint = |k: &str| obj.get(k).and_then(Value::as_u64);
        Ok(match t {
            "string" => Ty::Str(StrRule {
                min: uint("minLength"),
                max: uint("maxLength"),
                pattern: match obj.get("pattern") {
                    Some(Value::String(p)) => {
                        if let Err(e) = regress::Regex::with_flags(p, "u") {
                            return Err(self.err(
                                loc,
                                "invalid_pattern",
                                format!("pattern {p} does not compile: {e}"),
                            ));
                        }
                        self.name_pattern(loc, p);
                        Some(p.clone())
                    }
                    Some(_) => {
                        return Err(self.err(loc, "invalid_schema", "`pattern` must be a string"));
                    }
                    None => None,
                },
                format: obj
                    .get("format")
                    .and_then(Value::as_str)
                    .and_then(|f| self.formats.get(f).map(|c| (f.to_owned(), c.clone()))),
            }),
            "integer" => Ty::Int(IntRule {
                min: self.int_bound(loc, obj, "minimum")?,
                max: self.int_bound(loc, obj, "maximum")?,
                values: None,
            }),
            "number" => Ty::Num(NumRule {
                min: obj.get("minimum").and_then(Value::as_f64),
                max: obj.get("maximum").and_then(Value::as_f64),
            }),
            "boolean" => Ty::Bool(None),
            "null" => Ty::Null,
            "array" => {
                let item = match obj.get("items") {
                    Some(Value::Array(_)) => {
                        return Err(self.err(
                            loc,
                            "unsupported_keyword",
                            "tuple `items` are not supported",
                        ));
                    }
                    Some(_) => self.ty(&loc.child("items"), &singular(hint))?,
                    None => Ty::Any,
                };
                Ty::Array(Box::new(ArrayTy {
                    item,
                    min: uint("minItems"),
                    max: uint("maxItems"),
                    unique: obj.get("uniqueItems") == Some(&Value::Bool(true)),
                }))
            }
            "object" => {
                let open_only = !obj.contains_key("properties")
                    && !obj.contains_key("required")
                    && !obj.contains_key("propertyNames")
                    && !obj.contains_key("oneOf")
                    && matches!(
                        obj.get("additionalProperties"),
                        None | Some(Value::Bool(true))
                    );
                if open_only {
                    Ty::Object
                } else {
                    self.object(loc, hint)?
                }
            }
            other => {
                return Err(self.err(loc, "invalid_schema", format!("unknown type `{other}`")));
            }
        })
    }

    fn int_bound(&self, loc: &Loc, obj: &Map<String, Value>, key: &str) -> Result<Option<i64>> {
        match obj.get(key) {
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
                        "unsupported_keyword",
                        format!("`{key}` on an integer must be an integer"),
                    )
                }),
        }
    }

    fn enumeration(&mut self, loc: &Loc, values: &[Value], hint: &str) -> Result<Ty> {
        if values.is_empty() {
            return Err(self.err(
                loc,
                "unsupported_keyword",
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
                "unsupported_keyword",
                "an `enum` must hold only strings, only integers, one boolean or null",
            )),
        }
    }

    fn union(&mut self, loc: &Loc, alts: &Value, hint: &str) -> Result<Ty> {
        let alts = alts
            .as_array()
            .ok_or_else(|| self.err(loc, "invalid_schema", "`oneOf` must be an array"))?;
        let key = if self.node(loc).get("oneOf").is_some() {
            "oneOf"
        } else {
            "anyOf"
        };
        let locs: Vec<Loc> = (0..alts.len())
            .map(|i| loc.child(key).child(&i.to_string()))
            .collect();
        // What the alternatives are chosen from must be all there is to the node.
        if let Some(k) = self.node(loc).as_object().and_then(|o| {
            o.keys()
                .find(|k| !ANNOTATIONS.contains(&k.as_str()) && k.as_str() != key)
        }) {
            return Err(self.err(
                loc,
                "unsupported_keyword",
                format!("`{key}` beside `{k}` is not supported"),
            ));
        }
        if let Some(i) = alts.iter().position(Value::is_boolean) {
            return Err(self.err(
                &locs[i],
                "unsupported_keyword",
                format!("a boolean schema as a `{key}` alternative is not supported"),
            ));
        }
        let is_null = |v: &Value| {
            v.get("type") == Some(&Value::from("null"))
                && v.as_object().is_some_and(|o| o.len() == 1)
        };
        // X or null.
        if alts.len() == 2 && alts.iter().filter(|a| is_null(a)).count() == 1 {
            let other = if is_null(&alts[0]) {
                &locs[1]
            } else {
                &locs[0]
            };
            let ty = self.ty(other, hint)?;
            // With `oneOf`, `null` is valid only if the other alternative refuses it.
            if key == "oneOf" && self.may_accept_null(&ty) {
                return Err(self.err(
                    other,
                    "unsupported_keyword",
                    "a `oneOf` of `null` and a schema that may accept `null` too has no typed shape",
                ));
            }
            return Ok(Ty::Nullable(Box::new(ty)));
        }
        if key == "anyOf" {
            return Err(self.err(
                loc,
                "unsupported_keyword",
                "`anyOf` is supported only as `X or null`",
            ));
        }
        // Objects told apart by a constant member.
        let targets: Vec<Loc> = locs.iter().map(|l| self.deref(l)).collect::<Result<_>>()?;
        if let Some(tag) = self.common_tag(&targets) {
            let name = self.name_for(loc, hint);
            let id = self.push(Item::Tagged(Tagged {
                name: name.clone(),
                doc: self.doc(loc),
                tag: tag.clone(),
                variants: vec![],
            }));
            self.memo.insert(loc.clone(), Ty::Named(id));
            let mut taken = BTreeSet::new();
            let mut variants = Vec::new();
            let values: Vec<String> = targets
                .iter()
                .map(|t| {
                    self.node(t)["properties"][&tag]["const"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned()
                })
                .collect();
            let hints = variant_names(&name, &values);
            for ((l, value), vhint) in locs.iter().zip(values).zip(hints) {
                let ty = self.ty(l, &vhint)?;
                let vname = match &ty {
                    Ty::Named(i) => self.model.items[*i].name().to_owned(),
                    _ => vhint,
                };
                // A tagged variant is decoded member by member as a struct, its tag read first.
                if !matches!(&ty, Ty::Named(i) if matches!(self.model.items[*i], Item::Struct(_))) {
                    return Err(self.err(
                        l,
                        "unsupported_keyword",
                        "a `oneOf` told apart by a constant member needs every alternative to be an object type",
                    ));
                }
                variants.push((value, unique(vname, &mut taken), ty));
            }
            if let Item::Tagged(t) = &mut self.model.items[id] {
                t.variants = variants;
            }
            return Ok(Ty::Named(id));
        }
        // Scalars told apart by JSON type.
        let mut kinds = Vec::new();
        for (l, t) in locs.iter().zip(&targets) {
            match self.node(t).get("type").and_then(Value::as_str) {
                Some(k @ ("string" | "integer" | "number" | "boolean")) => {
                    kinds.push((k.to_owned(), l.clone()))
                }
                _ => {
                    kinds.clear();
                    break;
                }
            }
        }
        if kinds.is_empty() {
            // No cheap discriminator: decode every variant; exactly one must succeed (an empty tag).
            let name = self.name_for(loc, hint);
            let id = self.push(Item::Tagged(Tagged {
                name: name.clone(),
                doc: self.doc(loc),
                tag: String::new(),
                variants: vec![],
            }));
            self.memo.insert(loc.clone(), Ty::Named(id));
            let mut taken = BTreeSet::new();
            let mut variants = Vec::new();
            for (i, l) in locs.iter().enumerate() {
                let ty = self.ty(l, &join(&name, &format!("Variant{i}")))?;
                let vname = match &ty {
                    Ty::Named(n) => self.model.items[*n].name().to_owned(),
                    _ => format!("Variant{i}"),
                };
                variants.push((String::new(), unique(vname, &mut taken), ty));
            }
            if let Item::Tagged(t) = &mut self.model.items[id] {
                t.variants = variants;
            }
            return Ok(Ty::Named(id));
        }
        let distinct: BTreeSet<&str> = kinds
            .iter()
            .map(|(k, _)| if k == "integer" { "number" } else { k.as_str() })
            .collect();
        if distinct.len() != kinds.len() {
            return Err(self.err(
                loc,
                "unsupported_keyword",
                "`oneOf` variants overlap in JSON type",
            ));
        }
        let name = self.name_for(loc, hint);
        let mut variants = Vec::new();
        for (k, l) in kinds {
            let ty = self.ty(&l, &join(&name, &pascal(&k)))?;
            variants.push((k.clone(), pascal(&k), ty));
        }
        let id = self.push(Item::ByType(ByType {
            name,
            doc: self.doc(loc),
            variants,
        }));
        Ok(Ty::Named(id))
    }

    /// Follows `$ref`s to the node that holds the schema.
    fn deref(&self, loc: &Loc) -> Result<Loc> {
        let mut loc = loc.clone();
        for _ in 0..32 {
            match self.node(&loc).get("$ref").and_then(Value::as_str) {
                Some(r) => loc = self.set.resolve(&loc, r)?,
                None => return Ok(loc),
            }
        }
        Err(self.err(
            &loc,
            "unsupported_keyword",
            "`$ref` chain too long or cyclic",
        ))
    }

    /// A member required by every alternative, holding a distinct string constant in each.
    fn common_tag(&self, targets: &[Loc]) -> Option<String> {
        let first = self.node(targets.first()?);
        let candidates = first.get("required")?.as_array()?;
        'next: for c in candidates.iter().filter_map(Value::as_str) {
            let mut seen = BTreeSet::new();
            for t in targets {
                let n = self.node(t);
                let required = n
                    .get("required")
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|x| x == c));
                let konst = n
                    .get("properties")
                    .and_then(|p| p.get(c))
                    .and_then(|p| p.get("const"))
                    .and_then(Value::as_str);
                match konst {
                    Some(k) if required && seen.insert(k) => {}
                    _ => continue 'next,
                }
            }
            return Some(c.to_owned());
        }
        None
    }

    /// A value predicate, when the schema only narrows values.
    fn val_pred(&self, loc: &Loc) -> Option<Vec<ValPred>> {
        let node = self.node(loc);
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
        Some(preds)
    }

    /// An object predicate (`properties` of value predicates, `required`, `not: {required}`).
    fn obj_pred(&self, loc: &Loc) -> Option<ObjPred> {
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

    fn all_of(&mut self, loc: &Loc, hint: &str) -> Result<Ty> {
        let mut members = vec![];
        let node = self.node(loc);
        // The node itself, minus `allOf`, is a member when it says anything.
        let own: Vec<&String> = node
            .as_object()
            .map(|o| {
                o.keys()
                    .filter(|k| {
                        !matches!(
                            k.as_str(),
                            "allOf"
                                | "description"
                                | "$comment"
                                | "title"
                                | "$schema"
                                | "$id"
                                | "$defs"
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let is_object =
            node.get("type") == Some(&Value::from("object")) || node.get("properties").is_some();
        if is_object {
            return self.object(loc, hint);
        }
        if !own.is_empty() {
            return Err(self.err(
                loc,
                "unsupported_keyword",
                "`allOf` beside keywords other than object members is not supported",
            ));
        }
        members.clear();
        self.merge(loc, &members, hint, false)
    }

    /// Merges an `allOf`: structural members into one object (or the one shared type), value-narrowing
    /// members into checks. `members` are extra locations besides `loc`'s own `allOf` entries.
    fn merge(&mut self, loc: &Loc, members: &[Loc], hint: &str, explicit: bool) -> Result<Ty> {
        let mut all: Vec<Loc> = members.to_vec();
        if !explicit && let Some(a) = self.node(loc).get("allOf").and_then(Value::as_array) {
            for i in 0..a.len() {
                all.push(loc.child("allOf").child(&i.to_string()));
            }
        }
        // Members that are themselves only an `allOf` contribute their own members.
        let mut i = 0;
        while i < all.len() {
            let n = self.node(&all[i]);
            let only_all_of = n.as_object().is_some_and(|o| {
                o.contains_key("allOf")
                    && o.keys()
                        .all(|k| matches!(k.as_str(), "allOf" | "description" | "$comment"))
            });
            if only_all_of {
                let m = all.remove(i);
                let count = n["allOf"].as_array().map_or(0, Vec::len);
                for j in (0..count).rev() {
                    all.insert(i, m.child("allOf").child(&j.to_string()));
                }
            } else {
                i += 1;
            }
        }
        let mut structural: Vec<Loc> = Vec::new();
        let mut checks = ObjPred::default();
        for m in &all {
            let m_node = self.node(m);
            let is_ref_only =
                m_node.get("$ref").is_some() && m_node.as_object().is_some_and(|o| o.len() == 1);
            if !is_ref_only
                && m_node.get("if").is_none()
                && let Some(p) = self.obj_pred(m)
            {
                checks.props.extend(p.props);
                checks.required.extend(p.required);
                checks.not_required.extend(p.not_required);
                continue;
            }
            let target = if is_ref_only {
                self.deref(m)?
            } else {
                m.clone()
            };
            if !structural.contains(&target) {
                structural.push(target);
            }
        }
        if structural.is_empty()
            && let Some(first) = all.first()
        {
            // Only narrowing members: the first one is the shape, the rest narrow it.
            structural.push(first.clone());
            checks = ObjPred::default();
            for m in &all[1..] {
                if let Some(p) = self.obj_pred(m) {
                    checks.props.extend(p.props);
                    checks.required.extend(p.required);
                    checks.not_required.extend(p.not_required);
                }
            }
        }
        let base = match structural.as_slice() {
            [] => {
                return Err(self.err(
                    loc,
                    "unsupported_keyword",
                    "an `allOf` needs at least one member with structure",
                ));
            }
            [one] => {
                let h = self
                    .def_names
                    .get(one)
                    .cloned()
                    .unwrap_or_else(|| hint.to_owned());
                self.ty(one, &h)?
            }
            many => {
                // Merged into one struct, the members must be object schemas, and one of them
                // (or the node itself) must say so: otherwise non-objects would be refused too.
                let says_object = |n: &Value| n.get("type") == Some(&Value::from("object"));
                if !says_object(self.node(loc)) && !many.iter().any(|m| says_object(self.node(m))) {
                    return Err(self.err(
                        loc,
                        "unsupported_keyword",
                        "an `allOf` of several members is supported when they describe objects and one \
                         of them says `type: object`",
                    ));
                }
                let name = self.name_for(loc, hint);
                let many = many.to_vec();
                Ty::Named(self.build_object(&many, name, self.doc(loc))?)
            }
        };
        // Narrowings of members that a closed object can never hold are vacuous.
        if let Some(Item::Struct(st)) = named_id(&base).map(|i| &self.model.items[i])
            && matches!(st.extra, Extra::Closed)
        {
            checks
                .props
                .retain(|(k, _)| st.fields.iter().any(|f| &f.json == k));
        }
        if checks.is_empty() {
            return Ok(base);
        }
        match &base {
            Ty::Named(i) if matches!(self.model.items[*i], Item::Struct(_)) => {
                Ok(Ty::Refined(Box::new(base), checks))
            }
            _ => Err(self.err(
                loc,
                "unsupported_keyword",
                "an `allOf` narrowing applies only to object types",
            )),
        }
    }

    fn object(&mut self, loc: &Loc, hint: &str) -> Result<Ty> {
        let name = self.name_for(loc, hint);
        let id = self.build_object(std::slice::from_ref(loc), name, self.doc(loc))?;
        self.memo.insert(loc.clone(), Ty::Named(id));
        Ok(Ty::Named(id))
    }

    /// Builds one struct from object schemas that must all hold.
    fn build_object(&mut self, locs: &[Loc], name: String, doc: Option<String>) -> Result<usize> {
        let id = self.push(Item::Struct(Struct {
            name: name.clone(),
            doc,
            fields: vec![],
            extra: Extra::Open,
            conds: vec![],
            one_ofs: vec![],
            checks: vec![],
        }));
        // Reserve the name first so recursive users see it.
        let mut props: Vec<(String, Vec<Loc>)> = Vec::new();
        let mut required: Vec<String> = Vec::new();
        let mut closed: Vec<BTreeSet<String>> = Vec::new();
        let mut typed_extra: Option<(Loc, Option<Loc>)> = None;
        let mut conds: Vec<(ObjPred, Loc)> = Vec::new();
        let mut one_ofs = Vec::new();
        let mut checks = Vec::new();
        let mut pending: Vec<Loc> = locs.to_vec();
        let mut seen = BTreeSet::new();
        while let Some(l) = pending.pop() {
            let l = self.deref(&l)?;
            if !seen.insert(l.clone()) {
                continue;
            }
            let node = self.node(&l);
            let obj = node
                .as_object()
                .ok_or_else(|| self.err(&l, "unsupported_keyword", "expected an object schema"))?;
            self.check_keywords(&l, obj)?;
            if let Some(p) = obj.get("properties").and_then(Value::as_object) {
                for k in p.keys() {
                    let child = l.child("properties").child(k);
                    match props.iter_mut().find(|(n, _)| n == k) {
                        Some((_, v)) => v.push(child),
                        None => props.push((k.clone(), vec![child])),
                    }
                }
            }
            if let Some(r) = obj.get("required") {
                for s in strings(r)
                    .ok_or_else(|| self.err(&l, "invalid_schema", "`required` must list strings"))?
                {
                    if !required.contains(&s) {
                        required.push(s);
                    }
                }
            }
            match obj.get("additionalProperties") {
                None | Some(Value::Bool(true)) => {}
                Some(Value::Bool(false)) => closed.push(
                    obj.get("properties")
                        .and_then(Value::as_object)
                        .map(|p| p.keys().cloned().collect())
                        .unwrap_or_default(),
                ),
                Some(_) => {
                    let names = obj.get("propertyNames").map(|_| l.child("propertyNames"));
                    typed_extra = Some((l.child("additionalProperties"), names));
                }
            }
            if obj.contains_key("propertyNames")
                && !matches!(obj.get("additionalProperties"), Some(Value::Object(_)))
            {
                return Err(self.err(
                    &l,
                    "unsupported_keyword",
                    "`propertyNames` is supported only with a schema-valued `additionalProperties`",
                ));
            }
            if obj.contains_key("if") {
                let when = self.obj_pred(&l.child("if")).ok_or_else(|| {
                    self.err(
                        &l.child("if"),
                        "unsupported_keyword",
                        "an `if` may only test member constants",
                    )
                })?;
                conds.push((when, l.child("then")));
            }
            if let Some(alts) = obj.get("oneOf").and_then(Value::as_array) {
                let mut branches = Vec::new();
                for i in 0..alts.len() {
                    let b = l.child("oneOf").child(&i.to_string());
                    branches.push(self.obj_pred(&b).ok_or_else(|| {
                        self.err(
                            &b,
                            "unsupported_keyword",
                            "a `oneOf` beside `properties` may only test member values",
                        )
                    })?);
                }
                one_ofs.push(branches);
            }
            if let Some(a) = obj.get("allOf").and_then(Value::as_array) {
                for i in (0..a.len()).rev() {
                    let m = l.child("allOf").child(&i.to_string());
                    let mnode = self.node(&m);
                    if mnode.get("if").is_some()
                        || mnode.get("oneOf").is_some()
                        || mnode.get("$ref").is_some()
                    {
                        pending.push(m);
                    } else if let Some(p) = self.obj_pred(&m) {
                        checks.push(p);
                    } else {
                        pending.push(m);
                    }
                }
            }
            for k in ["not", "anyOf", "const", "enum", "items"] {
                if obj.contains_key(k) {
                    return Err(self.err(
                        &l,
                        "unsupported_keyword",
                        format!("`{k}` on an object schema is not supported"),
                    ));
                }
            }
        }
        // `additionalProperties: false` sees only its own siblings: members outside every closed set
        // can never appear.
        let allowed = |k: &str| closed.iter().all(|c| c.contains(k));
        for r in &required {
            if !allowed(r) {
                return Err(self.err(
                    &locs[0],
                    "unsatisfiable",
                    format!("`{r}` is required but forbidden by `additionalProperties: false`"),
                ));
            }
        }
        // `then` members that bring structure select the member's type by the tested constant.
        let mut selects: BTreeMap<String, Vec<(ObjPred, Loc)>> = BTreeMap::new();
        let mut plain_conds = Vec::new();
        for (when, then_loc) in conds {
            let then_node = self.node(&then_loc);
            let mut then = ObjPred::default();
            let tobj = then_node
                .as_object()
                .ok_or_else(|| self.err(&then_loc, "invalid_schema", "`then` must be an object"))?;
            for (k, v) in tobj {
                match k.as_str() {
                    "required" => then.required = strings(v).unwrap_or_default(),
                    "not" => match v.get("required").and_then(strings) {
                        Some(r) if v.as_object().is_some_and(|o| o.len() == 1) => {
                            then.not_required.push(r)
                        }
                        _ => {
                            return Err(self.err(
                                &then_loc.child("not"),
                                "unsupported_keyword",
                                "`not` may only forbid `required` members",
                            ));
                        }
                    },
                    "properties" => {
                        for name in v.as_object().into_iter().flat_map(|o| o.keys()) {
                            let pl = then_loc.child("properties").child(name);
                            match self.val_pred(&pl) {
                                Some(p) => then.props.push((name.clone(), p)),
                                None => selects
                                    .entry(name.clone())
                                    .or_default()
                                    .push((when.clone(), pl)),
                            }
                        }
                    }
                    "description" | "$comment" => {}
                    other => {
                        return Err(self.err(
                            &then_loc,
                            "unsupported_keyword",
                            format!("`{other}` in `then` is not supported"),
                        ));
                    }
                }
            }
            if !then.is_empty() {
                plain_conds.push(Cond { when, then });
            }
        }
        let mut fields = Vec::new();
        let mut taken = BTreeSet::new();
        let mut struct_checks = checks;
        for (json, plocs) in &props {
            if !allowed(json) {
                continue;
            }
            let rust = unique(snake(json), &mut taken);
            let mut hint = join(&name, &pascal(json));
            if props
                .iter()
                .any(|(other, _)| other != json && join_plain(&name, &pascal(other)) == hint)
            {
                hint = join_plain(&name, &pascal(json));
            }
            // The first location with structure gives the type; the others narrow it.
            let mut ty = None;
            let mut narrow = Vec::new();
            if selects.contains_key(json) {
                ty = Some(Ty::Any);
            }
            for pl in plocs {
                if ty.is_some() && selects.contains_key(json) {
                    break;
                }
                if ty.is_some()
                    && let Some(p) = self.val_pred(pl)
                {
                    narrow.extend(p);
                    continue;
                }
                if ty.is_none() {
                    ty = Some(self.ty(pl, &hint)?);
                } else {
                    return Err(self.err(
                        pl,
                        "unsupported_keyword",
                        format!("member `{json}` is declared twice with structure"),
                    ));
                }
            }
            if !narrow.is_empty() {
                struct_checks.push(ObjPred {
                    props: vec![(json.clone(), narrow)],
                    ..Default::default()
                });
            }
            let doc = plocs
                .iter()
                .find_map(|l| self.node(l).get("description").and_then(Value::as_str))
                .map(str::to_owned);
            fields.push(Field {
                json: json.clone(),
                rust,
                ty: ty.unwrap_or(Ty::Any),
                required: required.contains(json),
                doc,
                select: None,
            });
        }
        for (member, rules) in selects {
            let sel = self.build_select(&name, &member, rules, &fields, &props)?;
            let f = fields
                .iter_mut()
                .find(|f| f.json == member)
                .ok_or_else(|| {
                    self.err(
                        &locs[0],
                        "unsupported_keyword",
                        format!("`then` selects a type for undeclared member `{member}`"),
                    )
                })?;
            f.select = Some(sel);
            f.ty = Ty::Named(sel);
        }
        let extra = if !closed.is_empty() {
            Extra::Closed
        } else if let Some((vl, nl)) = typed_extra {
            let vty = self.ty(&vl, &join(&name, "Value"))?;
            let key = match nl {
                Some(nl) => match self
                    .node(&nl)
                    .as_object()
                    .map(|o| self.typed(&nl, o, "string", ""))
                    .transpose()?
                {
                    Some(Ty::Str(r)) => Some(r),
                    _ => {
                        return Err(self.err(
                            &nl,
                            "unsupported_keyword",
                            "`propertyNames` must be a string schema",
                        ));
                    }
                },
                None => None,
            };
            Extra::Typed(vty, key.map(Box::new))
        } else {
            Extra::Open
        };
        if let Item::Struct(s) = &mut self.model.items[id] {
            s.fields = fields;
            s.extra = extra;
            s.conds = plain_conds;
            s.one_ofs = one_ofs;
            s.checks = struct_checks;
        }
        Ok(id)
    }

    /// A member whose schema depends on an enum sibling: one variant per group of enum values that
    /// trigger the same set of rules.
    fn build_select(
        &mut self,
        owner: &str,
        member: &str,
        rules: Vec<(ObjPred, Loc)>,
        fields: &[Field],
        props: &[(String, Vec<Loc>)],
    ) -> Result<usize> {
        let at = rules[0].1.clone();
        let mut selector: Option<String> = None;
        let mut sets = Vec::new();
        for (when, _) in &rules {
            let ok = when.props.len() == 1
                && when.not_required.is_empty()
                && when.required.iter().all(|r| *r == when.props[0].0);
            let set = match (ok, when.props.first().map(|(_, p)| p.as_slice())) {
                (true, Some([ValPred::In(vs)])) => vs
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect::<BTreeSet<_>>(),
                _ => {
                    return Err(self.err(
                        &at,
                        "unsupported_keyword",
                        "a type-selecting `if` must test one enum member",
                    ));
                }
            };
            let s = &when.props[0].0;
            if selector.get_or_insert_with(|| s.clone()) != s {
                return Err(self.err(
                    &at,
                    "unsupported_keyword",
                    "type-selecting rules must all test the same member",
                ));
            }
            sets.push(set);
        }
        let selector = selector.unwrap_or_default();
        let sel_field = fields.iter().find(|f| f.json == selector).ok_or_else(|| {
            self.err(
                &at,
                "unsupported_keyword",
                format!("selector `{selector}` is not a declared member"),
            )
        })?;
        if !sel_field.required {
            return Err(self.err(
                &at,
                "unsupported_keyword",
                format!("selector `{selector}` must be required"),
            ));
        }
        let enum_id = match sel_field.ty {
            Ty::Named(i) if matches!(self.model.items[i], Item::Enum(_)) => i,
            _ => {
                return Err(self.err(
                    &at,
                    "unsupported_keyword",
                    format!("selector `{selector}` must be a string enum"),
                ));
            }
        };
        let values = match &self.model.items[enum_id] {
            Item::Enum(e) => e.values.clone(),
            _ => unreachable!(),
        };
        let base: Vec<Loc> = props
            .iter()
            .find(|(n, _)| n == member)
            .map(|(_, l)| l.clone())
            .unwrap_or_default();
        // Group enum values by the rules they trigger, in enum order.
        let mut groups: Vec<(Vec<usize>, Vec<String>, String)> = Vec::new();
        for (json, rust) in &values {
            let hit: Vec<usize> = sets
                .iter()
                .enumerate()
                .filter(|(_, s)| s.contains(json))
                .map(|(i, _)| i)
                .collect();
            match groups.iter_mut().find(|g| g.0 == hit) {
                Some(g) => g.1.push(rust.clone()),
                None => groups.push((hit, vec![rust.clone()], json.clone())),
            }
        }
        let name = unique(join(owner, &pascal(member)), &mut self.taken);
        let id = self.push(Item::Select(Select {
            name: name.clone(),
            selector_enum: enum_id,
            selector_rust: snake(&selector),
            variants: vec![],
        }));
        let mut variants = Vec::new();
        let mut taken = BTreeSet::new();
        for (hit, when, first) in groups {
            let mut members = base.clone();
            members.extend(hit.iter().map(|&i| rules[i].1.clone()));
            let vhint = if hit.is_empty() {
                join(&name, "Other")
            } else {
                join(&name, &pascal(&first))
            };
            let ty = self.merge(&at, &members, &vhint, true)?;
            let vname = match &ty {
                _ if hit.is_empty() => "Other".to_owned(),
                t => match named_id(t) {
                    // `EventPayloadSemanticToolInput` in `EventPayload` is `SemanticToolInput`;
                    // `EventPayloadGoalSnapshotV2` in `EventPayloadV2` is `GoalSnapshot`.
                    Some(i) => {
                        let item = self.model.items[i].name();
                        let plain = unversioned(&name);
                        match item.strip_prefix(name.as_str()) {
                            Some(rest) => rest.to_owned(),
                            None if plain != name => {
                                let rest = item.strip_prefix(plain.as_str()).unwrap_or(item);
                                rest.strip_suffix(&name[plain.len()..])
                                    .unwrap_or(rest)
                                    .to_owned()
                            }
                            None => item.to_owned(),
                        }
                    }
                    None => pascal(&first),
                },
            };
            let vname = if vname.is_empty() || taken.contains(&vname) {
                pascal(&first)
            } else {
                vname
            };
            variants.push(SelectVariant {
                name: unique(vname, &mut taken),
                ty,
                when,
            });
        }
        if let Item::Select(s) = &mut self.model.items[id] {
            s.variants = variants;
        }
        Ok(id)
    }
}

/// The item behind a named or refined type.
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

/// The item a type names, through narrowings.
pub fn named_id(t: &Ty) -> Option<usize> {
    match t {
        Ty::Named(i) => Some(*i),
        Ty::Refined(inner, _) => named_id(inner),
        _ => None,
    }
}

fn strings(v: &Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|s| s.as_str().map(str::to_owned))
        .collect()
}

/// `event-v2.schema.json` -> `EventV2`, `provider/acpx-sidecar.schema.json` -> `AcpxSidecar`.
pub fn file_stem_name(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file
        .strip_suffix(".schema.json")
        .or_else(|| file.strip_suffix(".json"))
        .unwrap_or(file);
    pascal(stem)
}
