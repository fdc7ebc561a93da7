//! The redaction patterns of PROTOCOL §4.11, matched as the reference matches them: ECMAScript
//! regular expressions without the `u` flag, with `/i` folding only what ECMAScript's non-Unicode
//! `Canonicalize` folds.
//!
//! For these patterns that means: letters match their other ASCII case and nothing else (`ſ` is
//! not `s`, the Kelvin sign is not `k`: ECMAScript refuses to fold a non-ASCII character onto an
//! ASCII one); `\b` and `\w` are ASCII; `\s` is ECMAScript's white space and line terminators,
//! Unicode spaces included; `.` is one UTF-16 code unit other than a line terminator, so it cannot
//! stand for a character outside the BMP. The patterns are small and fixed, so they are written
//! out as matchers rather than handed to a regex engine with other defaults.
//!
//! Matching runs over UTF-8 bytes and characters, which is equivalent here: every literal and
//! class is ASCII, a non-ASCII character is never a word character (its bytes are not either),
//! and the only non-ASCII classes (`\s`, `[^&#\s]`, `.`) are decided per character.

/// `\w` without the `u` flag.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `\s`: ECMAScript's WhiteSpace and LineTerminator.
fn is_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{d}'
            | ' '
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
            | '\u{feff}'
    )
}

/// The end of the ASCII word `word` matched at `at` under `/i`, where `?` stands for `.?`: one
/// UTF-16 unit other than a line terminator, or nothing (tried in that order, as a greedy `?`).
fn word_at(s: &[u8], text: &str, at: usize, word: &[u8]) -> Option<usize> {
    let Some((&first, rest)) = word.split_first() else {
        return Some(at);
    };
    if first == b'?' {
        let one = text[at..]
            .chars()
            .next()
            .filter(|&c| c.len_utf16() == 1 && !matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}'));
        if let Some(c) = one
            && let Some(end) = word_at(s, text, at + c.len_utf8(), rest)
        {
            return Some(end);
        }
        return word_at(s, text, at, rest);
    }
    match s.get(at) {
        Some(b) if b.eq_ignore_ascii_case(&first) => word_at(s, text, at + 1, rest),
        _ => None,
    }
}

/// `(authorization|cookie|credential|password|passwd|private.?key|secret|token|api.?key|connection.?string)`
/// anywhere in the key, case-insensitively.
pub fn is_sensitive_key(key: &str) -> bool {
    const WORDS: &[&[u8]] = &[
        b"authorization",
        b"cookie",
        b"credential",
        b"password",
        b"passwd",
        b"private?key",
        b"secret",
        b"token",
        b"api?key",
        b"connection?string",
    ];
    let s = key.as_bytes();
    (0..s.len()).any(|at| {
        key.is_char_boundary(at)
            && s[at].is_ascii_alphabetic()
            && WORDS.iter().any(|w| word_at(s, key, at, w).is_some())
    })
}

/// Whether `\b` holds before `at` for a pattern whose next character is a word character.
fn boundary_before(s: &[u8], at: usize) -> bool {
    at == 0 || !is_word(s[at - 1])
}

/// The end of a run of at least `min` ASCII bytes of `class` starting at `at`.
fn run(s: &[u8], at: usize, min: usize, class: impl Fn(u8) -> bool) -> Option<usize> {
    let end = at + s[at..].iter().take_while(|&&b| class(b)).count();
    (end - at >= min).then_some(end)
}

/// The end of a run of at least one character of `class` starting at `at`.
fn char_run(text: &str, at: usize, class: impl Fn(char) -> bool) -> Option<usize> {
    let len: usize = text[at..]
        .chars()
        .take_while(|&c| class(c))
        .map(char::len_utf8)
        .sum();
    (len > 0).then_some(at + len)
}

fn token_char(b: u8) -> bool {
    is_word(b) || b == b'-'
}

fn bearer_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"._~+/=-".contains(&b)
}

/// `\bBearer\s+[A-Za-z0-9._~+/=-]{8,}`
fn bearer(s: &[u8], text: &str, at: usize) -> Option<usize> {
    if !matches!(s[at], b'b' | b'B') || !boundary_before(s, at) {
        return None;
    }
    let after = word_at(s, text, at, b"bearer")?;
    let spaces = char_run(text, after, is_space)?;
    run(s, spaces, 8, bearer_char)
}

