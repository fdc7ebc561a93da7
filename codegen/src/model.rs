//! The generator's intermediate model: one entry per Rust item, with every constraint kept.

use crate::load::Loc;
use serde_json::Value;

/// The type of a value position.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// `{}` or `true`: any JSON value.
    Any,
    /// `false`: the value must not exist.
    Never,
    Null,
    /// A boolean, optionally pinned to a constant.
    Bool(Option<bool>),
    Int(IntRule),
    Num(NumRule),
    Str(StrRule),
    /// An object with no declared members: every member is kept as JSON.
    Object,
    /// A generated item.
    Named(usize),
    Array(Box<ArrayTy>),
    /// The value or `null`.
    Nullable(Box<Ty>),
    /// A shared type narrowed by an `allOf`: the checks run after decoding.
    Refined(Box<Ty>, ObjPred),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct StrRule {
    pub min: Option<u64>,
    pub max: Option<u64>,
    pub pattern: Option<String>,
    pub date_time: bool,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct IntRule {
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub values: Option<Vec<i64>>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct NumRule {
    pub min: Option<f64>,
    pub max: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ArrayTy {
    pub item: Ty,
    pub min: Option<u64>,
    pub max: Option<u64>,
    pub unique: bool,
}

/// A check on one value, evaluated on typed data (`const`/`enum`, `false`, `type`, item counts).
#[derive(Debug, Clone, PartialEq)]
pub enum ValPred {
    In(Vec<Value>),
    Never,
    Types(Vec<String>),
    MinItems(u64),
    MaxItems(u64),
}

/// A check on an object: member predicates (vacuous when the member is absent), required members,
/// and `not: {required: [...]}` groups.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ObjPred {
    pub props: Vec<(String, Vec<ValPred>)>,
    pub required: Vec<String>,
    pub not_required: Vec<Vec<String>>,
}

impl ObjPred {
    pub fn is_empty(&self) -> bool {
        self.props.is_empty() && self.required.is_empty() && self.not_required.is_empty()
    }
}

#[derive(Debug, Clone)]
pub struct Field {
    pub json: String,
    pub rust: String,
    pub ty: Ty,
    pub required: bool,
    pub doc: Option<String>,
    /// The field's type is chosen by another field's value (an `if`/`then` table).
    pub select: Option<usize>,
}

#[derive(Debug, Clone)]
pub enum Extra {
    /// `additionalProperties: false`.
    Closed,
    /// Unknown members are kept, in input order, and written back.
    Open,
    /// `additionalProperties` with a schema, and optionally `propertyNames` string rules.
    Typed(Ty, Option<StrRule>),
}

/// `if` -> `then` on an object's own members.
#[derive(Debug, Clone)]
pub struct Cond {
    pub when: ObjPred,
    pub then: ObjPred,
}

#[derive(Debug, Clone)]
pub struct Struct {
    pub name: String,
    pub doc: Option<String>,
    pub fields: Vec<Field>,
    pub extra: Extra,
    pub conds: Vec<Cond>,
    /// Each entry: exactly one of the predicates must hold.
    pub one_ofs: Vec<Vec<ObjPred>>,
    /// Predicates that always apply (narrowings merged from `allOf`).
    pub checks: Vec<ObjPred>,
}

#[derive(Debug, Clone)]
pub struct Enum {
    pub name: String,
    pub doc: Option<String>,
    /// `(JSON value, Rust variant)`.
    pub values: Vec<(String, String)>,
}

/// A closed set of integers (`enum: [0, 1, 2]`, `const: 1`).
#[derive(Debug, Clone)]
pub struct IntEnum {
    pub name: String,
    pub doc: Option<String>,
    /// `(value, Rust variant)`.
    pub values: Vec<(i64, String)>,
}

/// A string constrained by lengths, a pattern or the date-time format: a type of its own, one per
/// distinct rule, so that a value of it is valid by construction.
#[derive(Debug, Clone)]
pub struct Text {
    pub name: String,
    pub rule: StrRule,
}

/// A `oneOf` whose variants are objects told apart by a constant member.
#[derive(Debug, Clone)]
pub struct Tagged {
    pub name: String,
    pub doc: Option<String>,
    pub tag: String,
    /// `(tag value, Rust variant, variant type)`.
    pub variants: Vec<(String, String, Ty)>,
}

/// A `oneOf` whose variants are told apart by JSON type.
#[derive(Debug, Clone)]
pub struct ByType {
    pub name: String,
    pub doc: Option<String>,
    /// `(JSON type, Rust variant, variant type)`.
    pub variants: Vec<(String, String, Ty)>,
}

/// A member whose type depends on a sibling enum member (`allOf` of `if`/`then` rules).
#[derive(Debug, Clone)]
pub struct Select {
    pub name: String,
    /// The selecting member's enum item.
    pub selector_enum: usize,
    pub selector_rust: String,
    pub variants: Vec<SelectVariant>,
}

#[derive(Debug, Clone)]
pub struct SelectVariant {
    pub name: String,
    pub ty: Ty,
    /// Rust variants of the selector enum that choose this variant.
    pub when: Vec<String>,
}

#[derive(Debug, Clone)]
pub enum Item {
    Struct(Struct),
    Enum(Enum),
    IntEnum(IntEnum),
    Text(Text),
    Tagged(Tagged),
    ByType(ByType),
    Select(Select),
}

impl Item {
    pub fn name(&self) -> &str {
        match self {
            Item::Struct(s) => &s.name,
            Item::Enum(e) => &e.name,
            Item::IntEnum(e) => &e.name,
            Item::Text(t) => &t.name,
            Item::Tagged(t) => &t.name,
            Item::ByType(b) => &b.name,
            Item::Select(s) => &s.name,
        }
    }
}

impl Ty {
    /// Calls `f` on this position and every position inside it (array items, nullable values).
    pub fn walk_mut(&mut self, f: &mut impl FnMut(&mut Ty)) {
        f(self);
        match self {
            Ty::Array(a) => a.item.walk_mut(f),
            Ty::Nullable(t) | Ty::Refined(t, _) => t.walk_mut(f),
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
            Item::Enum(_) | Item::IntEnum(_) | Item::Text(_) => {}
            Item::Tagged(t) => t.variants.iter_mut().for_each(|v| v.2.walk_mut(f)),
            Item::ByType(b) => b.variants.iter_mut().for_each(|v| v.2.walk_mut(f)),
            Item::Select(s) => s.variants.iter_mut().for_each(|v| v.ty.walk_mut(f)),
        }
    }
}

impl Model {
    /// Calls `f` on every value position: items, roots and `$defs`.
    pub fn walk_mut(&mut self, mut f: impl FnMut(&mut Ty)) {
        for item in &mut self.items {
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
#[derive(Debug, Clone)]
pub struct Root {
    pub file: usize,
    pub ty: Ty,
    pub loc: Loc,
}

#[derive(Debug, Default)]
pub struct Model {
    pub items: Vec<Item>,
    pub roots: Vec<Root>,
    /// `$defs` entries with a named type: (`<$id>#/$defs/<name>`, type).
    pub defs: Vec<(String, Ty)>,
}
