//! Arbitrary-precision numbers.
//!
//! Spec: spec.md § Primitive Types
//!
//! > A _number_ is an arbitrary-precision floating point value. [...] An
//! > implementation may in practice implement numbers with limited precision
//! > so long as the following constraints are met: Integers are represented
//! > with at least 256 bits. Non-integer numbers are represented as floating
//! > point values with a mantissa of at least 256 bits and a signed binary
//! > exponent of at least 16 bits. [...]
//!
//! This interpreter represents a finite number as an exact decimal
//! (`BigDecimal`) and keeps two invariants, checked by `Number::finite`:
//! - an integer is exact and has fewer than [`MAX_INTEGER_DIGITS`] digits
//!   (more is an overflow error);
//! - a non-integer is rounded, half to even, to [`PRECISION`] significant
//!   digits (about 332 bits), and one smaller than `10^MIN_EXPONENT` rounds
//!   to zero.
//!
//! Both limits are checked before any digit is expanded, so inputs such as
//! `1e999999999` cost no more than their text. Trailing zeros are always
//! stripped, so equal numbers have equal representations.
//!
//! An integer that fits in an `i64`, the commonest number by far, is held
//! as one (`Repr::Small`) and computed with machine arithmetic; a
//! result that overflows, and every other number, takes the `BigDecimal`
//! path. The two forms give the same results: a small integer enters that
//! path as the `BigDecimal` it stands for.
//!
//! SPEC-GAP(spec-notes/gaps/numbers.md)

use bigdecimal::num_bigint::{BigInt, Sign};
use bigdecimal::{BigDecimal, RoundingMode, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::num::NonZeroU64;

/// Integers have fewer digits than this; a larger one is an overflow.
pub const MAX_INTEGER_DIGITS: i64 = 40_000;
/// Significant decimal digits kept for a non-integer (about 332 bits).
pub const PRECISION: u64 = 100;
/// A non-integer smaller in magnitude than `10^MIN_EXPONENT` rounds to zero.
pub const MIN_EXPONENT: i64 = -40_000;

/// A number: finite, or one of the two infinities. There is no NaN.
///
/// Spec: spec.md § Primitive Types
#[derive(Clone, Debug)]
pub enum Number {
    Finite(Decimal),
    PositiveInfinity,
    NegativeInfinity,
}

/// The exact value of a finite number. How it is held is this module's
/// business alone.
#[derive(Clone, Debug)]
pub struct Decimal(Repr);

/// The representation of a [`Decimal`], in one canonical form: an integer
/// that fits in an `i64` is always `Small`.
#[derive(Clone, Debug)]
enum Repr {
    /// An integer in the range of `i64`.
    Small(i64),
    /// Any other finite number, trailing zeros stripped.
    Big(BigDecimal),
}

use Repr::{Big, Small};

impl Decimal {
    /// The value as a `BigDecimal` in the normalized form (trailing zeros
    /// stripped: 8000 is 8 × 10^3).
    fn to_big(&self) -> std::borrow::Cow<'_, BigDecimal> {
        match self {
            Decimal(Big(d)) => std::borrow::Cow::Borrowed(d),
            Decimal(Small(0)) => std::borrow::Cow::Owned(BigDecimal::zero()),
            Decimal(Small(n)) => {
                let (mut mantissa, mut scale) = (*n, 0);
                while mantissa % 10 == 0 {
                    mantissa /= 10;
                    scale -= 1;
                }
                std::borrow::Cow::Owned(BigDecimal::new(BigInt::from(mantissa), scale))
            }
        }
    }

    /// The canonical form of a normalized `BigDecimal`.
    fn from_big(d: BigDecimal) -> Decimal {
        let (mantissa, scale) = d.as_bigint_and_exponent();
        if scale <= 0 && scale > -19 {
            let small = mantissa
                .to_i64()
                .and_then(|m| 10i64.checked_pow((-scale) as u32)?.checked_mul(m));
            if let Some(small) = small {
                return Decimal(Small(small));
            }
        }
        Decimal(Big(d))
    }
}

/// A number held in four bytes: what a syntax tree stores for the common
/// numeric literals, so that a literal costs no more room than a reference
/// to one. Which numbers fit is this module's business.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompactNumber(i32);

impl From<CompactNumber> for Number {
    fn from(compact: CompactNumber) -> Number {
        Number::from_i64(i64::from(compact.0))
    }
}

