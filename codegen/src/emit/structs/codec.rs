//! The struct's decoder, verdict-only check, encoder, probes and `Check`.

use super::extra::{ExtraParts, VerifyExtra};
use super::*;

/// Serialize, the decoder (`DecodeMembers`, `Deserialize`) and the verdict-only check
/// (`VerifyMembers`, `Verify`).
pub(super) fn codec(
    cx: &Context,
    p: &Parts,
    extra: &ExtraParts,
    verify_extra: VerifyExtra,
    has_rules: bool,
) -> TokenStream {
    let serialize = serialize(cx, p);
    let decode = decode(cx, p, extra, has_rules);
    let verify = if cx.native {
        verify(cx, p, extra, verify_extra)
    } else {
        verify_whole(cx)
    };
    quote! { #serialize #decode #verify }
}

/// Writing the members back in their recorded order, and reading them by name
/// (`rt::members!`).
fn serialize(cx: &Context, p: &Parts) -> TokenStream {
    let (name, extra_name, index, table) = (&cx.name, &cx.extra_name, p.index, &p.table);
    let undeclared = match &cx.s.extra {
        Extra::Closed => quote! { closed },
        Extra::Open => quote! { open #extra_name },
        Extra::Typed(..) => quote! { typed #extra_name },
    };
    let refused =
        cx.s.fields
            .iter()
            .filter(|f| f.ty == Ty::Never)
            .map(|f| &f.json);
    quote! {
        rt::members! {
            #name(#index) #undeclared;
            members { #(#table)* }
            refused { #(#refused;)* }
        }
    }
}

/// The decoder: a slot per member, filled by name, then the value and its rules across members.
fn decode(cx: &Context, p: &Parts, extra: &ExtraParts, has_rules: bool) -> TokenStream {
    let name = &cx.name;
    let (slots, reads, arms, required, unpack_late, inits) = (
        &p.slots,
        &p.reads,
        &p.arms,
        &p.required,
        &p.unpack_late,
        &p.inits,
    );
    let (extra_slot, fallback, extra_init, pre) =
        (&extra.slot, &extra.fallback, &extra.init, &p.pre_arms);
    let check_call = if has_rules {
        quote! { value.__check().map_err(rt::Failure::into_error::<__A::Error>)?; }
    } else {
        quote! {}
    };
    quote! {
        rt::decode_members! {
            #name(map, pre, key, __order_seen, value);
            slots { #(#slots)* }
            locals { #extra_slot }
            pre { #(#pre)* }
            read { #(#reads)* }
            arms { #(#arms)* #fallback }
            required { #(#required)* }
            unpack { #(#unpack_late)* }
            value { #(#inits)* #extra_init }
            finish { #check_call }
        }
    }
}

/// The verdict-only check of an object whose rules read only members it can keep: members
/// checked but not kept, except those rules read.
fn verify(cx: &Context, p: &Parts, extra: &ExtraParts, verify_extra: VerifyExtra) -> TokenStream {
    let name = &cx.name;
    let expecting = format!("an object ({})", cx.s.name);
    let (slots, reads, arms, pre, pre_kept, required, unpack_late, view_arms) = (
        &p.v_slots,
        &p.v_reads,
        &p.v_arms,
        &p.v_pre_arms,
        &p.v_pre_kept,
        &p.v_required,
        &p.v_unpack_late,
        &p.view_arms,
    );
    let v_extra_slot = verify_extra.slot;
    let v_fallback = verify_extra
        .fallback
        .unwrap_or_else(|| extra.fallback.clone());
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
        rt::verify_members! {
            #name(map, pre, refine, key, __view) #expecting;
            slots { #(#slots)* }
            locals { #v_extra_slot }
            pre { #(#pre)* }
            pre_kept { #(#pre_kept)* }
            read { #(#reads)* }
            arms { #(#arms)* #v_fallback }
            required { #(#required)* }
            unpack { #(#unpack_late)* }
            view { #(#view_arms)* }
            rules { #v_rules }
        }
    }
}

/// The verdict-only check of an object whose rules read what only a decoded value holds (a
/// selected member, a typed undeclared member, the JSON a program rule reads): decoded whole.
fn verify_whole(cx: &Context) -> TokenStream {
    let name = &cx.name;
    let expecting = format!("an object ({})", cx.s.name);
    quote! {
        impl rt::VerifyMembers for #name {
            const EXPECTING: &'static str = #expecting;
            fn verify_members<'de, __A: serde::de::MapAccess<'de>>(
                map: __A,
                pre: ::core::option::Option<(&str, &str)>,
                refine: ::core::option::Option<rt::MemberCheck>,
            ) -> ::core::result::Result<(), __A::Error> {
                let value = <#name as rt::DecodeMembers>::decode_members(map, pre)?;
                if let Some(check) = refine {
                    check(&value).map_err(rt::Failure::into_error::<__A::Error>)?;
                }
                Ok(())
            }
        }
    }
}

/// `Check`: members' rules, undeclared members' rules, then the rules across members (in a
/// `__check` the decoder calls too). A struct with no rule beyond its members' types takes the
/// trait's default (`Ok(())`).
pub(super) fn check_impls(
    cx: &Context,
    p: &Parts,
    extra_checks: &[TokenStream],
    rules: &[TokenStream],
) -> TokenStream {
    let name = &cx.name;
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
        #check_impl
        #check_fn
    }
}
