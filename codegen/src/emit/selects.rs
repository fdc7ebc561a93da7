//! Selected members: a member whose schema another member's value chooses (an `if`/`then` table).

use super::*;

/// A selected member's parts, gathered variant by variant.
#[derive(Default)]
struct SelectParts {
    defs: Vec<TokenStream>,
    /// Decoding and the verdict-only check, by selector value.
    arms: Vec<TokenStream>,
    v_arms: Vec<TokenStream>,
    /// The variant index a selector value chooses, and the index of each variant.
    chosen: Vec<TokenStream>,
    index: Vec<TokenStream>,
    check_arms: Vec<TokenStream>,
    /// The selector value a variant implies, when one value alone chooses it.
    implied: Vec<TokenStream>,
    froms: Vec<TokenStream>,
}

impl Emitter<'_> {
    pub(super) fn select(&mut self, s: &Select) -> TokenStream {
        let name = ident(&s.name);
        let selector = self.name(s.selector_enum);
        let seed_ty = format_ident!("__{}Seed", s.name);
        let p = self.select_parts(s, &name, &selector);
        let SelectParts {
            defs,
            arms,
            chosen,
            index,
            check_arms,
            v_arms,
            implied,
            froms,
        } = p;
        let fields = self.select_fields(s, &name);
        let enum_def = untagged_enum(&name, &defs, &self.open);
        let probe_and_check = [object_probe(&name), check_by_variant(&name, &check_arms)];
        let selector_name = self.model.items[s.selector_enum].name();
        let doc = format!(
            " A member whose schema is chosen by the value of [`{selector_name}`]; one variant per group of values."
        );
        quote! {
            #[doc = #doc]
            #enum_def
            #[derive(Clone, Copy)]
            struct #seed_ty<'a>(&'a #selector);
            impl<'de> serde::de::DeserializeSeed<'de> for #seed_ty<'_> {
                type Value = #name;
                fn deserialize<__D: serde::Deserializer<'de>>(self, d: __D) -> ::core::result::Result<#name, __D::Error> {
                    match self.0 {
                        #(#arms)*
                    }
                }
            }
            impl<'de> rt::VerifySeed<'de> for #seed_ty<'_> {
                fn verify<__D: serde::Deserializer<'de>>(self, d: __D) -> ::core::result::Result<(), __D::Error> {
                    match self.0 {
                        #(#v_arms)*
                    }
                }
            }
            #(#probe_and_check)*
            #(#froms)*
            #fields
            impl #name {
                /// The selector value this variant stands for, when exactly one value chooses it
                /// (a builder fills an unset selector from it).
                pub fn implied(&self) -> ::core::option::Option<#selector> {
                    match self { #(#implied)* }
                }
                /// Checks the value against the schema that `selector` chooses. A variant other than the
                /// chosen one is accepted only when its JSON satisfies the chosen schema, exactly as
                /// decoding the encoded document would decide.
                #[doc(hidden)]
                pub fn __recheck(&self, selector: &#selector) -> ::core::result::Result<(), rt::Failure> {
                    let chosen: usize = match selector { #(#chosen)* };
                    let index: usize = match self { #(#index)* };
                    if chosen == index {
                        rt::Check::check(self)
                    } else {
                        rt::recheck(self, #seed_ty(selector))
                    }
                }
            }
        }
    }

    /// Each variant's share of the member's enum, seeds and checks.
    fn select_parts(&mut self, s: &Select, name: &Ident, selector: &Ident) -> SelectParts {
        let mut p = SelectParts::default();
        let rtys: Vec<String> = s
            .variants
            .iter()
            .map(|v| self.rust_ty(&v.ty).to_string())
            .collect();
        for (n, v) in s.variants.iter().enumerate() {
            let vn = ident(&v.name);
            let rty = self.rust_ty(&v.ty);
            p.implied.push(match v.when.as_slice() {
                [one] => {
                    let one = ident(one);
                    quote! { #name::#vn(_) => Some(#selector::#one), }
                }
                _ => quote! { #name::#vn(_) => None, },
            });
            // A variant type no other variant holds converts into the member directly.
            if rtys.iter().filter(|t| **t == rtys[n]).count() == 1 {
                p.froms.push(quote! {
                    impl From<#rty> for #name {
                        fn from(v: #rty) -> Self {
                            #name::#vn(Box::new(v))
                        }
                    }
                });
            }
            let seed = self.seed(&v.ty);
            let c = self.checks(&v.ty, quote! { x });
            p.check_arms
                .push(quote! { #name::#vn(x) => { let x = &**x; let _ = x; #c } });
            p.index.push(quote! { #name::#vn(_) => #n, });
            let whens: Vec<Ident> = v.when.iter().map(|w| ident(w)).collect();
            p.chosen.push(quote! { #(#selector::#whens)|* => #n, });
            let vdoc = if v.when.len() > 8 {
                format!(" Any other value of the selector: {}.", self.words(&v.ty))
            } else {
                let sel = &self.model.items[s.selector_enum];
                let jsons: Vec<String> = match sel {
                    Item::Enum(en) => v
                        .when
                        .iter()
                        .filter_map(|w| en.values.iter().find(|(_, r)| r == w))
                        .map(|(j, _)| format!("`{j}`"))
                        .collect(),
                    _ => vec![],
                };
                format!(" Chosen by {}: {}.", jsons.join(", "), self.words(&v.ty))
            };
            p.defs.push(quote! { #[doc = #vdoc] #vn(Box<#rty>), });
            p.arms.push(quote! { #(#selector::#whens)|* => Ok(#name::#vn(Box::new(serde::de::DeserializeSeed::deserialize(#seed, d)?))), });
            p.v_arms
                .push(quote! { #(#selector::#whens)|* => rt::VerifySeed::verify(#seed, d), });
        }
        p
    }

    /// Members are readable by name when every variant is an object.
    fn select_fields(&self, s: &Select, name: &Ident) -> Option<TokenStream> {
        let objects = s.variants.iter().all(|v| self.has_fields(&v.ty));
        objects.then(|| {
        let vns: Vec<Ident> = s.variants.iter().map(|v| ident(&v.name)).collect();
        quote! {
            impl rt::Fields for #name {
                fn field(&self, key: &str) -> rt::Probe<'_> {
                    match self { #(#name::#vns(x) => rt::Fields::field(&**x, key),)* }
                }
                fn json_object(&self, key: &str) -> ::core::option::Option<&serde_json::Map<::std::string::String, serde_json::Value>> {
                    match self { #(#name::#vns(x) => rt::Fields::json_object(&**x, key),)* }
                }
            }
        }
    })
    }
}
