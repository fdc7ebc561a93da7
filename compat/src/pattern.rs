//! A string a regular expression matches, for the common shapes of schema patterns: literals,
//! escapes (`\d`, `\w`, `\s`, `\.`), character classes with ranges or negated, groups,
//! alternation (the first branch), anchors, and quantifiers (their least count, one for `+`).
//! The caller checks the result against the real regex: an unusual pattern yields `None` or a
//! string that does not match, and the caller falls back.

/// A string `pattern` may match, built from its first branches and least counts (`.` as `a`).
pub fn example(pattern: &str) -> Option<String> {
    example_with_any(pattern, 'a')
}

/// The same, with `.` as `any`: a second string for the same pattern, which another pattern
/// that wants (or refuses) an `a` may tell apart from the first.
pub fn example_with_any(pattern: &str, any: char) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut p = Parser { chars, at: 0, any };
    let s = p.alternation()?;
    (p.at == p.chars.len()).then_some(s)
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    /// What `.` stands for.
    any: char,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    /// Branches separated by `|`: the first one's string.
    fn alternation(&mut self) -> Option<String> {
        let first = self.sequence()?;
        while self.peek() == Some('|') {
            self.at += 1;
            self.sequence()?;
        }
        Some(first)
    }

    /// Atoms, each with its quantifier, up to `|`, `)` or the end.
    fn sequence(&mut self) -> Option<String> {
        let mut out = String::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let count = self.quantifier()?;
            for _ in 0..count {
                out.push_str(&atom);
            }
        }
        Some(out)
    }

    /// One atom's string (empty for an anchor).
    fn atom(&mut self) -> Option<String> {
        match self.next()? {
            '^' | '$' => Some(String::new()),
            '.' => Some(self.any.into()),
            '(' => {
                if self.peek() == Some('?') {
                    // `(?:`: a group that does not capture; lookarounds are not handled.
                    self.at += 1;
                    if self.next()? != ':' {
                        return None;
                    }
                }
                let inner = self.alternation()?;
                (self.next()? == ')').then_some(inner)
            }
            '[' => self.class().map(String::from),
            '\\' => match self.next()? {
                'p' => self.property().map(String::from),
                'u' => self.hex(4).map(String::from),
                'x' => self.hex(2).map(String::from),
                c => escape(c).map(String::from),
            },
            c => Some(c.to_string()),
        }
    }

    /// A character of the Unicode property after `\p`: `{L}`, `{Letter}`, `{Lu}`, `{N}`, ...
    /// (the common ones; another gives `None`).
    fn property(&mut self) -> Option<char> {
        if self.next()? != '{' {
            return None;
        }
        let mut name = String::new();
        loop {
            match self.next()? {
                '}' => break,
                c => name.push(c),
            }
        }
        match name.as_str() {
            "L" | "Letter" | "Ll" | "Lowercase_Letter" | "Alphabetic" | "Alpha" => Some('a'),
            "Lu" | "Uppercase_Letter" => Some('A'),
            "N" | "Number" | "Nd" | "Decimal_Number" | "digit" => Some('0'),
            _ => None,
        }
    }

    /// The character of the next `n` hex digits (`\u00e9`, `\x41`).
    fn hex(&mut self, n: usize) -> Option<char> {
        let digits: String = (0..n).map(|_| self.next()).collect::<Option<_>>()?;
        char::from_u32(u32::from_str_radix(&digits, 16).ok()?)
    }

    /// A character class after its `[`: its first character, or for a negated class one of a few
    /// usual characters it does not exclude.
    fn class(&mut self) -> Option<char> {
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut members: Vec<(char, char)> = Vec::new();
        let mut first = true;
        loop {
            let c = self.next()?;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = if c == '\\' { escape(self.next()?)? } else { c };
            let hi = if self.peek() == Some('-') && self.chars.get(self.at + 1) != Some(&']') {
                self.at += 1;
                match self.next()? {
                    '\\' => escape(self.next()?)?,
                    h => h,
                }
            } else {
                lo
            };
            members.push((lo, hi));
        }
        if !negated {
            return members.first().map(|m| m.0);
        }
        "a0A-_.x"
            .chars()
            .find(|c| !members.iter().any(|(lo, hi)| lo <= c && c <= hi))
    }

    /// How many times the atom before repeats: the least count its quantifier allows (one for
    /// `+`), after which a lazy `?` is skipped.
    fn quantifier(&mut self) -> Option<usize> {
        let count = match self.peek() {
            Some('*' | '?') => {
                self.at += 1;
                0
            }
            Some('+') => {
                self.at += 1;
                1
            }
            Some('{') => {
                self.at += 1;
                let mut digits = String::new();
                while let Some(c) = self.next() {
                    if c == '}' {
                        break;
                    }
                    digits.push(c);
                }
                digits.split(',').next()?.trim().parse().ok()?
            }
            _ => return Some(1),
        };
        if self.peek() == Some('?') {
            self.at += 1;
        }
        Some(count)
    }
}

/// The character an escape stands for, or one it matches.
fn escape(c: char) -> Option<char> {
    match c {
        'd' => Some('0'),
        'w' => Some('a'),
        's' => Some(' '),
        'D' | 'W' | 'S' => Some('-'),
        'n' => Some('\n'),
        't' => Some('\t'),
        'b' | 'B' | 'p' | 'P' | 'u' | 'x' => None,
        c => Some(c),
    }
}

#[cfg(test)]
mod tests {
    use super::example;

    #[test]
    fn usual_schema_patterns_give_a_string_they_match() {
        for pattern in [
            "^sha256:[a-f0-9]{64}$",
            "^[A-Za-z0-9][A-Za-z0-9._:-]*$",
            "^(?:run|turn)\\.[a-z]+$",
            "^[^/]+/[^/]+$",
            "^v[0-9]+(\\.[0-9]+){2}$",
            "^x-[a-z]{2,8}$",
        ] {
            let s = example(pattern).unwrap_or_else(|| panic!("{pattern}"));
            let re = regress::Regex::with_flags(pattern, "u").unwrap();
            assert!(re.find(&s).is_some(), "{pattern}: {s:?}");
        }
        assert_eq!(
            example("^sha256:[a-f0-9]{2}$").as_deref(),
            Some("sha256:aa")
        );
        assert_eq!(example("\\u00e9|x").as_deref(), Some("é"));
        assert_eq!(example("^\\p{Letter}+$").as_deref(), Some("a"));
        // Lookarounds are beyond it: no string rather than a wrong one.
        assert_eq!(example("^(?!x)a$"), None);
    }
}
