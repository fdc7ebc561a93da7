//! Checked types: JSON kept only once the compiled schema program accepts it.

use super::*;

impl Emitter<'_> {
    /// A checked type: the decoded JSON, kept only once the schema program accepts it.
    pub(super) fn checked(&mut self, c: &Checked) -> TokenStream {
        let name = ident(&c.name);
        let node = c.node;
        let doc = c.doc.as_ref().map(|_| {
            let d = doc_attrs(&c.doc);
            quote! { #d #[doc = ""] }
        });
        let why = format!(
            " Checked as JSON against its schema: no typed shape says it exactly ({}).",
            c.why.trim_end_matches('.')
        );
        quote! {
            #doc
            #[doc = #why]
            #[derive(Debug, Clone, PartialEq)]
            pub struct #name(serde_json::Value);
            impl #name {
                /// The value, if the schema accepts it; else the first failure, located in it.
                pub fn new(value: serde_json::Value) -> ::core::result::Result<Self, rt::Failure> {
                    __program().check(#node, &value)?;
                    Ok(#name(value))
                }
                /// The JSON value.
                pub fn as_json(&self) -> &serde_json::Value {
                    &self.0
                }
                /// The JSON value, owned.
                pub fn into_json(self) -> serde_json::Value {
                    self.0
                }
            }
            impl ::core::convert::TryFrom<serde_json::Value> for #name {
                type Error = rt::Failure;
                fn try_from(value: serde_json::Value) -> ::core::result::Result<Self, rt::Failure> {
                    Self::new(value)
                }
            }
            impl ::core::convert::From<#name> for serde_json::Value {
                fn from(v: #name) -> serde_json::Value {
                    v.0
                }
            }
            impl serde::Serialize for #name {
                fn serialize<__S: serde::Serializer>(&self, s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    serde::Serialize::serialize(&self.0, s)
                }
            }
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<__D: serde::Deserializer<'de>>(d: __D) -> ::core::result::Result<Self, __D::Error> {
                    let v = serde::de::DeserializeSeed::deserialize(rt::AnyValue, d)?;
                    __program().check(#node, &v).map_err(rt::Failure::into_error)?;
                    Ok(#name(v))
                }
            }
            impl rt::Check for #name {
                fn check(&self) -> ::core::result::Result<(), rt::Failure> {
                    __program().check(#node, &self.0)
                }
            }
            impl rt::Probed for #name {
                fn probe(&self) -> rt::Probe<'_> {
                    rt::Probed::probe(&self.0)
                }
            }
            impl rt::Fields for #name {
                fn field(&self, key: &str) -> rt::Probe<'_> {
                    rt::Fields::field(&self.0, key)
                }
                fn json_object(&self, key: &str) -> ::core::option::Option<&serde_json::Map<::std::string::String, serde_json::Value>> {
                    rt::Fields::json_object(&self.0, key)
                }
            }
        }
    }
}
