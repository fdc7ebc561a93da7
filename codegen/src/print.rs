//! The module's source text: prettyplease for Rust, and one entry per line for the runtime's member
//! tables (`rt::decode_members! { ... }`), whose insides prettyplease would otherwise pour out as
//! one stream of tokens. Each entry's Rust parts (types, seeds, arms, statements) still go through
//! prettyplease, so the tables read like the code they stand for.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote};

/// The runtime macros whose input is a member table: a header up to `;`, then sections
/// `name { entries }`.
const TABLES: [&str; 5] = [
    "decode_members",
    "verify_members",
    "members",
    "builder",
    "tagged",
];

/// How one section's entries are laid out.
#[derive(Clone, Copy)]
enum Layout {
    /// `;`-separated entries whose part after the first lone `:` is a type (and, in `pre`, a
    /// pointer after the last `,`).
    Typed,
    /// `;`-separated entries whose part after the first lone `:` is an expression.
    Seeded,
    /// `;`-separated entries of names and literals only.
    Plain,
    /// Statements.
    Block,
    /// `match` arms.
    Arms,
}

fn layout_of(section: &str) -> Layout {
    match section {
        "slots" | "pre" | "pre_kept" | "undeclared" => Layout::Typed,
        "read" | "value" | "constants" | "slow" => Layout::Seeded,
        "required" | "fast" | "from" | "refused" => Layout::Plain,
        // `rt::members!` names and presences; `rt::builder!` ends each entry with a type.
        "members" => Layout::Typed,
        "arms" | "view" => Layout::Arms,
        _ => Layout::Block,
    }
}

