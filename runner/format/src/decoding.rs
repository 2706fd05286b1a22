//! The protocol's values read from JSON straight into the interpreter's
//! values, and paid for from an evaluation budget (runner/PROTOCOL.md
//! § Values, § Limits).
//!
//! A request's values can be far larger in memory than in text (a
//! one-attribute object is a few bytes of JSON and a whole tree node of
//! the interpreter), so the implementation side (`hcl-ref`) charges what
//! reading a request builds to the request's evaluation budget: the JSON
//! tree of the request line ([`json_within`]) and every value and type
//! decoded from it ([`within_request_budget`]). A request beyond the budget then
//! ends in the budget's diagnostic before it is built, whatever its size.

use crate::kinds::MAX_DEPTH;
use hcl_interpreter::budget::{sequence_bytes, text_bytes, tree_bytes, Budget, BudgetExceeded};
use hcl_interpreter::diagnostic::{quoted, shown};
use hcl_interpreter::number::Number;
use hcl_interpreter::value::nfc;
use hcl_interpreter::{Type, Value};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value as Json};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;

thread_local! {
    /// The budget of the request being read or answered on this thread,
    /// while [`within_request_budget`] runs. Serde's `Deserialize` and
    /// `Serialize` take no argument beyond the data, so the budget is set
    /// here for the time the request is read or its answer written.
    static REQUEST_BUDGET: RefCell<Option<Budget>> = const { RefCell::new(None) };
}

/// Runs `work` (reading a request, writing its answer) with `budget` as the
/// request's budget, and gives the budget back. The values and types read
/// through [`crate::wire::Val`] and [`crate::wire::Ty`] are paid for from
/// it, and so is the work of writing an answer's large numbers as text. A
/// value read beyond the budget fails with the budget's summary, and the
/// budget says so ([`Budget::is_exceeded`]).
pub fn within_request_budget<R>(budget: Budget, work: impl FnOnce() -> R) -> (R, Budget) {
    REQUEST_BUDGET.with_borrow_mut(|slot| *slot = Some(budget));
    let done = work();
    let budget = REQUEST_BUDGET
        .with_borrow_mut(Option::take)
        .unwrap_or_default();
    (done, budget)
}

/// Runs `f` with the budget of the request under way, if any (the runner,
/// reading answers and writing requests, has none).
pub fn with_request_budget<R>(f: impl FnOnce(Option<&Budget>) -> R) -> R {
    REQUEST_BUDGET.with_borrow(|budget| f(budget.as_ref()))
}

/// Reads a type in go-cty's JSON type encoding.
pub fn type_from_json(json: &Json, depth: usize) -> Result<Type, String> {
    if depth > MAX_DEPTH {
        return Err("a type nested too deeply".into());
    }
    let inner = |j: &Json| type_from_json(j, depth + 1);
    let parts = json
        .as_array()
        .map(|p| (p.first().and_then(Json::as_str), p.get(1..)));
    Ok(match (json.as_str(), parts) {
        (Some("string"), _) => Type::String,
        (Some("number"), _) => Type::Number,
        (Some("bool"), _) => Type::Bool,
        (Some("dynamic"), _) => Type::Dynamic,
        (Some(other), _) => return Err(format!("unknown type name {}", quoted(other))),
        (_, Some((Some("list"), Some([e])))) => Type::list(inner(e)?),
        (_, Some((Some("set"), Some([e])))) => Type::set(inner(e)?),
        (_, Some((Some("map"), Some([e])))) => Type::map(inner(e)?),
        (_, Some((Some("tuple"), Some([Json::Array(elements)])))) => {
            Type::Tuple(elements.iter().map(inner).collect::<Result<_, _>>()?)
        }
        // go-cty writes an object type with optional attributes (a type
        // constraint) with a third element, the optional attributes' names:
        // the information model has no optional attributes, so the list is
        // checked and otherwise ignored.
        (_, Some((Some("object"), Some([Json::Object(attributes), optional @ ..]))))
            if optional.len() < 2
                && optional.iter().all(|names| {
                    let names = names.as_array().map(|n| n.iter().map(Json::as_str));
                    names.is_some_and(|mut n| {
                        n.all(|n| n.is_some_and(|n| attributes.contains_key(n)))
                    })
                }) =>
        {
            // Attribute names are strings: read in NFC, as a value's keys
            // are (spec.md § Primitive Types: two strings are equal when
            // their NFC forms are), so that an object's type and its value
            // name attributes alike.
            let mut named = std::collections::BTreeMap::new();
            for (k, t) in attributes {
                let name = hcl_interpreter::value::nfc(k);
                if named.insert(name.clone(), inner(t)?).is_some() {
                    return Err(format!(
                        "an object type names the attribute {} twice (in NFC)",
                        shown(&Json::String(name))
                    ));
                }
            }
            Type::Object(named)
        }
        _ => return Err(format!("not a type: {}", shown(json))),
    })
}

