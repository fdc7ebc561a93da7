//! The builder: a slot and a setter per member a caller supplies; `build` fills in constants,
//! infers unset selectors and checks the value as `validate` does.

use super::*;
use crate::names::unique;

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
            p.b_constants.push(quote! { #rust: #c; });
            return;
        }
        // `x_null`, unless another method has that name (a member called `x_null`, or `x_`
        // whose null setter would read `x__null`).
        let null = ident(&unique(
            format!("{}_null", m.f.rust.trim_end_matches('_')),
            &mut p.b_names,
        ));
        let presence = match (m.f.required, m.tri()) {
            (true, false) => quote! { required },
            (false, false) => quote! { optional },
            // Required but nullable: left unset, it is written as `null`.
            (true, true) => quote! { nullable #null },
            (false, true) => quote! { tri #null },
        };
        p.b_members.push(quote! { #rust = #json, #presence: #ity; });
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

/// The builder type and its `build` (`rt::builder!`; the struct's `builder()` is the runtime's
/// `object!`), and the method filling in unset selectors when there are any.
pub(super) fn builder(cx: &Context, p: &Parts, undeclared: Option<TokenStream>) -> TokenStream {
    let name = &cx.name;
    let builder = format_ident!("{}Builder", cx.s.name);
    let extra_name = &cx.extra_name;
    let undeclared = undeclared.map(|ty| quote! { undeclared { #extra_name: #ty; } });
    let (constants, members, infer) = (&p.b_constants, &p.b_members, &p.b_infer);
    let (infer_name, infer_fn) = if infer.is_empty() {
        (quote! {}, quote! {})
    } else {
        (
            quote! { , __infer },
            quote! {
                impl #builder {
                    /// Fills in unset selectors from the members they select.
                    fn __infer(&mut self) {
                        #(#infer)*
                    }
                }
            },
        )
    };
    quote! {
        rt::builder! {
            #builder => #name #infer_name;
            constants { #(#constants)* }
            members { #(#members)* }
            #undeclared
        }
        #infer_fn
    }
}
