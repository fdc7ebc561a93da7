//! The redaction patterns of PROTOCOL §4.11, matched as the reference matches them: ECMAScript
//! regular expressions without the `u` flag, so over UTF-16 code units, with `/i` folding only
//! what ECMAScript's non-Unicode `Canonicalize` folds.
//!
//! For these patterns that means: letters match their other ASCII case and nothing else (`ſ` is
//! not `s`, the Kelvin sign is not `k`: ECMAScript refuses to fold a non-ASCII character onto an
//! ASCII one); `\b` and `\w` are ASCII; `\s` is ECMAScript's white space and line terminators,
//! Unicode spaces included; `.` is one code unit other than a line terminator, so it cannot stand
//! for a character outside the BMP. The patterns are small and fixed, so they are written out as
//! matchers rather than handed to a regex engine with other defaults.

/// `\w` without the `u` flag.
fn is_word(u: u16) -> bool {
    matches!(u, 0x30..=0x39 | 0x41..=0x5a | 0x61..=0x7a | 0x5f)
}

/// `\s`: ECMAScript's WhiteSpace and LineTerminator.
fn is_space(u: u16) -> bool {
    matches!(
        u,
        0x09..=0x0d
            | 0x20
            | 0xa0
            | 0x1680
            | 0x2000..=0x200a
            | 0x2028
            | 0x2029
            | 0x202f
            | 0x205f
            | 0x3000
            | 0xfeff
    )
}

/// `.` without the `s` flag: any code unit but a line terminator.
fn is_dot(u: u16) -> bool {
    !matches!(u, 0x0a | 0x0d | 0x2028 | 0x2029)
}

/// The unit matches ASCII letter or digit `c` under `/i`.
fn eq_ci(u: u16, c: u8) -> bool {
    u < 0x80 && (u as u8).eq_ignore_ascii_case(&c)
}

/// A piece of a literal pattern: a character compared under `/i`, or `.?`.
#[derive(Clone, Copy)]
enum Piece {
    Lit(u8),
    AnyOpt,
}

/// The end of `pieces` matched at `at`, trying `.?` as one unit first, as a greedy `?` does.
fn match_pieces(s: &[u16], at: usize, pieces: &[Piece]) -> Option<usize> {
    let Some((first, rest)) = pieces.split_first() else {
        return Some(at);
    };
    match first {
        Piece::Lit(c) => {
            let u = *s.get(at)?;
            if eq_ci(u, *c) {
                match_pieces(s, at + 1, rest)
            } else {
                None
            }
        }
        Piece::AnyOpt => {
            if let Some(&u) = s.get(at)
                && is_dot(u)
                && let Some(end) = match_pieces(s, at + 1, rest)
            {
                return Some(end);
            }
            match_pieces(s, at, rest)
        }
    }
}

fn lit(word: &str) -> Vec<Piece> {
    word.bytes()
        .map(|b| {
            if b == b'?' {
                Piece::AnyOpt
            } else {
                Piece::Lit(b)
            }
        })
        .collect()
}

/// `(authorization|cookie|credential|password|passwd|private.?key|secret|token|api.?key|connection.?string)`
/// anywhere in the key, case-insensitively.
pub fn is_sensitive_key(key: &str) -> bool {
    const WORDS: &[&str] = &[
        "authorization",
        "cookie",
        "credential",
        "password",
        "passwd",
        "private?key",
        "secret",
        "token",
        "api?key",
        "connection?string",
    ];
    // Every word has a letter only ASCII can match: a key without ASCII letters never matches.
    if !key.bytes().any(|b| b.is_ascii_alphabetic()) {
        return false;
    }
    let units: Vec<u16> = key.encode_utf16().collect();
    let words: Vec<Vec<Piece>> = WORDS.iter().map(|w| lit(w)).collect();
    (0..units.len()).any(|at| words.iter().any(|w| match_pieces(&units, at, w).is_some()))
}

/// Whether `\b` holds before position `at` for a pattern whose next unit is a word character.
fn boundary_before(s: &[u16], at: usize) -> bool {
    at == 0 || !is_word(s[at - 1])
}

/// The end of a run of at least `min` units of `class` starting at `at`.
fn run(s: &[u16], at: usize, min: usize, class: impl Fn(u16) -> bool) -> Option<usize> {
    let end = at + s[at..].iter().take_while(|&&u| class(u)).count();
    (end - at >= min).then_some(end)
}

fn token_char(u: u16) -> bool {
    is_word(u) || u == u16::from(b'-')
}

fn bearer_char(u: u16) -> bool {
    u < 0x80 && {
        let b = u as u8;
        b.is_ascii_alphanumeric() || b"._~+/=-".contains(&b)
    }
}

