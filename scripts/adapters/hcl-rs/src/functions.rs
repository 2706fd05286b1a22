//! The conformance function table (PROTOCOL.md § The conformance function
//! table), written for hcl-rs's own function mechanism (`hcl::eval::FuncDef`).
//!
//! Mapping decisions:
//!
//! - Each parameter is declared with the `ParamType` that says what the
//!   table says (`String`, `Number`, `Array`, `Object`, `Any`), and hcl-rs
//!   checks arguments against it before calling the function. hcl-rs checks
//!   but never converts: `upper(1)` is an error in hcl-rs although the suite
//!   expects `"1"` (spec-notes/gaps/function-argument-conversion.md). That
//!   is hcl-rs's function-call behaviour, so the adapter does not paper over
//!   it by accepting `Any` and converting by hand.
//! - hcl-rs has one kind of sequence (array) and one kind of mapping
//!   (object), and the adapter reports them as tuples and objects
//!   (`values.rs`). The functions follow the table for those types:
//!   `length` and `concat` take arrays (tuples), `length` rejects objects as
//!   go-cty does for object types, `keys` takes objects and gives a tuple of
//!   strings.
//! - Only `coalesce` accepts null (hcl-rs's `Any` lets null through; the
//!   other parameter types reject it).
//! - Where the table unifies types (`coalesce`), the adapter unifies the
//!   types the values show, with the suite's decisions: number and bool
//!   unify to string (spec-notes/gaps/unify-number-bool.md).

use hcl::eval::{Context, FuncArgs, FuncDef, ParamType};
use hcl::{Map, Number, Value};
use std::cmp::Ordering;

/// Declares the ten functions of the table in `ctx`.
pub fn declare_all(ctx: &mut Context) {
    let string = || ParamType::String;
    let number = || ParamType::Number;
    let any_array = || ParamType::array_of(ParamType::Any);
    ctx.declare_func("upper", FuncDef::builder().param(string()).build(upper));
    ctx.declare_func("lower", FuncDef::builder().param(string()).build(lower));
    ctx.declare_func("abs", FuncDef::builder().param(number()).build(abs));
    ctx.declare_func(
        "min",
        FuncDef::builder().variadic_param(number()).build(min),
    );
    ctx.declare_func(
        "max",
        FuncDef::builder().variadic_param(number()).build(max),
    );
    ctx.declare_func(
        "length",
        FuncDef::builder().param(any_array()).build(length),
    );
    ctx.declare_func(
        "concat",
        FuncDef::builder().variadic_param(any_array()).build(concat),
    );
    ctx.declare_func(
        "coalesce",
        FuncDef::builder()
            .variadic_param(ParamType::Any)
            .build(coalesce),
    );
    ctx.declare_func(
        "keys",
        FuncDef::builder()
            .param(ParamType::object_of(ParamType::Any))
            .build(keys),
    );
    ctx.declare_func(
        "join",
        FuncDef::builder()
            .param(string())
            .variadic_param(ParamType::array_of(string()))
            .build(join),
    );
}

/// The string argument at `index` (hcl-rs has checked its type).
fn string_arg(args: &FuncArgs, index: usize) -> Result<&str, String> {
    args.get(index)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("argument {index} must be a string"))
}

/// The number argument at `index` (hcl-rs has checked its type).
fn number_arg(args: &FuncArgs, index: usize) -> Result<Number, String> {
    args.get(index)
        .and_then(Value::as_number)
        .copied()
        .ok_or_else(|| format!("argument {index} must be a number"))
}

/// The simple (one character to one character) upper-case mapping.
///
/// Rust's `char::to_uppercase` is the full mapping; where that gives more
/// than one character the simple mapping leaves the character alone, except
/// for the Greek letters with ypogegrammeni, whose simple mapping is their
/// title-case letter.
fn simple_upper(c: char) -> char {
    let code = u32::from(c);
    let greek_titlecase = match code {
        0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7 => Some(code + 8),
        0x1FB3 | 0x1FC3 | 0x1FF3 => Some(code + 9),
        _ => None,
    };
    if let Some(mapped) = greek_titlecase.and_then(char::from_u32) {
        return mapped;
    }
    let mut full = c.to_uppercase();
    match (full.next(), full.next()) {
        (Some(single), None) => single,
        _ => c,
    }
}

/// The simple lower-case mapping: as `simple_upper`; the one letter whose
/// full lower case is two characters but whose simple lower case exists is
/// the capital I with dot above.
fn simple_lower(c: char) -> char {
    if c == '\u{130}' {
        return 'i';
    }
    let mut full = c.to_lowercase();
    match (full.next(), full.next()) {
        (Some(single), None) => single,
        _ => c,
    }
}

/// `upper(str)`: every letter in upper case (simple case mapping).
fn upper(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::String(
        string_arg(&args, 0)?.chars().map(simple_upper).collect(),
    ))
}

