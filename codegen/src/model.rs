//! The generator's intermediate model: one entry per Rust item, with every constraint kept.

use serde_json::Value;

/// An item of the model: where it is in [`Items`]. A newtype, so that an item is never taken for
/// a file, a program node or a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemId(usize);

impl ItemId {
    /// Its place in the order items are emitted in.
    pub fn index(self) -> usize {
        self.0
    }
}

/// A node of the schema program that the model's checked parts run (the `program` stage's
/// numbering): never an item, a file or a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) usize);

/// Written into generated code as the node's number.
impl quote::ToTokens for NodeId {
    fn to_tokens(&self, tokens: &mut proc_macro2::TokenStream) {
        self.0.to_tokens(tokens);
    }
}

/// The model's items, each found by its [`ItemId`].
#[derive(Debug, Default)]
pub struct Items(Vec<Item>);

impl Items {
    /// Adds `item` and returns its id.
    pub fn push(&mut self, item: Item) -> ItemId {
        self.0.push(item);
        ItemId(self.0.len() - 1)
    }

    /// How many items there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Takes out the items added since [`Items::len`] was `mark` (a construction given up).
    pub fn drain_from(&mut self, mark: usize) -> impl Iterator<Item = Item> + '_ {
        self.0.drain(mark..)
    }

    /// Every item with its id, in order.
    pub fn iter(&self) -> impl Iterator<Item = (ItemId, &Item)> {
        self.0.iter().enumerate().map(|(i, item)| (ItemId(i), item))
    }

    /// Every item, mutably, in order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Item> {
        self.0.iter_mut()
    }

    /// Every id, in order.
    pub fn ids(&self) -> impl Iterator<Item = ItemId> + use<> {
        (0..self.0.len()).map(ItemId)
    }
}

impl std::ops::Index<ItemId> for Items {
    type Output = Item;
    fn index(&self, id: ItemId) -> &Item {
        &self.0[id.0]
    }
}

impl std::ops::IndexMut<ItemId> for Items {
    fn index_mut(&mut self, id: ItemId) -> &mut Item {
        &mut self.0[id.0]
    }
}

/// The type of a value position.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// `{}` or `true`: any JSON value.
    Any,
    /// `false`: the value must not exist.
    Never,
    /// `null`.
    Null,
    /// A boolean, optionally pinned to a constant.
    Bool(Option<bool>),
    /// An integer with its bounds.
    Int(IntRule),
    /// A number with its bounds.
    Num(NumRule),
    /// A string with its rule.
    Str(StrRule),
    /// An object with no declared members: every member is kept as JSON.
    Object,
    /// A generated item.
    Named(ItemId),
    /// An array with its item type and counts.
    Array(Box<ArrayTy>),
    /// The value or `null`.
    Nullable(Box<Ty>),
    /// A shared type narrowed by an `allOf`: the checks run after decoding.
    Refined(Box<Ty>, ObjPred),
    /// A value with rules its type does not say (`multipleOf`, an `allOf` on a string, a
    /// nullable object's conditionals): nodes of the schema program, checked on its JSON.
    Ruled(Box<Ty>, Vec<NodeId>),
}

#[derive(Debug, Clone, PartialEq, Default)]
/// The rule of a string: lengths in characters (code points), an ECMA-262 pattern, an asserted format.
pub struct StrRule {
    /// `minLength`.
    pub min: Option<u64>,
    /// `maxLength`.
    pub max: Option<u64>,
    /// `pattern`, as written in the schema.
    pub pattern: Option<String>,
    /// An asserted `format`: its name and check (see [`crate::Options::formats`]).
    pub format: Option<(String, crate::Format)>,
}

#[derive(Debug, Clone, PartialEq, Default)]
/// The rule of an integer.
pub struct IntRule {
    /// `minimum`.
    pub min: Option<i64>,
    /// `maximum`.
    pub max: Option<i64>,
    /// An `enum`/`const` of integers, when the integer is not its own enum type.
    pub values: Option<Vec<i64>>,
}

#[derive(Debug, Clone, PartialEq, Default)]
/// The rule of a number.
pub struct NumRule {
    /// `minimum`.
    pub min: Option<f64>,
    /// `maximum`.
    pub max: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
/// An array position.
pub struct ArrayTy {
    /// `items`.
    pub item: Ty,
    /// `minItems`.
    pub min: Option<u64>,
    /// `maxItems`.
    pub max: Option<u64>,
    /// `uniqueItems`.
    pub unique: bool,
    /// Rules the typed model does not say (`contains`, an `allOf` on the array, ...): nodes of
    /// the schema program, each checked on the array's JSON.
    pub rules: Vec<NodeId>,
}

/// A check on one value, evaluated on typed data (`const`/`enum`, `false`, `type`, item counts).
#[derive(Debug, Clone, PartialEq)]
pub enum ValPred {
    /// The value is one of these (`const`, `enum`).
    In(Vec<Value>),
    /// No value may be present (`false`).
    Never,
    /// The value has one of these JSON types.
    Types(Vec<String>),
    /// At least this many items.
    MinItems(u64),
    /// At most this many items.
    MaxItems(u64),
}

/// A check on an object: member predicates (vacuous when the member is absent), required members,
/// and `not: {required: [...]}` groups.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ObjPred {
    /// Member name and the predicates its value must satisfy when present.
    pub props: Vec<(String, Vec<ValPred>)>,
    /// Members that must be present.
    pub required: Vec<String>,
    /// Groups of members that must not all be present together.
    pub not_required: Vec<Vec<String>>,
}

