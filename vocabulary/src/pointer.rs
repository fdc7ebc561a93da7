//! JSON pointers (RFC 6901): a token escaped (`~` as `~0`, `/` as `~1`) and back.

use std::borrow::Cow;

/// `token` escaped for a pointer.
pub fn escape(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// An escaped token read back (`~1` as `/`, then `~0` as `~`, in that order, as RFC 6901 says).
pub fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// `pointer` with `token` (unescaped) appended.
pub fn child(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", escape(token))
}

/// Appends `token` (unescaped) to `pointer`.
pub fn push(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&escape(token));
}

/// `pointer` as a report writes it: `/` for the whole document (`""`), which reads as nothing at
/// all in a sentence. Every command and every `--json` output writes the root so.
pub fn shown(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

/// The tokens of `pointer`, unescaped; `""` (the whole document) has none.
pub fn tokens(pointer: &str) -> impl Iterator<Item = Cow<'_, str>> {
    pointer.split('/').skip(1).map(unescape)
}

/// The pointer's parent and its last token, unescaped; `None` for `""`.
pub fn split_last(pointer: &str) -> Option<(&str, Cow<'_, str>)> {
    let (parent, last) = pointer.rsplit_once('/')?;
    Some((parent, unescape(last)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_escape_and_come_back() {
        for t in ["a", "a/b", "m~n", "~1", "", "~/~0/"] {
            assert_eq!(unescape(&escape(t)), t);
        }
        assert_eq!(escape("a/b~c"), "a~1b~0c");
        // `~01` is `~1` unescaped, not `/`.
        assert_eq!(unescape("~01"), "~1");
        let p = child(&child("", "properties"), "a/b");
        assert_eq!(p, "/properties/a~1b");
        assert_eq!(tokens(&p).collect::<Vec<_>>(), ["properties", "a/b"]);
        assert_eq!(split_last(&p), Some(("/properties", Cow::Borrowed("a/b"))));
        assert_eq!(tokens("").count(), 0);
        let mut q = String::new();
        push(&mut q, "~");
        assert_eq!(q, "/~0");
    }
}
