//! `normalize`: turns schema nodes into model types, naming every item that needs a name.
//!
//! [`Normalizer::run`] types every file's root and `$defs` entries; [`Normalizer::ty`] is the entry
//! for one node. Each submodule reads one kind of schema:
//!
//! - `nodes`: any node; dispatches by keyword and `type`, reads arrays, and falls back to a
//!   checked type (its JSON checked by the compiled [`crate::program`]) when no typed shape says
//!   the node exactly.
//! - `refs`: `$ref`; an object, enum or union behind one is a named item shared by every user, a
//!   scalar is inlined with its constraints.
//! - `scalars`: strings, integers, numbers; `const`/`enum` as enums of strings or of integers.
//! - `objects`: object schemas, their members and extra members.
//! - `unions`: `oneOf`/`anyOf` as a tagged enum (told apart by a constant member), a by-type enum,
//!   an enum tried variant by variant, or a nullable.
//! - `all_of`: `allOf`; members with structure merge, members that only narrow values (`const`,
//!   `enum`, `type`, item counts) become checks on the shared type, read by `predicates`.
//! - `conditionals`: `if`/`then` on sibling constants as conditional checks, or, when `then` gives
//!   a member a whole schema, a type selected by the tested enum.
//! - `naming`: the names of roots, `$defs` entries and everything else.
//! - `push_down`: before any of them, a conditional that tests a member's own members is stated
//!   one level down, inside that member, where the member's type can select by it.

use crate::error::Code;
use crate::error::Result;
use crate::load::Loc;
use crate::model::*;
use crate::names::pascal;
use crate::set::SchemaSet;
use prp_vocabulary::{Keyword, Schema};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};

mod all_of;
mod conditionals;
mod naming;
mod nodes;
mod objects;
mod predicates;
pub(crate) mod push_down;
mod refs;
mod scalars;
mod unions;

/// The keywords the typed path reads besides those that assert nothing; any other sends a node
/// to the checked path.
const KNOWN: &[Keyword] = &[
    Keyword::Ref,
    Keyword::Type,
    Keyword::Properties,
    Keyword::Required,
    Keyword::AdditionalProperties,
    Keyword::PropertyNames,
    Keyword::Items,
    Keyword::MinItems,
    Keyword::MaxItems,
    Keyword::UniqueItems,
    Keyword::Enum,
    Keyword::Const,
    Keyword::OneOf,
    Keyword::AnyOf,
    Keyword::AllOf,
    Keyword::If,
    Keyword::Then,
    Keyword::Not,
    Keyword::Pattern,
    Keyword::Format,
    Keyword::MinLength,
    Keyword::MaxLength,
    Keyword::Minimum,
    Keyword::Maximum,
];

/// Whether the keyword `name` asserts nothing: the vocabulary's identifiers and annotations, but
/// for `format` (which a caller may assert) and the dynamic anchors and vocabularies (which
/// change how other schemas resolve, and so keep a node on the checked path).
fn annotation(name: &str) -> bool {
    Keyword::from_name(name).is_some_and(|k| {
        k.asserts_nothing()
            && !matches!(
                k,
                Keyword::Format
                    | Keyword::DynamicAnchor
                    | Keyword::RecursiveAnchor
                    | Keyword::Vocabulary
            )
    })
}

/// Whether the typed path reads the keyword `name`. A name no dialect has (an editor's hint such
/// as `markdownDescription`, an `x-` extension, a member an older dialect ignores, renamed on
/// reading) is an unknown keyword, which asserts nothing.
fn known(name: &str) -> bool {
    annotation(name) || Keyword::from_name(name).is_none_or(|k| KNOWN.contains(&k))
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
    dynamic: BTreeSet<ItemId>,
}