impl ObjPred {
    /// Whether the predicate holds of every object.
    pub fn is_empty(&self) -> bool {
        self.props.is_empty() && self.required.is_empty() && self.not_required.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq)]
/// One declared member of an object.
pub struct Field {
    /// The member's JSON name.
    pub json: String,
    /// The Rust field name.
    pub rust: String,
    /// The member's type.
    pub ty: Ty,
    /// Whether the member is required.
    pub required: bool,
    /// The schema's description of the member.
    pub doc: Option<String>,
    /// The field's type is chosen by another field's value (an `if`/`then` table).
    pub select: Option<ItemId>,
}

#[derive(Debug, Clone, PartialEq)]
/// What an object does with members it does not declare.
pub enum Extra {
    /// `additionalProperties: false`.
    Closed,
    /// Unknown members are kept, in input order, and written back.
    Open,
    /// `additionalProperties` with a schema, and optionally `propertyNames` string rules.
    Typed(Ty, Option<Box<StrRule>>),
}

/// `if` -> `then` on an object's own members.
#[derive(Debug, Clone, PartialEq)]
pub struct Cond {
    /// The `if` predicate.
    pub when: ObjPred,
    /// What must hold when it does.
    pub then: ObjPred,
}

#[derive(Debug, Clone, PartialEq)]
/// An object with declared members.
pub struct Struct {
    /// The Rust type name.
    pub name: String,
    /// The schema's description.
    pub doc: Option<String>,
    /// The declared members, in schema order.
    pub fields: Vec<Field>,
    /// Undeclared members.
    pub extra: Extra,
    /// `if`/`then` rules on the object's own members.
    pub conds: Vec<Cond>,
    /// Each entry: exactly one of the predicates must hold.
    pub one_ofs: Vec<Vec<ObjPred>>,
    /// Predicates that always apply (narrowings merged from `allOf`).
    pub checks: Vec<ObjPred>,
    /// Rules the typed model does not say (an `if` on a nested member, `else`, `minProperties`,
    /// ...): nodes of the schema program, each checked on the value's JSON.
    pub programs: Vec<NodeId>,
}

#[derive(Debug, Clone, PartialEq)]
/// A closed set of strings.
pub struct Enum {
    /// The Rust type name.
    pub name: String,
    /// The schema's description.
    pub doc: Option<String>,
    /// `(JSON value, Rust variant)`.
    pub values: Vec<(String, String)>,
}

/// A closed set of integers (`enum: [0, 1, 2]`, `const: 1`).
#[derive(Debug, Clone, PartialEq)]
pub struct IntEnum {
    /// The Rust type name.
    pub name: String,
    /// The schema's description.
    pub doc: Option<String>,
    /// `(value, Rust variant)`.
    pub values: Vec<(i64, String)>,
}

/// A string constrained by lengths, a pattern or the date-time format: a type of its own, one per
/// distinct rule, so that a value of it is valid by construction.
#[derive(Debug, Clone, PartialEq)]
pub struct Text {
    /// The Rust type name.
    pub name: String,
    /// The rule every value satisfies.
    pub rule: StrRule,
}

/// A `oneOf` whose variants are objects told apart by a constant member.
#[derive(Debug, Clone, PartialEq)]
pub struct Tagged {
    /// The Rust type name.
    pub name: String,
    /// The schema's description.
    pub doc: Option<String>,
    /// The member whose constant tells the variants apart (empty: try each).
    pub tag: String,
    /// `(tag value, Rust variant, variant type)`.
    pub variants: Vec<(String, String, Ty)>,
}

/// A `oneOf` whose variants are told apart by JSON type.
#[derive(Debug, Clone, PartialEq)]
pub struct ByType {
    /// The Rust type name.
    pub name: String,
    /// The schema's description.
    pub doc: Option<String>,
    /// `(JSON type, Rust variant, variant type)`.
    pub variants: Vec<(String, String, Ty)>,
}

/// A member whose type depends on a sibling enum member (`allOf` of `if`/`then` rules).
#[derive(Debug, Clone, PartialEq)]
pub struct Select {
    /// The Rust type name.
    pub name: String,
    /// The selecting member's enum item.
    pub selector_enum: ItemId,
    /// The Rust field name of the selecting member.
    pub selector_rust: String,
    /// The variants, one per group of selector values.
    pub variants: Vec<SelectVariant>,
}

#[derive(Debug, Clone, PartialEq)]
/// One variant of a [`Select`].
pub struct SelectVariant {
    /// The Rust variant name.
    pub name: String,
    /// The variant's type.
    pub ty: Ty,
    /// Rust variants of the selector enum that choose this variant.
    pub when: Vec<String>,
}

