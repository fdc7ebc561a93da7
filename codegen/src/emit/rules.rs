//! Rules across an object's members (conditionals, exclusive alternatives, narrowings) as Rust
//! expressions over `rt::Fields`.

use super::*;

/// Per item: the members that rules across members read, the struct's own rules' and those of
/// every narrowing of it (`Ty::Refined`) anywhere in the model.
pub(super) fn rule_keys(model: &Model) -> Vec<BTreeSet<String>> {
    let mut rule_keys = vec![BTreeSet::new(); model.items.len()];
    fn pred_keys(p: &ObjPred, out: &mut BTreeSet<String>) {
        out.extend(p.props.iter().map(|(k, _)| k.clone()));
        out.extend(p.required.iter().cloned());
        out.extend(p.not_required.iter().flatten().cloned());
    }
    fn refined(ty: &Ty, keys: &mut [BTreeSet<String>]) {
        match ty {
            Ty::Refined(t, pred) => {
                if let Ty::Named(i) = **t {
                    pred_keys(pred, &mut keys[i.index()]);
                }
                refined(t, keys);
            }
            Ty::Array(a) => refined(&a.item, keys),
            Ty::Nullable(t) | Ty::Ruled(t, _) => refined(t, keys),
            _ => {}
        }
    }
    for (i, item) in model.items.iter() {
        let mut tys: Vec<&Ty> = Vec::new();
        match item {
            Item::Struct(st) => {
                for c in &st.conds {
                    pred_keys(&c.when, &mut rule_keys[i.index()]);
                    pred_keys(&c.then, &mut rule_keys[i.index()]);
                }
                for p in st.one_ofs.iter().flatten().chain(&st.checks) {
                    pred_keys(p, &mut rule_keys[i.index()]);
                }
                tys.extend(st.fields.iter().map(|f| &f.ty));
                if let Extra::Typed(t, _) = &st.extra {
                    tys.push(t);
                }
            }
            Item::Tagged(t) => tys.extend(t.variants.iter().map(|v| &v.2)),
            Item::ByType(b) => tys.extend(b.variants.iter().map(|v| &v.2)),
            Item::Select(sel) => tys.extend(sel.variants.iter().map(|v| &v.ty)),
            _ => {}
        }
        for t in tys {
            refined(t, &mut rule_keys);
        }
    }
    for t in model
        .roots
        .iter()
        .map(|r| &r.ty)
        .chain(model.defs.iter().map(|d| &d.1))
    {
        refined(t, &mut rule_keys);
    }
    rule_keys
}

pub(super) fn probe_const(v: &Value) -> TokenStream {
    match v {
        Value::Null => quote! { rt::Probe::Null },
        Value::Bool(b) => quote! { rt::Probe::Bool(#b) },
        Value::Number(n) => match n.as_i64() {
            Some(i) => quote! { rt::Probe::Int(#i) },
            None => {
                let f = n.as_f64().unwrap_or(f64::NAN);
                quote! { rt::Probe::Num(#f) }
            }
        },
        Value::String(s) => quote! { rt::Probe::Str(#s) },
        // Structured constants never match a probe; the generator does not emit them (see normalize).
        _ => quote! { rt::Probe::Absent },
    }
}

/// A boolean expression: does `p` (a `rt::Probe`) satisfy the value predicate?
pub(super) fn val_holds(p: &TokenStream, v: &ValPred) -> TokenStream {
    match v {
        ValPred::In(vals) => {
            let cs: Vec<TokenStream> = vals.iter().map(probe_const).collect();
            quote! { #p.is_in(&[#(#cs),*]) }
        }
        ValPred::Never => quote! { false },
        ValPred::Types(ts) => quote! { #p.has_type(&[#(#ts),*]) },
        ValPred::MinItems(n) => {
            let n = *n as usize;
            quote! { #p.len().is_none_or(|l| l >= #n) }
        }
        ValPred::MaxItems(n) => {
            let n = *n as usize;
            quote! { #p.len().is_none_or(|l| l <= #n) }
        }
    }
}

pub(super) fn val_failure(key: &str, v: &ValPred) -> TokenStream {
    let rel = prp_vocabulary::pointer::child("", key);
    let (code, msg) = match v {
        ValPred::In(vals) if vals.len() == 1 => ("const", format!("`{key}` must be {}", vals[0])),
        ValPred::In(vals) => (
            "enum",
            format!("`{key}` must be one of {}", Value::Array(vals.clone())),
        ),
        ValPred::Never => (
            "false_schema",
            format!("member `{key}` is not allowed here"),
        ),
        ValPred::Types(ts) => (
            "type",
            format!("`{key}` must be of type {}", ts.join(" or ")),
        ),
        ValPred::MinItems(n) => ("min_items", format!("`{key}` must have at least {n} items")),
        ValPred::MaxItems(n) => ("max_items", format!("`{key}` must have at most {n} items")),
    };
    let code = keyword(code);
    quote! { return Err(rt::Failure::new(#code, #rel, #msg)); }
}

/// Statements returning the first violation of an object predicate by `target` (a `rt::Fields`).
pub(super) fn pred_check(target: &TokenStream, p: &ObjPred) -> TokenStream {
    let mut out = Vec::new();
    for r in &p.required {
        let msg = format!("missing required member `{r}`");
        out.push(quote! { if #target.field(#r).is_absent() { return Err(rt::Failure::new(rt::Keyword::Required, "", #msg)); } });
    }
    for (key, preds) in &p.props {
        for v in preds {
            let holds = val_holds(&quote! { p }, v);
            let fail = val_failure(key, v);
            out.push(quote! { { let p = #target.field(#key); if !p.is_absent() && !(#holds) { #fail } } });
        }
    }
    for group in &p.not_required {
        let msg = format!("members {} must not all be present", group.join(", "));
        out.push(quote! { if true #(&& !#target.field(#group).is_absent())* { return Err(rt::Failure::new(rt::Keyword::Not, "", #msg)); } });
    }
    quote! { #(#out)* }
}

/// A boolean expression: does `target` satisfy the object predicate?
pub(super) fn pred_holds(target: &TokenStream, p: &ObjPred) -> TokenStream {
    let mut parts = vec![quote! { true }];
    for r in &p.required {
        parts.push(quote! { !#target.field(#r).is_absent() });
    }
    for (key, preds) in &p.props {
        for v in preds {
            let holds = val_holds(&quote! { p }, v);
            parts.push(quote! { { let p = #target.field(#key); p.is_absent() || (#holds) } });
        }
    }
    for group in &p.not_required {
        parts.push(quote! { !(true #(&& !#target.field(#group).is_absent())*) });
    }
    quote! { #(#parts)&&* }
}