/// Why an arithmetic result or a numeral has no number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// The magnitude is beyond what the representation holds.
    Overflow,
    /// The result would be "not a number" (`inf - inf`, `0 * inf`...).
    NotANumber,
    /// A division or remainder by zero.
    DivisionByZero,
    /// The text is not a numeral of the expected syntax.
    Syntax,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberError::Overflow => "the number is too large to be represented",
            NumberError::NotANumber => "the result is not a number",
            NumberError::DivisionByZero => "division by zero",
            NumberError::Syntax => "not a valid number",
        })
    }
}

impl std::error::Error for NumberError {}

/// `d` with the trailing zeros of its mantissa stripped, as
/// `BigDecimal::normalized` does; that goes through the decimal digits, so it
/// is called only when there is a trailing zero to strip.
fn without_trailing_zeros(d: BigDecimal) -> BigDecimal {
    let (mantissa, _) = d.as_bigint_and_scale();
    let last_digit_is_zero = match mantissa.to_i64() {
        Some(small) => small % 10 == 0,
        None => (mantissa.as_ref() % 10u32).is_zero(),
    };
    if last_digit_is_zero {
        d.normalized()
    } else {
        d
    }
}

/// `d` rounded, half to even, to [`PRECISION`] significant digits: "A
/// non-integer number is rounded to the nearest possible value when a
/// value is of too high a precision to be represented."
///
/// Spec: spec.md § Primitive Types
fn round_to_precision(d: BigDecimal) -> BigDecimal {
    let precision = NonZeroU64::new(PRECISION).expect("non-zero");
    without_trailing_zeros(d.with_precision_round(precision, RoundingMode::HalfEven))
}

fn power_of_ten(exponent: u64) -> BigInt {
    // Exponents are bounded by the representation's limits (a few times
    // MAX_INTEGER_DIGITS), so they fit in a u32.
    BigInt::from(10u8).pow(u32::try_from(exponent).unwrap_or(u32::MAX))
}

impl Number {
    pub fn zero() -> Number {
        Number::Finite(Decimal(Small(0)))
    }

    /// A finite number, checked against the representation's limits and
    /// rounded as § Primitive Types allows.
    fn finite(d: BigDecimal) -> Result<Number, NumberError> {
        if d.is_zero() {
            return Ok(Number::zero());
        }
        let scale = d.fractional_digit_count();
        let digits = d.digits() as i64;
        // The decimal exponent of the leading digit.
        let adjusted = digits - 1 - scale;
        if adjusted >= MAX_INTEGER_DIGITS {
            // "An error is produced if an integer value given in source cannot
            // be represented precisely", and likewise for an overflowing
            // non-integer.
            return Err(NumberError::Overflow);
        }
        if scale > 0 && adjusted < MIN_EXPONENT {
            return Ok(Number::zero());
        }
        let d = without_trailing_zeros(d);
        let scale = d.fractional_digit_count();
        if scale > 0 && digits as u64 > PRECISION {
            return Ok(Number::Finite(Decimal::from_big(round_to_precision(d))));
        }
        Ok(Number::Finite(Decimal::from_big(d)))
    }

    /// An integer. An i64 is far below the representation's limits.
    pub fn from_i64(n: i64) -> Number {
        Number::Finite(Decimal(Small(n)))
    }

    /// The number in four bytes, if it fits (see [`CompactNumber`]).
    pub fn to_compact(&self) -> Option<CompactNumber> {
        match self {
            Number::Finite(Decimal(Small(n))) => i32::try_from(*n).ok().map(CompactNumber),
            _ => None,
        }
    }

