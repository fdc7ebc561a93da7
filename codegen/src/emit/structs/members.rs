//! One declared member's share of every part of its struct.

use super::*;

/// A declared member as its code names it.
pub(super) struct Member<'f> {
    pub(super) f: &'f Field,
    pub(super) json: &'f str,
    pub(super) rust: Ident,
    /// The decoder's local for it.
    slot: Ident,
    /// Its type without the `null` a nullable member also admits.
    inner: Ty,
    pub(super) nullable: bool,
    /// The Rust type of `inner`.
    pub(super) ity: TokenStream,
    /// Its declaration index, by which the input's member order is recorded.
    at: u16,
}

impl Member<'_> {
    /// Whether the member may be absent, `null` or a value, each kept apart (a `Tri`): nullable
    /// and not selected (a selected member's `null` is its selected schema's business).
    pub(super) fn tri(&self) -> bool {
        self.nullable && self.f.select.is_none()
    }
}

/// The decoder's local for a member. Its own prefix keeps it apart from the decoder's other
/// locals (`__order_seen`, `__keys`, `__view`, ...) whatever the member is called.
fn slot_of(rust: &str) -> Ident {
    format_ident!("__m_{}", rust)
}

/// `/json` as a JSON pointer token.
fn pointer(json: &str) -> String {
    prp_vocabulary::pointer::child("", json)
}

