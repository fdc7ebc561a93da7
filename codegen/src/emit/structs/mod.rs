//! Object schemas as structs. Every declared member contributes to several generated parts at once
//! (the field, the decoder's slot and arm, the verdict-only check's, the builder's setter, the
//! encoder's arm), so [`Parts`] gathers them member by member and the parts are assembled last:
//!
//! - `members`: one declared member's share of every part;
//! - `extra`: members the schema does not declare (closed, kept as JSON, or typed);
//! - `builder`: the builder type and its setters;
//! - `codec`: the decoder, the verdict-only check, the encoder and the probes.

mod builder;
mod codec;
mod extra;
mod members;

use super::*;

/// Each generated part of one struct, gathered member by member in declaration order.
#[derive(Default)]
struct Parts {
    /// The struct's fields.
    defs: Vec<TokenStream>,
    /// Decoder: a slot per member, an arm per member name, and how each slot becomes a field
    /// (`unpack_late` after the others: selected members need their selector).
    /// Entries of `rt::decode_members!`: a slot per member (`slot: Type,`), a read per plain
    /// member (`"json" => slot @ index : seed;`), raw arms for the others, the required members
    /// (`field = slot, "json";`), and how the rest become fields (`unpack_late` after the
    /// required: selected members need their selector).
    slots: Vec<TokenStream>,
    reads: Vec<TokenStream>,
    arms: Vec<TokenStream>,
    required: Vec<TokenStream>,
    unpack_late: Vec<TokenStream>,
    inits: Vec<TokenStream>,
    /// A member that arrives already read, as the discriminator of a tagged union
    /// (`"json" => slot @ index : Type, "/pointer";`).
    pre_arms: Vec<TokenStream>,
    /// What `Check` runs per member.
    field_checks: Vec<TokenStream>,
    /// The verdict-only twin of the decoder (`rt::verify_members!`): slots hold `()` (or the value
    /// of a selector or of a member that rules read, `v_pre_kept`), values are checked through
    /// `rt::Verified`.
    v_slots: Vec<TokenStream>,
    v_reads: Vec<TokenStream>,
    v_arms: Vec<TokenStream>,
    v_pre_arms: Vec<TokenStream>,
    v_pre_kept: Vec<TokenStream>,
    v_required: Vec<TokenStream>,
    v_unpack_late: Vec<TokenStream>,
    /// The verdict-only check's view of the members that rules read.
    view_arms: Vec<TokenStream>,
    /// Entries of `rt::members!` (encoding, reading by name): one per declared member
    /// (`"json" => field @ index, presence;`).
    table: Vec<TokenStream>,
    /// Entries of `rt::builder!`: constant members (`field: value;`), the others
    /// (`field = "json", presence: Type;`), and selectors it infers from their selected member.
    b_constants: Vec<TokenStream>,
    b_members: Vec<TokenStream>,
    b_infer: Vec<TokenStream>,
    /// The builder's method names so far (setters, `build`), which a null setter must avoid.
    b_names: BTreeSet<String>,
    /// Declared members so far (the index the next one records its order by).
    index: u16,
}

/// What the code of every member needs to know about its struct.
struct Context<'s> {
    s: &'s Struct,
    name: Ident,
    /// The field keeping undeclared members (`extra`, or `extra_` when a member takes that name).
    extra_name: Ident,
    /// Members that rules across members read.
    rule_keys: BTreeSet<String>,
    /// Whether the verdict-only check can keep every member rules read (a declared member, an
    /// unknown one that a closed object cannot hold or that an open one keeps as JSON); if not, it
    /// decodes the object whole.
    native: bool,
    /// Rust names of the members that choose another member's schema.
    selectors: Vec<String>,
}

