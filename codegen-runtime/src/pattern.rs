//! The `pattern` keyword: a scanner for the regex subset most schemas use (literals, classes,
//! anchors, counted repeats), and [`regress`] for the rest.

use std::sync::OnceLock;

/// An ECMA-262 regular expression, compiled on first use. The generator has already compiled every
/// pattern once, so compiling here cannot fail.
pub struct Pattern {
    /// The expression as the schema writes it.
    pub source: &'static str,
    compiled: OnceLock<Matcher>,
}

enum Matcher {
    Scan(Scan),
    Regex(regress::Regex),
}

impl Pattern {
    /// A pattern compiled on its first match.
    pub const fn new(source: &'static str) -> Self {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }

    fn matcher(&self) -> &Matcher {
        self.compiled
            .get_or_init(|| match Scan::compile(self.source) {
                Some(scan) => Matcher::Scan(scan),
                None => Matcher::Regex(
                    regress::Regex::with_flags(self.source, "u")
                        .expect("pattern compiled at generation time"),
                ),
            })
    }

    /// Whether `s` matches (anywhere, as ECMA-262 `test` does, unless anchored).
    pub fn is_match(&self, s: &str) -> bool {
        match self.matcher() {
            Matcher::Scan(scan) => scan.is_match(s),
            Matcher::Regex(re) => re.find(s).is_some(),
        }
    }

    /// Whether this pattern runs as a single left-to-right scan instead of through `regress`.
    pub fn is_scan(&self) -> bool {
        matches!(self.matcher(), Matcher::Scan(_))
    }
}

/// A pattern that a single greedy scan decides exactly: `^`, then ASCII literals and ASCII classes
/// with quantifiers (and optional groups of fixed-count ones), then optionally `$`. It is used only when greed cannot go wrong: a repeated
/// step's characters never start what follows it, so giving characters back could never help. Such
/// patterns (identifiers, digests, URL prefixes) are the common case and need no backtracking engine.
struct Scan {
    steps: Vec<Part>,
    to_end: bool,
}

/// A part of a scan: one step, or an optional group `(?:…)?` of steps that each match a fixed
/// number of times (taken whole or not at all).
// Built once per pattern and read on every match: a boxed step would cost an indirection per step.
#[allow(clippy::large_enum_variant)]
enum Part {
    One(Step),
    Optional(Vec<Step>),
}

/// One element of a [`Scan`]: a set of ASCII bytes, as a table over every byte value (bytes of
/// non-ASCII characters are never in it), taken between `min` and `max` times.
struct Step {
    table: [bool; 256],
    min: u32,
    max: u32,
}

impl Scan {
    /// `None` when the pattern is outside the subset (the caller then uses `regress`).
    fn compile(source: &str) -> Option<Scan> {
        let b = source.as_bytes();
        if !source.is_ascii() || b.first() != Some(&b'^') {
            return None;
        }
        let mut i = 1;
        // (set of ASCII bytes as a bit mask, min, max) per step; an optional group as a step whose
        // set is its first step's, min 0, with its steps beside.
        #[allow(clippy::type_complexity)] // a parse's scratch list, read once below
        let mut steps: Vec<(u128, u32, u32, Option<Vec<(u128, u32, u32)>>)> = Vec::new();
        let mut to_end = false;
        while i < b.len() {
            if b[i] == b'(' {
                if b.get(i + 1..i + 3) != Some(&b"?:"[..]) {
                    return None;
                }
                let close = i + b[i..].iter().position(|&c| c == b')')?;
                let inner =
                    Self::compile(&format!("^{}", std::str::from_utf8(&b[i + 3..close]).ok()?))?;
                if inner.to_end || b.get(close + 1) != Some(&b'?') {
                    return None;
                }
                if matches!(b.get(close + 2), Some(b'?' | b'*' | b'+' | b'{')) {
                    return None;
                }
                let mut group = Vec::new();
                for part in inner.steps {
                    match part {
                        Part::One(st) if st.min == st.max && st.min > 0 => {
                            let set = (0..128u8).fold(0u128, |acc, c| {
                                if st.table[usize::from(c)] {
                                    acc | 1u128 << c
                                } else {
                                    acc
                                }
                            });
                            group.push((set, st.min, st.max));
                        }
                        _ => return None,
                    }
                }
                let first = group.first()?.0;
                steps.push((first, 0, 1, Some(group)));
                i = close + 2;
                continue;
            }
            let set = match b[i] {
                b'$' if i + 1 == b.len() => {
                    to_end = true;
                    break;
                }
                b'[' => {
                    let (set, next) = Self::class(b, i + 1)?;
                    i = next;
                    set
                }
                b'\\' => {
                    let set = Self::escape(*b.get(i + 1)?)?;
                    i += 2;
                    set
                }
                b'.' | b'^' | b'$' | b'|' | b'(' | b')' | b']' | b'{' | b'}' | b'*' | b'+'
                | b'?' => return None,
                c => {
                    i += 1;
                    1u128 << c
                }
            };
            let (min, max, next) = Self::quantifier(b, i)?;
            i = next;
            steps.push((set, min, max, None));
        }
        // Greed is exact when a repeated step's (or an optional group's first) set is disjoint
        // from every set that may follow it, up to and including the next step that must match.
        for (n, (set, min, max, _)) in steps.iter().enumerate() {
            if min == max {
                continue;
            }
            for (next_set, next_min, _, _) in &steps[n + 1..] {
                if next_set & set != 0 {
                    return None;
                }
                if *next_min > 0 {
                    break;
                }
            }
        }
        let step = |set: u128, min, max| Step {
            table: std::array::from_fn(|c| c < 128 && set >> c & 1 == 1),
            min,
            max,
        };
        let steps = steps
            .into_iter()
            .map(|(set, min, max, group)| match group {
                None => Part::One(step(set, min, max)),
                Some(g) => {
                    Part::Optional(g.into_iter().map(|(s, lo, hi)| step(s, lo, hi)).collect())
                }
            })
            .collect();
        Some(Scan { steps, to_end })
    }