    /// Reads a decimal numeral: `-?[0-9]+(\.[0-9]+)?`, followed when
    /// `allow_exponent` by `([eE][+-]?[0-9]+)?`.
    ///
    /// The text is rounded as `Number::finite` says before any large
    /// integer is built, so the cost is linear in the text's length.
    pub fn parse_decimal(text: &str, allow_exponent: bool) -> Result<Number, NumberError> {
        // A short integer, the commonest numeral by far, needs no decimal
        // arithmetic.
        if text.len() <= 18 && !text.starts_with('+') {
            if let Ok(n) = text.parse::<i64>() {
                return Ok(Number::from_i64(n));
            }
        }
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        if int_len == 0 {
            return Err(NumberError::Syntax);
        }
        let (int_digits, mut rest) = rest.split_at(int_len);
        let mut frac_digits = "";
        if let Some(after_point) = rest.strip_prefix('.') {
            let frac_len = after_point.bytes().take_while(u8::is_ascii_digit).count();
            if frac_len == 0 {
                return Err(NumberError::Syntax);
            }
            (frac_digits, rest) = after_point.split_at(frac_len);
        }
        let mut exponent: i64 = 0;
        if allow_exponent {
            if let Some(after_e) = rest.strip_prefix(['e', 'E']) {
                let (exp_negative, digits) = match after_e.as_bytes().first() {
                    Some(b'-') => (true, &after_e[1..]),
                    Some(b'+') => (false, &after_e[1..]),
                    _ => (false, after_e),
                };
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(NumberError::Syntax);
                }
                // Saturate: any exponent this large is an overflow or zero.
                for b in digits.bytes() {
                    exponent = (exponent * 10 + i64::from(b - b'0')).min(1_000_000_000_000);
                }
                if exp_negative {
                    exponent = -exponent;
                }
                rest = "";
            }
        }
        if !rest.is_empty() {
            return Err(NumberError::Syntax);
        }
        Number::from_digits(negative, int_digits, frac_digits, exponent)
    }

    /// The number `±(int_digits.frac_digits) × 10^exponent`.
    fn from_digits(
        negative: bool,
        int_digits: &str,
        frac_digits: &str,
        exponent: i64,
    ) -> Result<Number, NumberError> {
        let all: String = [int_digits, frac_digits].concat();
        let significant = all.trim_start_matches('0');
        let without_trailing = significant.trim_end_matches('0');
        if without_trailing.is_empty() {
            return Ok(Number::zero());
        }
        let trailing = (significant.len() - without_trailing.len()) as i64;
        let mut digits = without_trailing.to_string();
        // value = digits × 10^-scale
        let scale = frac_digits.len() as i64 - exponent - trailing;
        let adjusted = digits.len() as i64 - 1 - scale;
        if adjusted >= MAX_INTEGER_DIGITS {
            return Err(NumberError::Overflow);
        }
        if scale > 0 {
            if adjusted < MIN_EXPONENT {
                return Ok(Number::zero());
            }
            // A non-integer of more than PRECISION digits is rounded. Of the
            // digits beyond PRECISION, the first and whether any other is
            // non-zero decide the rounding; the last digit is not zero, so
            // a `1` stands for all the others.
            let keep = PRECISION as usize + 1;
            if digits.len() > keep + 1 {
                let dropped = (digits.len() - keep - 1) as i64;
                digits.truncate(keep);
                digits.push('1');
                let mantissa: BigInt = digits.parse().map_err(|_| NumberError::Syntax)?;
                let mantissa = if negative { -mantissa } else { mantissa };
                return Number::finite(round_to_precision(BigDecimal::new(
                    mantissa,
                    scale - dropped,
                )));
            }
        }
        let mantissa: BigInt = digits.parse().map_err(|_| NumberError::Syntax)?;
        let mantissa = if negative { -mantissa } else { mantissa };
        Number::finite(BigDecimal::new(mantissa, scale))
    }

    /// Whether the number is finite and has no fractional part.
    pub fn is_integer(&self) -> bool {
        match self {
            Number::Finite(Decimal(Small(_))) => true,
            Number::Finite(Decimal(Big(d))) => d.is_integer(),
            _ => false,
        }
    }

    /// The sign: -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self {
            Number::PositiveInfinity => 1,
            Number::NegativeInfinity => -1,
            Number::Finite(Decimal(Small(n))) => n.signum() as i32,
            Number::Finite(Decimal(Big(d))) => match d.sign() {
                Sign::Minus => -1,
                Sign::NoSign => 0,
                Sign::Plus => 1,
            },
        }
    }

    fn infinity(sign: i32) -> Number {
        if sign < 0 {
            Number::NegativeInfinity
        } else {
            Number::PositiveInfinity
        }
    }

    pub fn is_infinite(&self) -> bool {
        !matches!(self, Number::Finite(_))
    }

    /// The value as an `i64`, if it is an integer in range.
    pub fn to_i64(&self) -> Option<i64> {
        match self {
            Number::Finite(Decimal(Small(n))) => Some(*n),
            Number::Finite(Decimal(Big(d))) if d.is_integer() => {
                let (mantissa, scale) = d.with_scale(0).into_bigint_and_exponent();
                debug_assert_eq!(scale, 0);
                i64::try_from(mantissa).ok()
            }
            _ => None,
        }
    }

    pub fn negate(&self) -> Number {
        match self {
            Number::Finite(Decimal(Small(n))) => match n.checked_neg() {
                Some(negated) => Number::Finite(Decimal(Small(negated))),
                None => Number::Finite(Decimal(Big(-Decimal(Small(*n)).to_big().into_owned()))),
            },
            Number::Finite(Decimal(Big(d))) => Number::Finite(Decimal::from_big(-d)),
            Number::PositiveInfinity => Number::NegativeInfinity,
            Number::NegativeInfinity => Number::PositiveInfinity,
        }
    }

    pub fn add(&self, other: &Number) -> Result<Number, NumberError> {
        match (self, other) {
            (Number::Finite(Decimal(Small(a))), Number::Finite(Decimal(Small(b))))
                if a.checked_add(*b).is_some() =>
            {
                Ok(Number::from_i64(a + b))
            }
            (Number::Finite(a), Number::Finite(b)) => Number::finite(&*a.to_big() + &*b.to_big()),
            (Number::Finite(_), infinite) | (infinite, Number::Finite(_)) => Ok(infinite.clone()),
            (a, b) if a.signum() == b.signum() => Ok(a.clone()),
            // SPEC-GAP(spec-notes/gaps/numbers.md): `inf - inf` would be NaN.
            _ => Err(NumberError::NotANumber),
        }
    }

    pub fn subtract(&self, other: &Number) -> Result<Number, NumberError> {
        self.add(&other.negate())
    }

    pub fn multiply(&self, other: &Number) -> Result<Number, NumberError> {
        match (self, other) {
            (Number::Finite(Decimal(Small(a))), Number::Finite(Decimal(Small(b))))
                if a.checked_mul(*b).is_some() =>
            {
                Ok(Number::from_i64(a * b))
            }
            (Number::Finite(a), Number::Finite(b)) => Number::finite(&*a.to_big() * &*b.to_big()),
            (a, b) => match a.signum() * b.signum() {
                0 => Err(NumberError::NotANumber),
                sign => Ok(Number::infinity(sign)),
            },
        }
    }

    /// The quotient, correctly rounded to [`PRECISION`] digits when it is not
    /// an exact decimal.
    pub fn divide(&self, other: &Number) -> Result<Number, NumberError> {
        if other.signum() == 0 {
            // SPEC-GAP(spec-notes/gaps/numbers.md): the spec has no NaN and
            // does not say what `x / 0` is.
            return Err(NumberError::DivisionByZero);
        }
        match (self, other) {
            // An exact quotient of small integers (`i64::MIN / -1`
            // overflows, and takes the general path).
            (Number::Finite(Decimal(Small(a))), Number::Finite(Decimal(Small(b))))
                if a.checked_rem(*b) == Some(0) && a.checked_div(*b).is_some() =>
            {
                Ok(Number::from_i64(a / b))
            }
            (Number::Finite(a), Number::Finite(b)) => divide_finite(&a.to_big(), &b.to_big()),
            (Number::Finite(_), _) => Ok(Number::zero()),
            (a, Number::Finite(_)) => Ok(Number::infinity(a.signum() * other.signum())),
            _ => Err(NumberError::NotANumber),
        }
    }

    /// The remainder of truncating division: its sign is the dividend's.
    pub fn remainder(&self, other: &Number) -> Result<Number, NumberError> {
        if other.signum() == 0 {
            return Err(NumberError::DivisionByZero);
        }
        match (self, other) {
            // Truncating, as below: the sign is the dividend's.
            (Number::Finite(Decimal(Small(a))), Number::Finite(Decimal(Small(b))))
                if a.checked_rem(*b).is_some() =>
            {
                Ok(Number::from_i64(a % b))
            }
            (Number::Finite(a), Number::Finite(b)) => {
                let (a, b) = (a.to_big(), b.to_big());
                let (ma, sa) = a.as_bigint_and_exponent();
                let (mb, sb) = b.as_bigint_and_exponent();
                let scale = sa.max(sb);
                let ma = ma * power_of_ten((scale - sa) as u64);
                let mb = mb * power_of_ten((scale - sb) as u64);
                Number::finite(BigDecimal::new(ma % mb, scale))
            }
            (Number::Finite(_), _) => Ok(self.clone()),
            _ => Err(NumberError::NotANumber),
        }
    }

    /// The number as a decimal without exponent: the conversion of a number
    /// to a string. The infinities are written `+Inf` and `-Inf`.
    ///
    /// Spec: spec.md § Primitive Type Conversions
    ///
    /// SPEC-GAP(spec-notes/gaps/number-string-syntax.md)
    pub fn to_decimal_string(&self) -> String {
        let d = match self {
            Number::PositiveInfinity => return "+Inf".to_string(),
            Number::NegativeInfinity => return "-Inf".to_string(),
            Number::Finite(Decimal(Small(n))) => return n.to_string(),
            Number::Finite(Decimal(Big(d))) => d,
        };
        if d.is_zero() {
            return "0".to_string();
        }
        let (mantissa, scale) = d.as_bigint_and_exponent();
        let sign = if mantissa.is_negative() { "-" } else { "" };
        let digits = mantissa.magnitude().to_string();
        if scale <= 0 {
            // "translating its integer portion into a sequence of decimal
            // digits [...] No exponent portion is included."
            return format!("{sign}{digits}{}", "0".repeat((-scale) as usize));
        }
        let scale = scale as usize;
        if digits.len() > scale {
            let (int_part, frac_part) = digits.split_at(digits.len() - scale);
            format!("{sign}{int_part}.{frac_part}")
        } else {
            format!("{sign}0.{}{digits}", "0".repeat(scale - digits.len()))
        }
    }
}