/// `\bBearer\s+[A-Za-z0-9._~+/=-]{8,}`
fn bearer(s: &[u16], at: usize) -> Option<usize> {
    if !boundary_before(s, at) {
        return None;
    }
    let after = match_pieces(s, at, &lit("bearer"))?;
    let spaces = run(s, after, 1, is_space)?;
    run(s, spaces, 8, bearer_char)
}

/// `\b(sk|pk|pcgw|ghp|github_pat)_[A-Za-z0-9_-]{8,}`
fn prefixed_token(s: &[u16], at: usize) -> Option<usize> {
    if !boundary_before(s, at) {
        return None;
    }
    ["sk_", "pk_", "pcgw_", "ghp_", "github_pat_"]
        .iter()
        .find_map(|p| match_pieces(s, at, &lit(p)))
        .and_then(|after| run(s, after, 8, token_char))
}

/// `\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`
fn jwt(s: &[u16], at: usize) -> Option<usize> {
    if !boundary_before(s, at) {
        return None;
    }
    let mut end = run(s, match_pieces(s, at, &lit("eyj"))?, 8, token_char)?;
    for _ in 0..2 {
        if s.get(end) != Some(&u16::from(b'.')) {
            return None;
        }
        end = run(s, end + 1, 8, token_char)?;
    }
    Some(end)
}

/// `[?&](code|key|secret|state|token|api[_-]?key|access[_-]?token)=[^&#\s]+`: where the value
/// starts (after `=`) and where it ends.
fn query_secret(s: &[u16], at: usize) -> Option<(usize, usize)> {
    if !matches!(s.get(at), Some(&u) if u == u16::from(b'?') || u == u16::from(b'&')) {
        return None;
    }
    // The end of `name=` at `from`, if it is there.
    let named = |from: usize, name: &str| {
        match_pieces(s, from, &lit(name)).filter(|&e| s.get(e) == Some(&u16::from(b'=')))
    };
    let plain = ["code", "key", "secret", "state", "token"]
        .iter()
        .find_map(|w| named(at + 1, w));
    // `[_-]?` is greedy: the separator is taken when there is one, and given back if that fails.
    let joined = || {
        [("api", "key"), ("access", "token")]
            .iter()
            .find_map(|(a, b)| {
                let mid = match_pieces(s, at + 1, &lit(a))?;
                let separated = s
                    .get(mid)
                    .filter(|&&u| u == u16::from(b'_') || u == u16::from(b'-'))
                    .and_then(|_| named(mid + 1, b));
                separated.or_else(|| named(mid, b))
            })
    };
    let value = plain.or_else(joined)? + 1;
    let end = run(s, value, 1, |u| {
        u != u16::from(b'&') && u != u16::from(b'#') && !is_space(u)
    })?;
    Some((value, end))
}

/// Replaces every match of a pattern, left to right, as `String.prototype.replace` with a global
/// pattern does; `matcher` gives the replaced range of a match starting at a position.
fn replace_all(
    s: &[u16],
    matcher: impl Fn(&[u16], usize) -> Option<(usize, usize)>,
    changed: &mut bool,
) -> Vec<u16> {
    const REDACTED: &str = "[REDACTED]";
    let mut out = Vec::with_capacity(s.len());
    let mut at = 0;
    let mut copied = 0;
    while at < s.len() {
        match matcher(s, at) {
            Some((from, to)) => {
                out.extend_from_slice(&s[copied..from]);
                out.extend(REDACTED.encode_utf16());
                *changed = true;
                copied = to;
                at = to.max(at + 1);
            }
            None => at += 1,
        }
    }
    out.extend_from_slice(&s[copied..]);
    out
}

/// Whether a string could hold a secret at all: every pattern needs one of these.
fn may_hold_secret(s: &str) -> bool {
    s.bytes().any(|b| matches!(b, b'_' | b'?' | b'&' | b'.'))
        || s.as_bytes()
            .windows(6)
            .any(|w| w.eq_ignore_ascii_case(b"bearer"))
}

/// The string with every secret value and every secret query value replaced by `[REDACTED]`, or
/// `None` when nothing matched.
pub fn redact_secrets(s: &str) -> Option<String> {
    if !may_hold_secret(s) {
        return None;
    }
    let units: Vec<u16> = s.encode_utf16().collect();
    let mut changed = false;
    let units = replace_all(&units, |s, at| bearer(s, at).map(|e| (at, e)), &mut changed);
    let units = replace_all(
        &units,
        |s, at| prefixed_token(s, at).map(|e| (at, e)),
        &mut changed,
    );
    let units = replace_all(&units, |s, at| jwt(s, at).map(|e| (at, e)), &mut changed);
    let units = replace_all(&units, query_secret, &mut changed);
    // Matches begin and end at ASCII units, so no surrogate pair was split.
    changed.then(|| String::from_utf16_lossy(&units))
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