/// A schema no Rust type says exactly (`anyOf` of shapes, `unevaluated*`, `$dynamicRef`, an
/// assertion without `type`): its JSON, kept as decoded, checked by the compiled schema program.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// The Rust type name.
    pub name: String,
    /// The schema's description.
    pub doc: Option<String>,
    /// The program node the value is checked against.
    pub node: NodeId,
    /// Why no typed shape was generated (the typed path's refusal), for the doc comment.
    pub why: String,
}

#[derive(Debug, Clone, PartialEq)]
/// One generated Rust item.
pub enum Item {
    /// An object.
    Struct(Struct),
    /// A closed set of strings.
    Enum(Enum),
    /// A closed set of integers.
    IntEnum(IntEnum),
    /// A constrained string.
    Text(Text),
    /// Objects told apart by a constant member.
    Tagged(Tagged),
    /// Values told apart by JSON type.
    ByType(ByType),
    /// A member typed by another member's value.
    Select(Select),
    /// JSON checked by the schema program.
    Checked(Checked),
}

impl Item {
    /// The item's Rust name.
    pub fn name(&self) -> &str {
        match self {
            Item::Struct(s) => &s.name,
            Item::Enum(e) => &e.name,
            Item::IntEnum(e) => &e.name,
            Item::Text(t) => &t.name,
            Item::Tagged(t) => &t.name,
            Item::ByType(b) => &b.name,
            Item::Select(s) => &s.name,
            Item::Checked(c) => &c.name,
        }
    }
}

impl Ty {
    /// Calls `f` on this position and every position inside it (array items, nullable values).
    pub fn walk_mut(&mut self, f: &mut impl FnMut(&mut Ty)) {
        f(self);
        match self {
            Ty::Array(a) => a.item.walk_mut(f),
            Ty::Nullable(t) | Ty::Refined(t, _) | Ty::Ruled(t, _) => t.walk_mut(f),
            _ => {}
        }
    }
}

impl Item {
    /// Calls `f` on every value position the item declares.
    pub fn walk_mut(&mut self, f: &mut impl FnMut(&mut Ty)) {
        match self {
            Item::Struct(s) => {
                for fl in &mut s.fields {
                    fl.ty.walk_mut(f);
                }
                if let Extra::Typed(t, _) = &mut s.extra {
                    t.walk_mut(f);
                }
            }
            Item::Enum(_) | Item::IntEnum(_) | Item::Text(_) | Item::Checked(_) => {}
            Item::Tagged(t) => t.variants.iter_mut().for_each(|v| v.2.walk_mut(f)),
            Item::ByType(b) => b.variants.iter_mut().for_each(|v| v.2.walk_mut(f)),
            Item::Select(s) => s.variants.iter_mut().for_each(|v| v.ty.walk_mut(f)),
        }
    }
}

impl Model {
    /// Merges items: item `i` becomes item `rep[i]` (an item that is its own representative is
    /// kept), and every id, in types and in the items themselves, follows its item to its new
    /// place.
    pub fn merge(&mut self, rep: &[usize]) {
        let mut place = vec![usize::MAX; rep.len()];
        let mut kept = Vec::new();
        for (i, item) in std::mem::take(&mut self.items.0).into_iter().enumerate() {
            if rep[i] == i {
                place[i] = kept.len();
                kept.push(item);
            }
        }
        let to = |id: ItemId| ItemId(place[rep[id.0]]);
        for item in &mut kept {
            match item {
                Item::Struct(s) => {
                    for f in &mut s.fields {
                        if let Some(sel) = &mut f.select {
                            *sel = to(*sel);
                        }
                    }
                }
                Item::Select(s) => s.selector_enum = to(s.selector_enum),
                _ => {}
            }
        }
        self.items = Items(kept);
        self.walk_mut(|t| {
            if let Ty::Named(id) = t {
                *id = to(*id);
            }
        });
    }

    /// Calls `f` on every value position: items, roots and `$defs`.
    pub fn walk_mut(&mut self, mut f: impl FnMut(&mut Ty)) {
        for item in self.items.iter_mut() {
            item.walk_mut(&mut f);
        }
        for r in &mut self.roots {
            r.ty.walk_mut(&mut f);
        }
        for (_, t) in &mut self.defs {
            t.walk_mut(&mut f);
        }
    }
}

/// The type generated for a schema file's root.
#[derive(Debug, Clone, PartialEq)]
pub struct Root {
    /// Index of the file in the schema set.
    pub file: usize,
    /// The root's type.
    pub ty: Ty,
}

#[derive(Debug, Default)]
/// Everything the emitter needs: the items, each file's root, and the named `$defs`.
pub struct Model {
    /// The generated items; a [`Ty::Named`] names one here.
    pub items: Items,
    /// Each schema file's root type.
    pub roots: Vec<Root>,
    /// `$defs` entries with a named type: (`<$id>#/$defs/<name>`, type).
    pub defs: Vec<(String, Ty)>,
    /// The compiled schema program the [`Checked`] items and ruled values run, if any does.
    pub program: Option<prp_codegen_runtime::eval::Program>,
}
