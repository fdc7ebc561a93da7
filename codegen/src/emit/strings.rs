//! Constrained strings: a newtype that holds only what its rule accepts; its impls are the
//! runtime's `constrained_str!`.

use super::*;

impl Emitter<'_> {
    /// A constrained string: a newtype over `rt::Str` that only a checked string becomes.
    pub(super) fn text(&mut self, t: &Text) -> TokenStream {
        let name = ident(&t.name);
        let r = &t.rule;
        let doc = text_doc(r);
        let rule = self.str_rule(r);
        quote! {
            #[doc = #doc]
            #[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub struct #name(rt::Str);
            rt::constrained_str!(#name, #rule);
        }
    }
}

/// The type's doc comment: its rule in words.
fn text_doc(r: &StrRule) -> String {
    let mut doc = match (r.min.unwrap_or(0), r.max) {
        (0, None) => " A string".to_owned(),
        (min, None) => format!(" A string of at least {min} characters"),
        (0, Some(max)) => format!(" A string of at most {max} characters"),
        (min, Some(max)) => format!(" A string of {min} to {max} characters"),
    };
    if let Some(p) = &r.pattern {
        doc.push_str(&format!(" matching `{p}`"));
    }
    if let Some(f) = &r.format {
        doc.push_str(&format_words(f));
    }
    doc.push_str(
        ". Only a checked string becomes one: build it with `TryFrom`/`parse`, read it as `&str`.",
    );
    doc
}