/// The budget's failure as a decoding error.
fn exceeded(exceeded: BudgetExceeded) -> String {
    format!("{}: {}", BudgetExceeded::SUMMARY, exceeded.detail())
}

/// Pays `bytes` from `budget`, if there is one.
fn charge(budget: Option<&Budget>, bytes: u64) -> Result<(), String> {
    match budget {
        Some(budget) => budget.charge(bytes).map_err(exceeded),
        None => Ok(()),
    }
}

/// Pays for a copy of `ty` from `budget`, if there is one.
fn charge_type(budget: Option<&Budget>, ty: &Type) -> Result<(), String> {
    match budget {
        Some(budget) => budget.charge_type(ty).map_err(exceeded),
        None => Ok(()),
    }
}

/// Reads a value encoded as `{"type", "value", "unknown"}`, paying for it
/// from `budget` when there is one (see [`crate::wire::value_from_json`]).
pub(crate) fn value_within(json: &Json, budget: Option<&Budget>) -> Result<Value, String> {
    let Json::Object(fields) = json else {
        return Err(format!(
            "a value is an object with `type` and `value`, not {json}"
        ));
    };
    if let Some(extra) = fields
        .keys()
        .find(|k| !["type", "value", "unknown"].contains(&k.as_str()))
    {
        return Err(format!("a value has no member `{}`", shown(extra)));
    }
    let ty = type_from_json(fields.get("type").ok_or("a value lacks its `type`")?, 0)?;
    charge_type(budget, &ty)?;
    let value = fields.get("value").unwrap_or(&Json::Null);
    let marks = fields.get("unknown").unwrap_or(&Json::Bool(false));
    Reader { budget }.value(value, marks, &ty, &Path::Root)
}

/// Where a part of a value is, for error messages: `value[2].name`. Built
/// as the reader descends, written out only for an error.
enum Path<'a> {
    Root,
    Index(&'a Path<'a>, usize),
    Key(&'a Path<'a>, &'a str),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Iteratively, innermost step first, then reversed: paths are as
        // deep as values (at most MAX_DEPTH levels).
        let mut steps = Vec::new();
        let mut path = self;
        loop {
            match path {
                Path::Root => break,
                Path::Index(parent, i) => {
                    steps.push(format!("[{i}]"));
                    path = parent;
                }
                Path::Key(parent, key) => {
                    steps.push(format!(".{}", shown(key)));
                    path = parent;
                }
            }
        }
        f.write_str("value")?;
        steps.iter().rev().try_for_each(|step| f.write_str(step))
    }
}

/// A JSON value and its unknown marks read as a value of a type, each
/// part paid for from the budget before it is built.
struct Reader<'b> {
    budget: Option<&'b Budget>,
}

