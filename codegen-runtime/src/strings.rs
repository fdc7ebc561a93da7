//! Strings: [`Str`], a string's rules ([`StrRule`]: lengths, `pattern`, `format`, `enum`), and the
//! seed that decodes and checks one.

use crate::__private::*;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// String constraints: lengths in code points, an ECMA-262 pattern, an asserted format.
pub struct StrRule {
    /// `minLength`, in code points.
    pub min: Option<u64>,
    /// `maxLength`, in code points.
    pub max: Option<u64>,
    /// `pattern`.
    pub pattern: Option<&'static Pattern>,
    /// An asserted `format`.
    pub format: Option<&'static FormatCheck>,
}

/// An asserted `format`: its name, for messages, and how it is checked.
pub struct FormatCheck {
    /// The format's name.
    pub name: &'static str,
    /// How it is checked.
    pub kind: FormatKind,
}

/// How a format is checked: RFC 3339 `date-time`, or a pattern the caller chose.
pub enum FormatKind {
    /// RFC 3339 `date-time`.
    DateTime,
    /// A caller's ECMA-262 expression.
    Pattern(Pattern),
}

impl FormatCheck {
    /// Whether `s` is in the format.
    pub fn accepts(&self, s: &str) -> bool {
        match &self.kind {
            FormatKind::DateTime => is_rfc3339_date_time(s),
            FormatKind::Pattern(p) => p.is_match(s),
        }
    }
}

/// RFC 3339 `date-time` (section 5.6): `YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)`, `T` and `Z`
/// in either case, real calendar days, and a leap second only where it is 23:59:60 in UTC.
pub fn is_rfc3339_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let d = b.get(r)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| d.iter().fold(0, |n, c| n * 10 + u32::from(c - b'0')))
    };
    let at = |i: usize, c: u8| b.get(i).is_some_and(|x| x.eq_ignore_ascii_case(&c));
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = (
        num(0..4),
        num(5..7),
        num(8..10),
        num(11..13),
        num(14..16),
        num(17..19),
    ) else {
        return false;
    };
    if !(at(4, b'-') && at(7, b'-') && at(10, b'T') && at(13, b':') && at(16, b':')) {
        return false;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days || hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 19;
    if at(i, b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    let offset_minutes: i64 = if at(i, b'Z') && b.len() == i + 1 {
        0
    } else if (at(i, b'+') || at(i, b'-')) && b.len() == i + 6 && at(i + 3, b':') {
        let (Some(oh), Some(om)) = (num(i + 1..i + 3), num(i + 4..i + 6)) else {
            return false;
        };
        if oh > 23 || om > 59 {
            return false;
        }
        let sign = if at(i, b'-') { -1 } else { 1 };
        sign * i64::from(oh * 60 + om)
    } else {
        return false;
    };
    if second == 60 {
        let utc = (i64::from(hour * 60 + minute) - offset_minutes).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// The first way `s` breaks `rule`, if any.
pub fn str_failure(rule: &StrRule, s: &str) -> Result<(), Failure> {
    // A string has at most as many code points as bytes, and at least a quarter as many: count only
    // when the byte length cannot decide.
    let bytes = s.len() as u64;
    let undecided = rule.max.is_some_and(|m| bytes > m)
        || rule.min.is_some_and(|m| bytes < m.saturating_mul(4));
    if undecided {
        let n = s.chars().count() as u64;
        if let Some(min) = rule.min.filter(|&m| n < m) {
            return Err(Failure::new(
                Keyword::MinLength,
                "",
                format!("string has {n} characters; at least {min} required"),
            ));
        }
        if let Some(max) = rule.max.filter(|&m| n > m) {
            return Err(Failure::new(
                Keyword::MaxLength,
                "",
                format!("string has {n} characters; at most {max} allowed"),
            ));
        }
    }
    if let Some(p) = rule.pattern
        && !p.is_match(s)
    {
        return Err(Failure::new(
            Keyword::Pattern,
            "",
            format!("string does not match the pattern {}", p.source),
        ));
    }
    if let Some(f) = rule.format
        && !f.accepts(s)
    {
        return Err(Failure::new(
            Keyword::Format,
            "",
            match &f.kind {
                FormatKind::DateTime => format!("string is not an RFC 3339 {}", f.name),
                FormatKind::Pattern(p) => {
                    format!("string is not a {}: it does not match {}", f.name, p.source)
                }
            },
        ));
    }
    Ok(())
}

/// Checks `s` against `rule` while a decoder stands on it.
pub fn check_str<E: de::Error>(rule: &StrRule, s: &str) -> Result<(), E> {
    str_failure(rule, s).map_err(Failure::into_error)
}

/// The string type of generated fields: short strings (ids, timestamps, names: up to 24 bytes) are
/// stored inline, so decoding them allocates nothing.
pub type Str = compact_str::CompactString;

/// Decodes a string and checks its [`StrRule`].
#[derive(Clone, Copy)]
pub struct StrSeed(pub &'static StrRule);

impl<'de> DeserializeSeed<'de> for StrSeed {
    type Value = Str;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Str, D::Error> {
        struct V(&'static StrRule);
        const EXPECT: &str = "a string";
        impl<'de> Visitor<'de> for V {
            type Value = Str;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECT)
            }
            reject!(bool);
            reject!(int);
            reject!(null);
            reject!(seq);
            reject!(map);
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Str, E> {
                check_str(self.0, v)?;
                Ok(Str::from(v))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Str, E> {
                check_str(self.0, &v)?;
                Ok(Str::from(v))
            }
        }
        d.deserialize_string(V(self.0))
    }
}