/// What the work of an operation on numbers grows with (see
/// [`Number::work_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// A sum, a difference, a negation or a comparison.
    Aligned,
    /// A product: the words of one operand times those of the other.
    Product,
    /// A quotient or a remainder: the words of the aligned dividend times
    /// those of the divisor.
    Quotient,
}

/// How many 64-bit words hold `digits` decimal digits (log2(10) = 3.33
/// bits a digit, rounded up).
fn words(digits: u64) -> u64 {
    digits.saturating_mul(10) / 192 + 1
}

/// The work of going through `words` words once for each of them, in
/// bytes: half a byte a pair. (Measured, release build: aligning,
/// rounding, reading and writing a number of n words take 1 to 2 ns for
/// each of the n² pairs; the evaluation budget counts a byte of memory
/// built as about 2 ns of work.)
fn pairs(words: u64) -> u64 {
    words.saturating_mul(words) / 2
}

impl Number {
    /// The memory that the number's digits take beyond the number itself:
    /// nothing for an integer that fits a machine word and for the
    /// infinities, the words of its mantissa for any other number.
    pub fn heap_bytes(&self) -> u64 {
        match self {
            Number::Finite(Decimal(Big(d))) => {
                let (mantissa, _) = d.as_bigint_and_scale();
                let words = mantissa.bits().div_ceil(64);
                crate::memory::allocation((words as usize).saturating_mul(8))
            }
            _ => 0,
        }
    }

