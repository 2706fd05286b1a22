//! Numbers between the protocol's encoding (PROTOCOL.md § Values: JSON
//! numbers, or JSON strings holding a decimal, `"+Inf"`, `"-Inf"`) and
//! hcl-rs's `Number`, which holds a `u64`, an `i64` or a finite `f64`.
//!
//! The adapter never invents or drops precision silently: a number that
//! hcl-rs cannot hold exactly is refused (the case needs `big-numbers`), and
//! a number hcl-rs computed is written with the digits hcl-rs has.

use hcl::Number;
use serde_json::Value as Json;

/// Why a protocol number has no hcl-rs counterpart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumberRefusal {
    /// The text is not a decimal number at all (a malformed request).
    Malformed(String),
    /// A real number hcl-rs's 64-bit numbers cannot hold exactly.
    NotRepresentable(String),
}

/// Converts a number written in the protocol's encoding to an hcl-rs
/// number.
///
/// Integers that fit `u64` or `i64` become hcl-rs integers. Every other
/// finite number becomes an `f64`, but only when the `f64` is exactly the
/// decimal written: `0.1` or `1e400` are refused rather than rounded, since
/// a rounded input would make hcl-rs answer a question the case never asked.
/// The infinities are refused too: hcl-rs's numbers are always finite.
pub fn number_from_text(text: &str) -> Result<Number, NumberRefusal> {
    if text == "+Inf" || text == "-Inf" {
        return Err(NumberRefusal::NotRepresentable(format!(
            "{text}: hcl-rs numbers are finite"
        )));
    }
    let decimal = Decimal::parse(text)
        .ok_or_else(|| NumberRefusal::Malformed(format!("{text:?} is not a decimal number")))?;
    if let Some(n) = decimal.to_integer() {
        return Ok(n);
    }
    let float: f64 = text
        .trim_start_matches('+')
        .parse()
        .map_err(|_| NumberRefusal::Malformed(format!("{text:?} is not a decimal number")))?;
    if !float.is_finite() || Decimal::of_f64(float) != decimal {
        return Err(NumberRefusal::NotRepresentable(format!(
            "{text}: not exactly a 64-bit float"
        )));
    }
    Number::from_f64(float).ok_or_else(|| {
        NumberRefusal::NotRepresentable(format!("{text}: not a finite 64-bit float"))
    })
}

/// Converts a protocol JSON number or number string to an hcl-rs number.
pub fn number_from_json(json: &Json) -> Result<Number, NumberRefusal> {
    match json {
        Json::Number(n) => number_from_text(&n.to_string()),
        Json::String(s) => number_from_text(s),
        other => Err(NumberRefusal::Malformed(format!("{other} is not a number"))),
    }
}

/// Writes an hcl-rs number in the protocol's encoding.
///
/// Integers are written exactly. A float is written as the exact decimal
/// value of the binary number hcl-rs holds, not as the shortest decimal
/// that reads back as it: hcl-rs's `2^64 * 2^64` is exactly
/// 340282366920938463463374607431768211456, and `0.1 + 0.2` is exactly
/// 0.3000000000000000444089209850062616169452667236328125. The digits are
/// hcl-rs's; the adapter neither adds nor rounds any.
///
/// hcl-rs's arithmetic can leave an infinity in a float (`1 / 0`), written
/// `"+Inf"`/`"-Inf"`; it can also leave NaN (`0 / 0`), which the
/// information model has no value for: it is written as the string
/// `"NaN"`, which the runner rejects, so such a case fails visibly instead
/// of being mistaken for an error or a number.
pub fn number_to_json(n: &Number) -> Json {
    if let Some(u) = n.as_u64() {
        return Json::from(u);
    }
    if let Some(i) = n.as_i64() {
        return Json::from(i);
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    if f.is_nan() {
        eprintln!("hcl-rs adapter: hcl-rs produced NaN, which has no encoding");
        return Json::String("NaN".into());
    }
    if f.is_infinite() {
        return Json::String(if f > 0.0 { "+Inf" } else { "-Inf" }.into());
    }
    let text = Decimal::of_f64(f).to_text();
    match text.parse::<serde_json::Number>() {
        Ok(number) => Json::Number(number),
        Err(_) => Json::String(text),
    }
}

/// A finite decimal number as sign, significant digits and a power of ten:
/// the value is `digits × 10^exponent`, `digits` has no leading or trailing
/// zeros, and zero has no digits (and no sign).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Decimal {
    negative: bool,
    digits: String,
    exponent: i64,
}

impl Decimal {
    /// Parses `[+-]digits[.digits][(e|E)[+-]digits]`, with at least one
    /// digit before the exponent.
    fn parse(text: &str) -> Option<Decimal> {
        let (negative, rest) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let (mantissa, exp_text) = match rest.find(['e', 'E']) {
            Some(at) => (&rest[..at], Some(&rest[at + 1..])),
            None => (rest, None),
        };
        let (int_part, frac_part) = match mantissa.find('.') {
            Some(at) => (&mantissa[..at], &mantissa[at + 1..]),
            None => (mantissa, ""),
        };
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int_part.len() + frac_part.len() == 0 || !all_digits(int_part) || !all_digits(frac_part)
        {
            return None;
        }
        let mut exponent: i64 = match exp_text {
            None => 0,
            Some(e) => {
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty() || !all_digits(digits) || digits.len() > 15 {
                    return None;
                }
                e.trim_start_matches('+').parse().ok()?
            }
        };
        exponent -= i64::try_from(frac_part.len()).ok()?;
        let joined = format!("{int_part}{frac_part}");
        let without_leading = joined.trim_start_matches('0');
        let digits = without_leading.trim_end_matches('0');
        exponent += i64::try_from(without_leading.len() - digits.len()).ok()?;
        if digits.is_empty() {
            return Some(Decimal {
                negative: false,
                digits: String::new(),
                exponent: 0,
            });
        }
        Some(Decimal {
            negative,
            digits: digits.to_string(),
            exponent,
        })
    }

