//! The struct's decoder, verdict-only check, encoder, probes and `Check`.

use super::extra::{ExtraParts, VerifyExtra};
use super::*;

/// `match` arms for a member that arrives already read (`pre`), or nothing.
fn pre_block(arms: &[TokenStream]) -> TokenStream {
    if arms.is_empty() {
        return quote! { let _ = pre; };
    }
    quote! {
        if let Some((k, v)) = pre {
            match k {
                #(#arms)*
                _ => {}
            }
        }
    }
}

/// Serialize, the decoder (`DecodeMembers`, `Deserialize`) and the verdict-only check
/// (`VerifyMembers`, `Verify`).
pub(super) fn codec(
    cx: &Context,
    p: &Parts,
    extra: &ExtraParts,
    verify_extra: VerifyExtra,
    has_rules: bool,
) -> TokenStream {
    let name = &cx.name;
    let serialize = serialize(cx, p);
    let decode = decode(cx, p, extra, has_rules);
    let v_body = verify_body(cx, p, extra, verify_extra);
    let expecting = format!("an object ({})", cx.s.name);
    quote! {
        #serialize
        #decode
        impl rt::VerifyMembers for #name {
            const EXPECTING: &'static str = #expecting;
            #[allow(unused_mut)]
            fn verify_members<'de, __A: serde::de::MapAccess<'de>>(
                mut map: __A,
                pre: ::core::option::Option<(&str, &str)>,
                refine: ::core::option::Option<rt::MemberCheck>,
            ) -> ::core::result::Result<(), __A::Error> {
                #v_body
            }
        }
    }
}

/// Writing the members back in their recorded order.
fn serialize(cx: &Context, p: &Parts) -> TokenStream {
    let (name, extra_name, index, ser_arms) = (&cx.name, &cx.extra_name, p.index, &p.ser_arms);
    let extras_iter = if matches!(cx.s.extra, Extra::Closed) {
        quote! { ::core::iter::empty::<(&str, &serde_json::Value)>() }
    } else {
        quote! { self.#extra_name.iter() }
    };
    let write_field = if ser_arms.is_empty() {
        quote! { |_, _| Ok(()) }
    } else {
        quote! { |i, map| match i { #(#ser_arms)* _ => Ok(()) } }
    };
    quote! {
        impl serde::Serialize for #name {
            fn serialize<__S: serde::Serializer>(&self, s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                use serde::ser::SerializeMap as _;
                let mut map = s.serialize_map(None)?;
                rt::serialize_members(&mut map, &self.__order, #index, #extras_iter, #write_field)?;
                map.end()
            }
        }
    }
}

/// The decoder: a slot per member, filled by name, then the value and its rules across members.
fn decode(cx: &Context, p: &Parts, extra: &ExtraParts, has_rules: bool) -> TokenStream {
    let name = &cx.name;
    let (slots, arms, unpack, unpack_late, inits) =
        (&p.slots, &p.arms, &p.unpack, &p.unpack_late, &p.inits);
    let (extra_slot, fallback, extra_init) = (&extra.slot, &extra.fallback, &extra.init);
    let pre_block = pre_block(&p.pre_arms);
    let check_call = if has_rules {
        quote! { value.__check().map_err(rt::Failure::into_error::<__A::Error>)?; }
    } else {
        quote! {}
    };
    quote! {
        impl rt::DecodeMembers for #name {
            fn decode_members<'de, __A: serde::de::MapAccess<'de>>(
                mut map: __A,
                pre: ::core::option::Option<(&str, &str)>,
            ) -> ::core::result::Result<#name, __A::Error> {
                #(#slots)*
                #extra_slot
                let mut __order_seen = rt::OrderRecorder::new();
                #pre_block
                while let Some(key) = map.next_key::<rt::Key<'de>>()? {
                    match key.as_str() {
                        #(#arms)*
                        #fallback
                    }
                }
                #(#unpack)*
                #(#unpack_late)*
                let value = #name { #(#inits)* #extra_init __order: __order_seen.finish() };
                #check_call
                Ok(value)
            }
        }
    }
}

