//! Closed sets of strings and of integers.

use super::*;

impl Emitter<'_> {
    pub(super) fn enumeration(&mut self, e: &Enum) -> TokenStream {
        let (name, open) = (ident(&e.name), self.open.clone());
        let listed: Vec<String> = e.values.iter().map(|(j, _)| format!("`{j}`")).collect();
        let doc = doc_with(&e.doc, &format!("One of {}.", listed.join(", ")), None);
        let vdocs: Vec<String> = e.values.iter().map(|(j, _)| format!(" `{j}`")).collect();
        let variants: Vec<Ident> = e.values.iter().map(|(_, v)| ident(v)).collect();
        let jsons: Vec<&String> = e.values.iter().map(|(j, _)| j).collect();
        let allowed = listed.join(", ");
        let code = ident(if e.values.len() == 1 { "Const" } else { "Enum" });
        // The type is declared here; its impls are the runtime's `str_enum!`.
        quote! {
            #doc
            #open
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #name {
                #( #[doc = #vdocs] #variants, )*
            }
            rt::str_enum!(#name, #code, #allowed, { #(#jsons => #variants),* });
        }
    }

    pub(super) fn int_enumeration(&mut self, e: &IntEnum) -> TokenStream {
        let (name, open) = (ident(&e.name), self.open.clone());
        let listed: Vec<String> = e.values.iter().map(|(n, _)| format!("`{n}`")).collect();
        let doc = doc_with(
            &e.doc,
            &format!("One of the integers {}.", listed.join(", ")),
            None,
        );
        let vdocs: Vec<String> = e.values.iter().map(|(n, _)| format!(" `{n}`")).collect();
        let variants: Vec<Ident> = e.values.iter().map(|(_, v)| ident(v)).collect();
        let ints: Vec<i64> = e.values.iter().map(|(n, _)| *n).collect();
        let rule = self.int_rule(&IntRule {
            min: None,
            max: None,
            values: Some(ints.clone()),
        });
        quote! {
            #doc
            #open
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #name {
                #( #[doc = #vdocs] #variants, )*
            }
            impl #name {
                /// Every value, in schema order.
                pub const ALL: &'static [#name] = &[#(#name::#variants),*];
                /// The JSON integer of this value.
                pub fn as_i64(&self) -> i64 {
                    match self { #(#name::#variants => #ints,)* }
                }
            }
            impl ::core::convert::TryFrom<i64> for #name {
                type Error = rt::Failure;
                fn try_from(v: i64) -> ::core::result::Result<Self, rt::Failure> {
                    rt::int_failure(&#rule, v)?;
                    match v {
                        #(#ints => Ok(#name::#variants),)*
                        _ => Err(rt::Failure::new(rt::Keyword::Enum, "", "not an allowed value")),
                    }
                }
            }
            impl From<#name> for i64 {
                fn from(v: #name) -> i64 {
                    v.as_i64()
                }
            }
            impl std::fmt::Display for #name {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    write!(f, "{}", self.as_i64())
                }
            }
            impl serde::Serialize for #name {
                fn serialize<__S: serde::Serializer>(&self, s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    s.serialize_i64(self.as_i64())
                }
            }
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<__D: serde::Deserializer<'de>>(d: __D) -> ::core::result::Result<Self, __D::Error> {
                    let v = serde::de::DeserializeSeed::deserialize(rt::IntSeed(&#rule), d)?;
                    #name::try_from(v).map_err(rt::Failure::into_error)
                }
            }
            impl rt::Probed for #name {
                fn probe(&self) -> rt::Probe<'_> {
                    rt::Probe::Int(self.as_i64())
                }
            }
            impl rt::Check for #name {}
        }
    }
}