/// The file as source text.
pub(crate) fn unparse(mut file: syn::File) -> String {
    let mut tables = Vec::new();
    for item in &mut file.items {
        let syn::Item::Macro(m) = item else { continue };
        let is_table = m.mac.path.segments.last().is_some_and(|s| {
            TABLES.contains(&s.ident.to_string().as_str())
                && matches!(m.mac.delimiter, syn::MacroDelimiter::Brace(_))
        });
        if !is_table {
            continue;
        }
        let marker = format_ident!("__PrpTable{}", tables.len());
        tables.push(table(&m.mac));
        *item = syn::parse_quote! { struct #marker; };
    }
    let mut text = prettyplease::unparse(&file);
    for (n, t) in tables.iter().enumerate() {
        text = text.replacen(&format!("struct __PrpTable{n};\n"), t, 1);
    }
    text
}

/// One table invocation, laid out.
fn table(mac: &syn::Macro) -> String {
    let path = plain(mac.path.to_token_stream());
    let mut out = format!("{path}! {{\n");
    let mut tokens = mac.tokens.clone().into_iter();
    let mut header = TokenStream::new();
    for t in tokens.by_ref() {
        let end = matches!(&t, TokenTree::Punct(p) if p.as_char() == ';');
        header.extend([t]);
        if end {
            break;
        }
    }
    out += &format!("    {}\n", plain(header));
    let rest: Vec<TokenTree> = tokens.collect();
    let sections: Option<Vec<(String, TokenStream)>> = rest
        .chunks(2)
        .map(|pair| match pair {
            [TokenTree::Ident(name), TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace => {
                Some((name.to_string(), g.stream()))
            }
            _ => None,
        })
        .collect();
    // A table not made of `name { ... }` sections is printed as it is rather than cut short.
    let Some(sections) = sections else {
        return format!("{out}    {}\n}}\n", plain(rest.into_iter().collect()));
    };
    for (name, body) in sections {
        let lines = section(layout_of(&name), body);
        // Every section may be left out, and an empty one says nothing.
        if !lines.is_empty() {
            out += &format!("    {name} {{\n");
            for l in lines {
                out += &format!("        {l}\n").replace("        \n", "\n");
            }
            out += "    }\n";
        }
    }
    out + "}\n"
}

/// A section's lines, unindented. Tokens prettyplease cannot read as the section's kind are
/// printed as they are, on one line.
fn section(layout: Layout, tokens: TokenStream) -> Vec<String> {
    let lines = match layout {
        Layout::Block => pretty(quote! { fn __f() { #tokens } }).map(|l| inside(l, 1)),
        Layout::Arms => pretty(quote! { fn __f() { match __x { #tokens } } }).map(|l| inside(l, 2)),
        _ => {
            return entries(tokens)
                .into_iter()
                .flat_map(|e| entry(layout, e))
                .collect();
        }
    };
    lines.unwrap_or_else(|| vec![plain(tokens)])
}

/// Splits at each `;` (none occurs between a section's groups except as a separator).
fn entries(tokens: TokenStream) -> Vec<TokenStream> {
    let mut out = Vec::new();
    let mut cur = TokenStream::new();
    for t in tokens {
        if matches!(&t, TokenTree::Punct(p) if p.as_char() == ';') {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.extend([t]);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// One entry as lines, ending in `;`.
fn entry(layout: Layout, e: TokenStream) -> Vec<String> {
    let tokens: Vec<TokenTree> = e.into_iter().collect();
    let colon = lone_colon(&tokens);
    let laid_out = match (layout, colon) {
        (Layout::Typed | Layout::Seeded, Some(i)) => {
            let tail = &tokens[i + 1..];
            let lines = match layout {
                Layout::Typed => typed(tail),
                _ => expr(tail.iter().cloned().collect()),
            };
            lines.map(|mut lines| {
                let head = plain(tokens[..i].iter().cloned().collect());
                lines[0] = format!("{head}: {}", lines[0]);
                lines
            })
        }
        _ => None,
    };
    let mut lines = laid_out.unwrap_or_else(|| vec![plain(tokens.into_iter().collect())]);
    if let Some(last) = lines.last_mut() {
        last.push(';');
    }
    lines
}

/// A type, and the pointer after it when the entry has one (`Type, "/member"`).
fn typed(tail: &[TokenTree]) -> Option<Vec<String>> {
    let comma = tail
        .iter()
        .rposition(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','));
    let (ty, rest) = match comma {
        Some(i) if matches!(tail.get(i + 1), Some(TokenTree::Literal(_))) => {
            (&tail[..i], Some(&tail[i + 1..]))
        }
        _ => (tail, None),
    };
    let ty: TokenStream = ty.iter().cloned().collect();
    let mut lines = after(quote! { type __T = #ty; }, "type __T = ")?;
    if let (Some(rest), Some(last)) = (rest, lines.last_mut()) {
        *last += &format!(", {}", plain(rest.iter().cloned().collect()));
    }
    Some(lines)
}

/// An expression's lines.
fn expr(e: TokenStream) -> Option<Vec<String>> {
    after(quote! { static __E: __T = #e; }, "static __E: __T = ")
}

/// `item` printed by prettyplease, as lines; `None` if the tokens are not an item.
fn pretty(item: TokenStream) -> Option<Vec<String>> {
    let file = syn::parse2::<syn::File>(item).ok()?;
    Some(
        prettyplease::unparse(&file)
            .lines()
            .map(str::to_owned)
            .collect(),
    )
}

/// The lines of a wrapper `depth` levels of braces in, unindented.
fn inside(lines: Vec<String>, depth: usize) -> Vec<String> {
    if lines.len() <= 2 * depth {
        return Vec::new();
    }
    let pad = " ".repeat(4 * depth);
    lines[depth..lines.len() - depth]
        .iter()
        .map(|l| l.strip_prefix(&pad).unwrap_or(l).to_owned())
        .collect()
}

/// A one-item wrapper's text after its `prefix`, less the final `;`; `None` if prettyplease did
/// not print the prefix as given (the part after it broke onto a line of its own, say).
fn after(item: TokenStream, prefix: &str) -> Option<Vec<String>> {
    let mut lines = pretty(item)?;
    let first = lines.first_mut()?;
    *first = first.strip_prefix(prefix)?.to_owned();
    let last = lines.last_mut()?;
    last.strip_suffix(';')?;
    last.pop();
    Some(lines)
}

/// The index of the first `:` that is not half of a `::`.
fn lone_colon(tokens: &[TokenTree]) -> Option<usize> {
    let mut joined = false;
    for (i, t) in tokens.iter().enumerate() {
        if let TokenTree::Punct(p) = t {
            if p.as_char() == ':' && !joined && p.spacing() == Spacing::Alone {
                return Some(i);
            }
            joined = p.as_char() == ':' && p.spacing() == Spacing::Joint;
        } else {
            joined = false;
        }
    }
    None
}

/// Names, literals and punctuation on one line, spaced as Rust is written (`Name(a, b)`,
/// `"x" => slot @ 0u16`, `a::b`).
fn plain(tokens: TokenStream) -> String {
    let mut out = String::new();
    // Whether the next token follows the previous one without a space.
    let mut glue = true;
    for t in tokens {
        match t {
            TokenTree::Punct(p) => {
                let c = p.as_char();
                if !glue && !matches!(c, ',' | ';' | '.' | ':') {
                    out.push(' ');
                }
                out.push(c);
                glue = p.spacing() == Spacing::Joint || c == '.' || out.ends_with("::");
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{ ", " }"),
                    Delimiter::None => ("", ""),
                };
                let call = out.ends_with(|c: char| c.is_alphanumeric() || c == '_');
                if !glue && !call {
                    out.push(' ');
                }
                out += open;
                out += &plain(g.stream());
                out += close;
                glue = false;
            }
            other => {
                if !glue {
                    out.push(' ');
                }
                out += &other.to_string();
                glue = false;
            }
        }
    }
    out
}