    /// Parses a class body starting after `[`; returns its set and the index after `]`.
    fn class(b: &[u8], mut i: usize) -> Option<(u128, usize)> {
        if b.get(i) == Some(&b'^') {
            return None;
        }
        let mut set = 0u128;
        let mut first = true;
        loop {
            let c = *b.get(i)?;
            if c == b']' && !first {
                return Some((set, i + 1));
            }
            if c == b']' {
                return None;
            }
            first = false;
            let (low, next) = match c {
                b'\\' => {
                    let e = *b.get(i + 1)?;
                    let one = Self::escape(e)?;
                    if one.count_ones() != 1 {
                        // `\d` or `\w`: a set, never a range endpoint.
                        set |= one;
                        i += 2;
                        if b.get(i) == Some(&b'-') && b.get(i + 1) != Some(&b']') {
                            return None;
                        }
                        continue;
                    }
                    (e, i + 2)
                }
                c => (c, i + 1),
            };
            i = next;
            if b.get(i) == Some(&b'-') && b.get(i + 1).is_some_and(|&c| c != b']') {
                let high = match b[i + 1] {
                    b'\\' => {
                        let e = *b.get(i + 2)?;
                        if Self::escape(e)?.count_ones() != 1 {
                            return None;
                        }
                        i += 3;
                        e
                    }
                    c => {
                        i += 2;
                        c
                    }
                };
                if high < low {
                    return None;
                }
                for c in low..=high {
                    set |= 1u128 << c;
                }
            } else {
                set |= 1u128 << low;
            }
        }
    }

    /// The set of an escape: `\d`, `\w`, or an escaped syntax character standing for itself.
    fn escape(e: u8) -> Option<u128> {
        let range = |lo: u8, hi: u8| (lo..=hi).fold(0u128, |s, c| s | 1u128 << c);
        match e {
            b'd' => Some(range(b'0', b'9')),
            b'w' => Some(range(b'0', b'9') | range(b'a', b'z') | range(b'A', b'Z') | 1u128 << b'_'),
            b'^' | b'$' | b'\\' | b'.' | b'*' | b'+' | b'?' | b'(' | b')' | b'[' | b']' | b'{'
            | b'}' | b'|' | b'/' | b'-' => Some(1u128 << e),
            _ => None,
        }
    }

    /// Parses an optional greedy quantifier at `i`: `(min, max, next index)`.
    fn quantifier(b: &[u8], i: usize) -> Option<(u32, u32, usize)> {
        let (min, max, next) = match b.get(i) {
            Some(b'*') => (0, u32::MAX, i + 1),
            Some(b'+') => (1, u32::MAX, i + 1),
            Some(b'?') => (0, 1, i + 1),
            Some(b'{') => {
                let close = i + b[i..].iter().position(|&c| c == b'}')?;
                let body = std::str::from_utf8(&b[i + 1..close]).ok()?;
                let num = |t: &str| -> Option<u32> {
                    (!t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()))
                        .then(|| t.parse().ok())
                        .flatten()
                };
                let (min, max) = match body.split_once(',') {
                    None => {
                        let n = num(body)?;
                        (n, n)
                    }
                    Some((lo, "")) => (num(lo)?, u32::MAX),
                    Some((lo, hi)) => (num(lo)?, num(hi)?),
                };
                if max < min || max == u32::MAX && !body.ends_with(',') {
                    return None;
                }
                (min, max, close + 1)
            }
            _ => return Some((1, 1, i)),
        };
        // A lazy quantifier (`*?`) or a second quantifier is left to regress.
        match b.get(next) {
            Some(b'?' | b'*' | b'+' | b'{') => None,
            _ => Some((min, max, next)),
        }
    }

