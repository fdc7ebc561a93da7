//! The schema registry: every root's `Document` impl, the table of addressable schemas, and the
//! shared rule tables and schema program the items refer to.

use super::*;

/// What the registry emits besides the items.
pub(super) struct Registry {
    /// `rt::SchemaInfo` of every root.
    pub(super) infos: Vec<TokenStream>,
    /// `rt::Document` impls of roots with a type of their own.
    pub(super) roots: Vec<TokenStream>,
    /// `("$id", Type)` of every root and `$defs` entry.
    pub(super) table: Vec<TokenStream>,
    /// Hidden wrapper types of schemas that have no item of their own.
    pub(super) wrappers: Vec<TokenStream>,
}

/// The statics of each rule table: patterns, string, integer and number rules, and the
/// narrowing functions.
type Tables = (
    Vec<TokenStream>,
    Vec<TokenStream>,
    Vec<TokenStream>,
    Vec<TokenStream>,
    Vec<TokenStream>,
);

impl Emitter<'_> {
    /// Every root as a `Document`, and every addressable schema in the table.
    pub(super) fn registry(&mut self, set: &SchemaSet) -> Registry {
        let mut roots = Vec::new();
        let mut infos = Vec::new();
        // Two roots can mean one type (one is an `allOf` of a `$ref` to the other): the type is
        // the first one's document, and a trait is implemented once.
        let mut claimed = std::collections::HashSet::new();
        for root in &self.model.roots {
            let f = &set.files[root.file];
            let (id, path, title, sha) = (&f.id, &f.path, &f.title, &f.sha256);
            let info =
                quote! { rt::SchemaInfo { id: #id, path: #path, title: #title, sha256: #sha } };
            if let Ty::Named(i) = root.ty
                && claimed.insert(i)
            {
                let n = self.name(i);
                roots.push(
                    quote! { impl rt::Document for #n { const SCHEMA: rt::SchemaInfo = #info; } },
                );
            }
            infos.push(info);
        }
        // A table of every addressable schema (each root and each `$defs` entry), for callers that pick
        // a schema by `$id` at run time. Schemas without an item of their own (scalars inlined into
        // their users, a root with no type) get a small hidden wrapper so that they are checkable too.
        let mut table = Vec::new();
        let mut wrappers = Vec::new();
        let entries: Vec<(String, Ty)> = self
            .model
            .roots
            .iter()
            .map(|r| (set.files[r.file].id.clone(), r.ty.clone()))
            .chain(self.model.defs.iter().cloned())
            .collect();
        for (key, ty) in entries {
            if let Ty::Named(i) = ty {
                let n = self.name(i);
                table.push(quote! { (#key, #n) });
                continue;
            }
            let n = format_ident!("__Schema{}", wrappers.len());
            let rty = self.rust_ty(&ty);
            let seed = self.seed(&ty);
            let check = self
                .checks(&ty, quote! { x })
                .map(|c| quote! { let x = &self.0; #c });
            let doc = format!(" The schema `{key}`, checkable on its own.");
            wrappers.push(quote! {
            #[doc = #doc]
            #[doc(hidden)]
            #[derive(Debug, Clone, PartialEq, serde::Serialize)]
            #[serde(crate = "rt::serde")]
            #[serde(transparent)]
            pub struct #n(pub #rty);
            impl<'de> serde::Deserialize<'de> for #n {
                fn deserialize<__D: serde::Deserializer<'de>>(d: __D) -> ::core::result::Result<Self, __D::Error> {
                    serde::de::DeserializeSeed::deserialize(#seed, d).map(#n)
                }
            }
            impl rt::Verify for #n {
                fn verify<'de, __D: serde::Deserializer<'de>>(d: __D) -> ::core::result::Result<(), __D::Error> {
                    rt::VerifySeed::verify(#seed, d)
                }
            }
            impl rt::Check for #n {
                fn check(&self) -> ::core::result::Result<(), rt::Failure> {
                    #check
                    Ok(())
                }
            }
        });
            table.push(quote! { (#key, #n) });
        }
        Registry {
            infos,
            roots,
            table,
            wrappers,
        }
    }

    /// The rule tables the emitted items refer to by name (`STR_3`, `PAT_0`, `__refine_1`, ...).
    pub(super) fn rule_tables(&mut self) -> Tables {
        let pats: Vec<TokenStream> = self
            .patterns
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let n = format_ident!("PAT_{}", i);
                quote! { static #n: rt::Pattern = rt::Pattern::new(#p); }
            })
            .collect();
        let strs: Vec<TokenStream> = self
        .str_rules
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let n = format_ident!("STR_{}", i);
            let min = opt_u64(r.min);
            let max = opt_u64(r.max);
            let pat = match &r.pattern {
                Some(p) => {
                    let pi = format_ident!("PAT_{}", self.patterns.iter().position(|x| x == p).unwrap_or(0));
                    quote! { Some(&#pi) }
                }
                None => quote! { None },
            };
            let (fmt, fmt_static) = match &r.format {
                Some((name, check)) => {
                    let f = format_ident!("FMT_{}", i);
                    let kind = match check {
                        crate::Format::DateTime => quote! { rt::FormatKind::DateTime },
                        crate::Format::Pattern(p) => quote! { rt::FormatKind::Pattern(rt::Pattern::new(#p)) },
                    };
                    (
                        quote! { Some(&#f) },
                        quote! { static #f: rt::FormatCheck = rt::FormatCheck { name: #name, kind: #kind }; },
                    )
                }
                None => (quote! { None }, quote! {}),
            };
            quote! {
                #fmt_static
                static #n: rt::StrRule = rt::StrRule { min: #min, max: #max, pattern: #pat, format: #fmt };
            }
        })
        .collect();
        let ints: Vec<TokenStream> = self
        .int_rules
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let n = format_ident!("INT_{}", i);
            let min = opt_i64(r.min);
            let max = opt_i64(r.max);
            let values = match &r.values {
                Some(v) => quote! { Some(&[#(#v),*]) },
                None => quote! { None },
            };
            quote! { static #n: rt::IntRule = rt::IntRule { min: #min, max: #max, values: #values }; }
        })
        .collect();
        let nums: Vec<TokenStream> = self
            .num_rules
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let n = format_ident!("NUM_{}", i);
                let min = opt_f64(r.min);
                let max = opt_f64(r.max);
                quote! { static #n: rt::NumRule = rt::NumRule { min: #min, max: #max }; }
            })
            .collect();
        let refines: Vec<TokenStream> = std::mem::take(&mut self.refines)
            .into_iter()
            .enumerate()
            .map(|(i, pred)| {
                let f = format_ident!("__refine_{}", i);
                let body = pred_check(&quote! { v }, &pred);
                quote! {
                    #[allow(non_snake_case)]
                    fn #f(v: &dyn rt::Fields) -> ::core::result::Result<(), rt::Failure> {
                        #body
                        Ok(())
                    }
                }
            })
            .collect();
        (pats, strs, ints, nums, refines)
    }

    /// The compiled schema program of the checked types, built once on first use from the data
    /// written here.
    pub(super) fn program(&self) -> Option<TokenStream> {
        let program = super::program::program(self.model.program.as_ref()?);
        Some(quote! {
            /// The compiled schema program of the checked types (nodes, resolved references).
            fn __program() -> &'static rt::eval::Program {
                static PROGRAM: ::std::sync::OnceLock<rt::eval::Program> = ::std::sync::OnceLock::new();
                PROGRAM.get_or_init(|| #program)
            }
        })
    }
}
