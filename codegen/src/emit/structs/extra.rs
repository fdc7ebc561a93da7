//! Members the schema does not declare: refused (closed), kept as JSON in input order (open), or
//! each checked against `additionalProperties` and `propertyNames` (typed).

use super::*;

/// The decoder's and the struct's share of undeclared members.
#[derive(Default)]
pub(super) struct ExtraParts {
    /// The field that keeps them.
    pub(super) def: TokenStream,
    /// The decoder's local that gathers them.
    pub(super) slot: TokenStream,
    /// The decoder's arm for a member name no declared member has.
    pub(super) fallback: TokenStream,
    /// The field's initializer.
    pub(super) init: TokenStream,
}

/// The verdict-only check's share of undeclared members: its local, and its arm when it differs
/// from the decoder's.
pub(super) struct VerifyExtra {
    pub(super) slot: TokenStream,
    pub(super) fallback: Option<TokenStream>,
}

impl Emitter<'_> {
    /// Unknown members that rules read, kept as JSON by the verdict-only check (as `extra` keeps
    /// them in a decoded value).
    pub(super) fn unknown_rule_members(&self, cx: &Context, p: &mut Parts) {
        if !(cx.native && matches!(cx.s.extra, Extra::Open)) {
            return;
        }
        let unknown = cx
            .rule_keys
            .iter()
            .filter(|k| !cx.s.fields.iter().any(|f| &f.json == *k));
        for (n, key) in unknown.enumerate() {
            let slot = format_ident!("__unknown_{}", n);
            p.v_slots.push(quote! { #slot: serde_json::Value; });
            p.v_arms.push(quote! {
                #key => {
                    if #slot.is_some() {
                        return Err(rt::duplicate(&mut map, #key));
                    }
                    #slot = Some(map.next_value_seed(rt::AnyValue)?);
                }
            });
            p.view_arms.push(quote! {
                #key => match &#slot { Some(v) => rt::Probed::probe(v), None => rt::Probe::Absent },
            });
        }
    }

    /// `propertyNames`' check on a member name, in a decoder.
    fn key_check(&mut self, key: &Option<Box<StrRule>>) -> TokenStream {
        match key {
            Some(r) => {
                let r = self.str_rule(r);
                quote! { rt::check_str::<__A::Error>(&#r, key.as_str())?; }
            }
            None => quote! {},
        }
    }

    /// The verdict-only check keeps no undeclared member: it refuses duplicates and checks typed
    /// ones.
    pub(super) fn verify_extra(&mut self, s: &Struct) -> VerifyExtra {
        let keys = quote! { let mut __keys = rt::KeySet::default(); };
        match &s.extra {
            Extra::Closed => VerifyExtra {
                slot: quote! {},
                fallback: None,
            },
            Extra::Open => VerifyExtra {
                slot: keys,
                fallback: Some(quote! {
                    _ => rt::check_member(&mut map, &mut __keys, key, rt::Verified(rt::AnyValue))?,
                }),
            },
            Extra::Typed(vty, key) => {
                let seed = self.seed(vty);
                let key_check = self.key_check(key);
                VerifyExtra {
                    slot: keys,
                    fallback: Some(quote! {
                        _ => {
                            #key_check
                            rt::check_member(&mut map, &mut __keys, key, rt::Verified(#seed))?;
                        }
                    }),
                }
            }
        }
    }

    /// The Rust type that holds undeclared members, if the struct keeps any.
    pub(super) fn undeclared_ty(&self, extra: &Extra) -> Option<TokenStream> {
        match extra {
            Extra::Closed => None,
            Extra::Open => {
                Some(quote! { serde_json::Map<::std::string::String, serde_json::Value> })
            }
            Extra::Typed(vty, _) => {
                let t = self.rust_ty(vty);
                Some(quote! { indexmap::IndexMap<::std::string::String, #t> })
            }
        }
    }

    /// The struct's and the decoder's share of undeclared members.
    pub(super) fn decode_extra(&mut self, cx: &Context) -> ExtraParts {
        let extra_name = &cx.extra_name;
        match &cx.s.extra {
            Extra::Closed => ExtraParts {
                fallback: quote! {
                    other => rt::unknown_member(&mut map, other)?,
                },
                ..ExtraParts::default()
            },
            Extra::Open => ExtraParts {
                def: quote! {
                    /// Members the schema does not declare, kept in input order and written back.
                    pub #extra_name: serde_json::Map<::std::string::String, serde_json::Value>,
                },
                slot: quote! { let mut #extra_name = serde_json::Map::new(); },
                fallback: quote! {
                    _ => rt::keep_member(&mut map, &mut #extra_name, key, &mut __order_seen)?,
                },
                init: quote! { #extra_name; },
            },
            Extra::Typed(vty, key) => self.typed_extra(extra_name, vty, key),
        }
    }

    /// Undeclared members each checked against `additionalProperties`' schema.
    fn typed_extra(
        &mut self,
        extra_name: &Ident,
        vty: &Ty,
        key: &Option<Box<StrRule>>,
    ) -> ExtraParts {
        let t = self.rust_ty(vty);
        let seed = self.seed(vty);
        let key_check = self.key_check(key);
        ExtraParts {
            def: quote! {
                /// Members beyond the declared ones, each checked against the schema.
                pub #extra_name: indexmap::IndexMap<::std::string::String, #t>,
            },
            slot: quote! { let mut #extra_name = indexmap::IndexMap::new(); },
            fallback: quote! {
                _ => {
                    if #extra_name.contains_key(key.as_str()) {
                        return Err(rt::duplicate(&mut map, key.as_str()));
                    }
                    #key_check
                    __order_seen.push(rt::EXTRA);
                    let v = map.next_value_seed(#seed)?;
                    #extra_name.insert(key.0.into_owned(), v);
                }
            },
            init: quote! { #extra_name; },
        }
    }

    /// What `Check` runs on a built value's undeclared members: none may name a declared one, and
    /// typed ones hold their schema.
    pub(super) fn extra_checks(&mut self, cx: &Context) -> Vec<TokenStream> {
        let extra_name = &cx.extra_name;
        let declared: Vec<&str> = cx.s.fields.iter().map(|f| f.json.as_str()).collect();
        let mut checks = Vec::new();
        if !matches!(cx.s.extra, Extra::Closed) && !declared.is_empty() {
            checks.push(quote! { rt::not_shadowing(self.#extra_name.keys(), Self::__DECLARED)?; });
        }
        let Extra::Typed(vty, key) = &cx.s.extra else {
            return checks;
        };
        if let Some(r) = key {
            let r = self.str_rule(r);
            checks.push(quote! {
                for k in self.#extra_name.keys() {
                    rt::str_failure(&#r, k)?;
                }
            });
        }
        if let Some(c) = self.checks(vty, quote! { x }) {
            let c = values::check_result(c);
            checks.push(quote! {
                for (k, x) in &self.#extra_name {
                    rt::within(k, #c)?;
                }
            });
        }
        checks
    }
}