/// `\b(sk|pk|pcgw|ghp|github_pat)_[A-Za-z0-9_-]{8,}`
fn prefixed_token(s: &[u8], text: &str, at: usize) -> Option<usize> {
    if !matches!(s[at], b's' | b'S' | b'p' | b'P' | b'g' | b'G') || !boundary_before(s, at) {
        return None;
    }
    [&b"sk_"[..], b"pk_", b"pcgw_", b"ghp_", b"github_pat_"]
        .iter()
        .find_map(|p| word_at(s, text, at, p))
        .and_then(|after| run(s, after, 8, token_char))
}

/// `\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`
fn jwt(s: &[u8], text: &str, at: usize) -> Option<usize> {
    if !matches!(s[at], b'e' | b'E') || !boundary_before(s, at) {
        return None;
    }
    let mut end = run(s, word_at(s, text, at, b"eyj")?, 8, token_char)?;
    for _ in 0..2 {
        if s.get(end) != Some(&b'.') {
            return None;
        }
        end = run(s, end + 1, 8, token_char)?;
    }
    Some(end)
}

/// `[?&](code|key|secret|state|token|api[_-]?key|access[_-]?token)=[^&#\s]+`: where the value
/// starts (after `=`) and where it ends.
fn query_secret(s: &[u8], text: &str, at: usize) -> Option<(usize, usize)> {
    if !matches!(s[at], b'?' | b'&') {
        return None;
    }
    // The end of `name=` at `from`, if it is there.
    let named = |from: usize, name: &[u8]| {
        word_at(s, text, from, name).filter(|&e| s.get(e) == Some(&b'='))
    };
    let plain = [&b"code"[..], b"key", b"secret", b"state", b"token"]
        .iter()
        .find_map(|w| named(at + 1, w));
    // `[_-]?` is greedy: the separator is taken when there is one, and given back if that fails.
    let joined = || {
        [(&b"api"[..], &b"key"[..]), (b"access", b"token")]
            .iter()
            .find_map(|(a, b)| {
                let mid = word_at(s, text, at + 1, a)?;
                let separated = s
                    .get(mid)
                    .filter(|&&u| u == b'_' || u == b'-')
                    .and_then(|_| named(mid + 1, b));
                separated.or_else(|| named(mid, b))
            })
    };
    let value = plain.or_else(joined)? + 1;
    let end = char_run(text, value, |c| c != '&' && c != '#' && !is_space(c))?;
    Some((value, end))
}

/// Replaces every match, left to right, as `String.prototype.replace` with a global pattern does;
/// `matcher` gives the replaced byte range of a match starting at a position.
fn replace_all(
    text: &str,
    matcher: impl Fn(&[u8], &str, usize) -> Option<(usize, usize)>,
) -> Option<String> {
    let s = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut at = 0;
    while at < s.len() {
        // Every pattern starts with an ASCII character.
        if s[at].is_ascii()
            && let Some((from, to)) = matcher(s, text, at)
        {
            let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
            o.push_str(&text[copied..from]);
            o.push_str(super::REDACTED);
            copied = to;
            at = to;
        } else {
            at += 1;
        }
    }
    out.map(|mut o| {
        o.push_str(&text[copied..]);
        o
    })
}

/// A matcher: the replaced byte range of a match starting at a position.
type Matcher = dyn Fn(&[u8], &str, usize) -> Option<(usize, usize)>;

/// Whether a text holds what a pattern cannot match without.
type Prefilter = dyn Fn(&[u8]) -> bool;

/// Whether `s` contains `word` under ASCII case folding.
fn contains_ci(s: &[u8], word: &[u8]) -> bool {
    s.windows(word.len()).any(|w| w.eq_ignore_ascii_case(word))
}

