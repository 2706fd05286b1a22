//! The protocol's JSON read strictly (`runner/PROTOCOL.md` § Requests,
//! § Errors): a member named twice in one object, and a request whose
//! members are not those its kind has (missing, of the wrong JSON type,
//! unknown), are found here, before the request is read into its kind's
//! input, and said in the protocol's own words: JSON members, never a case
//! file's YAML.
//!
//! A type or a value is checked here only for where it stands; its readers
//! ([`crate::wire::type_from_json`], [`crate::wire::value_from_json`]) say
//! what is wrong inside it.

use crate::kinds::{Keyword, Kind, MAX_DEPTH};
use hcl_interpreter::diagnostic::{quoted, shown};
use serde_json::{Map, Value as Json};
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

/// A place in a JSON document: the members and elements from its top.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place(Vec<Step>);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Member(String),
    Element(usize),
}

impl Place {
    fn member(&self, name: &str) -> Place {
        let mut place = self.clone();
        place.0.push(Step::Member(name.into()));
        place
    }

    fn element(&self, index: usize) -> Place {
        let mut place = self.clone();
        place.0.push(Step::Element(index));
        place
    }

    /// The top of the document.
    pub fn is_top(&self) -> bool {
        self.0.is_empty()
    }
}

/// Written as the runner's messages write places: the top-level member in
/// backticks, then `.name` and `[index]` (`` `variables`.a.value[2] ``),
/// each name cut as [`shown`] cuts it.
impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Step::Member(name) if i == 0 => write!(f, "`{}`", shown(name))?,
                Step::Member(name) => write!(f, ".{}", shown(name))?,
                Step::Element(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// A member named twice in one JSON object: where the object is, and the
/// name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    pub place: Place,
    pub name: String,
}

impl fmt::Display for Duplicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.place.is_top() {
            write!(f, "{}: ", self.place)?;
        }
        write!(f, "the member `{}` appears twice", shown(&self.name))
    }
}

/// The first member named twice in one object of the JSON text `text`
/// (which a JSON parser has accepted), with where its object is; names are
/// compared as the strings they denote (`"a"` and `"\u0061"` are one name).
///
/// JSON parsers keep one of the two (serde_json the last) without a word;
/// the protocol does not allow them. The scan is linear and does not
/// recurse, whatever the depth.
pub fn duplicate_member(text: &str) -> Option<Duplicate> {
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut spare: Vec<Names> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i;
                i += 1;
                let mut escaped = false;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        escaped = true;
                        i += 1;
                    }
                    i += 1;
                }
                if let Some(Frame::Object {
                    names,
                    current,
                    expecting_name: expecting_name @ true,
                }) = stack.last_mut()
                {
                    *expecting_name = false;
                    let name = match (escaped, text.get(start..=i)) {
                        (false, Some(literal)) => Cow::Borrowed(&literal[1..literal.len() - 1]),
                        (true, Some(literal)) => {
                            Cow::Owned(serde_json::from_str::<String>(literal).unwrap_or_default())
                        }
                        (_, None) => return None,
                    };
                    if !names.insert(name.clone()) {
                        let place = stack_place(&stack[..stack.len() - 1]);
                        return Some(Duplicate {
                            place,
                            name: name.into_owned(),
                        });
                    }
                    *current = Some(name);
                }
            }
            b'{' => stack.push(Frame::Object {
                names: spare.pop().unwrap_or_default(),
                current: None,
                expecting_name: true,
            }),
            b'[' => stack.push(Frame::Array(0)),
            b',' => match stack.last_mut() {
                Some(Frame::Object { expecting_name, .. }) => *expecting_name = true,
                Some(Frame::Array(index)) => *index += 1,
                None => {}
            },
            b'}' | b']' => {
                if let Some(Frame::Object { mut names, .. }) = stack.pop() {
                    names.clear();
                    spare.push(names);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// In [`duplicate_member`]'s scan: an object's member names, and the name
/// of the member being read; an array's index.
enum Frame<'a> {
    Object {
        names: Names<'a>,
        current: Option<Cow<'a, str>>,
        expecting_name: bool,
    },
    Array(usize),
}

/// The place of the innermost value of `stack`'s frames.
fn stack_place(stack: &[Frame]) -> Place {
    let steps = stack.iter().filter_map(|frame| match frame {
        Frame::Object { current, .. } => Some(Step::Member(current.as_deref()?.into())),
        Frame::Array(index) => Some(Step::Element(*index)),
    });
    Place(steps.collect())
}

/// The member names of one object: in a list while there are few, in a set
/// once there are many.
#[derive(Default)]
struct Names<'a> {
    few: Vec<Cow<'a, str>>,
    many: HashSet<Cow<'a, str>>,
}