    /// The decimal places the number's digits span: the exponents of its
    /// most and its least significant digit (`1.5e3`: 3 and 2); `None`
    /// for an integer that fits a machine word and for the infinities.
    fn extent(&self) -> Option<(i64, i64)> {
        let Number::Finite(Decimal(Big(d))) = self else {
            return None;
        };
        let (mantissa, scale) = d.as_bigint_and_scale();
        // The digits a mantissa of this many bits has, at most.
        let digits = (mantissa.bits().saturating_mul(30_103) / 100_000 + 1) as i64;
        Some((digits - 1 - scale, -scale))
    }

    /// The words of the digits from `top` down to `bottom`.
    fn words_between(top: i64, bottom: i64) -> u64 {
        words(top.saturating_sub(bottom).max(0) as u64 + 1)
    }

    /// An estimate of the work of an operation on `a` and `b`, in bytes
    /// of the evaluation budget. Every operation on a large number goes
    /// through the digits of both operands aligned at the decimal point
    /// (`1e39999 + 1e-39999` through 80,000 digits), and its result is
    /// normalized and rounded, which takes time in the square of their
    /// words (half a byte for each pair); a product adds the words of one operand times
    /// those of the other, a quotient or a remainder those of the aligned
    /// dividend (widened to [`PRECISION`] digits more than the divisor)
    /// times those of the divisor. Nothing when both operands fit a
    /// machine word, or one is infinite: their work is that of the
    /// expression. The evaluation budget charges it before the operation
    /// runs ([`crate::budget::Budget`]).
    pub fn work_of(work: Work, a: &Number, b: &Number) -> u64 {
        if a.is_infinite() || b.is_infinite() {
            return 0;
        }
        // An integer that fits a machine word: 19 digits above the point.
        let word = (19, 0);
        match (a.extent(), b.extent()) {
            (None, None) => 0,
            (x, y) => Number::work_of_extents(work, x.unwrap_or(word), y.unwrap_or(word)),
        }
    }

