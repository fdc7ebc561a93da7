//! Unions: alternatives told apart by a constant member, exclusive alternatives, and alternatives
//! told apart by JSON type.

use super::*;

/// A tagged union's parts, gathered variant by variant.
#[derive(Default)]
struct TaggedParts {
    defs: Vec<TokenStream>,
    /// Entries of `rt::tagged!`: reading straight on when the discriminator comes first
    /// (`"value" => Variant(Type);`), reading from the buffered object (`"value" => Variant: seed;`),
    /// and the variant types that convert into the enum (`Variant(Type);`).
    fast: Vec<TokenStream>,
    slow: Vec<TokenStream>,
    froms: Vec<TokenStream>,
    check_arms: Vec<TokenStream>,
}

/// `Deserialize`, the verdict-only `Verify`, `tag()` and the `From`s of a tagged union, as the
/// runtime's `tagged!` table. Fast path: the discriminator comes first, so the variant decodes the
/// rest of the object in the same pass; otherwise the object is kept, the discriminator found,
/// then the variant decoded.
fn tagged_table(t: &Tagged, name: &Ident, p: &TaggedParts) -> TokenStream {
    let tag = &t.tag;
    let allowed = t
        .variants
        .iter()
        .map(|(v, _, _)| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let rel = format!("/{tag}");
    let unknown = if allowed.is_empty() {
        format!("no `{tag}` value is known: no schema joins {name}")
    } else {
        format!("`{tag}` must be one of {allowed}")
    };
    let missing = format!("a string member `{tag}` is required to tell the variants apart");
    let (fast, slow, froms) = (&p.fast, &p.slow, &p.froms);
    quote! {
        rt::tagged! {
            #name by #tag, #rel, #unknown, #missing;
            fast { #(#fast)* }
            slow { #(#slow)* }
            from { #(#froms)* }
        }
    }
}

impl Emitter<'_> {
    /// A `oneOf` told apart by a constant member (or, with no such member, an exclusive one).
    pub(super) fn tagged(&mut self, t: &Tagged) -> TokenStream {
        let name = ident(&t.name);
        let p = self.tagged_parts(t, &name);
        if t.tag.is_empty() {
            let exclusive = self.exclusive(t, p.defs);
            let verify = verify_by_decoding(&name);
            let fields = self.fields_by_variant(t, &name);
            return quote! { #exclusive #verify #fields };
        }
        let doc = doc_with(
            &t.doc,
            &format!("Objects told apart by their `{}` member.", t.tag),
            None,
        );
        let table = tagged_table(t, &name, &p);
        let enum_def = untagged_enum(&name, &p.defs, &self.open);
        let probe_and_check = [object_probe(&name), check_by_variant(&name, &p.check_arms)];
        let fields = self.fields_by_variant(t, &name);
        quote! {
            #doc
            #enum_def
            #table
            #(#probe_and_check)*
            #fields
        }
    }

    /// Reading members by name through whichever variant the value is, so that code reading the
    /// members every variant has (a version's envelope, say) need not list the variants.
    fn fields_by_variant(&self, t: &Tagged, name: &Ident) -> Option<TokenStream> {
        if !self.readable(t) {
            return None;
        }
        let vs: Vec<Ident> = t.variants.iter().map(|(_, v, _)| ident(v)).collect();
        let field = match_variants(
            &vs.iter()
                .map(|v| quote! { #name::#v(x) => rt::Fields::field(x, key), })
                .collect::<Vec<_>>(),
        );
        let object = match_variants(
            &vs.iter()
                .map(|v| quote! { #name::#v(x) => rt::Fields::json_object(x, key), })
                .collect::<Vec<_>>(),
        );
        // Without variants there is no value, and the key is never read.
        let key = if vs.is_empty() {
            quote! { _ }
        } else {
            quote! { key }
        };
        Some(quote! {
            impl rt::Fields for #name {
                fn field(&self, #key: &str) -> rt::Probe<'_> {
                    #field
                }
                fn json_object(&self, #key: &str) -> ::core::option::Option<&serde_json::Map<::std::string::String, serde_json::Value>> {
                    #object
                }
            }
        })
    }

    /// Whether item `i` is a struct that takes its member `tag` already read (as `rt::decode_members!`
    /// does for a string-enum member).
    fn reads_tag_ahead(&self, i: ItemId, tag: &str) -> bool {
        let Item::Struct(s) = &self.model.items[i] else {
            return false;
        };
        s.fields.iter().any(|f| {
            f.json == tag
                && matches!(f.ty, Ty::Named(e) if matches!(self.model.items[e], Item::Enum(_)))
        })
    }

    /// Whether every variant of `t` reads its members by name.
    fn readable(&self, t: &Tagged) -> bool {
        t.variants.iter().all(|(_, _, ty)| self.has_fields(ty))
    }

    /// Whether a value of `ty` reads its members by name (`rt::Fields`): an object, a struct, a
    /// checked object, or a union of those.
    pub(super) fn has_fields(&self, ty: &Ty) -> bool {
        self.has_fields_within(ty, 0)
    }

    /// [`Self::has_fields`] looking `depth` unions deep already; past a bound, no.
    fn has_fields_within(&self, ty: &Ty, depth: usize) -> bool {
        match ty {
            Ty::Object | Ty::Any => true,
            Ty::Refined(t, _) | Ty::Ruled(t, _) => self.has_fields_within(t, depth),
            Ty::Named(i) => match &self.model.items[*i] {
                Item::Struct(_) | Item::Checked(_) => true,
                Item::Tagged(t) => {
                    depth < 16
                        && t.variants
                            .iter()
                            .all(|(_, _, v)| self.has_fields_within(v, depth + 1))
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// Each variant's share of the enum, its decoders and its checks.
    fn tagged_parts(&mut self, t: &Tagged, name: &Ident) -> TaggedParts {
        let tag = &t.tag;
        let mut p = TaggedParts::default();
        let rtys: Vec<String> = t
            .variants
            .iter()
            .map(|(_, _, ty)| self.rust_ty(ty).to_string())
            .collect();
        for (n, (value, variant, ty)) in t.variants.iter().enumerate() {
            let v = ident(variant);
            let rty = self.rust_ty(ty);
            // A variant type no other variant holds converts into the enum directly.
            if !tag.is_empty() && rtys.iter().filter(|r| **r == rtys[n]).count() == 1 {
                p.froms.push(quote! { #v(#rty); });
            }
            let c = self.checks(ty, quote! { x });
            p.check_arms
                .push(quote! { #name::#v(x) => { let _ = x; #c } });
            let seed = self.seed(ty);
            let vdoc = if tag.is_empty() {
                format!(" {}.", self.words(ty))
            } else {
                format!(" `{tag}` is `{value}`: {}.", self.words(ty))
            };
            p.defs.push(quote! { #[doc = #vdoc] #v(#rty), });
            p.slow.push(quote! { #value => #v: #seed; });
            // A struct whose tag member is a plain string enum reads the rest of the object on
            // from the tag; any other variant (a union of its own, a tag with rules of its own)
            // reads the object whole.
            if let Ty::Named(i) = ty
                && self.reads_tag_ahead(*i, tag)
            {
                let vt = self.name(*i);
                p.fast.push(quote! { #value => #v(#vt); });
            }
        }
        p
    }

    /// A `oneOf` with no discriminator: every variant is tried, and exactly one must accept.
    pub(super) fn exclusive(&mut self, t: &Tagged, defs: Vec<TokenStream>) -> TokenStream {
        let name = ident(&t.name);
        let doc = doc_with(&t.doc, "Exactly one of several alternatives.", None);
        let mut tries = Vec::new();
        for (_, variant, ty) in &t.variants {
            let v = ident(variant);
            let seed = self.seed(ty);
            tries.push(quote! {
                match rt::decode_raw::<_, __D::Error>(&raw, "", #seed) {
                    Ok(x) => found.push(#name::#v(x)),
                    Err(e) => errors.push(e),
                }
            });
        }
        let n = t.variants.len();
        let enum_def = untagged_enum(&name, &defs, &self.open);
        let probe = object_probe(&name);
        quote! {
            #doc
            #enum_def
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<__D: serde::Deserializer<'de>>(d: __D) -> ::core::result::Result<Self, __D::Error> {
                    let raw = <Box<serde_json::value::RawValue> as serde::Deserialize>::deserialize(d)?;
                    // A repeated member is reported as such, not as every alternative failing.
                    rt::decode_raw::<_, __D::Error>(&raw, "", rt::AnyValue)?;
                    let mut found = Vec::new();
                    let mut errors = Vec::new();
                    #(#tries)*
                    match (found.len(), errors.len()) {
                        (1, _) => Ok(found.remove(0)),
                        (0, _) => Err(rt::fail(rt::Keyword::OneOf, "", format_args!("matches none of the {} alternatives", #n))),
                        (k, _) => Err(rt::fail(rt::Keyword::OneOf, "", format_args!("matches {k} of the alternatives; exactly one is allowed"))),
                    }
                }
            }
            #probe
            impl rt::Check for #name {
                /// Exactly one alternative must accept the value: decided on its JSON, as decoding does.
                fn check(&self) -> ::core::result::Result<(), rt::Failure> {
                    rt::recheck(self, rt::TypeSeed::<#name>::new())
                }
            }
        }
    }

    pub(super) fn by_type(&mut self, b: &ByType) -> TokenStream {
        let name = ident(&b.name);
        let doc = doc_with(&b.doc, "A value told apart by its JSON type.", None);
        let mut defs = Vec::new();
        let mut visits = Vec::new();
        let mut probes = Vec::new();
        let mut check_arms = Vec::new();
        let kinds: Vec<&str> = b.variants.iter().map(|(k, _, _)| k.as_str()).collect();
        let expecting = kinds.join(" or ");
        for (kind, variant, ty) in &b.variants {
            let v = ident(variant);
            let rty = self.rust_ty(ty);
            let vdoc = format!(" {}.", self.words(ty));
            defs.push(quote! { #[doc = #vdoc] #v(#rty), });
            probes.push(quote! { #name::#v(x) => rt::Probed::probe(x), });
            let c = self.checks(ty, quote! { x });
            check_arms.push(quote! { #name::#v(x) => { let _ = x; #c } });
            visits.push(
                self.by_type_visit(&name, &v, &rty, ty)
                    .unwrap_or_else(|| self.forwarding_visit(&name, &v, kind, ty)),
            );
        }
        let enum_def = untagged_enum(&name, &defs, &self.open);
        let check = check_by_variant(&name, &check_arms);
        quote! {
            #doc
            #enum_def
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<__D: serde::Deserializer<'de>>(d: __D) -> ::core::result::Result<Self, __D::Error> {
                    struct __Visitor;
                    impl serde::de::Visitor<'_> for __Visitor {
                        type Value = #name;
                        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                            f.write_str(#expecting)
                        }
                        #(#visits)*
                    }
                    d.deserialize_any(__Visitor).map_err(|e: __D::Error| e)
                }
            }
            impl rt::Probed for #name {
                fn probe(&self) -> rt::Probe<'_> {
                    match self { #(#probes)* }
                }
            }
            #check
        }
    }

    /// The visitor methods of a variant's JSON type (`kind`) that hand the value to the variant's
    /// seed: for a variant no specialised visit reads (an enum, a value with program rules).
    fn forwarding_visit(&mut self, name: &Ident, v: &Ident, kind: &str, ty: &Ty) -> TokenStream {
        let seed = self.seed(ty);
        let forward = |method: TokenStream, arg: TokenStream| {
            quote! {
                fn #method<__E: serde::de::Error>(self, x: #arg) -> ::core::result::Result<#name, __E> {
                    serde::de::DeserializeSeed::deserialize(#seed, serde::de::IntoDeserializer::<__E>::into_deserializer(x)).map(#name::#v)
                }
            }
        };
        match kind {
            "string" => forward(quote! { visit_str }, quote! { &str }),
            "boolean" => forward(quote! { visit_bool }, quote! { bool }),
            _ => {
                let i = forward(quote! { visit_i64 }, quote! { i64 });
                let u = forward(quote! { visit_u64 }, quote! { u64 });
                let f = forward(quote! { visit_f64 }, quote! { f64 });
                quote! { #i #u #f }
            }
        }
    }

    /// The visitor method(s) that accept a variant's JSON type, checking its rule; `None` for a
    /// type only its seed reads.
    fn by_type_visit(
        &mut self,
        name: &Ident,
        v: &Ident,
        rty: &TokenStream,
        ty: &Ty,
    ) -> Option<TokenStream> {
        match ty {
            Ty::Named(i) if matches!(self.model.items[*i], Item::Text(_)) => Some(quote! {
                fn visit_str<__E: serde::de::Error>(self, s: &str) -> ::core::result::Result<#name, __E> {
                    #rty::new(s).map(#name::#v).map_err(rt::Failure::into_error)
                }
            }),
            Ty::Str(r) => {
                let r = self.str_rule(r);
                Some(quote! {
                    fn visit_str<__E: serde::de::Error>(self, s: &str) -> ::core::result::Result<#name, __E> {
                        rt::check_str::<__E>(&#r, s)?;
                        Ok(#name::#v(rt::Str::from(s)))
                    }
                })
            }
            Ty::Int(r) => {
                // Checked as an unbounded integer; a variant stored as `i64` then narrows it.
                let narrow = if fits_i64(r) {
                    quote! { .and_then(rt::integer_to_i64::<__E>) }
                } else {
                    quote! {}
                };
                let r = self.int_rule(r);
                Some(quote! {
                    fn visit_i64<__E: serde::de::Error>(self, n: i64) -> ::core::result::Result<#name, __E> {
                        rt::check_integer::<__E>(&#r, rt::Integer::from(n))#narrow.map(#name::#v)
                    }
                    fn visit_u64<__E: serde::de::Error>(self, n: u64) -> ::core::result::Result<#name, __E> {
                        rt::check_integer::<__E>(&#r, rt::Integer::from(n))#narrow.map(#name::#v)
                    }
                    fn visit_f64<__E: serde::de::Error>(self, n: f64) -> ::core::result::Result<#name, __E> {
                        rt::check_integer::<__E>(&#r, rt::integer_from_f64(n)?)#narrow.map(#name::#v)
                    }
                })
            }
            Ty::Num(r) => {
                let r = self.num_rule(r);
                Some(quote! {
                    fn visit_i64<__E: serde::de::Error>(self, n: i64) -> ::core::result::Result<#name, __E> {
                        rt::check_num::<__E>(&#r, n as f64).map(#name::#v)
                    }
                    fn visit_u64<__E: serde::de::Error>(self, n: u64) -> ::core::result::Result<#name, __E> {
                        rt::check_num::<__E>(&#r, n as f64).map(#name::#v)
                    }
                    fn visit_f64<__E: serde::de::Error>(self, n: f64) -> ::core::result::Result<#name, __E> {
                        rt::check_num::<__E>(&#r, n).map(#name::#v)
                    }
                })
            }
            Ty::Bool(c) => {
                let (check, value) = match c {
                    Some(c) => (
                        quote! { if b != #c { return Err(rt::fail(rt::Keyword::Const, "", format_args!("must be {}", #c))); } },
                        quote! { #rty },
                    ),
                    None => (quote! {}, quote! { b }),
                };
                Some(quote! {
                    fn visit_bool<__E: serde::de::Error>(self, b: bool) -> ::core::result::Result<#name, __E> {
                        #check
                        Ok(#name::#v(#value))
                    }
                })
            }
            _ => None,
        }
    }
}