impl<'a> Normalizer<'a> {
    /// A normalizer over `set`, with the caller's type `names` (see [`crate::Options::names`]).
    pub fn new(set: &'a SchemaSet, options: &crate::Options) -> Result<Self> {
        let def_names = naming::def_names(set, &options.names)?;
        // The document union's name is the caller's: no schema's type may take it.
        let taken = options
            .document_union
            .iter()
            .map(|(name, _)| name.clone())
            .collect();
        Ok(Normalizer {
            set,
            model: Model::default(),
            taken,
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
            self.model.roots.push(Root { file, ty });
        }
        for file in 0..self.set.files.len() {
            let f = &self.set.files[file];
            let names: Vec<String> = f
                .root
                .keyword(Keyword::Defs)
                .and_then(Value::as_object)
                .map(|d| d.keys().cloned().collect())
                .unwrap_or_default();
            for name in names {
                let loc = Loc {
                    file,
                    pointer: String::new(),
                }
                .at(Keyword::Defs)
                .child(&name);
                let hint = self
                    .def_names
                    .get(&loc)
                    .cloned()
                    .unwrap_or_else(|| pascal(&name));
                let ty = self.ty(&loc, &hint)?;
                let key = self.set.spelled_uri(&loc);
                self.model.defs.push((key, ty));
            }
        }
        self.texts();
        if !self.program.is_empty() {
            self.model.program = Some(self.program.program());
        }
        Ok(self.model)
    }

    /// The schema at `loc`; `null` (refused as a schema) when there is none.
    fn node(&self, loc: &Loc) -> &'a Value {
        self.set.node(loc).unwrap_or(&Value::Null)
    }

    /// An error located at `loc` in its schema file.
    fn err(&self, loc: &Loc, code: Code, msg: impl Into<String>) -> crate::Error {
        self.set.error(loc, code, msg)
    }

    /// Adds `item` to the model and returns its id.
    fn push(&mut self, item: Item) -> ItemId {
        self.model.items.push(item)
    }

    /// The doc comment of the item for `loc`: its description, after the title for a root.
    fn doc(&self, loc: &Loc) -> Option<String> {
        let n = self.node(loc);
        let d = n.keyword(Keyword::Description).and_then(Value::as_str);
        let t = if loc.pointer.is_empty() {
            n.keyword(Keyword::Title).and_then(Value::as_str)
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

    /// Refuses a keyword the typed path does not read (`unsupported_keyword` makes the node a
    /// checked type) and a `format` that is not a string.
    fn check_keywords(&self, loc: &Loc, obj: &Map<String, Value>) -> Result<()> {
        for k in obj.keys() {
            if !known(k) {
                return Err(self.err(
                    loc,
                    Code::UnsupportedKeyword,
                    format!("unsupported keyword `{k}`"),
                ));
            }
        }
        if let Some(f) = obj.keyword(Keyword::Format)
            && !f.is_string()
        {
            return Err(self.err(loc, Code::InvalidSchema, "`format` must be a string"));
        }
        Ok(())
    }
}

/// The highest item number `t` holds anywhere in it.
pub fn newest_item(t: &Ty) -> Option<ItemId> {
    match t {
        Ty::Named(i) => Some(*i),
        Ty::Refined(inner, _) | Ty::Ruled(inner, _) | Ty::Nullable(inner) => newest_item(inner),
        Ty::Array(a) => newest_item(&a.item),
        _ => None,
    }
}

/// The item a type names, through narrowings.
pub fn named_id(t: &Ty) -> Option<ItemId> {
    match t {
        Ty::Named(i) => Some(*i),
        Ty::Refined(inner, _) | Ty::Ruled(inner, _) => named_id(inner),
        _ => None,
    }
}

/// The one value a schema allows by `const` or by a one-value `enum` (the same rule spelled two
/// ways).
fn single_value(schema: &Value) -> Option<&Value> {
    schema.keyword(Keyword::Const).or_else(|| {
        match schema.keyword(Keyword::Enum)?.as_array()?.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    })
}

/// The strings of an array of strings (`required`); `None` for anything else.
fn strings(v: &Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|s| s.as_str().map(str::to_owned))
        .collect()
}
