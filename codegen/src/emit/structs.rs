//! Object schemas as structs, with their builder, decoder, verdict-only check and encoder.

use super::*;

impl Emitter<'_> {
    pub(super) fn strukt(&mut self, id: usize, s: &Struct) -> TokenStream {
        let name = ident(&s.name);
        let members: Vec<String> = s.fields.iter().map(|f| format!("`{}`", f.json)).collect();
        let doc = doc_with(
            &s.doc,
            &if members.is_empty() {
                "A JSON object.".to_owned()
            } else {
                format!("An object with the members {}.", members.join(", "))
            },
            None,
        );
        let mut defs = Vec::new();
        let mut slots = Vec::new();
        let mut arms = Vec::new();
        let mut unpack = Vec::new();
        let mut unpack_late = Vec::new();
        let mut inits = Vec::new();
        let mut probes = Vec::new();
        let mut pre_arms = Vec::new();
        let mut field_checks = Vec::new();
        // The verdict-only twin of the decoder (`verify_members`): slots hold `()` (or the value of a
        // selector or of a member that rules read), values are checked through `rt::Verified`.
        let mut v_slots = Vec::new();
        let mut v_arms = Vec::new();
        let mut v_pre_arms = Vec::new();
        let mut v_unpack = Vec::new();
        let mut v_unpack_late = Vec::new();
        // Rules across members read these members; a verdict-only check keeps their values when it
        // can (a declared member, an unknown one that a closed object cannot hold or that an open
        // one keeps as JSON), and otherwise decodes the object whole.
        let rule_keys = self.rule_keys[id].clone();
        let native = rule_keys
            .iter()
            .all(|k| match s.fields.iter().find(|f| &f.json == k) {
                Some(f) => f.select.is_none(),
                None => matches!(s.extra, Extra::Closed | Extra::Open),
            });
        let mut view_arms = Vec::new();
        let selectors: Vec<&str> = s
            .fields
            .iter()
            .filter_map(|f| match f.select.map(|i| &self.model.items[i]) {
                Some(Item::Select(sd)) => Some(sd.selector_rust.as_str()),
                _ => None,
            })
            .collect();
        // Writing members back: one arm per declared member, by index.
        let mut ser_arms = Vec::new();
        // The builder: a slot and a setter per member a caller supplies, and how `build` fills each
        // field.
        let mut b_fields = Vec::new();
        let mut b_setters = Vec::new();
        let mut b_inits = Vec::new();
        let mut b_infer = Vec::new();
        let mut index: u16 = 0;
        let taken: Vec<&str> = s.fields.iter().map(|f| f.rust.as_str()).collect();
        let extra_name = if taken.contains(&"extra") {
            ident("extra_")
        } else {
            ident("extra")
        };
        for f in &s.fields {
            let json = &f.json;
            let rust = ident(&f.rust);
            let slot = format_ident!("__{}", f.rust);
            let presence = if f.required { "required" } else { "optional" };
            let fdoc = doc_with(
                &f.doc,
                &format!("The `{}` member.", f.json),
                Some(format!("`{}` ({presence}): {}.", f.json, self.words(&f.ty))),
            );
            if f.ty == Ty::Never {
                let msg = format!("member `{json}` is not allowed here");
                let arm = quote! { #json => { map.next_value_seed(rt::Reject(rt::Failure::new(rt::Keyword::FalseSchema, "", #msg)))?; } };
                arms.push(arm.clone());
                v_arms.push(arm);
                continue;
            }
            let is_selector = selectors.contains(&f.rust.as_str());
            let (inner, nullable) = match &f.ty {
                Ty::Nullable(t) => ((**t).clone(), true),
                t => (t.clone(), false),
            };
            let ity = self.rust_ty(&inner);
            let at = index;
            index += 1;
            let record = quote! { __order_seen.push(#at); };
            ser_arms.push(match (f.required, nullable) {
                (true, _) => quote! { #at => map.serialize_entry(#json, &self.#rust), },
                (false, true) if f.select.is_none() => quote! {
                    #at => match &self.#rust {
                        rt::Tri::Absent => Ok(()),
                        rt::Tri::Null => map.serialize_entry(#json, &()),
                        rt::Tri::Value(v) => map.serialize_entry(#json, v),
                    },
                },
                _ => quote! {
                    #at => match &self.#rust {
                        Some(v) => map.serialize_entry(#json, v),
                        None => Ok(()),
                    },
                },
            });
            let constant = match &inner {
                Ty::Named(e) if f.required && !nullable => match &self.model.items[*e] {
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
                Ty::Bool(Some(true)) if f.required && !nullable => Some(quote! { rt::True }),
                Ty::Bool(Some(false)) if f.required && !nullable => Some(quote! { rt::False }),
                _ => None,
            };
            // A builder keeps a member in an `Option`, or in a `Tri` when it may be absent or null.
            let (slot_ty, init) = match (f.required, nullable && f.select.is_none()) {
                // Required but nullable: left unset, it is written as `null`.
                (true, true) | (false, false) => (
                    quote! { ::core::option::Option<#ity> },
                    quote! { self.#rust },
                ),
                (true, false) => (
                    quote! { ::core::option::Option<#ity> },
                    quote! { self.#rust.ok_or_else(|| rt::Failure::missing(#json))? },
                ),
                (false, true) => (quote! { rt::Tri<#ity> }, quote! { self.#rust }),
            };
            match constant {
                Some(c) => b_inits.push(quote! { #rust: #c, }),
                None => {
                    let sdoc =
                        format!(" Sets `{json}`; a value that breaks its rule makes `build` fail.");
                    b_fields.push(quote! { #rust: #slot_ty, });
                    b_inits.push(quote! { #rust: #init, });
                    b_setters.push(quote! {
                        #[doc = #sdoc]
                        pub fn #rust<__V>(mut self, v: __V) -> Self
                        where
                            __V: ::core::convert::TryInto<#ity>,
                            rt::Failure: From<__V::Error>,
                        {
                            rt::set(&mut self.#rust, &mut self.__error, v, #json);
                            self
                        }
                    });
                    if nullable && f.select.is_none() {
                        let null_setter = format_ident!("{}_null", f.rust);
                        let ndoc = format!(" Sets `{json}` to `null`.");
                        let null = if f.required {
                            quote! { None }
                        } else {
                            quote! { rt::Tri::Null }
                        };
                        b_setters.push(quote! {
                            #[doc = #ndoc]
                            pub fn #null_setter(mut self) -> Self {
                                self.#rust = #null;
                                self
                            }
                        });
                    }
                }
            }
            // An unset selector follows from the variant of the member it selects.
            if let Some(sel) = f.select {
                let Item::Select(sd) = &self.model.items[sel] else {
                    unreachable!()
                };
                let selector_free = s.fields.iter().any(|g| {
                    g.rust == sd.selector_rust
                        && matches!(&g.ty, Ty::Named(e) if matches!(&self.model.items[*e], Item::Enum(en) if en.values.len() > 1))
                });
                if selector_free {
                    let sel_rust = ident(&sd.selector_rust);
                    b_infer.push(quote! {
                        if self.#sel_rust.is_none() && let Some(p) = &self.#rust {
                            self.#sel_rust = p.implied();
                        }
                    });
                }
            }
            let missing = format!("missing required member `{json}`");
            let missing = quote! { rt::fail::<__A::Error>(rt::Keyword::Required, "", #missing) };
            let required = quote! { rt::required::<_, __A::Error>(#slot, #json)? };
            // The value stored in the slot, and the seed that decodes it.
            let seed = if let Some(sel) = f.select {
                let Item::Select(sd) = &self.model.items[sel] else {
                    unreachable!()
                };
                let sel_slot = format_ident!("__{}", sd.selector_rust);
                let sel_local = ident(&sd.selector_rust);
                let seed_ty = format_ident!("__{}Seed", sd.name);
                let rel = format!("/{}", json.replace('~', "~0").replace('/', "~1"));
                slots.push(
                    quote! { let mut #slot: ::core::option::Option<rt::Pending<#ity>> = None; },
                );
                arms.push(quote! {
                    #json => {
                        if #slot.is_some() {
                            return Err(rt::duplicate(&mut map, #json));
                        }
                        #record
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
                // Verdict only: `Some(None)` once checked, `Some(Some(raw))` while its selector is
                // still unread.
                v_slots.push(quote! {
                    let mut #slot: ::core::option::Option<::core::option::Option<Box<serde_json::value::RawValue>>> = None;
                });
                v_arms.push(quote! {
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
                let v_finish =
                    quote! { rt::verify_raw::<_, __A::Error>(&r, #seed_ty(&#sel_local))?; };
                v_unpack_late.push(if f.required {
                    quote! {
                        match #slot {
                            Some(Some(r)) => { #v_finish }
                            Some(None) => {}
                            None => return Err(#missing),
                        }
                    }
                } else {
                    quote! { if let Some(Some(r)) = #slot { #v_finish } }
                });
                let sel_field = ident(&sd.selector_rust);
                field_checks.push(if f.required {
                    quote! { rt::within(#json, || self.#rust.__recheck(&self.#sel_field))?; }
                } else {
                    quote! { if let Some(x) = &self.#rust { rt::within(#json, || x.__recheck(&self.#sel_field))?; } }
                });
                if f.required {
                    unpack_late.push(quote! { let #rust = match #slot { Some(p) => #finish, None => return Err(#missing) }; });
                    defs.push(quote! { #fdoc pub #rust: #ity, });
                } else {
                    unpack_late.push(quote! { let #rust = match #slot { Some(p) => Some(#finish), None => None }; });
                    defs.push(quote! { #fdoc pub #rust: ::core::option::Option<#ity>, });
                }
                probes.push(if f.required {
                    quote! { #json => rt::Probed::probe(&self.#rust), }
                } else {
                    quote! { #json => rt::probe_optional(&self.#rust), }
                });
                inits.push(quote! { #rust, });
                continue;
            } else if nullable {
                let s = self.seed(&inner);
                quote! { rt::NullableSeed(#s) }
            } else {
                self.seed(&inner)
            };
            let slot_ty = if nullable {
                quote! { ::core::option::Option<#ity> }
            } else {
                quote! { #ity }
            };
            slots.push(quote! { let mut #slot: ::core::option::Option<#slot_ty> = None; });
            arms.push(quote! {
                #json => {
                    rt::once(&mut map, &mut #slot, #json, #seed)?;
                    #record
                }
            });
            // A selector keeps its value (it chooses a later member's schema), and so does a member
            // that rules read; others keep nothing.
            let read_by_rules = native && rule_keys.contains(json);
            if read_by_rules {
                view_arms.push(if nullable {
                    quote! { #json => match &#slot { Some(v) => rt::Probed::probe(v), None => rt::Probe::Absent }, }
                } else {
                    quote! { #json => rt::probe_optional(&#slot), }
                });
            }
            let kept = is_selector || read_by_rules;
            let (v_slot_ty, v_seed) = if kept {
                (slot_ty.clone(), seed.clone())
            } else {
                (quote! { () }, quote! { rt::Verified(#seed) })
            };
            v_slots.push(quote! { let mut #slot: ::core::option::Option<#v_slot_ty> = None; });
            v_arms.push(quote! {
                #json => rt::once(&mut map, &mut #slot, #json, #v_seed)?,
            });
            if f.required {
                v_unpack.push(if is_selector {
                    quote! { let #rust = #required; }
                } else {
                    quote! { #required; }
                });
            }
            let check = match (f.required, nullable) {
                (true, false) => self
                    .checks(&inner, quote! { x })
                    .map(|c| (quote! {}, quote! { let x = &self.#rust; #c })),
                (false, true) => self
                    .checks(&inner, quote! { x })
                    .map(|c| (quote! { if let rt::Tri::Value(x) = &self.#rust }, c)),
                _ => self
                    .checks(&inner, quote! { x })
                    .map(|c| (quote! { if let Some(x) = &self.#rust }, c)),
            };
            if let Some((guard, c)) = check {
                field_checks.push(quote! { #guard { rt::within(#json, || { #c Ok(()) })?; } });
            }
            // A string-enum member may arrive already read, as the discriminator of a tagged union.
            if !nullable
                && let Ty::Named(e) = inner
                && let Item::Enum(en) = &self.model.items[e]
            {
                let code = keyword(if en.values.len() == 1 {
                    "const"
                } else {
                    "enum"
                });
                let rel = format!("/{}", json.replace('~', "~0").replace('/', "~1"));
                let parse = quote! { v.parse::<#ity>().map_err(|m| rt::fail::<__A::Error>(#code, #rel, m))? };
                pre_arms.push(quote! {
                    #json => {
                        #record
                        #slot = Some(#parse);
                    }
                });
                v_pre_arms.push(if kept {
                    quote! { #json => { #slot = Some(#parse); } }
                } else {
                    quote! { #json => { #parse; #slot = Some(()); } }
                });
            }
            match (f.required, nullable) {
                (true, false) => {
                    defs.push(quote! { #fdoc pub #rust: #ity, });
                    unpack.push(quote! { let #rust = #required; });
                    probes.push(quote! { #json => rt::Probed::probe(&self.#rust), });
                }
                (true, true) => {
                    defs.push(quote! { #fdoc pub #rust: ::core::option::Option<#ity>, });
                    unpack.push(quote! { let #rust = #required; });
                    probes.push(quote! { #json => rt::Probed::probe(&self.#rust), });
                }
                (false, false) => {
                    defs.push(quote! { #fdoc pub #rust: ::core::option::Option<#ity>, });
                    unpack.push(quote! { let #rust = #slot; });
                    probes.push(quote! { #json => rt::probe_optional(&self.#rust), });
                }
                (false, true) => {
                    defs.push(quote! { #fdoc pub #rust: rt::Tri<#ity>, });
                    unpack.push(quote! { let #rust = match #slot { None => rt::Tri::Absent, Some(v) => rt::Tri::from_present(v) }; });
                    probes.push(quote! { #json => rt::Probed::probe(&self.#rust), });
                }
            }
            inits.push(quote! { #rust, });
        }
        // Unknown members that rules read, kept as JSON (as `extra` keeps them).
        if native && matches!(s.extra, Extra::Open) {
            for (n, key) in rule_keys
                .iter()
                .filter(|k| !s.fields.iter().any(|f| &f.json == *k))
                .enumerate()
            {
                let slot = format_ident!("__unknown_{}", n);
                v_slots.push(
                    quote! { let mut #slot: ::core::option::Option<serde_json::Value> = None; },
                );
                v_arms.push(quote! {
                    #key => {
                        if #slot.is_some() {
                            return Err(rt::duplicate(&mut map, #key));
                        }
                        #slot = Some(map.next_value_seed(rt::AnyValue)?);
                    }
                });
                view_arms.push(quote! {
                    #key => match &#slot { Some(v) => rt::Probed::probe(v), None => rt::Probe::Absent },
                });
            }
        }
        let (v_extra_slot, v_fallback) = match &s.extra {
            Extra::Closed => (quote! {}, None),
            Extra::Open => (
                quote! { let mut __keys = rt::KeySet::default(); },
                Some(quote! {
                    _ => {
                        if let Some(k) = __keys.insert(key) {
                            return Err(rt::duplicate(&mut map, k.as_str()));
                        }
                        map.next_value_seed(rt::Verified(rt::AnyValue))?;
                    }
                }),
            ),
            Extra::Typed(vty, key) => {
                let seed = self.seed(vty);
                let key_check = match key {
                    Some(r) => {
                        let r = self.str_rule(r);
                        quote! { rt::check_str::<__A::Error>(&#r, key.as_str())?; }
                    }
                    None => quote! {},
                };
                (
                    quote! { let mut __keys = rt::KeySet::default(); },
                    Some(quote! {
                        _ => {
                            #key_check
                            if let Some(k) = __keys.insert(key) {
                                return Err(rt::duplicate(&mut map, k.as_str()));
                            }
                            map.next_value_seed(rt::Verified(#seed))?;
                        }
                    }),
                )
            }
        };
        let (extra_def, extra_slot, fallback, extra_init, extra_probe) = match &s.extra {
            Extra::Closed => (
                quote! {},
                quote! {},
                quote! {
                    other => {
                        let msg = format!("unknown member `{other}` is not allowed");
                        map.next_value_seed(rt::Reject(rt::Failure::new(rt::Keyword::AdditionalProperties, "", msg)))?;
                    }
                },
                quote! {},
                quote! { _ => rt::Probe::Absent, },
            ),
            Extra::Open => (
                quote! {
                    /// Members the schema does not declare, kept in input order and written back.
                    pub #extra_name: serde_json::Map<::std::string::String, serde_json::Value>,
                },
                quote! { let mut #extra_name = serde_json::Map::new(); },
                quote! {
                    _ => {
                        if #extra_name.contains_key(key.as_str()) {
                            return Err(rt::duplicate(&mut map, key.as_str()));
                        }
                        __order_seen.push(rt::EXTRA);
                        let v = map.next_value_seed(rt::AnyValue)?;
                        #extra_name.insert(key.0.into_owned(), v);
                    }
                },
                quote! { #extra_name, },
                quote! { other => rt::Fields::field(&self.#extra_name, other), },
            ),
            Extra::Typed(vty, key) => {
                let t = self.rust_ty(vty);
                let seed = self.seed(vty);
                let key_check = match key {
                    Some(r) => {
                        let r = self.str_rule(r);
                        quote! { rt::check_str::<__A::Error>(&#r, key.as_str())?; }
                    }
                    None => quote! {},
                };
                (
                    quote! {
                        /// Members beyond the declared ones, each checked against the schema.
                        pub #extra_name: indexmap::IndexMap<::std::string::String, #t>,
                    },
                    quote! { let mut #extra_name = indexmap::IndexMap::new(); },
                    quote! {
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
                    quote! { #extra_name, },
                    quote! { other => self.#extra_name.get(other).map_or(rt::Probe::Absent, rt::Probed::probe), },
                )
            }
        };
        // Built values: an unknown member must not name a declared one, and typed extras hold their
        // schema.
        let declared: Vec<&str> = s.fields.iter().map(|f| f.json.as_str()).collect();
        let mut extra_checks = Vec::new();
        if !matches!(s.extra, Extra::Closed) && !declared.is_empty() {
            extra_checks.push(quote! {
                for k in self.#extra_name.keys() {
                    if matches!(k.as_str(), #(#declared)|*) {
                        return Err(rt::shadowing(k));
                    }
                }
            });
        }
        if let Extra::Typed(vty, key) = &s.extra {
            if let Some(r) = key {
                let r = self.str_rule(r);
                extra_checks.push(quote! {
                    for k in self.#extra_name.keys() {
                        rt::str_failure(&#r, k)?;
                    }
                });
            }
            if let Some(c) = self.checks(vty, quote! { x }) {
                extra_checks.push(quote! {
                    for (k, x) in &self.#extra_name {
                        rt::within(k, || { #c Ok(()) })?;
                    }
                });
            }
        }
        // Post-decode rules: conditionals, exclusive alternatives, narrowings; on `target`, the
        // decoded value or the verdict-only check's view of its kept members.
        let rules_on = |target: TokenStream| {
            let mut rules = Vec::new();
            for c in &s.conds {
                let when = pred_holds(&target, &c.when);
                let then = pred_check(&target, &c.then);
                rules.push(quote! { if #when { #then } });
            }
            for branches in &s.one_ofs {
                let holds: Vec<TokenStream> =
                    branches.iter().map(|b| pred_holds(&target, b)).collect();
                let n = branches.len();
                rules.push(quote! {
                    let matched = [#(#holds),*].iter().filter(|b| **b).count();
                    if matched != 1 {
                        return Err(rt::Failure::new(rt::Keyword::OneOf, "", format!("must match exactly one of {} alternatives; matches {matched}", #n)));
                    }
                });
            }
            for c in &s.checks {
                rules.push(pred_check(&target, c));
            }
            rules
        };
        let rules = rules_on(quote! { self });
        let v_rules = rules_on(quote! { __view });
        let (check_call, rules_call) = if rules.is_empty() {
            (quote! {}, quote! {})
        } else {
            (
                quote! { value.__check().map_err(rt::Failure::into_error::<__A::Error>)?; },
                quote! { self.__check()?; },
            )
        };
        let check_fn = if rules.is_empty() {
            quote! {}
        } else {
            quote! {
                impl #name {
                    fn __check(&self) -> ::core::result::Result<(), rt::Failure> {
                        use rt::Fields as _;
                        #(#rules)*
                        Ok(())
                    }
                }
            }
        };
        let v_pre_block = if v_pre_arms.is_empty() {
            quote! { let _ = pre; }
        } else {
            quote! {
                if let Some((k, v)) = pre {
                    match k {
                        #(#v_pre_arms)*
                        _ => {}
                    }
                }
            }
        };
        let v_fallback = v_fallback.unwrap_or_else(|| fallback.clone());
        let v_rules = if v_rules.is_empty() {
            quote! {}
        } else {
            quote! {
                let __rules = || -> ::core::result::Result<(), rt::Failure> {
                    use rt::Fields as _;
                    #(#v_rules)*
                    Ok(())
                };
                __rules().map_err(rt::Failure::into_error::<__A::Error>)?;
            }
        };
        let v_body = if native {
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
        } else {
            // Rules read members the check does not keep: decode the object whole.
            quote! {
                let value = <#name as rt::DecodeMembers>::decode_members(map, pre)?;
                if let Some(check) = refine {
                    check(&value).map_err(rt::Failure::into_error::<__A::Error>)?;
                }
                Ok(())
            }
        };
        let pre_block = if pre_arms.is_empty() {
            quote! { let _ = pre; }
        } else {
            quote! {
                if let Some((k, v)) = pre {
                    match k {
                        #(#pre_arms)*
                        _ => {}
                    }
                }
            }
        };
        let expecting = format!("an object ({})", s.name);
        let json_object = match &s.extra {
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
        };
        let (extras_iter, extra_build) = if matches!(s.extra, Extra::Closed) {
            (
                quote! { ::core::iter::empty::<(&str, &serde_json::Value)>() },
                quote! {},
            )
        } else {
            (
                quote! { self.#extra_name.iter() },
                quote! { #extra_name: Default::default(), },
            )
        };
        let write_field = if ser_arms.is_empty() {
            quote! { |_, _| Ok(()) }
        } else {
            quote! { |i, map| match i { #(#ser_arms)* _ => Ok(()) } }
        };
        let builder = format_ident!("{}Builder", s.name);
        let builder_doc = format!(
            " Builds a [`{}`] member by member: constants are filled in, optional members start absent, and `build` checks the result as `validate` does.",
            s.name
        );
        // A struct with no rule beyond its members' types takes the trait's default (`Ok(())`).
        let check_impl =
            if field_checks.is_empty() && extra_checks.is_empty() && rules_call.is_empty() {
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
            #doc
            #[derive(Debug, Clone, PartialEq)]
            pub struct #name {
                #(#defs)*
                #extra_def
                /// The input's member order, written back on encoding.
                __order: rt::Order,
            }
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
            impl #name {
                #[doc = #builder_doc]
                pub fn builder() -> #builder {
                    #builder::default()
                }
                /// The member order recorded when this value was decoded.
                pub fn member_order(&self) -> &rt::Order {
                    &self.__order
                }
            }
            impl serde::Serialize for #name {
                fn serialize<__S: serde::Serializer>(&self, s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    use serde::ser::SerializeMap as _;
                    let mut map = s.serialize_map(None)?;
                    rt::serialize_members(&mut map, &self.__order, #index, #extras_iter, #write_field)?;
                    map.end()
                }
            }
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
            impl rt::Verify for #name {
                fn verify<'de, __D: serde::Deserializer<'de>>(d: __D) -> ::core::result::Result<(), __D::Error> {
                    rt::verify_object::<#name, __D>(d, None)
                }
            }
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<__D: serde::Deserializer<'de>>(d: __D) -> ::core::result::Result<Self, __D::Error> {
                    rt::decode_object(d)
                }
            }
            impl rt::Fields for #name {
                fn field(&self, key: &str) -> rt::Probe<'_> {
                    match key {
                        #(#probes)*
                        #extra_probe
                    }
                }
                #json_object
            }
            impl rt::Probed for #name {
                fn probe(&self) -> rt::Probe<'_> {
                    rt::Probe::Object
                }
            }
            #check_impl
            #check_fn
        }
    }
}