impl Reader<'_> {
    /// The value `json` of type `ty`, whose unknown marks are `marks`
    /// (runner/PROTOCOL.md § Values): `true` for an unknown value (written
    /// `null`), an array mirroring a sequence, an object naming the keys of
    /// a mapping that hold unknowns, `false` or `null` for none.
    ///
    /// Strings and keys are normalized to NFC; the keys of a mapping are
    /// distinct after it, an object has exactly its type's attributes, a
    /// set's elements are distinct, a tuple has its type's length.
    fn value(&self, json: &Json, marks: &Json, ty: &Type, path: &Path) -> Result<Value, String> {
        if check_marks(json, marks)? {
            charge_type(self.budget, ty)?;
            return Ok(Value::Unknown(ty.clone()));
        }
        let fail = |why: String| Err(format!("{path}: {why}"));
        match (ty, json) {
            (_, Json::Null) => {
                charge_type(self.budget, ty)?;
                Ok(Value::Null(ty.clone()))
            }
            (Type::Number, Json::Number(n)) => self.number(&n.to_string()).or_else(fail),
            (_, Json::Number(_)) => fail(format!("a number is not a value of {}", shown(ty))),
            (Type::Dynamic, _) => {
                fail("the dynamic pseudo-type (`any`) has only null and unknown values".into())
            }
            (Type::String, Json::String(s)) => {
                charge(self.budget, text_bytes(s.len()))?;
                Ok(Value::String(nfc(s)))
            }
            (Type::String, other) => fail(format!(
                "a string must be a JSON string, not {}",
                describe(other)
            )),
            (Type::Bool, Json::Bool(b)) => Ok(Value::Bool(*b)),
            (Type::Number, Json::String(s)) => self.number(s).or_else(fail),
            (Type::Number, other) => fail(format!("{} is not a number", describe(other))),
            (Type::Tuple(types), Json::Array(items)) if items.len() != types.len() => {
                fail(format!(
                    "a {} has {} elements, not {}",
                    shown(ty),
                    types.len(),
                    items.len()
                ))
            }
            (Type::List(_) | Type::Set(_) | Type::Tuple(_), Json::Array(items)) => {
                self.sequence(items, marks, ty, path)
            }
            (Type::Map(_) | Type::Object(_), Json::Object(entries)) => {
                self.mapping(entries, marks, ty, path)
            }
            (ty, other) => fail(format!(
                "{} is not a value of {}",
                describe(other),
                shown(ty)
            )),
        }
    }

    /// A list, set or tuple (`ty`) of `items`: a set's elements are
    /// distinct.
    fn sequence(
        &self,
        items: &[Json],
        marks: &Json,
        ty: &Type,
        path: &Path,
    ) -> Result<Value, String> {
        let no_marks = Json::Bool(false);
        let mark_at = |i: usize| marks.get(i).unwrap_or(&no_marks);
        let element = match ty {
            Type::List(element) | Type::Set(element) => element,
            Type::Tuple(types) => {
                let elements = self.elements(items, &|i| &types[i], &mark_at, path)?;
                return Ok(Value::Tuple(elements));
            }
            _ => return Err(format!("{path}: an array is not a value of {}", shown(ty))),
        };
        charge_type(self.budget, element)?;
        let elements = self.elements(items, &|_| element, &mark_at, path)?;
        let element = (**element).clone();
        let built = match ty {
            Type::Set(_) => Value::set(element, elements),
            _ => Value::list(element, elements),
        };
        let built = built.map_err(|e| e.to_string())?;
        if built.children().len() != items.len() {
            return Err(format!("{path}: the elements of a set must be distinct"));
        }
        Ok(built)
    }

    /// A map or an object (`ty`) of `entries`: an object has exactly its
    /// type's attributes.
    fn mapping(
        &self,
        entries: &Map<String, Json>,
        marks: &Json,
        ty: &Type,
        path: &Path,
    ) -> Result<Value, String> {
        let no_marks = Json::Bool(false);
        let mark_of = |k: &str| marks.get(k).unwrap_or(&no_marks);
        match ty {
            Type::Map(element) => {
                charge_type(self.budget, element)?;
                let entries = self.entries(entries, ty, &|_| Some(element), &mark_of, path)?;
                Value::map((**element).clone(), entries).map_err(|e| e.to_string())
            }
            Type::Object(attributes) => {
                let entries = self.entries(entries, ty, &|k| attributes.get(k), &mark_of, path)?;
                if let Some(missing) = attributes.keys().find(|k| !entries.contains_key(*k)) {
                    return Err(format!(
                        "{path}: attribute {missing:?} of {ty} is missing (write `null` for a null)"
                    ));
                }
                Ok(Value::Object(entries))
            }
            _ => Err(format!("{path}: an object is not a value of {}", shown(ty))),
        }
    }

    /// A number written as a JSON number's text or as a string: a decimal,
    /// `+Inf` or `-Inf`. Reading a long numeral takes time in the square
    /// of its length, paid for before it is read.
    fn number(&self, text: &str) -> Result<Value, String> {
        let n = match text {
            "+Inf" => Number::PositiveInfinity,
            "-Inf" => Number::NegativeInfinity,
            _ => {
                charge(self.budget, Number::text_work_of_digits(text.len() as u64))?;
                Number::parse_decimal(text, true).map_err(|e| {
                    format!("{} is not a number ({e}); write a decimal such as \"-1.5e300\", \"+Inf\" or \"-Inf\"", quoted(text))
                })?
            }
        };
        charge(self.budget, n.heap_bytes())?;
        Ok(Value::Number(n))
    }

    /// The elements of a sequence, the `i`th of type `types(i)`.
    fn elements<'t, 'm>(
        &self,
        items: &[Json],
        types: &dyn Fn(usize) -> &'t Type,
        marks: &dyn Fn(usize) -> &'m Json,
        path: &Path,
    ) -> Result<Vec<Value>, String> {
        charge(self.budget, sequence_bytes::<Value>(items.len()))?;
        let mut elements = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            elements.push(self.value(item, marks(i), types(i), &Path::Index(path, i))?);
        }
        Ok(elements)
    }

    /// The entries of a mapping of type `ty`, the one of key `k` of type
    /// `types(k)` (`None`: the type has no such attribute).
    fn entries<'t, 'm>(
        &self,
        entries: &Map<String, Json>,
        ty: &Type,
        types: &dyn Fn(&str) -> Option<&'t Type>,
        marks: &dyn Fn(&str) -> &'m Json,
        path: &Path,
    ) -> Result<BTreeMap<String, Value>, String> {
        charge(self.budget, tree_bytes::<Value>(entries.len()))?;
        let mut read = BTreeMap::new();
        for (key, v) in entries {
            let fail = |why: String| Err(format!("{path}: {why}"));
            charge(self.budget, text_bytes(key.len()))?;
            let name = nfc(key);
            let Some(element) = types(&name) else {
                return fail(format!("{} has no attribute {}", shown(ty), quoted(&name)));
            };
            let v = self.value(v, marks(key), element, &Path::Key(path, &name))?;
            if read.contains_key(&name) {
                return fail(format!(
                    "the key {} is given twice (after NFC)",
                    quoted(&name)
                ));
            }
            read.insert(name, v);
        }
        Ok(read)
    }
}