/// The string with every secret value and every secret query value replaced by `[REDACTED]`, or
/// `None` when nothing matched. Each pattern runs only on text that holds what it cannot match
/// without (its keyword, `_`, `=`), which most text does not.
pub fn redact_secrets(s: &str) -> Option<String> {
    let mut current: Option<String> = None;
    let passes: [(&Prefilter, &Matcher); 4] = [
        (&|b| contains_ci(b, b"bearer"), &|s, t, at| {
            bearer(s, t, at).map(|e| (at, e))
        }),
        (&|b| b.contains(&b'_'), &|s, t, at| {
            prefixed_token(s, t, at).map(|e| (at, e))
        }),
        (&|b| contains_ci(b, b"eyj"), &|s, t, at| {
            jwt(s, t, at).map(|e| (at, e))
        }),
        (&|b| b.contains(&b'='), &query_secret),
    ];
    for (may_match, pass) in passes {
        let text = current.as_deref().unwrap_or(s);
        if may_match(text.as_bytes())
            && let Some(next) = replace_all(text, pass)
        {
            current = Some(next);
        }
    }
    current
}

/// Whether the string looks like it holds a secret (any pattern matches).
pub fn looks_secret(s: &str) -> bool {
    redact_secrets(s).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitive_keys_match_anywhere_case_insensitively() {
        for k in [
            "Authorization",
            "x-api-key",
            "apiKey",
            "API_KEY",
            "db_password",
            "PASSWD",
            "private_key",
            "privateKey",
            "connection-string",
            "refresh_token",
            "cookieJar",
            "clientSecret",
            "credentials",
        ] {
            assert!(is_sensitive_key(k), "{k}");
        }
        for k in ["", "name", "tok", "pass", "api", "keys", "connection"] {
            assert!(!is_sensitive_key(k), "{k}");
        }
    }

    #[test]
    fn javascript_semantics_where_rust_regex_would_differ() {
        // `/i` without `u` does not fold `ſ` onto `s` or the Kelvin sign onto `k`.
        assert!(!is_sensitive_key("\u{17f}ecret"));
        assert!(!is_sensitive_key("api_\u{212a}ey"));
        assert!(!looks_secret("\u{17f}k_abcdefgh123"));
        // `.` is one UTF-16 unit: a character outside the BMP cannot stand for it.
        assert!(!is_sensitive_key("private\u{1f511}key"));
        assert!(is_sensitive_key("private\u{e9}key"));
        // `.` stops at line terminators.
        assert!(!is_sensitive_key("private\nkey"));
        assert!(!is_sensitive_key("api\u{2028}key"));
        // `\b` and `\w` are ASCII: `é` is not a word character, so it is a boundary.
        assert!(looks_secret("\u{e9}sk_abcdefgh"));
        assert!(!looks_secret("xsk_abcdefgh"));
        // `\s` includes Unicode spaces.
        assert!(looks_secret("Bearer\u{3000}abcdefgh"));
        assert!(looks_secret("bearer\u{a0}abcdefgh"));
        assert!(
            !looks_secret("Bearer\u{200b}abcdefgh"),
            "U+200B is not white space"
        );
    }

    #[test]
    fn secret_values_are_replaced_in_place() {
        let cases = [
            (
                "Authorization: Bearer abc.def-123_xyz",
                "Authorization: [REDACTED]",
            ),
            ("use sk_live12345678 now", "use [REDACTED] now"),
            ("GITHUB_PAT_abcdefgh_ij rest", "[REDACTED] rest"),
            (
                "jwt eyJhbGciOiJI.eyJzdWIiOi.c2lnbmF0dXJl end",
                "jwt [REDACTED] end",
            ),
            (
                "https://x.test/cb?code=abc&state=xyz#frag",
                "https://x.test/cb?code=[REDACTED]&state=[REDACTED]#frag",
            ),
            (
                "?API-KEY=1&access_token=2",
                "?API-KEY=[REDACTED]&access_token=[REDACTED]",
            ),
            ("?apikey=1 and ?keys=2", "?apikey=[REDACTED] and ?keys=2"),
            // Seven characters after `eyJ` are one too few.
            (
                "eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl",
                "eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl",
            ),
            ("sk_short", "sk_short"),
            ("Bearer short", "Bearer short"),
        ];
        for (input, want) in cases {
            let got = redact_secrets(input).unwrap_or_else(|| input.to_owned());
            assert_eq!(got, want, "{input}");
        }
    }
}