    /// [`Number::work_of`] for operands of the given extents.
    fn work_of_extents(work: Work, a: (i64, i64), b: (i64, i64)) -> u64 {
        let aligned = Number::words_between(a.0.max(b.0), a.1.min(b.1));
        let (a_words, b_words) = (
            Number::words_between(a.0, a.1),
            Number::words_between(b.0, b.1),
        );
        let operation = match work {
            Work::Aligned => 0,
            Work::Product => a_words.saturating_mul(b_words),
            Work::Quotient => {
                let dividend = aligned.max(b_words.saturating_add(words(PRECISION + 2)));
                dividend.saturating_mul(b_words)
            }
        };
        pairs(aligned).saturating_add(operation)
    }

    /// An estimate of the work of writing the number as decimal text, or
    /// of reading it from text of as many digits, in bytes of the
    /// evaluation budget: the digits go through a division (or a
    /// multiplication) by a word for each word (half a byte a pair). Nothing for a
    /// number that fits a machine word.
    pub fn text_work(&self) -> u64 {
        match self.extent() {
            Some((top, bottom)) => pairs(Number::words_between(top, bottom)),
            None => 0,
        }
    }

    /// [`Number::text_work`] of a numeral of `digits` digits. Reading a
    /// longer numeral converts at most [`MAX_INTEGER_DIGITS`] of its digits
    /// (and a few more) to binary: a longer integer is rejected, and a
    /// longer fraction rounded, after a scan in linear time. So the work
    /// counted stops growing there.
    pub fn text_work_of_digits(digits: u64) -> u64 {
        if digits <= 19 {
            return 0;
        }
        let converted = digits.min(MAX_INTEGER_DIGITS as u64 + PRECISION + 2);
        pairs(words(converted))
    }
}

