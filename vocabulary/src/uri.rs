//! URI references resolved against a base, as RFC 3986 §5.2 says: how `$id` and `$ref` find their
//! targets (`child.json` beside `https://example.com/root.json`, `#foo` inside `urn:uuid:…`), and
//! the one way a place in a schema is written as a URI ([`at`], [`definition`], [`child`]).

use std::borrow::Cow;

/// The five parts of a URI reference; absent parts are `None` (an empty path is `""`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split(s: &str) -> Parts<'_> {
    let (s, fragment) = match s.split_once('#') {
        Some((a, f)) => (a, Some(f)),
        None => (s, None),
    };
    let (s, query) = match s.split_once('?') {
        Some((a, q)) => (a, Some(q)),
        None => (s, None),
    };
    let (scheme, rest) = match s.find(':') {
        Some(i)
            if !s[..i].contains('/')
                && s[..i].starts_with(|c: char| c.is_ascii_alphabetic())
                && s[..i]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-')) =>
        {
            (Some(&s[..i]), &s[i + 1..])
        }
        _ => (None, s),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => match r.find('/') {
            Some(i) => (Some(&r[..i]), &r[i..]),
            None => (Some(r), ""),
        },
        None => (None, rest),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// RFC 3986 §5.2.4: `.` and `..` segments removed from a path.
fn remove_dots(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    let mut trailing = false;
    for (i, seg) in segments.iter().enumerate() {
        if i == 0 && absolute {
            continue;
        }
        match *seg {
            "." => trailing = i == last,
            ".." => {
                out.pop();
                trailing = i == last;
            }
            s => {
                out.push(s);
                trailing = false;
            }
        }
    }
    let mut joined = out.join("/");
    if trailing {
        joined.push('/');
    }
    if absolute {
        joined.insert(0, '/');
    }
    joined
}

/// `reference` resolved against the absolute URI `base` (RFC 3986 §5.2.2, strict).
pub fn resolve(base: &str, reference: &str) -> String {
    let b = split(base);
    let r = split(reference);
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        scheme = r.scheme;
        authority = r.authority;
        path = remove_dots(r.path);
        query = r.query;
    } else {
        scheme = b.scheme;
        if r.authority.is_some() {
            authority = r.authority;
            path = remove_dots(r.path);
            query = r.query;
        } else {
            authority = b.authority;
            if r.path.is_empty() {
                path = b.path.to_owned();
                query = r.query.or(b.query);
            } else {
                path = if r.path.starts_with('/') {
                    remove_dots(r.path)
                } else if b.authority.is_some() && b.path.is_empty() {
                    remove_dots(&format!("/{}", r.path))
                } else {
                    let dir = b.path.rfind('/').map_or("", |i| &b.path[..=i]);
                    remove_dots(&format!("{dir}{}", r.path))
                };
                query = r.query;
            }
        }
    }
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = r.fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// Whether `s` is an absolute URI: a scheme and something after it.
pub fn is_absolute(s: &str) -> bool {
    let p = split(s);
    p.scheme.is_some() && (p.authority.is_some() || !p.path.is_empty())
}

/// `s` with its `%XX` escapes decoded, as a `$ref`'s fragment (a JSON pointer) may be written;
/// `None` when an escape is malformed or the bytes are not UTF-8.
pub fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `pointer` (RFC 6901, already escaped) as a URI fragment: every byte RFC 3986 does not allow in
/// a fragment, and `%` itself, written `%XX` (a space as `%20`, `é` as `%C3%A9`), so that the URI
/// is one and [`percent_decode`] gives the pointer back.
pub fn fragment(pointer: &str) -> Cow<'_, str> {
    if pointer.bytes().all(in_fragment) {
        return Cow::Borrowed(pointer);
    }
    let mut out = String::with_capacity(pointer.len() + 8);
    for b in pointer.bytes() {
        if in_fragment(b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Cow::Owned(out)
}

/// Whether RFC 3986 lets `b` stand for itself in a fragment: unreserved characters, sub-delims,
/// `:`, `@`, `/` and `?`.
fn in_fragment(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b)
}

/// The URI of the node at `pointer` (RFC 6901, escaped) in the resource `base`: `base#` and the
/// pointer as a [`fragment`]. The one way the workspace names a place in a schema.
pub fn at(base: &str, pointer: &str) -> String {
    format!("{base}#{}", fragment(pointer))
}

/// The URI of the definition `name` (unescaped) of the resource `base`: `base#/$defs/NAME`, the
/// name escaped as a pointer token and then as a fragment.
pub fn definition(base: &str, name: &str) -> String {
    at(base, &crate::pointer::child("/$defs", name))
}

/// `uri` (one whose fragment is a pointer) with `token` (unescaped) appended to its fragment.
pub fn child(uri: &str, token: &str) -> String {
    format!("{uri}/{}", fragment(&crate::pointer::escape(token)))
}

/// A URI split at `#` into its resource and its fragment decoded (a JSON pointer or an anchor);
/// `None` for the fragment when its `%XX` escapes are malformed.
pub fn split_fragment(uri: &str) -> (&str, Option<String>) {
    let (base, fragment) = uri.split_once('#').unwrap_or((uri, ""));
    (base, percent_decode(fragment))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_3986_examples() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("g;x=1/../y", "http://a/b/c/y"),
        ] {
            assert_eq!(resolve(base, r), want, "{r}");
        }
    }

    #[test]
    fn urns_keep_their_path() {
        let base = "urn:uuid:deadbeef-1234-0000-0000-4321feebdaed";
        assert_eq!(resolve(base, "#/$defs/bar"), format!("{base}#/$defs/bar"));
        assert_eq!(resolve(base, "urn:example:x"), "urn:example:x");
    }

    #[test]
    fn fragments_decode_strictly() {
        assert_eq!(
            percent_decode("/$defs/a%25b%7E").as_deref(),
            Some("/$defs/a%b~")
        );
        assert_eq!(percent_decode("/a%2"), None);
        assert_eq!(percent_decode("/a%zz"), None);
        assert_eq!(percent_decode("%FF"), None);
    }

    #[test]
    fn a_place_has_one_uri_and_reads_back() {
        let base = "https://probe.invalid/esc.json";
        for (name, want) in [
            ("x/y", "#/$defs/x~1y"),
            ("t~z", "#/$defs/t~0z"),
            ("50%", "#/$defs/50%25"),
            ("a b", "#/$defs/a%20b"),
            ("état", "#/$defs/%C3%A9tat"),
            ("q?#[]", "#/$defs/q?%23%5B%5D"),
            ("plain", "#/$defs/plain"),
        ] {
            let uri = definition(base, name);
            assert_eq!(uri, format!("{base}{want}"));
            let (b, pointer) = split_fragment(&uri);
            assert_eq!(b, base);
            let pointer = pointer.expect("a fragment written here decodes");
            let tokens: Vec<_> = crate::pointer::tokens(&pointer).collect();
            assert_eq!(tokens, ["$defs", name]);
            assert_eq!(child(&at(base, "/$defs"), name), uri);
        }
        assert_eq!(at(base, ""), format!("{base}#"));
        assert_eq!(crate::pointer::shown(""), "/");
        assert_eq!(crate::pointer::shown("/a~1b"), "/a~1b");
    }
}
