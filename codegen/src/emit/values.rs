//! Value positions: their Rust type, the seed that decodes and checks them, the checks a built
//! value runs, and the shared rule tables those name.

use super::*;

/// Whether an integer's schema keeps it within `i64`, so that a plain `i64` field is exact.
pub(super) fn fits_i64(r: &IntRule) -> bool {
    r.values.is_some() || (r.min.is_some() && r.max.is_some())
}

/// The result `rt::within` is given for `checks`: the call itself when the checks are one call
/// (`f(..)?;`, which already returns the failure), else the statements and `Ok(())` run as a
/// closure called in place.
pub(super) fn check_result(checks: TokenStream) -> TokenStream {
    use proc_macro2::TokenTree;
    let tokens: Vec<TokenTree> = checks.clone().into_iter().collect();
    let is =
        |t: Option<&TokenTree>, c: char| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c);
    let n = tokens.len();
    let one_call = n > 2
        && is(tokens.get(n - 1), ';')
        && is(tokens.get(n - 2), '?')
        && !tokens[..n - 2].iter().any(|t| is(Some(t), ';'))
        && matches!(tokens.first(), Some(TokenTree::Ident(i)) if i != "let" && i != "for" && i != "if" && i != "return");
    if one_call {
        tokens[..n - 2].iter().cloned().collect()
    } else {
        quote! { (|| -> ::core::result::Result<(), rt::Failure> { #checks Ok(()) })() }
    }
}

pub(super) fn opt_u64(v: Option<u64>) -> TokenStream {
    match v {
        Some(v) => quote! { Some(#v) },
        None => quote! { None },
    }
}

pub(super) fn opt_i64(v: Option<i64>) -> TokenStream {
    match v {
        Some(v) => quote! { Some(#v) },
        None => quote! { None },
    }
}

pub(super) fn opt_f64(v: Option<f64>) -> TokenStream {
    match v {
        Some(v) => quote! { Some(#v) },
        None => quote! { None },
    }
}

impl Emitter<'_> {
    pub(super) fn str_rule(&mut self, r: &StrRule) -> Ident {
        let i = match self.str_rules.iter().position(|x| x == r) {
            Some(i) => i,
            None => {
                if let Some(p) = &r.pattern
                    && !self.patterns.contains(p)
                {
                    self.patterns.push(p.clone());
                }
                self.str_rules.push(r.clone());
                self.str_rules.len() - 1
            }
        };
        format_ident!("STR_{}", i)
    }

    pub(super) fn int_rule(&mut self, r: &IntRule) -> Ident {
        let i = self
            .int_rules
            .iter()
            .position(|x| x == r)
            .unwrap_or_else(|| {
                self.int_rules.push(r.clone());
                self.int_rules.len() - 1
            });
        format_ident!("INT_{}", i)
    }

    pub(super) fn num_rule(&mut self, r: &NumRule) -> Ident {
        let i = self
            .num_rules
            .iter()
            .position(|x| x == r)
            .unwrap_or_else(|| {
                self.num_rules.push(r.clone());
                self.num_rules.len() - 1
            });
        format_ident!("NUM_{}", i)
    }

    /// The function that checks a narrowing of a shared type, made once per predicate (it reads
    /// members by name, so one function serves every type narrowed the same way).
    pub(super) fn refine_fn(&mut self, pred: &ObjPred) -> Ident {
        let i = match self.refines.iter().position(|p| p == pred) {
            Some(i) => i,
            None => {
                self.refines.push(pred.clone());
                self.refines.len() - 1
            }
        };
        format_ident!("__refine_{}", i)
    }

    /// Statements that return the first violation of `ty` by the value `v` (an expression of type
    /// `&T`), located relative to it; `None` when the Rust type alone guarantees the schema.
    pub(super) fn checks(&mut self, ty: &Ty, v: TokenStream) -> Option<TokenStream> {
        match ty {
            Ty::Any | Ty::Null | Ty::Bool(_) | Ty::Object => None,
            Ty::Never => Some(quote! { rt::false_schema(#v)?; }),
            Ty::Int(r) => {
                let rule = self.int_rule(r);
                Some(if fits_i64(r) {
                    quote! { rt::int_failure(&#rule, *#v)?; }
                } else {
                    quote! { rt::integer_failure(&#rule, #v)?; }
                })
            }
            Ty::Num(r) => {
                let rule = self.num_rule(r);
                Some(quote! { rt::num_failure(&#rule, *#v)?; })
            }
            Ty::Str(r) => {
                if *r == StrRule::default() {
                    return None;
                }
                let rule = self.str_rule(r);
                Some(quote! { rt::str_failure(&#rule, #v)?; })
            }
            Ty::Named(i) => match &self.model.items[*i] {
                Item::Enum(_) | Item::IntEnum(_) | Item::Text(_) => None,
                _ => Some(quote! { rt::Check::check(#v)?; }),
            },
            Ty::Array(a) => {
                let inner = self.checks(&a.item, quote! { x });
                let counts = (a.min.is_some() || a.max.is_some() || a.unique).then(|| {
                    let (min, max, unique) = (opt_u64(a.min), opt_u64(a.max), a.unique);
                    quote! { rt::items_failure(#v, #min, #max, #unique)?; }
                });
                let each = inner.map(|inner| {
                    let checked = check_result(inner);
                    quote! {
                        for (i, x) in #v.iter().enumerate() {
                            rt::within_index(i, #checked)?;
                        }
                    }
                });
                let nodes = &a.rules;
                let rules = (!nodes.is_empty())
                    .then(|| quote! { #(rt::program_rule(__program(), #nodes, #v)?;)* });
                (counts.is_some() || each.is_some() || rules.is_some())
                    .then(|| quote! { #counts #each #rules })
            }
            Ty::Nullable(t) => {
                let inner = self.checks(t, quote! { x })?;
                Some(quote! { if let Some(x) = #v { #inner } })
            }
            Ty::Ruled(t, nodes) => {
                let inner = self.checks(t, v.clone());
                Some(quote! { #inner #(rt::program_rule(__program(), #nodes, #v)?;)* })
            }
            Ty::Refined(t, pred) => {
                let inner = self.checks(t, v.clone());
                let f = self.refine_fn(pred);
                Some(quote! { #inner #f(#v)?; })
            }
        }
    }

    /// The Rust type of a value position.
    pub(super) fn rust_ty(&self, ty: &Ty) -> TokenStream {
        match ty {
            Ty::Any | Ty::Never => quote! { serde_json::Value },
            Ty::Null => quote! { () },
            Ty::Bool(None) => quote! { bool },
            Ty::Bool(Some(true)) => quote! { rt::True },
            Ty::Bool(Some(false)) => quote! { rt::False },
            Ty::Int(r) if fits_i64(r) => quote! { i64 },
            Ty::Int(_) => quote! { rt::Integer },
            Ty::Num(_) => quote! { f64 },
            Ty::Str(_) => quote! { rt::Str },
            Ty::Object => quote! { serde_json::Map<::std::string::String, serde_json::Value> },
            Ty::Named(i) => {
                let n = self.name(*i);
                quote! { #n }
            }
            Ty::Array(a) => {
                let t = self.rust_ty(&a.item);
                quote! { Vec<#t> }
            }
            Ty::Nullable(t) => {
                let t = self.rust_ty(t);
                quote! { ::core::option::Option<#t> }
            }
            Ty::Refined(t, _) | Ty::Ruled(t, _) => self.rust_ty(t),
        }
    }

    /// A `DeserializeSeed` expression that decodes and checks a value of `ty`.
    pub(super) fn seed(&mut self, ty: &Ty) -> TokenStream {
        match ty {
            Ty::Any => quote! { rt::AnyValue },
            Ty::Never => quote! { rt::NeverSeed },
            Ty::Null => quote! { rt::NullSeed },
            Ty::Bool(None) => quote! { rt::BoolSeed(None) },
            Ty::Bool(Some(_)) => {
                let t = self.rust_ty(ty);
                quote! { rt::TypeSeed::<#t>::new() }
            }
            Ty::Int(r) => {
                let seed = if fits_i64(r) {
                    quote! { rt::IntSeed }
                } else {
                    quote! { rt::IntegerSeed }
                };
                let r = self.int_rule(r);
                quote! { #seed(&#r) }
            }
            Ty::Num(r) => {
                let r = self.num_rule(r);
                quote! { rt::NumSeed(&#r) }
            }
            Ty::Str(r) => {
                let r = self.str_rule(r);
                quote! { rt::StrSeed(&#r) }
            }
            Ty::Object => quote! { rt::ObjectSeed },
            Ty::Named(i) => {
                let n = self.name(*i);
                quote! { rt::TypeSeed::<#n>::new() }
            }
            Ty::Array(a) => {
                let item = self.seed(&a.item);
                let min = opt_u64(a.min);
                let max = opt_u64(a.max);
                let unique = a.unique;
                let seed =
                    quote! { rt::VecSeed { item: #item, min: #min, max: #max, unique: #unique } };
                if a.rules.is_empty() {
                    seed
                } else {
                    let nodes = &a.rules;
                    quote! { rt::RuleSeed { inner: #seed, program: __program, nodes: &[#(#nodes),*] } }
                }
            }
            Ty::Nullable(t) => {
                let s = self.seed(t);
                quote! { rt::NullableSeed(#s) }
            }
            Ty::Ruled(t, nodes) => {
                let inner = self.seed(t);
                quote! { rt::RuleSeed { inner: #inner, program: __program, nodes: &[#(#nodes),*] } }
            }
            Ty::Refined(t, pred) => {
                let inner = self.seed(t);
                let rty = self.rust_ty(t);
                let f = self.refine_fn(pred);
                quote! { rt::RefinedSeed::<_, #rty>::new(#inner, #f) }
            }
        }
    }
}