    /// The exact decimal value of a finite `f64`. A binary fraction has a
    /// finite decimal expansion of at most 767 significant digits, so
    /// printing 800 significant digits is exact.
    fn of_f64(f: f64) -> Decimal {
        Decimal::parse(&format!("{f:.800e}")).unwrap_or(Decimal {
            negative: false,
            digits: String::new(),
            exponent: 0,
        })
    }

    /// The decimal as JSON number text: plain digits while that stays
    /// short, scientific notation beyond.
    fn to_text(&self) -> String {
        if self.digits.is_empty() {
            return "0".into();
        }
        let sign = if self.negative { "-" } else { "" };
        let len = self.digits.len() as i64;
        // The power of ten of the first digit.
        let point = len + self.exponent;
        let text = if self.exponent >= 0 && point <= 40 {
            format!("{}{}", self.digits, "0".repeat(self.exponent as usize))
        } else if self.exponent < 0 && point > 0 {
            let (int, frac) = self.digits.split_at(point as usize);
            format!("{int}.{frac}")
        } else if self.exponent < 0 && point > -20 {
            format!("0.{}{}", "0".repeat((-point) as usize), self.digits)
        } else {
            let (first, rest) = self.digits.split_at(1);
            let dot = if rest.is_empty() { "" } else { "." };
            format!("{first}{dot}{rest}e{}", point - 1)
        };
        format!("{sign}{text}")
    }

    /// The hcl-rs integer for an integral decimal that fits `u64` (or `i64`
    /// when negative).
    fn to_integer(&self) -> Option<Number> {
        if self.digits.is_empty() {
            return Some(Number::from(0u64));
        }
        if self.exponent < 0 || self.digits.len() as i64 + self.exponent > 20 {
            return None;
        }
        let zeros = "0".repeat(usize::try_from(self.exponent).ok()?);
        let text = format!("{}{}", self.digits, zeros);
        let magnitude: u64 = text.parse().ok()?;
        if !self.negative {
            return Some(Number::from(magnitude));
        }
        if magnitude == i64::MIN.unsigned_abs() {
            return Some(Number::from(i64::MIN));
        }
        i64::try_from(magnitude).ok().map(|m| Number::from(-m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_exact() {
        assert_eq!(number_from_text("42"), Ok(Number::from(42u64)));
        assert_eq!(number_from_text("-7"), Ok(Number::from(-7i64)));
        assert_eq!(number_from_text("1e3"), Ok(Number::from(1000u64)));
        assert_eq!(
            number_from_text("2.50e1").map(|n| n.to_string()),
            Ok("25".into())
        );
        assert_eq!(
            number_from_text("18446744073709551615"),
            Ok(Number::from(u64::MAX))
        );
        assert_eq!(
            number_from_text("-9223372036854775808"),
            Ok(Number::from(i64::MIN))
        );
    }

    #[test]
    fn exact_binary_fractions_are_accepted() {
        assert_eq!(
            number_from_text("1.5").map(|n| n.to_string()),
            Ok("1.5".into())
        );
        assert_eq!(
            number_from_text("-0.25").map(|n| n.to_string()),
            Ok("-0.25".into())
        );
        // 2^64 is no u64 but is exactly an f64.
        assert!(number_from_text("18446744073709551616").is_ok());
    }

    #[test]
    fn inexact_numbers_are_refused() {
        for text in ["0.1", "1e400", "18446744073709551617", "+Inf", "-Inf"] {
            assert!(
                matches!(
                    number_from_text(text),
                    Err(NumberRefusal::NotRepresentable(_))
                ),
                "{text}"
            );
        }
        assert!(matches!(
            number_from_text("x"),
            Err(NumberRefusal::Malformed(_))
        ));
        assert!(matches!(
            number_from_text("1e"),
            Err(NumberRefusal::Malformed(_))
        ));
    }

    #[test]
    fn output_is_the_exact_value_hcl_rs_holds() {
        let sum = number_from_text("1.5").unwrap() + number_from_text("2").unwrap();
        assert_eq!(number_to_json(&sum).to_string(), "3.5");
        let third = Number::from_f64(0.1).unwrap() + Number::from_f64(0.2).unwrap();
        assert_eq!(
            number_to_json(&third).to_string(),
            "0.3000000000000000444089209850062616169452667236328125"
        );
        let power = Number::from_f64(2f64.powi(128)).unwrap();
        assert_eq!(
            number_to_json(&power).to_string(),
            "340282366920938463463374607431768211456"
        );
        let tiny = Number::from_f64(-0.001953125).unwrap();
        assert_eq!(number_to_json(&tiny).to_string(), "-0.001953125");
        let huge = Number::from_f64(2f64.powi(200)).unwrap();
        assert!(number_to_json(&huge).to_string().starts_with("1.606938"));
        assert_eq!(number_to_json(&Number::from(-3i64)).to_string(), "-3");
    }
}