    fn is_match(&self, s: &str) -> bool {
        let b = s.as_bytes();
        let mut at = 0;
        // Greedy: as many as `max`; false when fewer than `min`. A fixed count is checked over
        // exactly that many bytes.
        #[inline(always)]
        fn take(step: &Step, b: &[u8], at: &mut usize) -> bool {
            if step.min == step.max {
                let end = *at + step.min as usize;
                let Some(run) = b.get(*at..end) else {
                    return false;
                };
                if !run.iter().all(|&c| step.table[usize::from(c)]) {
                    return false;
                }
                *at = end;
                return true;
            }
            let mut n = 0;
            while n < step.max && *at < b.len() && step.table[usize::from(b[*at])] {
                *at += 1;
                n += 1;
            }
            n >= step.min
        }
        for part in &self.steps {
            match part {
                Part::One(step) => {
                    if !take(step, b, &mut at) {
                        return false;
                    }
                }
                Part::Optional(group) => {
                    let start = at;
                    if !group.iter().all(|step| take(step, b, &mut at)) {
                        at = start;
                    }
                }
            }
        }
        !self.to_end || at == b.len()
    }
}

#[cfg(test)]
mod tests {
    //! The scanner against `regress`, the engine it stands in for: patterns drawn from the subset
    //! the scanner takes (and a little beyond, which must fall back), on strings over an alphabet
    //! that meets their classes' edges.
    use super::*;
    use proptest::prelude::*;

    fn atom() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-c0-9_./:-]".prop_map(|c| regex_escape(&c)),
            Just("\\d".to_owned()),
            Just("\\w".to_owned()),
            Just(".".to_owned()),
            Just("[a-c]".to_owned()),
            Just("[^a]".to_owned()),
            Just("[\\-.]".to_owned()),
            Just("[0-9a-f]".to_owned()),
        ]
    }

    fn quantifier() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => Just(String::new()),
            1 => Just("?".to_owned()),
            1 => Just("*".to_owned()),
            1 => Just("+".to_owned()),
            1 => (0u8..3).prop_map(|n| format!("{{{n}}}")),
            1 => (0u8..2, 1u8..3).prop_map(|(a, b)| format!("{{{a},{}}}", a + b)),
        ]
    }

    fn step() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => (atom(), quantifier()).prop_map(|(a, q)| a + &q),
            1 => prop::collection::vec(atom(), 1..3).prop_map(|g| format!("(?:{})?", g.concat())),
        ]
    }

    fn pattern() -> impl Strategy<Value = String> {
        (
            any::<bool>(),
            prop::collection::vec(step(), 0..5),
            any::<bool>(),
        )
            .prop_map(|(start, steps, end)| {
                format!(
                    "{}{}{}",
                    if start { "^" } else { "" },
                    steps.concat(),
                    if end { "$" } else { "" }
                )
            })
    }

    fn regex_escape(c: &str) -> String {
        match c {
            "." | "/" => format!("\\{c}"),
            _ => c.to_owned(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn the_scanner_matches_as_regress_does(
            source in pattern(),
            subjects in prop::collection::vec("[a-d0-9_./:\\-\n\u{e9}\u{1F600}]{0,8}", 1..8),
        ) {
            let re = regress::Regex::with_flags(&source, "u").unwrap();
            let pattern = Pattern::new(Box::leak(source.clone().into_boxed_str()));
            for s in &subjects {
                prop_assert_eq!(pattern.is_match(s), re.find(s).is_some(), "{:?} on {:?} (scan: {})", source, s, pattern.is_scan());
            }
        }
    }

    #[test]
    fn the_common_patterns_scan_and_the_rest_fall_back() {
        for source in ["^[a-z][a-z0-9_]*$", "^sha256:[a-f0-9]{64}$", "^https?://"] {
            assert!(Pattern::new(source).is_scan(), "{source}");
        }
        for (source, abab) in [("^(ab)+$", true), ("^a|b$", true), ("^[a-c]*c$", false)] {
            let p = Pattern::new(source);
            assert!(!p.is_scan(), "{source}");
            assert_eq!(p.is_match("abab"), abab, "{source}");
        }
    }
}