/// Checks a value's unknown marks against the value (runner/PROTOCOL.md
/// § Values): `true` when they mark it unknown (it is then written
/// `null`); an array's marks hold one entry per element, an object's name
/// only keys the value has.
fn check_marks(json: &Json, marks: &Json) -> Result<bool, String> {
    match (json, marks) {
        (Json::Null, Json::Bool(true)) => Ok(true),
        (_, Json::Bool(true)) => Err(format!(
            "a value marked unknown (`unknown`: true) is written null, not {}",
            shown(json)
        )),
        (Json::Array(items), Json::Array(marks)) if marks.len() != items.len() => {
            let (m, i) = (marks.len(), items.len());
            Err(format!(
                "the unknown marks hold {m} entries for a sequence of {i}"
            ))
        }
        (Json::Object(entries), Json::Object(marks))
            if !marks.keys().all(|k| entries.contains_key(k)) =>
        {
            let extra = marks.keys().find(|k| !entries.contains_key(*k));
            let extra = extra.map(|e| quoted(e).to_string()).unwrap_or_default();
            Err(format!(
                "the unknown marks name {extra}, which the value lacks"
            ))
        }
        (Json::Array(_), Json::Array(_) | Json::Bool(false) | Json::Null)
        | (Json::Object(_), Json::Object(_) | Json::Bool(false) | Json::Null) => Ok(false),
        (_, Json::Array(_) | Json::Object(_)) => Err(format!(
            "unknown marks are an array for a sequence and an object for a mapping, not {} for {}",
            shown(marks),
            shown(json)
        )),
        (_, Json::Bool(false) | Json::Null) => Ok(false),
        (_, other) => Err(format!(
            "unknown marks are true, false, arrays or objects, not {}",
            shown(other)
        )),
    }
}

