//! The contract's two serialisations: canonical JSON (equality and digests) and pretty JSON (golden
//! files, manifest, inventory). Both print numbers as ECMAScript's `Number::toString` does, since the
//! reference's byte output comes from JavaScript.

use crate::issue::Issue;
use prp_vocabulary::canonical;
use serde_json::Value;
use serde_json::ser::{Formatter, PrettyFormatter};
use std::io;

/// Parses any JSON document as the typed decoders read one: within the size and depth limits, and
/// refusing a member name repeated in one object (`duplicate_key`, at the second occurrence).
pub fn parse(bytes: &[u8]) -> Result<Value, Issue> {
    struct Strict(Value);
    impl<'de> serde::Deserialize<'de> for Strict {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            serde::de::DeserializeSeed::deserialize(prp_codegen_runtime::AnyValue, d).map(Strict)
        }
    }
    crate::decode::decode::<Strict>(bytes).map(|s| s.0)
}

/// Orders two strings as JavaScript's default `sort()` does: by UTF-16 code units.
pub fn utf16_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    canonical::Order::Utf16.cmp(a, b)
}

/// `JSON.stringify` of `value` with object keys sorted by UTF-16 code units, no whitespace.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in canonical::members(map, canonical::Order::Utf16)
                .into_iter()
                .enumerate()
            {
                if i > 0 {
                    out.push(',');
                }
                write_string(k, out);
                out.push(':');
                write_canonical(v, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(v, out);
            }
            out.push(']');
        }
        Value::String(s) => write_string(s, out),
        Value::Number(n) => out.push_str(&number(n)),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Null => out.push_str("null"),
    }
}

fn write_string(s: &str, out: &mut String) {
    // serde_json escapes exactly as JSON.stringify does for well-formed strings.
    out.push_str(&serde_json::to_string(s).unwrap_or_default());
}

/// A JSON number as ECMAScript prints it.
pub fn number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    ecma_f64(n.as_f64().unwrap_or(f64::NAN))
}

/// ECMAScript `Number::toString(x)` for a finite `f64` (`null` for non-finite values, as JSON does).
pub fn ecma_f64(x: f64) -> String {
    if !x.is_finite() {
        return "null".to_owned();
    }
    if x == 0.0 {
        return "0".to_owned();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde±x".
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i64;
    let n = exp.parse::<i64>().unwrap_or(0) + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let esign = if e < 0 { '-' } else { '+' };
        if k == 1 {
            format!("{digits}e{esign}{}", e.abs())
        } else {
            format!("{}.{}e{esign}{}", &digits[..1], &digits[1..], e.abs())
        }
    };
    format!("{sign}{body}")
}

/// `JSON.stringify(value, null, 2)` followed by one newline; keys in insertion order.
pub fn pretty(value: &Value) -> String {
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(
        &mut buf,
        EcmaNumbers(PrettyFormatter::with_indent(b"  ")),
    );
    // Serializing a Value into memory cannot fail.
    let _ = serde::Serialize::serialize(value, &mut ser);
    let mut text = String::from_utf8(buf).unwrap_or_default();
    text.push('\n');
    text
}

/// Wraps a formatter, printing floats the ECMAScript way.
struct EcmaNumbers<F>(F);

impl<F: Formatter> Formatter for EcmaNumbers<F> {
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        w.write_all(ecma_f64(value).as_bytes())
    }
    fn write_f32<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f32) -> io::Result<()> {
        w.write_all(ecma_f64(f64::from(value)).as_bytes())
    }
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_print_as_ecmascript_does() {
        let cases = [
            (1.0, "1"),
            (-0.0, "0"),
            (0.5, "0.5"),
            (1.5e-7, "1.5e-7"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123.456, "123.456"),
            (-2.5e22, "-2.5e+22"),
            (0.1 + 0.2, "0.30000000000000004"),
            (5e-324, "5e-324"),
            (1e300, "1e+300"),
            (1.2345e21, "1.2345e+21"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (123456789012345680000.0, "123456789012345680000"),
        ];
        for (x, want) in cases {
            assert_eq!(ecma_f64(x), want, "{x:e}");
        }
    }

    #[test]
    fn parse_refuses_what_the_decoders_refuse() {
        assert_eq!(
            parse(br#"{"a":[1,{"b":2}]}"#).unwrap(),
            json!({"a": [1, {"b": 2}]})
        );
        let e = parse(br#"{"a":1,"a":2}"#).unwrap_err();
        assert_eq!(
            (e.code, e.pointer.as_str()),
            (crate::Code::Keyword(prp_types::Keyword::DuplicateKey), "/a")
        );
        assert_eq!(parse(b"{").unwrap_err().code, crate::Code::InvalidJson);
        assert_eq!(
            parse("[".repeat(200).as_bytes()).unwrap_err().code,
            crate::Code::Keyword(prp_types::Keyword::TooDeep)
        );
    }

    #[test]
    fn canonical_sorts_keys_by_utf16() {
        let v = json!({"b": 1, "a": [true, null, 1.0, "x\ny"], "\u{ffff}": 0, "\u{10000}": 0});
        assert_eq!(
            canonical(&v),
            "{\"a\":[true,null,1,\"x\\ny\"],\"b\":1,\"\u{10000}\":0,\"\u{ffff}\":0}"
        );
    }

    #[test]
    fn pretty_matches_json_stringify_layout() {
        let v = json!({"z": [], "a": {}, "n": [1, 2.5], "s": "é/"});
        assert_eq!(
            pretty(&v),
            "{\n  \"z\": [],\n  \"a\": {},\n  \"n\": [\n    1,\n    2.5\n  ],\n  \"s\": \"é/\"\n}\n"
        );
    }
}