/// The verdict-only check's body: members checked but not kept, except those rules read; or,
/// when rules read members the check does not keep, the object decoded whole.
fn verify_body(
    cx: &Context,
    p: &Parts,
    extra: &ExtraParts,
    verify_extra: VerifyExtra,
) -> TokenStream {
    let name = &cx.name;
    if !cx.native {
        return quote! {
            let value = <#name as rt::DecodeMembers>::decode_members(map, pre)?;
            if let Some(check) = refine {
                check(&value).map_err(rt::Failure::into_error::<__A::Error>)?;
            }
            Ok(())
        };
    }
    let (v_slots, v_arms, v_unpack, v_unpack_late, view_arms) = (
        &p.v_slots,
        &p.v_arms,
        &p.v_unpack,
        &p.v_unpack_late,
        &p.view_arms,
    );
    let v_extra_slot = verify_extra.slot;
    let v_fallback = verify_extra
        .fallback
        .unwrap_or_else(|| extra.fallback.clone());
    let v_pre_block = pre_block(&p.v_pre_arms);
    let v_rules = rules_on(cx.s, quote! { __view });
    let v_rules = (!v_rules.is_empty()).then(|| {
        quote! {
            let __rules = || -> ::core::result::Result<(), rt::Failure> {
                use rt::Fields as _;
                #(#v_rules)*
                Ok(())
            };
            __rules().map_err(rt::Failure::into_error::<__A::Error>)?;
        }
    });
    quote! {
        #(#v_slots)*
        #v_extra_slot
        #v_pre_block
        while let Some(key) = map.next_key::<rt::Key<'de>>()? {
            match key.as_str() {
                #(#v_arms)*
                #v_fallback
            }
        }
        #(#v_unpack)*
        #(#v_unpack_late)*
        let __members = |key: &str| match key {
            #(#view_arms)*
            _ => rt::Probe::Absent,
        };
        let __view = rt::View(&__members);
        #v_rules
        if let Some(check) = refine {
            check(&__view).map_err(rt::Failure::into_error::<__A::Error>)?;
        }
        Ok(())
    }
}

/// Reading members by name (`Fields`, `Probed`), and `Check`: members' rules, undeclared members'
/// rules, then the rules across members (in a `__check` the decoder calls too). A struct with no
/// rule beyond its members' types takes the trait's default (`Ok(())`).
pub(super) fn check_impls(
    cx: &Context,
    p: &Parts,
    extra: &ExtraParts,
    extra_checks: &[TokenStream],
    rules: &[TokenStream],
) -> TokenStream {
    let name = &cx.name;
    let (probes, extra_probe) = (&p.probes, &extra.probe);
    let json_object = json_object(cx);
    let field_checks = &p.field_checks;
    let (rules_call, check_fn) = if rules.is_empty() {
        (quote! {}, quote! {})
    } else {
        (
            quote! { self.__check()?; },
            quote! {
                impl #name {
                    fn __check(&self) -> ::core::result::Result<(), rt::Failure> {
                        #(#rules)*
                        Ok(())
                    }
                }
            },
        )
    };
    let check_impl = if field_checks.is_empty() && extra_checks.is_empty() && rules.is_empty() {
        quote! { impl rt::Check for #name {} }
    } else {
        quote! {
            impl rt::Check for #name {
                fn check(&self) -> ::core::result::Result<(), rt::Failure> {
                    #(#field_checks)*
                    #(#extra_checks)*
                    #rules_call
                    Ok(())
                }
            }
        }
    };
    quote! {
        impl rt::Fields for #name {
            fn field(&self, key: &str) -> rt::Probe<'_> {
                match key {
                    #(#probes)*
                    #extra_probe
                }
            }
            #json_object
        }
        #check_impl
        #check_fn
    }
}

/// An open object's undeclared members that are themselves objects, for rules that read inside.
fn json_object(cx: &Context) -> TokenStream {
    let extra_name = &cx.extra_name;
    let declared: Vec<&str> = cx.s.fields.iter().map(|f| f.json.as_str()).collect();
    match &cx.s.extra {
        Extra::Open if !declared.is_empty() => quote! {
            fn json_object(&self, key: &str) -> ::core::option::Option<&serde_json::Map<::std::string::String, serde_json::Value>> {
                match key {
                    #(#declared)|* => None,
                    other => rt::Fields::json_object(&self.#extra_name, other),
                }
            }
        },
        Extra::Open => quote! {
            fn json_object(&self, key: &str) -> ::core::option::Option<&serde_json::Map<::std::string::String, serde_json::Value>> {
                rt::Fields::json_object(&self.#extra_name, key)
            }
        },
        _ => quote! {},
    }
}