/// What a JSON value is, for error messages.
fn describe(json: &Json) -> String {
    match json {
        Json::Null => "null".into(),
        Json::Bool(b) => format!("the bool {b}"),
        Json::Number(n) => format!("the number {}", shown(n)),
        Json::String(s) => format!("the string {}", quoted(s)),
        Json::Array(_) => "an array".into(),
        Json::Object(_) => "an object".into(),
    }
}

/// Reads one JSON value (a request line) into a JSON tree, paying from
/// `budget` for the memory the tree takes beyond the text it holds: each
/// node's slot, each object's tree, each string's allocation (but not its
/// bytes, which are the line's own). A line beyond the budget stops being
/// read there, with the budget's error.
pub fn json_within<'de, D: Deserializer<'de>>(
    deserializer: D,
    budget: &Budget,
) -> Result<Json, D::Error> {
    CountedJson { budget }.deserialize(deserializer)
}

/// A JSON value read while its memory is paid for from `budget`.
#[derive(Clone, Copy)]
struct CountedJson<'b> {
    budget: &'b Budget,
}

impl CountedJson<'_> {
    /// Pays for `bytes`, or fails with the budget's error.
    fn charge<E: serde::de::Error>(self, bytes: u64) -> Result<(), E> {
        self.budget
            .charge(bytes)
            .map_err(|e| E::custom(exceeded(e)))
    }

    /// Pays for a string of `length` bytes beyond its bytes.
    fn charge_string<E: serde::de::Error>(self, length: usize) -> Result<(), E> {
        self.charge(text_bytes(length).saturating_sub(length as u64))
    }
}

