//! `multipleOf`, `maximum`, `exclusiveMaximum`, `minimum` and `exclusiveMinimum`: assertions on a
//! number, true of any other value. Numbers are compared exactly: integers as integers, and
//! `multipleOf` in decimal, so that `0.3` is a multiple of `0.1` and `1e308` one of `0.5`.

use super::super::compile::{Site, number};
use super::super::{Cx, Seen, fail};
use super::Rule;
use crate::{Failure, Keyword as Code};
use serde_json::{Number, Value};
use std::cmp::Ordering;

pub(super) fn compile_multiple_of<S: Site>(s: &mut S) -> Result<Option<Rule>, S::Error> {
    match s.value().as_f64() {
        Some(f) if f > 0.0 => Ok(Some(Rule::MultipleOf(number(s)?))),
        _ => Err(s.invalid("must be a number above zero")),
    }
}

pub(super) fn check_multiple_of(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    d: &Number,
) -> Result<(), Failure> {
    match v {
        Value::Number(x) if !is_multiple(x, d) => Err(fail(
            Code::MultipleOf,
            format!("{x} is not a multiple of {d}"),
        )),
        _ => Ok(()),
    }
}

/// A bound's compile step: the number read, in the rule `bound` makes of it.
pub(super) fn compile_bound<S: Site>(
    s: &mut S,
    bound: fn(Number) -> Rule,
) -> Result<Option<Rule>, S::Error> {
    Ok(Some(bound(number(s)?)))
}

/// A number `x` passes a bound `m` when `x`'s order against `m` is one of `passing`; otherwise
/// it fails with `code`, said as `{x} {says} {m}`.
fn bound(
    v: &Value,
    m: &Number,
    passing: &[Ordering],
    code: Code,
    says: &str,
) -> Result<(), Failure> {
    match v {
        Value::Number(x) if !compare(x, m).is_some_and(|o| passing.contains(&o)) => {
            Err(fail(code, format!("{x} {says} {m}")))
        }
        _ => Ok(()),
    }
}

pub(super) fn check_maximum(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    m: &Number,
) -> Result<(), Failure> {
    let passing = [Ordering::Less, Ordering::Equal];
    bound(v, m, &passing, Code::Maximum, "is above the maximum")
}

pub(super) fn check_exclusive_maximum(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    m: &Number,
) -> Result<(), Failure> {
    bound(
        v,
        m,
        &[Ordering::Less],
        Code::ExclusiveMaximum,
        "must be below",
    )
}

pub(super) fn check_minimum(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    m: &Number,
) -> Result<(), Failure> {
    let passing = [Ordering::Greater, Ordering::Equal];
    bound(v, m, &passing, Code::Minimum, "is below the minimum")
}

pub(super) fn check_exclusive_minimum(
    _: &mut Cx,
    v: &Value,
    _: &mut Seen,
    m: &Number,
) -> Result<(), Failure> {
    bound(
        v,
        m,
        &[Ordering::Greater],
        Code::ExclusiveMinimum,
        "must be above",
    )
}

