//! The few JavaScript string semantics the reference's output depends on: UTF-16 ordering,
//! `String.prototype.trim`, and `charAt(0).toUpperCase()`. Rust's own `Ord`, `trim` and
//! `to_uppercase` differ from them at the edges, and the goldens are JavaScript output.

use std::cmp::Ordering;

/// A string ordered by its UTF-16 code units, as JavaScript's default `sort()` orders strings.
///
/// `str`'s `Ord` compares UTF-8 bytes, which disagrees with UTF-16 for strings mixing
/// U+E000..U+FFFF with characters above U+FFFF.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Utf16Ordered(pub(crate) String);

impl Ord for Utf16Ordered {
    fn cmp(&self, other: &Self) -> Ordering {
        crate::json::utf16_cmp(&self.0, &other.0)
    }
}

impl PartialOrd for Utf16Ordered {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Whether JavaScript's `trim()` removes `c`: WhiteSpace (tab, VT, FF, ZWNBSP and category Zs)
/// and LineTerminator (LF, CR, LS, PS). Unlike Rust's `char::is_whitespace`, this includes
/// U+FEFF and excludes U+0085 and U+001C..U+001F.
fn is_js_trimmed(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'
            | '\u{000A}'
            | '\u{000B}'
            | '\u{000C}'
            | '\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// JavaScript's `s.trim()`.
pub(crate) fn trim(s: &str) -> &str {
    s.trim_matches(is_js_trimmed)
}

/// JavaScript's `s.charAt(0).toUpperCase() + s.slice(1)`.
///
/// `charAt(0)` is one UTF-16 code unit, so a first character outside the BMP is half a
/// surrogate pair, which `toUpperCase` leaves alone.
pub(crate) fn upper_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) if first.len_utf16() == 1 => {
            let mut out = String::with_capacity(s.len());
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
            out
        }
        _ => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_order_differs_from_utf8_order_where_javascript_does() {
        let bmp_high = Utf16Ordered("\u{ffff}".to_owned());
        let astral = Utf16Ordered("\u{10000}".to_owned());
        // UTF-8 puts U+FFFF first; UTF-16 puts the surrogate pair (0xD800...) first.
        assert!("\u{ffff}" < "\u{10000}");
        assert!(astral < bmp_high);
        assert!(Utf16Ordered("a".into()) < Utf16Ordered("b".into()));
    }

    #[test]
    fn trim_follows_javascript() {
        assert_eq!(
            trim("Resolved runtime request \u{feff}"),
            "Resolved runtime request"
        );
        assert_eq!(trim("x\u{0085}"), "x\u{0085}");
        assert_eq!(trim("\u{3000}x\u{2029}"), "x");
    }

    #[test]
    fn upper_first_uppercases_one_utf16_unit() {
        assert_eq!(upper_first("tool_failed"), "Tool_failed");
        assert_eq!(upper_first("ß"), "SS");
        assert_eq!(upper_first("\u{10428}x"), "\u{10428}x");
        assert_eq!(upper_first(""), "");
    }
}
