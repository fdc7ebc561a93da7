//! The builder: a slot and a setter per member a caller supplies; `build` fills in constants,
//! infers unset selectors and checks the value as `validate` does.

use super::*;

impl Emitter<'_> {
    /// The builder's slot, setter(s) and `build` initializer for one member. A builder keeps a
    /// member in an `Option`, or in a `Tri` when it may be absent or null; a constant member has
    /// no setter.
    pub(super) fn builder_member(
        &self,
        p: &mut Parts,
        m: &members::Member,
        constant: Option<TokenStream>,
    ) {
        let (json, rust, ity) = (m.json, &m.rust, &m.ity);
        if let Some(c) = constant {
            p.b_inits.push(quote! { #rust: #c, });
            return;
        }
        let tri = m.nullable && m.f.select.is_none();
        let (slot_ty, init) = match (m.f.required, tri) {
            // Required but nullable: left unset, it is written as `null`.
            (true, true) | (false, false) => (
                quote! { ::core::option::Option<#ity> },
                quote! { self.#rust },
            ),
            (true, false) => (
                quote! { ::core::option::Option<#ity> },
                quote! { rt::Failure::needed(self.#rust, #json)? },
            ),
            (false, true) => (quote! { rt::Tri<#ity> }, quote! { self.#rust }),
        };
        p.b_fields.push(quote! { #rust: #slot_ty, });
        p.b_inits.push(quote! { #rust: #init, });
        // The setters are the runtime's `setter!`.
        p.b_setters.push(if tri {
            let null_setter = format_ident!("{}_null", m.f.rust);
            let null = if m.f.required {
                quote! { None }
            } else {
                quote! { rt::Tri::Null }
            };
            quote! { rt::setter!(#rust: #ity = #json, null #null_setter = #null); }
        } else {
            quote! { rt::setter!(#rust: #ity = #json); }
        });
    }

    /// An unset selector follows from the variant of the member it selects, when the selector is
    /// a free choice (an enum of several values) rather than a constant.
    pub(super) fn infer_selector(
        &self,
        cx: &Context,
        p: &mut Parts,
        m: &members::Member,
        sd: &Select,
    ) {
        let selector_free = cx.s.fields.iter().any(|g| {
            g.rust == sd.selector_rust
                && matches!(&g.ty, Ty::Named(e) if matches!(&self.model.items[*e], Item::Enum(en) if en.values.len() > 1))
        });
        if selector_free {
            let (sel_rust, rust) = (ident(&sd.selector_rust), &m.rust);
            p.b_infer.push(quote! {
                if self.#sel_rust.is_none() && let Some(p) = &self.#rust {
                    self.#sel_rust = p.implied();
                }
            });
        }
    }
}

/// The builder type and its `build` (the struct's `builder()` is the runtime's `object!`).
pub(super) fn builder(cx: &Context, p: &Parts) -> TokenStream {
    let name = &cx.name;
    let builder = format_ident!("{}Builder", cx.s.name);
    let builder_doc = format!(
        " Builds a [`{}`] member by member: constants are filled in, optional members start absent, and `build` checks the result as `validate` does.",
        cx.s.name
    );
    let extra_name = &cx.extra_name;
    let extra_build = if matches!(cx.s.extra, Extra::Closed) {
        quote! {}
    } else {
        quote! { #extra_name: Default::default(), }
    };
    let (b_fields, b_setters, b_infer, b_inits) =
        (&p.b_fields, &p.b_setters, &p.b_infer, &p.b_inits);
    quote! {
        #[doc = #builder_doc]
        #[derive(Debug, Clone, Default)]
        #[must_use]
        pub struct #builder {
            #(#b_fields)*
            __error: ::core::option::Option<rt::Failure>,
        }
        impl #builder {
            #(#b_setters)*
            /// The value, or the first member that failed its rule, the first required member
            /// left unset, or the first rule the whole value breaks.
            pub fn build(mut self) -> ::core::result::Result<#name, rt::Failure> {
                if let Some(e) = self.__error.take() {
                    return Err(e);
                }
                #(#b_infer)*
                let value = #name {
                    #(#b_inits)*
                    #extra_build
                    __order: rt::Order::default(),
                };
                rt::Check::check(&value)?;
                Ok(value)
            }
        }
    }
}