impl<'de> DeserializeSeed<'de> for CountedJson<'_> {
    type Value = Json;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for CountedJson<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json::from(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json::from(n))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Json, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Json, E> {
        self.charge_string(s.len())?;
        Ok(Json::String(s.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, s: String) -> Result<Json, E> {
        self.charge_string(s.len())?;
        Ok(Json::String(s))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            if items.len() == items.capacity() {
                let grown = items.capacity().saturating_mul(2).max(4);
                self.charge(sequence_bytes::<Json>(grown))?;
                items.reserve_exact(grown - items.len());
            }
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        // serde_json writes a number of arbitrary precision as a map of
        // one private key to its text: it is read back as serde_json reads
        // it.
        let Some(key) = map.next_key::<String>()? else {
            return Ok(Json::Object(Map::new()));
        };
        if key == "$serde_json::private::Number" {
            let text: String = map.next_value()?;
            self.charge_string(text.len())?;
            return serde_json::from_str::<serde_json::Number>(&text)
                .map(Json::Number)
                .map_err(serde::de::Error::custom);
        }
        let mut object = Map::new();
        let mut next = Some(key);
        while let Some(key) = next {
            // One more entry, and its key.
            let entries = object.len();
            self.charge(tree_bytes::<Json>(entries + 1) - tree_bytes::<Json>(entries))?;
            self.charge_string(key.len())?;
            let value = map.next_value_seed(self)?;
            object.insert(key, value);
            next = map.next_key()?;
        }
        Ok(Json::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hcl_interpreter::budget::allocation as block;

    fn decode(json: Json, budget: &Budget) -> Result<Value, String> {
        value_within(&json, Some(budget))
    }

    #[test]
    fn a_value_is_read_straight_into_the_interpreters() {
        let json = serde_json::json!({
            "type": ["list", ["object", {"a": "number", "b": "string"}]],
            "value": [{"a": "1e400", "b": "x"}, {"a": 2, "b": null}],
            "unknown": [false, {"b": true}],
        });
        let budget = Budget::new(u64::MAX);
        let v = decode(json, &budget).unwrap();
        let Value::List(_, elements) = &v else {
            panic!("{v:?}")
        };
        assert_eq!(elements.len(), 2);
        assert!(matches!(&elements[1], Value::Object(a) if a["b"] == Value::Unknown(Type::String)));
        // What was built was paid for: at least two trees of attributes.
        assert!(
            budget.spent() >= 2 * tree_bytes::<Value>(2),
            "{}",
            budget.spent()
        );
    }

    #[test]
    fn object_attribute_names_are_read_in_nfc_as_the_keys_are() {
        // `é` decomposed (e, U+0301) in the type and in the value: one
        // attribute, named in NFC.
        let json = serde_json::json!({
            "type": ["object", {"e\u{301}": "number"}],
            "value": {"e\u{301}": 0},
        });
        let v = decode(json, &Budget::new(u64::MAX)).unwrap();
        assert_eq!(
            v,
            Value::object([(
                "\u{e9}".to_string(),
                Value::Number(hcl_interpreter::Number::zero())
            )])
        );
        // Two names that are one in NFC are one attribute named twice.
        let twice = serde_json::json!({
            "type": ["object", {"e\u{301}": "number", "\u{e9}": "number"}],
            "value": {"\u{e9}": 0},
        });
        let error = decode(twice, &Budget::new(u64::MAX)).unwrap_err();
        assert!(error.contains("twice"), "{error}");
    }

    #[test]
    fn a_value_beyond_the_budget_is_not_built() {
        // A thousand one-attribute objects: a thousand tree nodes.
        let items: Vec<Json> = (0..1000).map(|_| serde_json::json!({"a": ["x"]})).collect();
        let json = serde_json::json!({
            "type": ["list", ["object", {"a": ["list", "string"]}]],
            "value": items,
        });
        let budget = Budget::new(100 * tree_bytes::<Value>(1));
        let error = decode(json.clone(), &budget).unwrap_err();
        assert!(error.starts_with(BudgetExceeded::SUMMARY), "{error}");
        assert!(budget.is_exceeded());
        let enough = Budget::new(2000 * tree_bytes::<Value>(1));
        assert!(decode(json, &enough).is_ok());
    }

    #[test]
    fn nulls_pay_for_the_type_they_carry() {
        let attributes: serde_json::Map<String, Json> = (0..100)
            .map(|i| (format!("a{i}"), Json::from("number")))
            .collect();
        let element = serde_json::json!(["object", attributes]);
        let json = serde_json::json!({
            "type": ["list", element],
            "value": vec![Json::Null; 1000],
        });
        let budget = Budget::new(u64::MAX);
        decode(json, &budget).unwrap();
        // Each of the thousand nulls holds a type of a hundred attributes.
        assert!(
            budget.spent() >= 1000 * 20 * block(640),
            "{}",
            budget.spent()
        );
    }

    #[test]
    fn errors_name_the_place_and_keep_their_messages() {
        let json = serde_json::json!({
            "type": ["tuple", ["number", ["object", {"a": "bool"}]]],
            "value": [1, {"a": "yes"}],
        });
        let error = value_within(&json, None).unwrap_err();
        assert_eq!(
            error,
            "value[1].a: the string \"yes\" is not a value of bool"
        );
        let json = serde_json::json!({"type": ["set", "number"], "value": [1, 1]});
        let error = value_within(&json, None).unwrap_err();
        assert_eq!(error, "value: the elements of a set must be distinct");
        let json =
            serde_json::json!({"type": ["list", "number"], "value": [1], "unknown": [true, false]});
        let error = value_within(&json, None).unwrap_err();
        assert_eq!(
            error,
            "the unknown marks hold 2 entries for a sequence of 1"
        );
    }

    #[test]
    fn a_request_line_is_read_within_the_budget() {
        let line = format!("[{}]", vec![r#"{"a":["x"]}"#; 1000].join(","));
        let read = |limit| {
            let budget = Budget::new(limit);
            let mut deserializer = serde_json::Deserializer::from_str(&line);
            json_within(&mut deserializer, &budget).map(|json| (json, budget.spent()))
        };
        let (json, spent) = read(u64::MAX).unwrap();
        assert_eq!(json, serde_json::from_str::<Json>(&line).unwrap());
        // Each object takes a node: far more than its 11 bytes of text.
        assert!(spent >= 1000 * tree_bytes::<Json>(1), "{spent}");
        let error = read(spent / 2).unwrap_err();
        assert!(
            error.to_string().contains(BudgetExceeded::SUMMARY),
            "{error}"
        );
        // Numbers of any precision come back as they were written.
        let precise = "[123456789012345678901234567890, 1.5e400]";
        let budget = Budget::new(u64::MAX);
        let mut deserializer = serde_json::Deserializer::from_str(precise);
        let json = json_within(&mut deserializer, &budget).unwrap();
        assert_eq!(json, serde_json::from_str::<Json>(precise).unwrap());
    }
}