impl Emitter<'_> {
    /// Adds member `f` to every part.
    pub(super) fn member(&mut self, cx: &Context, p: &mut Parts, f: &Field) {
        let json = f.json.as_str();
        let slot = slot_of(&f.rust);
        if f.ty == Ty::Never {
            let msg = format!("member `{json}` is not allowed here");
            let arm = quote! { #json => { map.next_value_seed(rt::Reject(rt::Failure::new(rt::Keyword::FalseSchema, "", #msg)))?; } };
            p.arms.push(arm.clone());
            p.v_arms.push(arm);
            return;
        }
        let (inner, nullable) = match &f.ty {
            Ty::Nullable(t) => ((**t).clone(), true),
            t => (t.clone(), false),
        };
        let ity = self.rust_ty(&inner);
        let at = p.index;
        p.index += 1;
        let m = Member {
            f,
            json,
            rust: ident(&f.rust),
            slot,
            inner,
            nullable,
            ity,
            at,
        };
        p.table.push(table_entry(&m));
        let constant = self.constant(&m);
        self.builder_member(p, &m, constant);
        match f.select {
            Some(sel) => {
                let Item::Select(sd) = &self.model.items[sel] else {
                    unreachable!("a member's `select` names a selected type")
                };
                self.infer_selector(cx, p, &m, sd);
                self.selected_member(p, &m, sd);
            }
            None => self.plain_member(cx, p, &m),
        }
    }

    /// The doc comment of a member's field: its description, then its presence and type in words.
    fn field_doc(&self, f: &Field) -> TokenStream {
        let presence = if f.required { "required" } else { "optional" };
        doc_with(
            &f.doc,
            &format!("The `{}` member.", f.json),
            Some(format!("`{}` ({presence}): {}.", f.json, self.words(&f.ty))),
        )
    }

    /// The value of a required member that can hold only one (a one-value enum or a boolean
    /// constant): the builder fills it in.
    fn constant(&self, m: &Member) -> Option<TokenStream> {
        if !m.f.required || m.nullable {
            return None;
        }
        let ity = &m.ity;
        match &m.inner {
            Ty::Named(e) => match &self.model.items[*e] {
                Item::Enum(en) if en.values.len() == 1 => {
                    let v = ident(&en.values[0].1);
                    Some(quote! { #ity::#v })
                }
                Item::IntEnum(en) if en.values.len() == 1 => {
                    let v = ident(&en.values[0].1);
                    Some(quote! { #ity::#v })
                }
                _ => None,
            },
            Ty::Bool(Some(true)) => Some(quote! { rt::True }),
            Ty::Bool(Some(false)) => Some(quote! { rt::False }),
            _ => None,
        }
    }

    /// A member whose schema its selector's value chooses. Decoded before the selector, it waits as
    /// raw JSON; the verdict-only check keeps `Some(None)` once checked, `Some(Some(raw))` while its
    /// selector is still unread.
    fn selected_member(&mut self, p: &mut Parts, m: &Member, sd: &Select) {
        let (json, rust, slot, ity, at) = (m.json, &m.rust, &m.slot, &m.ity, m.at);
        let sel_slot = slot_of(&sd.selector_rust);
        let sel_local = ident(&sd.selector_rust);
        let seed_ty = format_ident!("__{}Seed", sd.name);
        let rel = pointer(json);
        p.slots.push(quote! { #slot: rt::Pending<#ity>; });
        p.arms.push(quote! {
            #json => {
                if #slot.is_some() {
                    return Err(rt::duplicate(&mut map, #json));
                }
                __order_seen.push(#at);
                #slot = Some(match &#sel_slot {
                    Some(s) => rt::Pending::Done(map.next_value_seed(#seed_ty(s))?),
                    None => rt::Pending::Raw(map.next_value::<Box<serde_json::value::RawValue>>()?),
                });
            }
        });
        let finish = quote! {
            match p {
                rt::Pending::Done(v) => v,
                rt::Pending::Raw(r) => rt::decode_raw::<_, __A::Error>(&r, #rel, #seed_ty(&#sel_local))?,
            }
        };
        p.v_slots
            .push(quote! { #slot: ::core::option::Option<Box<serde_json::value::RawValue>>; });
        p.v_arms.push(quote! {
            #json => {
                if #slot.is_some() {
                    return Err(rt::duplicate(&mut map, #json));
                }
                #slot = Some(match &#sel_slot {
                    Some(s) => {
                        map.next_value_seed(rt::Verified(#seed_ty(s)))?;
                        None
                    }
                    None => Some(map.next_value::<Box<serde_json::value::RawValue>>()?),
                });
            }
        });
        let missing = missing(json);
        // The verdict-only check binds a selector by reference (its slot stays readable by rules).
        let v_finish = quote! { rt::verify_raw::<_, __A::Error>(&r, #seed_ty(#sel_local))?; };
        let sel_field = ident(&sd.selector_rust);
        let fdoc = self.field_doc(m.f);
        if m.f.required {
            p.v_unpack_late.push(quote! {
                match #slot {
                    Some(Some(r)) => { #v_finish }
                    Some(None) => {}
                    None => return Err(#missing),
                }
            });
            p.field_checks
                .push(quote! { rt::within(#json, self.#rust.__recheck(&self.#sel_field))?; });
            p.unpack_late.push(quote! { let #rust = match #slot { Some(p) => #finish, None => return Err(#missing) }; });
            p.defs.push(quote! { #fdoc pub #rust: #ity, });
        } else {
            p.v_unpack_late
                .push(quote! { if let Some(Some(r)) = #slot { #v_finish } });
            p.field_checks.push(quote! { if let Some(x) = &self.#rust { rt::within(#json, x.__recheck(&self.#sel_field))?; } });
            p.unpack_late.push(
                quote! { let #rust = match #slot { Some(p) => Some(#finish), None => None }; },
            );
            p.defs
                .push(quote! { #fdoc pub #rust: ::core::option::Option<#ity>, });
        }
        p.inits.push(quote! { #rust; });
    }

    /// A member whose schema is its own.
    fn plain_member(&mut self, cx: &Context, p: &mut Parts, m: &Member) {
        let seed = if m.nullable {
            let s = self.seed(&m.inner);
            quote! { rt::NullableSeed(#s) }
        } else {
            self.seed(&m.inner)
        };
        let ity = &m.ity;
        let slot_ty = if m.nullable {
            quote! { ::core::option::Option<#ity> }
        } else {
            quote! { #ity }
        };
        let (json, slot) = (m.json, &m.slot);
        let at = m.at;
        p.slots.push(quote! { #slot: #slot_ty; });
        p.reads.push(quote! { #json => #slot @ #at : #seed; });
        let kept = verify_member(cx, p, m, slot_ty, seed);
        self.check_member(p, m);
        self.pre_read_member(p, m, kept);
        self.field_member(p, m);
    }

    /// What `Check` runs on the member's value, if its Rust type does not say it all.
    fn check_member(&mut self, p: &mut Parts, m: &Member) {
        let (rust, json) = (&m.rust, m.json);
        let Some(c) = self.checks(&m.inner, quote! { x }) else {
            return;
        };
        // A generated type checks itself: one call, under the member's name.
        let named = matches!(m.inner, Ty::Named(_)) && !m.nullable;
        let c = if named {
            quote! { rt::Check::check(x) }
        } else {
            values::check_result(c)
        };
        p.field_checks.push(match (m.f.required, m.nullable) {
            (true, false) => quote! { let x = &self.#rust; rt::within(#json, #c)?; },
            (false, true) => {
                quote! { if let rt::Tri::Value(x) = &self.#rust { rt::within(#json, #c)?; } }
            }
            _ => quote! { if let Some(x) = &self.#rust { rt::within(#json, #c)?; } },
        });
    }

    /// A string-enum member may arrive already read, as the discriminator of a tagged union.
    fn pre_read_member(&self, p: &mut Parts, m: &Member, kept: bool) {
        if m.nullable {
            return;
        }
        let Ty::Named(e) = m.inner else { return };
        let Item::Enum(_) = &self.model.items[e] else {
            return;
        };
        let (json, slot, ity, at) = (m.json, &m.slot, &m.ity, m.at);
        let rel = pointer(json);
        p.pre_arms
            .push(quote! { #json => #slot @ #at : #ity, #rel; });
        let entry = quote! { #json => #slot : #ity, #rel; };
        if kept {
            p.v_pre_kept.push(entry);
        } else {
            p.v_pre_arms.push(entry);
        }
    }

    /// The field, and how the decoder's slot becomes it.
    fn field_member(&self, p: &mut Parts, m: &Member) {
        let (json, rust, slot, ity) = (m.json, &m.rust, &m.slot, &m.ity);
        let fdoc = self.field_doc(m.f);
        let (ty, init) = match (m.f.required, m.nullable) {
            (true, false) => (quote! { #ity }, quote! { #rust; }),
            (true, true) => (quote! { ::core::option::Option<#ity> }, quote! { #rust; }),
            (false, false) => (
                quote! { ::core::option::Option<#ity> },
                quote! { #rust: #slot; },
            ),
            (false, true) => (
                quote! { rt::Tri<#ity> },
                quote! { #rust: rt::Tri::from_slot(#slot); },
            ),
        };
        if m.f.required {
            p.required.push(quote! { #rust = #slot, #json; });
        }
        p.defs.push(quote! { #fdoc pub #rust: #ty, });
        p.inits.push(init);
    }
}

/// The verdict-only check's slot and arm for a plain member. A selector keeps its value (it
/// chooses a later member's schema), and so does a member that rules read; others keep nothing.
/// Returns whether the value is kept.
fn verify_member(
    cx: &Context,
    p: &mut Parts,
    m: &Member,
    slot_ty: TokenStream,
    seed: TokenStream,
) -> bool {
    let (json, slot, rust) = (m.json, &m.slot, &m.rust);
    let read_by_rules = cx.native && cx.rule_keys.contains(json);
    if read_by_rules {
        p.view_arms.push(if m.nullable {
            quote! { #json => match &#slot { Some(v) => rt::Probed::probe(v), None => rt::Probe::Absent }, }
        } else {
            quote! { #json => rt::probe_optional(&#slot), }
        });
    }
    let is_selector = cx.selectors.contains(&m.f.rust);
    let kept = is_selector || read_by_rules;
    let (v_slot_ty, v_seed) = if kept {
        (slot_ty, seed)
    } else {
        (quote! { () }, verified(m, seed))
    };
    p.v_slots.push(quote! { #slot: #v_slot_ty; });
    p.v_reads.push(quote! { #json => #slot : #v_seed; });
    if m.f.required {
        p.v_required.push(if is_selector {
            quote! { #slot, #json => #rust; }
        } else {
            quote! { #slot, #json; }
        });
    }
    kept
}

/// A member's entry in `rt::members!`: how its field is written and read by name follows from
/// its presence (a nullable optional member, not selected, is a `Tri`).
fn table_entry(m: &Member) -> TokenStream {
    let (json, rust, at) = (m.json, &m.rust, m.at);
    let kind = match (m.f.required, m.tri()) {
        (true, _) => ident("required"),
        (false, true) => ident("tri"),
        (false, false) => ident("optional"),
    };
    quote! { #json => #rust @ #at, #kind; }
}

/// The failure of a required member that never came.
fn missing(json: &str) -> TokenStream {
    let msg = format!("missing required member `{json}`");
    quote! { rt::fail::<__A::Error>(rt::Keyword::Required, "", #msg) }
}

/// The verdict-only seed of a member that keeps nothing: `rt::verified::<T>()` for a generated
/// type, else its seed wrapped in `rt::Verified`.
fn verified(m: &Member, seed: TokenStream) -> TokenStream {
    match &m.inner {
        Ty::Named(_) if !m.nullable => {
            let ity = &m.ity;
            quote! { rt::verified::<#ity>() }
        }
        _ => quote! { rt::Verified(#seed) },
    }
}