/// `lower(str)`: every letter in lower case (simple case mapping).
fn lower(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::String(
        string_arg(&args, 0)?.chars().map(simple_lower).collect(),
    ))
}

/// `abs(num)`: the absolute value, computed with hcl-rs's own negation.
fn abs(args: FuncArgs) -> Result<Value, String> {
    let n = number_arg(&args, 0)?;
    let zero = Number::from(0u64);
    Ok(Value::Number(if n < zero { -n } else { n }))
}

/// The numbers of a variadic number call, at least one.
fn numbers(args: &FuncArgs, name: &str) -> Result<Vec<Number>, String> {
    if args.is_empty() {
        return Err(format!("{name} needs at least one number"));
    }
    (0..args.len()).map(|i| number_arg(args, i)).collect()
}

/// The number of `numbers` that `keep` prefers over all others.
fn pick(numbers: Vec<Number>, keep: Ordering) -> Value {
    let mut best = numbers[0];
    for n in numbers.into_iter().skip(1) {
        if n.partial_cmp(&best) == Some(keep) {
            best = n;
        }
    }
    Value::Number(best)
}

/// `min(numbers...)`: the smallest of at least one number.
fn min(args: FuncArgs) -> Result<Value, String> {
    Ok(pick(numbers(&args, "min")?, Ordering::Less))
}

/// `max(numbers...)`: the largest of at least one number.
fn max(args: FuncArgs) -> Result<Value, String> {
    Ok(pick(numbers(&args, "max")?, Ordering::Greater))
}

/// `length(collection)`: the number of elements of an array. Objects are
/// refused by the parameter type (the table rejects object types, and an
/// hcl-rs object is reported as one).
fn length(args: FuncArgs) -> Result<Value, String> {
    match args.first() {
        Some(Value::Array(items)) => Ok(Value::from(items.len())),
        _ => Err("length needs a sequence".into()),
    }
}

/// `concat(seqs...)`: the elements of at least one array, in order.
fn concat(args: FuncArgs) -> Result<Value, String> {
    if args.is_empty() {
        return Err("concat needs at least one sequence".into());
    }
    let mut all = Vec::new();
    for arg in args.iter() {
        match arg {
            Value::Array(items) => all.extend(items.iter().cloned()),
            _ => return Err("concat takes sequences only".into()),
        }
    }
    Ok(Value::Array(all))
}

/// `keys(inputMap)`: the attribute names of an object in lexical (byte)
/// order, as a sequence of strings.
fn keys(args: FuncArgs) -> Result<Value, String> {
    match args.first() {
        Some(Value::Object(entries)) => {
            let mut names: Vec<&String> = entries.keys().collect();
            names.sort();
            Ok(Value::Array(
                names
                    .into_iter()
                    .map(|k| Value::String(k.clone()))
                    .collect(),
            ))
        }
        _ => Err("keys needs an object".into()),
    }
}

/// `join(separator, lists...)`: the strings of at least one list, joined.
fn join(args: FuncArgs) -> Result<Value, String> {
    let separator = string_arg(&args, 0)?;
    if args.len() < 2 {
        return Err("join needs at least one list".into());
    }
    let mut parts = Vec::new();
    for list in args.variadic_args() {
        let Value::Array(items) = list else {
            return Err("join takes lists of strings".into());
        };
        for item in items {
            parts.push(
                item.as_str()
                    .ok_or("join takes lists of strings")?
                    .to_string(),
            );
        }
    }
    Ok(Value::String(parts.join(separator)))
}

/// The type an hcl-rs value shows (see `values.rs`), for unification.
#[derive(Debug, Clone, PartialEq)]
enum Shown {
    Dynamic,
    Bool,
    Number,
    String,
    Tuple(Vec<Shown>),
    Object(Vec<(String, Shown)>),
}

/// The type `value` shows.
fn shown(value: &Value) -> Shown {
    match value {
        Value::Null => Shown::Dynamic,
        Value::Bool(_) => Shown::Bool,
        Value::Number(_) => Shown::Number,
        Value::String(_) => Shown::String,
        Value::Array(items) => Shown::Tuple(items.iter().map(shown).collect()),
        Value::Object(entries) => {
            let mut attrs: Vec<(String, Shown)> =
                entries.iter().map(|(k, v)| (k.clone(), shown(v))).collect();
            attrs.sort_by(|a, b| a.0.cmp(&b.0));
            Shown::Object(attrs)
        }
    }
}

