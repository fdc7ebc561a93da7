//! Doc comments that state a value's constraints in words.

use super::*;

pub(super) fn doc_attrs(doc: &Option<String>) -> TokenStream {
    match doc {
        Some(d) => {
            let lines = d.lines().map(|l| format!(" {l}"));
            quote! { #( #[doc = #lines] )* }
        }
        None => quote! {},
    }
}

/// The schema's description, or `fallback` when it has none, then `rule` as its own paragraph.
pub(super) fn doc_with(doc: &Option<String>, fallback: &str, rule: Option<String>) -> TokenStream {
    let mut text = doc.clone().unwrap_or_else(|| fallback.to_owned());
    if let Some(rule) = rule {
        text.push_str("\n\n");
        text.push_str(&rule);
    }
    doc_attrs(&Some(text))
}

/// A string rule in words: "1 to 160 characters, matching `^[a-z]+$`".
pub(super) fn str_words(r: &StrRule) -> String {
    let mut out = match (r.min.unwrap_or(0), r.max) {
        (0, None) => "any length".to_owned(),
        (min, None) => format!("at least {min} characters"),
        (0, Some(max)) => format!("at most {max} characters"),
        (min, Some(max)) => format!("{min} to {max} characters"),
    };
    if let Some(p) = &r.pattern {
        out.push_str(&format!(", matching `{p}`"));
    }
    if let Some(f) = &r.format {
        out.push_str(&format_words(f));
    }
    out
}

/// An asserted format in words: ", an RFC 3339 date-time", ", a uuid matching `…`".
pub(super) fn format_words((name, check): &(String, crate::Format)) -> String {
    match check {
        crate::Format::DateTime => format!(", an RFC 3339 {name}"),
        crate::Format::Pattern(p) => format!(", a {name} matching `{p}`"),
    }
}

pub(super) fn bounds<T: std::fmt::Display>(min: Option<T>, max: Option<T>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!(" from {a} to {b}"),
        (Some(a), None) => format!(" of at least {a}"),
        (None, Some(b)) => format!(" of at most {b}"),
        (None, None) => String::new(),
    }
}

impl Emitter<'_> {
    /// What a value position holds, in words, constraints included.
    pub(super) fn words(&self, ty: &Ty) -> String {
        match ty {
            Ty::Any => "any JSON value".to_owned(),
            Ty::Never => "never present".to_owned(),
            Ty::Null => "`null`".to_owned(),
            Ty::Bool(None) => "a boolean".to_owned(),
            Ty::Bool(Some(b)) => format!("always `{b}`"),
            Ty::Int(r) => format!("an integer{}", bounds(r.min, r.max)),
            Ty::Num(r) => format!("a number{}", bounds(r.min, r.max)),
            Ty::Str(r) if *r == StrRule::default() => "a string".to_owned(),
            Ty::Str(r) => format!("a string of {}", str_words(r)),
            Ty::Object => "a JSON object".to_owned(),
            Ty::Named(i) => match &self.model.items[*i] {
                Item::Text(t) => format!("a string of {}", str_words(&t.rule)),
                Item::Enum(e) => {
                    let v: Vec<String> = e.values.iter().map(|(j, _)| format!("`{j}`")).collect();
                    format!("one of {}", v.join(", "))
                }
                Item::IntEnum(e) => {
                    let v: Vec<String> = e.values.iter().map(|(n, _)| format!("`{n}`")).collect();
                    format!("one of {}", v.join(", "))
                }
                item => format!("a [`{}`]", item.name()),
            },
            Ty::Array(a) => {
                let mut out = format!("a list of {}", self.words(&a.item));
                match (a.min, a.max) {
                    (Some(m), Some(n)) => out.push_str(&format!(", {m} to {n} items")),
                    (Some(m), None) => out.push_str(&format!(", at least {m} items")),
                    (None, Some(n)) => out.push_str(&format!(", at most {n} items")),
                    (None, None) => {}
                }
                if a.unique {
                    out.push_str(", no two equal");
                }
                out
            }
            Ty::Nullable(t) => format!("{}, or `null`", self.words(t)),
            Ty::Refined(t, _) => format!("{}, narrowed by this schema", self.words(t)),
            Ty::Ruled(t, _) => format!("{}, with the further rules of this schema", self.words(t)),
        }
    }
}