impl<'a> Names<'a> {
    const FEW: usize = 16;

    /// Adds a name; false if it is already there.
    fn insert(&mut self, name: Cow<'a, str>) -> bool {
        if self.few.len() < Self::FEW {
            if self.few.contains(&name) {
                return false;
            }
            self.few.push(name);
            return true;
        }
        if self.many.is_empty() {
            self.many.extend(self.few.iter().cloned());
        }
        self.many.insert(name)
    }

    fn clear(&mut self) {
        self.few.clear();
        self.many.clear();
    }
}

/// What a JSON value is, as messages name it: `a number`, `an object`...
pub fn json_kind(json: &Json) -> &'static str {
    match json {
        Json::Null => "null",
        Json::Bool(_) => "a bool",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// What a member of a request holds.
#[derive(Clone, Copy)]
enum Shape {
    /// A string: source text, a name, a keyword.
    Text,
    Bool,
    /// A non-negative integer.
    Count,
    /// A type, read by [`crate::wire::type_from_json`].
    Type,
    /// A value, read by [`crate::wire::value_from_json`].
    Value,
    /// An array of elements of a shape.
    Array(&'static Shape),
    /// An array of two elements of a shape.
    Two(&'static Shape),
    /// An object: a variable's name -> its value.
    Variables,
    /// How a body is processed: `"attributes"`, or an object of
    /// [`SCHEMA`]'s members.
    Schema,
    /// An attribute schema: its name, or an object of [`ATTRIBUTE`]'s
    /// members.
    Attribute,
    /// An object of these members.
    Object(&'static Members),
    /// Null, or a value of a shape.
    Nullable(&'static Shape),
}

/// The members of an object.
struct Members {
    /// What the object is, for messages.
    what: &'static str,
    members: &'static [Member],
}

struct Member {
    name: &'static str,
    required: bool,
    shape: Shape,
}

const fn required(name: &'static str, shape: Shape) -> Member {
    Member {
        name,
        required: true,
        shape,
    }
}

const fn optional(name: &'static str, shape: Shape) -> Member {
    Member {
        name,
        required: false,
        shape,
    }
}

const TEXTS: Shape = Shape::Array(&Shape::Text);

/// The members of each kind's request (runner/PROTOCOL.md § Requests),
/// beside `id` and `kind`: every member the table of requests names is
/// required, but for `extensions`, `schema` and `literal_only`.
fn request_members(kind: Kind) -> &'static [Member] {
    const CONVERT: &[Member] = &[required("value", Shape::Value), required("to", Shape::Type)];
    const UNIFY: &[Member] = &[required("types", Shape::Array(&Shape::Type))];
    const IDENTICAL: &[Member] = &[required("types", Shape::Two(&Shape::Type))];
    const MATCHES: &[Member] = &[required("type", Shape::Type), required("spec", Shape::Type)];
    const OPERATION: &[Member] = &[
        required("op", Shape::Text),
        required("operands", Shape::Array(&Shape::Value)),
    ];
    const EXPR: &[Member] = &[
        required("expr", Shape::Text),
        required("variables", Shape::Variables),
        optional("extensions", TEXTS),
    ];
    const TEMPLATE: &[Member] = &[
        required("template", Shape::Text),
        required("variables", Shape::Variables),
    ];
    const CONFIG: &[Member] = &[
        required("syntax", Shape::Text),
        required("config", Shape::Text),
        required("variables", Shape::Variables),
        optional("extensions", TEXTS),
        optional("schema", Shape::Nullable(&Shape::Schema)),
        optional("literal_only", Shape::Bool),
    ];
    const STATIC: &[Member] = &[
        required("syntax", Shape::Text),
        required("expr", Shape::Text),
        required("analysis", Shape::Text),
    ];
    const TYPEEXPR: &[Member] = &[
        required("syntax", Shape::Text),
        required("expr", Shape::Text),
        required("constraint", Shape::Bool),
    ];
    match kind {
        Kind::Convert => CONVERT,
        Kind::Unify => UNIFY,
        Kind::Identical => IDENTICAL,
        Kind::Matches => MATCHES,
        Kind::Operation => OPERATION,
        Kind::Expr => EXPR,
        Kind::Template => TEMPLATE,
        Kind::Config => CONFIG,
        Kind::Static => STATIC,
        Kind::TypeExpr => TYPEEXPR,
    }
}

/// A body schema's members.
const SCHEMA: Members = Members {
    what: "a body schema",
    members: &[
        optional("attributes", Shape::Array(&Shape::Attribute)),
        optional("blocks", Shape::Array(&Shape::Object(&BLOCK))),
        optional("remain", Shape::Nullable(&Shape::Schema)),
    ],
};

/// An attribute schema's members.
const ATTRIBUTE: Members = Members {
    what: "an attribute schema",
    members: &[
        required("name", Shape::Text),
        optional("required", Shape::Bool),
    ],
};

/// A block schema's members.
const BLOCK: Members = Members {
    what: "a block schema",
    members: &[
        required("type", Shape::Text),
        optional("labels", TEXTS),
        optional("body", Shape::Schema),
    ],
};

/// The members of a request of kind `kind` (`id` and `kind` aside): each
/// one the kind requires present, each of the JSON type the protocol gives
/// it, and no other.
pub fn check_request(kind: Kind, members: &Map<String, Json>) -> Result<(), String> {
    let what = format!("a request of kind `{}`", kind.name());
    check_members(
        &what,
        request_members(kind),
        &["id", "kind"],
        members,
        &Place::default(),
        0,
    )
}

/// The members of a `hello` request (`id` and `kind` aside).
pub fn check_hello(members: &Map<String, Json>) -> Result<(), String> {
    let protocol = [required("protocol", Shape::Count)];
    check_members(
        "a `hello` request",
        &protocol,
        &["id", "kind"],
        members,
        &Place::default(),
        0,
    )
}

fn check_members(
    what: &str,
    expected: &[Member],
    also: &[&str],
    members: &Map<String, Json>,
    place: &Place,
    depth: usize,
) -> Result<(), String> {
    let at = |message: String| match place.is_top() {
        true => message,
        false => format!("{place}: {message}"),
    };
    for member in expected {
        match members.get(member.name) {
            Some(json) => check(member.shape, json, &place.member(member.name), depth)?,
            None if member.required => {
                let subject = match place.is_top() {
                    true => "the request".to_string(),
                    false => place.to_string(),
                };
                return Err(format!(
                    "{subject} lacks `{}` ({what} requires it)",
                    member.name
                ));
            }
            None => {}
        }
    }
    let known = |name: &str| also.contains(&name) || expected.iter().any(|m| m.name == name);
    if let Some(unknown) = members.keys().find(|name| !known(name)) {
        let names = also.iter().copied().chain(expected.iter().map(|m| m.name));
        let names: Vec<String> = names.map(|name| format!("`{name}`")).collect();
        return Err(at(format!(
            "{what} has no member `{}` (its members: {})",
            shown(unknown),
            names.join(", ")
        )));
    }
    Ok(())
}

fn check(shape: Shape, json: &Json, place: &Place, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!("{place}: a schema nested too deeply"));
    }
    let must_be = |what: &str| Err(format!("{place} must be {what}, not {}", json_kind(json)));
    match (shape, json) {
        (Shape::Type | Shape::Value, _)
        | (Shape::Text, Json::String(_))
        | (Shape::Bool, Json::Bool(_))
        | (Shape::Variables, Json::Object(_))
        | (Shape::Nullable(_), Json::Null) => Ok(()),
        (Shape::Count, Json::Number(n)) if n.as_u64().is_some() => Ok(()),
        (Shape::Text, _) => must_be("a string"),
        (Shape::Bool, _) => must_be("true or false"),
        (Shape::Count, _) => must_be("a whole number"),
        (Shape::Array(element), Json::Array(elements)) => {
            let places = elements
                .iter()
                .enumerate()
                .map(|(i, e)| (e, place.element(i)));
            for (e, place) in places {
                check(*element, e, &place, depth + 1)?;
            }
            Ok(())
        }
        (Shape::Array(_), _) => must_be("an array"),
        (Shape::Two(element), Json::Array(elements)) if elements.len() == 2 => {
            check(Shape::Array(element), json, place, depth)
        }
        (Shape::Two(_), Json::Array(elements)) => Err(format!(
            "{place} must hold two elements, not {}",
            elements.len()
        )),
        (Shape::Two(_), _) => must_be("an array of two"),
        (Shape::Variables, _) => must_be("an object"),
        (Shape::Schema, Json::String(mode)) if mode == "attributes" => Ok(()),
        (Shape::Schema, Json::String(mode)) => Err(format!(
            "{place} must be \"attributes\" or a body schema (an object), not the string {}",
            quoted(mode)
        )),
        (Shape::Schema, Json::Object(members)) => {
            check_members(SCHEMA.what, SCHEMA.members, &[], members, place, depth + 1)
        }
        (Shape::Schema, _) => must_be("\"attributes\" or a body schema (an object)"),
        (Shape::Attribute, Json::String(_)) => Ok(()),
        (Shape::Attribute, Json::Object(members)) => check_members(
            ATTRIBUTE.what,
            ATTRIBUTE.members,
            &[],
            members,
            place,
            depth + 1,
        ),
        (Shape::Attribute, _) => must_be("an attribute name or an attribute schema (an object)"),
        (Shape::Object(m), Json::Object(members)) => {
            check_members(m.what, m.members, &[], members, place, depth + 1)
        }
        (Shape::Object(m), _) => must_be(&format!("{} (an object)", m.what)),
        (Shape::Nullable(inner), _) => check(*inner, json, place, depth),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duplicate(text: &str) -> Option<String> {
        duplicate_member(text).map(|d| d.to_string())
    }

    #[test]
    fn a_member_named_twice_is_found_with_its_place() {
        assert_eq!(duplicate(r#"{"a": 1, "b": [{"c": 2}], "d": {}}"#), None);
        assert_eq!(
            duplicate(r#"{"id": "1", "id": "2"}"#).as_deref(),
            Some("the member `id` appears twice")
        );
        assert_eq!(
            duplicate(r#"{"v": {"a": {"type": "string", "value": {"x": 1, "x": 2}}}}"#).as_deref(),
            Some("`v`.a.value: the member `x` appears twice")
        );
        assert_eq!(
            duplicate(r#"{"l": [0, {"k": 1}, {"k": 1, "k": 2}]}"#).as_deref(),
            Some("`l`[2]: the member `k` appears twice")
        );
        // Names are the strings they denote, escapes read.
        assert_eq!(
            duplicate(r#"{"a\"b": 1, "a\u0022b": 2}"#).as_deref(),
            Some("the member `a\"b` appears twice")
        );
        // Strings that are values, and names in other objects, are not
        // names of this object.
        assert_eq!(
            duplicate(r#"{"a": "a", "b": {"a": 1}, "c": ["a", "a"]}"#),
            None
        );
    }

    #[test]
    fn objects_with_many_members_are_checked_too() {
        let members: Vec<String> = (0..1000).map(|i| format!("\"m{i}\": {i}")).collect();
        let text = format!("{{{}}}", members.join(", "));
        assert_eq!(duplicate(&text), None);
        let text = format!("{{{}, \"m999\": 0}}", members.join(", "));
        assert_eq!(
            duplicate(&text).as_deref(),
            Some("the member `m999` appears twice")
        );
    }

    #[test]
    fn text_that_is_no_json_ends_the_scan_quietly() {
        for text in ["{\"a", "{\"a\": \"", "}}]]", "{\"\\", "{\"a\":1,\"a"] {
            let _ = duplicate_member(text);
        }
    }

    fn request(json: Json) -> Map<String, Json> {
        json.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn each_kind_requires_the_members_the_protocol_names() {
        let expr = request(serde_json::json!({ "id": "1", "kind": "expr", "expr": "1" }));
        assert_eq!(
            check_request(Kind::Expr, &expr),
            Err("the request lacks `variables` (a request of kind `expr` requires it)".into())
        );
        let config = request(serde_json::json!({ "config": "", "variables": {} }));
        assert!(check_request(Kind::Config, &config).is_err_and(|e| e.contains("`syntax`")));
    }

    #[test]
    fn messages_speak_of_json_members() {
        let cases = [
            (
                serde_json::json!({ "expr": 1, "variables": {} }),
                "`expr` must be a string, not a number",
            ),
            (
                serde_json::json!({ "expr": "1", "variables": [] }),
                "`variables` must be an object, not an array",
            ),
            (
                serde_json::json!({ "expr": "1", "variables": {}, "extensions": ["typeexpr", 2] }),
                "`extensions`[1] must be a string, not a number",
            ),
            (
                serde_json::json!({ "expr": "1", "variables": {}, "syntax": "native" }),
                "a request of kind `expr` has no member `syntax` (its members: `id`, `kind`, `expr`, `variables`, `extensions`)",
            ),
        ];
        for (json, message) in cases {
            assert_eq!(
                check_request(Kind::Expr, &request(json)),
                Err(message.into())
            );
        }
        let schema = serde_json::json!({ "syntax": "native", "config": "", "variables": {},
            "schema": { "blocks": [{ "type": "b", "labels": [null] }] } });
        assert_eq!(
            check_request(Kind::Config, &request(schema)),
            Err("`schema`.blocks[0].labels[0] must be a string, not null".into())
        );
        let schema = serde_json::json!({ "syntax": "native", "config": "", "variables": {},
            "schema": { "blocks": [{ "type": "b", "label": [] }] } });
        assert_eq!(
            check_request(Kind::Config, &request(schema)),
            Err("`schema`.blocks[0]: a block schema has no member `label` (its members: `type`, `labels`, `body`)".into())
        );
    }
}