/// Unifies two shown types: the dynamic pseudo-type gives way to the
/// other; string absorbs number and bool, and number with bool is string;
/// tuples of one length and objects of one attribute set unify element by
/// element. Anything else has no unification.
fn unify(a: &Shown, b: &Shown) -> Option<Shown> {
    use Shown::*;
    match (a, b) {
        (Dynamic, other) | (other, Dynamic) => Some(other.clone()),
        (x, y) if x == y => Some(x.clone()),
        (String | Number | Bool, String | Number | Bool) => Some(String),
        (Tuple(xs), Tuple(ys)) if xs.len() == ys.len() => xs
            .iter()
            .zip(ys)
            .map(|(x, y)| unify(x, y))
            .collect::<Option<Vec<_>>>()
            .map(Tuple),
        (Object(xs), Object(ys))
            if xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| x.0 == y.0) =>
        {
            xs.iter()
                .zip(ys)
                .map(|(x, y)| unify(&x.1, &y.1).map(|t| (x.0.clone(), t)))
                .collect::<Option<Vec<_>>>()
                .map(Object)
        }
        _ => None,
    }
}

/// Converts `value` to the shown type `to` (which unification guarantees
/// it can reach): numbers and bools to strings as hcl-rs prints them,
/// collections element by element.
fn convert(value: &Value, to: &Shown) -> Value {
    match (value, to) {
        (Value::Number(n), Shown::String) => Value::String(n.to_string()),
        (Value::Bool(b), Shown::String) => Value::String(b.to_string()),
        (Value::Array(items), Shown::Tuple(types)) => Value::Array(
            items
                .iter()
                .zip(types)
                .map(|(item, t)| convert(item, t))
                .collect(),
        ),
        (Value::Object(entries), Shown::Object(types)) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| {
                    let t = types
                        .iter()
                        .find(|(name, _)| name == k)
                        .map_or(&Shown::Dynamic, |(_, t)| t);
                    (k.clone(), convert(v, t))
                })
                .collect::<Map<_, _>>(),
        ),
        (other, _) => other.clone(),
    }
}

/// `coalesce(vals...)`: the first non-null argument, converted to the
/// unification of all the arguments' types.
fn coalesce(args: FuncArgs) -> Result<Value, String> {
    if args.is_empty() {
        return Err("coalesce needs at least one argument".into());
    }
    let mut unified = Shown::Dynamic;
    for arg in args.iter() {
        unified = unify(&unified, &shown(arg)).ok_or("coalesce's arguments have no common type")?;
    }
    let first = args
        .iter()
        .find(|v| !v.is_null())
        .ok_or("coalesce's arguments are all null")?;
    Ok(convert(first, &unified))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hcl::Expression;
    use hcl::eval::Evaluate;

    fn eval(source: &str) -> Result<Value, String> {
        let mut ctx = Context::new();
        declare_all(&mut ctx);
        let expr: Expression = source.parse().map_err(|e| format!("{e}"))?;
        expr.evaluate(&ctx).map_err(|e| e.to_string())
    }

    #[test]
    fn case_mapping_is_simple() {
        assert_eq!(eval(r#"upper("héllo ß")"#), Ok(Value::from("HÉLLO ß")));
        assert_eq!(eval(r#"lower("ÀÉÎ")"#), Ok(Value::from("àéî")));
        assert_eq!(simple_upper('\u{1F80}'), '\u{1F88}');
        assert_eq!(simple_lower('\u{130}'), 'i');
    }

    #[test]
    fn numbers_functions() {
        assert_eq!(eval("abs(-3.5)"), Ok(Value::from(3.5)));
        assert_eq!(eval("min(1.5, 1.25, 2)"), Ok(Value::from(1.25)));
        assert_eq!(eval("max(-1, -2)"), Ok(Value::from(-1)));
        assert!(eval("max()").is_err());
        assert!(eval("min(1, true)").is_err());
    }

    #[test]
    fn collection_functions() {
        assert_eq!(eval(r#"length([1, "a", true])"#), Ok(Value::from(3)));
        assert!(eval("length({a = 1})").is_err());
        assert!(eval(r#"length("abc")"#).is_err());
        assert_eq!(
            eval(r#"keys({b = 1, a = "x"})"#),
            Ok(Value::from_iter(["a", "b"]))
        );
        assert_eq!(
            eval(r#"join("-", ["a"], [], ["b", "c"])"#),
            Ok(Value::from("a-b-c"))
        );
        assert!(eval(r#"join("-")"#).is_err());
        assert!(eval("concat()").is_err());
    }

    #[test]
    fn coalesce_unifies() {
        assert_eq!(eval(r#"coalesce(1, "a")"#), Ok(Value::from("1")));
        assert_eq!(eval("coalesce(null, null, 3)"), Ok(Value::from(3)));
        assert_eq!(eval("coalesce(1, true)"), Ok(Value::from("1")));
        assert!(eval("coalesce(1, [1])").is_err());
        assert!(eval("coalesce(null, null)").is_err());
        assert!(eval("coalesce()").is_err());
    }
}
