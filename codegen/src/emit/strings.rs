//! Constrained strings: a newtype that holds only what its rule accepts.

use super::*;

impl Emitter<'_> {
    /// A constrained string: a newtype over `rt::Str` that only a checked string becomes.
    pub(super) fn text(&mut self, t: &Text) -> TokenStream {
        let name = ident(&t.name);
        let r = &t.rule;
        let doc = text_doc(r);
        let rule = self.str_rule(r);
        let views = str_views(&name);
        quote! {
            #[doc = #doc]
            #[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub struct #name(rt::Str);
            impl #name {
                /// Checks `s` against the rule; the failure says which part of it `s` breaks.
                pub fn new(s: impl Into<rt::Str>) -> ::core::result::Result<Self, rt::Failure> {
                    let s = s.into();
                    rt::str_failure(&#rule, &s)?;
                    Ok(#name(s))
                }
                /// The string.
                pub fn as_str(&self) -> &str {
                    &self.0
                }
                /// The string, owned.
                pub fn into_inner(self) -> rt::Str {
                    self.0
                }
            }
            impl ::core::convert::TryFrom<&str> for #name {
                type Error = rt::Failure;
                fn try_from(s: &str) -> ::core::result::Result<Self, rt::Failure> {
                    #name::new(s)
                }
            }
            impl ::core::convert::TryFrom<::std::string::String> for #name {
                type Error = rt::Failure;
                fn try_from(s: ::std::string::String) -> ::core::result::Result<Self, rt::Failure> {
                    #name::new(s)
                }
            }
            impl ::core::convert::TryFrom<rt::Str> for #name {
                type Error = rt::Failure;
                fn try_from(s: rt::Str) -> ::core::result::Result<Self, rt::Failure> {
                    #name::new(s)
                }
            }
            impl std::str::FromStr for #name {
                type Err = rt::Failure;
                fn from_str(s: &str) -> ::core::result::Result<Self, rt::Failure> {
                    #name::new(s)
                }
            }
            #views
            impl serde::Serialize for #name {
                fn serialize<__S: serde::Serializer>(&self, s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    s.serialize_str(&self.0)
                }
            }
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<__D: serde::Deserializer<'de>>(d: __D) -> ::core::result::Result<Self, __D::Error> {
                    serde::de::DeserializeSeed::deserialize(rt::StrSeed(&#rule), d).map(#name)
                }
            }
            impl rt::Verify for #name {
                fn verify<'de, __D: serde::Deserializer<'de>>(d: __D) -> ::core::result::Result<(), __D::Error> {
                    rt::VerifySeed::verify(rt::StrSeed(&#rule), d)
                }
            }
            impl rt::Probed for #name {
                fn probe(&self) -> rt::Probe<'_> {
                    rt::Probe::Str(&self.0)
                }
            }
            impl rt::Check for #name {}
        }
    }
}

/// The type's doc comment: its rule in words.
fn text_doc(r: &StrRule) -> String {
    let mut doc = match (r.min.unwrap_or(0), r.max) {
        (0, None) => "A string".to_owned(),
        (min, None) => format!("A string of at least {min} characters"),
        (0, Some(max)) => format!("A string of at most {max} characters"),
        (min, Some(max)) => format!("A string of {min} to {max} characters"),
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

/// Reading a constrained string as `&str`: deref, borrow, comparisons, printing.
fn str_views(name: &Ident) -> TokenStream {
    quote! {
    impl std::ops::Deref for #name {
        type Target = str;
        fn deref(&self) -> &str {
            &self.0
        }
    }
    impl AsRef<str> for #name {
        fn as_ref(&self) -> &str {
            &self.0
        }
    }
    impl std::borrow::Borrow<str> for #name {
        fn borrow(&self) -> &str {
            &self.0
        }
    }
    impl PartialEq<str> for #name {
        fn eq(&self, other: &str) -> bool {
            self.0 == other
        }
    }
    impl PartialEq<&str> for #name {
        fn eq(&self, other: &&str) -> bool {
            self.0 == *other
        }
    }
    impl PartialEq<::std::string::String> for #name {
        fn eq(&self, other: &::std::string::String) -> bool {
            self.0 == other.as_str()
        }
    }
    impl PartialEq<#name> for str {
        fn eq(&self, other: &#name) -> bool {
            self == other.as_str()
        }
    }
    impl PartialEq<#name> for &str {
        fn eq(&self, other: &#name) -> bool {
            *self == other.as_str()
        }
    }
    impl std::fmt::Debug for #name {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            std::fmt::Debug::fmt(self.as_str(), f)
        }
    }
    impl std::fmt::Display for #name {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }
    }
}