/// `a / b` for finite `a` and non-zero `b`.
fn divide_finite(a: &BigDecimal, b: &BigDecimal) -> Result<Number, NumberError> {
    let (ma, sa) = a.as_bigint_and_exponent();
    let (mb, sb) = b.as_bigint_and_exponent();
    if ma.is_zero() {
        return Ok(Number::zero());
    }
    // Scale the dividend so the integer quotient has at least PRECISION + 2
    // digits, then keep a sticky digit for a non-zero remainder so that the
    // final rounding to PRECISION digits is correct.
    let extra = (PRECISION as i64 + 2 + b.digits() as i64 - a.digits() as i64).max(0);
    let numerator = ma * power_of_ten(extra as u64);
    let quotient = &numerator / &mb;
    let remainder = &numerator - &quotient * &mb;
    let scale = sa - sb + extra;
    if remainder.is_zero() {
        return Number::finite(BigDecimal::new(quotient, scale));
    }
    let sticky = if (numerator.sign() == Sign::Minus) != (mb.sign() == Sign::Minus) {
        -1
    } else {
        1
    };
    Number::finite(BigDecimal::new(quotient * 10 + sticky, scale + 1))
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Number {}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Number) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// "Positive infinity is greater than any other number value, and negative
/// infinity is less than any other number value."
///
/// Spec: spec.md § Primitive Types
impl Ord for Number {
    fn cmp(&self, other: &Number) -> Ordering {
        fn rank(n: &Number) -> i8 {
            match n {
                Number::NegativeInfinity => -1,
                Number::Finite(_) => 0,
                Number::PositiveInfinity => 1,
            }
        }
        match (self, other) {
            (Number::Finite(Decimal(Small(a))), Number::Finite(Decimal(Small(b)))) => a.cmp(b),
            (Number::Finite(a), Number::Finite(b)) => a.to_big().cmp(&b.to_big()),
            _ => rank(self).cmp(&rank(other)),
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_decimal_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> Number {
        Number::parse_decimal(text, true).unwrap()
    }

    #[test]
    fn keeps_integers_exact() {
        let text = "1".repeat(300);
        assert_eq!(n(&text).to_decimal_string(), text);
        assert_eq!(n("-12.500").to_decimal_string(), "-12.5");
        assert_eq!(n("1e3").to_decimal_string(), "1000");
        assert_eq!(n("0.000").to_decimal_string(), "0");
    }

    #[test]
    fn equal_numbers_have_equal_representations() {
        let integers = [
            0,
            1,
            -1,
            7,
            10,
            -120,
            8000,
            65535,
            100_000,
            i64::MAX,
            i64::MIN,
        ];
        let from_text = integers.map(|i| (Number::from_i64(i), n(&i.to_string())));
        for (a, b) in [
            (Number::from_i64(8000), n("8e3")),
            (Number::from_i64(-120), n("-120.00")),
        ]
        .into_iter()
        .chain(from_text)
        {
            match (a, b) {
                (Number::Finite(Decimal(Small(x))), Number::Finite(Decimal(Small(y)))) => {
                    assert_eq!(x, y)
                }
                (Number::Finite(Decimal(Big(x))), Number::Finite(Decimal(Big(y)))) => {
                    assert_eq!(x.as_bigint_and_exponent(), y.as_bigint_and_exponent())
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn huge_exponents_are_cheap() {
        assert_eq!(
            Number::parse_decimal("1e999999999", true),
            Err(NumberError::Overflow)
        );
        assert_eq!(n("1e-999999999"), Number::zero());
        assert_eq!(
            Number::parse_decimal("1e99999999999999999999999", true),
            Err(NumberError::Overflow)
        );
    }

    #[test]
    fn rounds_long_fractions_half_even() {
        let long = format!("0.{}", "9".repeat(150));
        assert_eq!(n(&long), n("1"));
        let third = n("1").divide(&n("3")).unwrap();
        assert_eq!(third.to_decimal_string(), format!("0.{}", "3".repeat(100)));
        let two_thirds = n("2").divide(&n("3")).unwrap();
        assert_eq!(
            two_thirds.to_decimal_string(),
            format!("0.{}7", "6".repeat(99))
        );
    }

    #[test]
    fn the_work_of_an_operation_grows_with_the_digits_it_goes_through() {
        let small = Number::from_i64(123);
        assert_eq!(Number::work_of(Work::Product, &small, &small), 0);
        assert_eq!(
            Number::work_of(Work::Aligned, &small, &Number::PositiveInfinity),
            0
        );
        // 1e39999 + 1e-39999 aligns 80,000 digits: about 4,200 words.
        let (huge, tiny) = (n("1e39999"), n("1e-39999"));
        assert!(Number::work_of(Work::Aligned, &huge, &tiny) >= 4_100 * 4_100 / 2);
        // Digits far apart on one side of the point cost the same.
        let sum = Number::work_of(Work::Aligned, &huge, &small);
        assert!(sum >= 2_000 * 2_000 / 2, "{sum}");
        // A product of two 20,000-digit numbers: a thousand words each.
        let wide = n(&"9".repeat(20_000));
        let product = Number::work_of(Work::Product, &wide, &wide);
        assert!(product >= 1_000 * 1_000 + Number::work_of(Work::Aligned, &wide, &wide));
        assert!(Number::work_of(Work::Quotient, &wide, &small) > 0);
        // Text: quadratic in the words, nothing for a machine word.
        assert_eq!(small.text_work(), 0);
        assert_eq!(wide.text_work(), Number::text_work_of_digits(20_000));
        assert!(Number::text_work_of_digits(40_000) >= 3 * Number::text_work_of_digits(20_000));
        // The digits' memory: 20,000 digits take about 8.3 KB.
        assert!(
            (8_300..8_400).contains(&wide.heap_bytes()),
            "{}",
            wide.heap_bytes()
        );
    }

    #[test]
    fn infinities_order_and_arithmetic() {
        assert!(Number::PositiveInfinity > n("1e39000"));
        assert!(Number::NegativeInfinity < n("-1e39000"));
        assert_eq!(
            Number::PositiveInfinity.add(&Number::NegativeInfinity),
            Err(NumberError::NotANumber)
        );
        assert_eq!(
            n("1").divide(&Number::zero()),
            Err(NumberError::DivisionByZero)
        );
        assert_eq!(n("-7").remainder(&n("3")).unwrap(), n("-1"));
    }
}