impl Emitter<'_> {
    /// The struct, its builder and every trait impl of an object schema.
    pub(super) fn strukt(&mut self, id: ItemId, s: &Struct) -> TokenStream {
        let cx = self.context(id, s);
        let mut p = Parts {
            b_names: s
                .fields
                .iter()
                .map(|f| f.rust.clone())
                .chain(["build".to_owned(), cx.extra_name.to_string()])
                .collect(),
            ..Parts::default()
        };
        for f in &s.fields {
            self.member(&cx, &mut p, f);
        }
        self.unknown_rule_members(&cx, &mut p);
        let verify_extra = self.verify_extra(s);
        let extra = self.decode_extra(&cx);
        let extra_checks = self.extra_checks(&cx);
        let mut rules = rules_on(s, quote! { self });
        if !rules.is_empty() {
            rules.insert(0, quote! { use rt::Fields as _; });
        }
        rules.extend(
            s.programs
                .iter()
                .map(|n| quote! { rt::program_rule(__program(), #n, self)?; }),
        );
        let def = struct_def(&cx, &p, &extra);
        let undeclared = self.undeclared_ty(&s.extra);
        let builder = builder::builder(&cx, &p, undeclared);
        let codec = codec::codec(&cx, &p, &extra, verify_extra, !rules.is_empty());
        let checks = codec::check_impls(&cx, &p, &extra_checks, &rules);
        let (name, builder_name) = (&cx.name, format_ident!("{}Builder", s.name));
        quote! { #def #builder rt::object!(#name, #builder_name); #codec #checks }
    }

    fn context<'s>(&self, id: ItemId, s: &'s Struct) -> Context<'s> {
        let rule_keys = self.rule_keys[id.index()].clone();
        // A program rule reads the value's JSON, which only a decoded value gives.
        let native = s.programs.is_empty()
            && rule_keys
                .iter()
                .all(|k| match s.fields.iter().find(|f| &f.json == k) {
                    Some(f) => f.select.is_none(),
                    None => matches!(s.extra, Extra::Closed | Extra::Open),
                });
        let selectors = s
            .fields
            .iter()
            .filter_map(|f| match f.select.map(|i| &self.model.items[i]) {
                Some(Item::Select(sd)) => Some(sd.selector_rust.clone()),
                _ => None,
            })
            .collect();
        let extra_name = if s.fields.iter().any(|f| f.rust == "extra") {
            ident("extra_")
        } else {
            ident("extra")
        };
        Context {
            s,
            name: ident(&s.name),
            extra_name,
            rule_keys,
            native,
            selectors,
        }
    }
}

/// The struct's own definition.
fn struct_def(cx: &Context, p: &Parts, extra: &extra::ExtraParts) -> TokenStream {
    let s = cx.s;
    let members: Vec<String> = s.fields.iter().map(|f| format!("`{}`", f.json)).collect();
    let doc = doc_with(
        &s.doc,
        &if members.is_empty() {
            "A JSON object.".to_owned()
        } else {
            format!("An object with the members {}.", members.join(", "))
        },
        None,
    );
    let (name, defs, extra_def) = (&cx.name, &p.defs, &extra.def);
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq)]
        pub struct #name {
            #(#defs)*
            #extra_def
            /// The input's member order, written back on encoding.
            __order: rt::Order,
        }
    }
}

/// The rules across members (conditionals, exclusive alternatives, narrowings) on `target`: the
/// decoded value, or the verdict-only check's view of its kept members.
fn rules_on(s: &Struct, target: TokenStream) -> Vec<TokenStream> {
    let mut rules = Vec::new();
    for c in &s.conds {
        let when = pred_holds(&target, &c.when);
        let then = pred_check(&target, &c.then);
        rules.push(quote! { if #when { #then } });
    }
    for branches in &s.one_ofs {
        let holds: Vec<TokenStream> = branches.iter().map(|b| pred_holds(&target, b)).collect();
        let n = branches.len();
        rules.push(quote! {
            let matched = [#(#holds),*].iter().filter(|b| **b).count();
            if matched != 1 {
                return Err(rt::Failure::new(rt::Keyword::OneOf, "", format!("must match exactly one of {} alternatives; matches {matched}", #n)));
            }
        });
    }
    for c in &s.checks {
        rules.push(pred_check(&target, c));
    }
    rules
}