fn integer(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// Integers compared as integers (exact beyond 2^53), others as floats.
fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// A number as `mantissa * 10^exponent`, read from its shortest decimal text.
fn decimal(n: &Number) -> Option<(u128, i32)> {
    let text = n.to_string();
    let text = text.trim_start_matches('-');
    let (digits, exp) = match text.split_once(['e', 'E']) {
        Some((d, e)) => (d, e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let mantissa = format!("{int}{frac}").parse::<u128>().ok()?;
    Some((mantissa, exp - frac.len() as i32))
}

/// Whether `x` is an integer multiple of `d` (> 0), exactly in decimal: with `x = mx·10^ex` and
/// `d = md·10^ed`, whether `md·10^(ed-ex)` divides `mx` (when `ed > ex`) or `md` divides
/// `mx·10^(ex-ed)`, the latter in modular arithmetic so that `1e308` against `0.5` is exact too.
fn is_multiple(x: &Number, d: &Number) -> bool {
    if let (Some((mx, ex)), Some((md, ed))) = (decimal(x), decimal(d)) {
        if md == 0 {
            return false;
        }
        if mx == 0 {
            return true;
        }
        let k = i64::from(ex) - i64::from(ed);
        if k >= 0 {
            return mul_mod(mx % md, pow10_mod(k as u64, md), md) == 0;
        }
        // A divisor beyond 128 bits is larger than any mantissa, which is not zero here.
        return u32::try_from(-k)
            .ok()
            .and_then(|e| 10u128.checked_pow(e))
            .and_then(|p| md.checked_mul(p))
            .is_some_and(|div| mx % div == 0);
    }
    match (x.as_f64(), d.as_f64()) {
        (Some(a), Some(b)) => {
            let q = a / b;
            q.is_finite() && q == q.trunc()
        }
        _ => false,
    }
}

/// `a·b mod m` for `a, b < m`, without overflowing 128 bits.
fn mul_mod(mut a: u128, mut b: u128, m: u128) -> u128 {
    if let Some(p) = a.checked_mul(b) {
        return p % m;
    }
    let mut acc = 0u128;
    while b > 0 {
        if b & 1 == 1 {
            acc = add_mod(acc, a, m);
        }
        a = add_mod(a, a, m);
        b >>= 1;
    }
    acc
}

/// `a + b mod m` for `a, b < m`.
fn add_mod(a: u128, b: u128, m: u128) -> u128 {
    if a >= m - b { a - (m - b) } else { a + b }
}

/// `10^k mod m`.
fn pow10_mod(mut k: u64, m: u128) -> u128 {
    let (mut base, mut acc) = (10 % m, 1 % m);
    while k > 0 {
        if k & 1 == 1 {
            acc = mul_mod(acc, base, m);
        }
        base = mul_mod(base, base, m);
        k >>= 1;
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::super::tests::{refused, verdicts};
    use super::is_multiple;
    use serde_json::{Number, json};

    fn n(text: &str) -> Number {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn multiples_are_exact_in_decimal_at_any_size() {
        let cases = [
            ("1e308", "0.5", true),
            ("1e308", "3", false),
            ("1e308", "1e307", true),
            ("1e307", "1e308", false),
            ("0.3", "0.1", true),
            ("0.35", "0.1", false),
            ("4.5", "1.5", true),
            ("1e-5", "1e-7", true),
            ("1e-7", "1e-5", false),
            ("0", "0.0001", true),
            ("-7.5", "2.5", true),
            ("9007199254740993", "2", false),
            ("12345678901234567890", "5", true),
            ("12345678901234567890", "4", false),
            ("1e20", "256", true),
            ("1e20", "3", false),
            ("1e20", "1048576", true),
            ("1e20", "2097152", false),
        ];
        for (x, d, want) in cases {
            assert_eq!(is_multiple(&n(x), &n(d)), want, "{x} multipleOf {d}");
        }
        assert_eq!(
            refused(json!({"multipleOf": 0})),
            "`multipleOf` must be a number above zero"
        );
    }

    /// Each bound says which side the value is on; an integer beyond 2^53 is compared exactly;
    /// a string is no number and passes.
    #[test]
    fn bounds_compare_exactly_and_pass_other_types() {
        let schema = json!({"maximum": 9007199254740992u64, "exclusiveMinimum": 0});
        let failures = verdicts(schema, &[json!(9007199254740993u64), json!(0), json!("x")]);
        assert_eq!(
            failures,
            [
                Some("maximum: 9007199254740993 is above the maximum 9007199254740992".into()),
                Some("exclusive_minimum: 0 must be above 0".into()),
                None,
            ]
        );
        let failures = verdicts(
            json!({"minimum": 1.5, "exclusiveMaximum": 3}),
            &[json!(1), json!(3.0)],
        );
        assert_eq!(
            failures,
            [
                Some("minimum: 1 is below the minimum 1.5".into()),
                Some("exclusive_maximum: 3.0 must be below 3".into()),
            ]
        );
        assert_eq!(
            refused(json!({"maximum": "3"})),
            "`maximum` must be a number"
        );
    }
}
