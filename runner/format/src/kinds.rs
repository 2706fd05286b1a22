//! The case kinds, declared once: what each kind asks of an implementation
//! (its input), and the shapes of results that case files and the protocol
//! share. A case file (`suite/README.md`) and a request
//! (`runner/PROTOCOL.md`) are read and written through these declarations;
//! they differ only in how a type and a value are written, the parameters
//! `T` and `V`: `crate::suite::yaml` for case files, `crate::wire` for the
//! protocol. A member that a case file may leave out but a request must
//! have (runner/PROTOCOL.md § Requests) is named by a schema transform
//! (`require_variables`...), so that the request schema requires it.

use derive_more::{Deref, Display, From};
use hcl_interpreter::bodies::{AttributeSchema, BlockHeaderSchema, BodySchema, BodySpec};
use hcl_interpreter::convert::Safety;
use hcl_interpreter::diagnostic::shown;
use hcl_interpreter::operations::Operation as Op;
use hcl_interpreter::static_analysis::Analysis;
use hcl_interpreter::Phase;
use schemars::{json_schema, JsonSchema, SchemaGenerator};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::collections::BTreeMap;

/// The deepest nesting of a type, a value or a schema that a request or an
/// answer may hold (runner/PROTOCOL.md § Limits): deeper ones are rejected,
/// not recursed into.
pub const MAX_DEPTH: usize = 1000;

/// Text of a case file or a request: source text, a name, a keyword. It
/// must be a string: a YAML scalar that reads as a number, a bool or null
/// (`expr: 42`, `name: true`, `expr: 0x10`) is refused instead of being
/// turned into text that need not be what was written (`0x10` reads as 16).
#[derive(Serialize, JsonSchema, Deref, Display)]
#[serde(transparent)]
#[deref(forward)]
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(pub String);

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text(text.into())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let expecting = "a string: quote it, or write source text as a block scalar (`|`)";
        // Asked for "any" value, serde_norway says what YAML read, and names
        // the scalar's line.
        d.deserialize_any(Expecting::<_, ()>(expecting, |text| Ok(text.into()), None))
    }
}

/// A visitor of a string (read by `.1`) or, when `.2` is given, of a
/// mapping `M`, expecting `.0`.
struct Expecting<T, M>(
    &'static str,
    fn(&str) -> Result<T, String>,
    Option<fn(M) -> T>,
);

impl<'de, T, M: Deserialize<'de>> Visitor<'de> for Expecting<T, M> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.0)
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        (self.1)(text).map_err(E::custom)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        let Some(mapping) = self.2 else {
            return Err(de::Error::invalid_type(de::Unexpected::Map, &self));
        };
        M::deserialize(de::value::MapAccessDeserializer::new(map)).map(mapping)
    }
}

/// A closed set of names written as strings: operations, phases...
pub trait Keyword: Copy + PartialEq + std::fmt::Debug + 'static {
    /// What the names name, for messages.
    const WHAT: &'static str;
    const ALL: &'static [Self];
    fn name(self) -> &'static str;
}

/// A keyword, read and written by its name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deref, From)]
pub struct Named<K>(pub K);

fn names<K: Keyword>() -> Vec<&'static str> {
    K::ALL.iter().map(|k| k.name()).collect()
}

impl<K: Keyword> Serialize for Named<K> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name())
    }
}

impl<'de, K: Keyword> Deserialize<'de> for Named<K> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = Text::deserialize(d)?;
        let known = K::ALL.iter().find(|k| k.name() == &*text).copied();
        let names = || names::<K>().join(", ");
        known.map(Named).ok_or_else(|| {
            de::Error::custom(format!(
                "unknown {} `{}`; it is one of {}",
                K::WHAT,
                shown(&*text),
                names()
            ))
        })
    }
}

impl<K: Keyword> JsonSchema for Named<K> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        K::WHAT.into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> schemars::Schema {
        json_schema!({ "type": "string", "enum": names::<K>() })
    }
}

macro_rules! keyword {
    ($type:ty, $what:literal, $all:expr, $name:expr) => {
        impl Keyword for $type {
            const WHAT: &'static str = $what;
            const ALL: &'static [Self] = $all;
            fn name(self) -> &'static str {
                ($name)(self)
            }
        }
    };
}

keyword!(Op, "operation", &Op::ALL, Op::name);
keyword!(Analysis, "analysis", &Analysis::ALL, Analysis::name);
keyword!(Phase, "phase", &Phase::ALL, Phase::name);
keyword!(Safety, "safety", &Safety::ALL, Safety::name);
keyword!(
    Kind,
    "kind",
    <Kind as strum::VariantArray>::VARIANTS,
    <&str>::from
);
keyword!(
    Syntax,
    "syntax",
    &[Syntax::Native, Syntax::Json],
    <&str>::from
);

/// The concrete syntax of a source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum Syntax {
    #[default]
    Native,
    Json,
}

/// What the implementation is asked to do: one variant per case kind,
/// named by `kind`.
#[derive(Clone, Debug, Serialize, JsonSchema, strum::EnumDiscriminants)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[strum_discriminants(
    name(Kind),
    derive(Hash, PartialOrd, Ord, strum::VariantArray, strum::IntoStaticStr),
    strum(serialize_all = "lowercase")
)]
pub enum Input<T, V> {
    Convert(Convert<T, V>),
    Unify(Unify<T>),
    Identical(Identical<T>),
    Matches(Matches<T>),
    Operation(Operation<V>),
    Expr(Expr<V>),
    Template(Template<V>),
    Config(Config<V>),
    Static(Static),
    TypeExpr(TypeExpr),
}

/// Marks `names` required in a request's schema, though a case file may
/// leave them out.
fn require(schema: &mut schemars::Schema, names: &[&str]) {
    let required = schema
        .ensure_object()
        .entry("required")
        .or_insert_with(|| serde_json::Value::Array(Vec::new()));
    if let serde_json::Value::Array(required) = required {
        for name in names {
            if !required.iter().any(|r| r == name) {
                required.push((*name).into());
            }
        }
    }
}

fn require_variables(schema: &mut schemars::Schema) {
    require(schema, &["variables"]);
}

fn require_syntax(schema: &mut schemars::Schema) {
    require(schema, &["syntax"]);
}

fn require_syntax_and_variables(schema: &mut schemars::Schema) {
    require(schema, &["syntax", "variables"]);
}

fn require_syntax_and_constraint(schema: &mut schemars::Schema) {
    require(schema, &["syntax", "constraint"]);
}

/// Convert a value to a type, unsafe conversions allowed.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Convert<T, V> {
    pub value: V,
    pub to: T,
}

/// Unify a list of types (at least one).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Unify<T> {
    pub types: Vec<T>,
}

/// Are two types identical?
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Identical<T> {
    pub types: [T; 2],
}

/// Does a type match a type specification?
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Matches<T> {
    #[serde(rename = "type")]
    pub ty: T,
    pub spec: T,
}

/// Apply an operation of the native syntax's operators to values.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Operation<V> {
    pub op: Named<Op>,
    pub operands: Vec<V>,
}

/// Evaluate a native-syntax expression; an extension adds functions
/// (`typeexpr`: `convert`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(transform = require_variables)]
#[serde(deny_unknown_fields, bound(deserialize = "V: Deserialize<'de>"))]
pub struct Expr<V> {
    pub expr: Text,
    #[serde(default)]
    pub variables: BTreeMap<Text, V>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<Text>,
}

/// Evaluate a standalone template (template file mode).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(transform = require_variables)]
#[serde(deny_unknown_fields, bound(deserialize = "V: Deserialize<'de>"))]
pub struct Template<V> {
    pub template: Text,
    #[serde(default)]
    pub variables: BTreeMap<Text, V>,
}

/// Parse a configuration file and process its body: without a schema, a
/// native body is evaluated whole and a JSON one read in the dynamic
/// attributes mode; an extension applies to the body (`dynblock`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(transform = require_syntax_and_variables)]
#[serde(deny_unknown_fields, bound(deserialize = "V: Deserialize<'de>"))]
pub struct Config<V> {
    #[serde(default)]
    pub syntax: Named<Syntax>,
    pub config: Text,
    #[serde(default)]
    pub variables: BTreeMap<Text, V>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<Schema>,
    /// Literal-only evaluation mode instead of full expression mode.
    #[serde(default, rename = "literal_only", alias = "literal-only")]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub literal_only: bool,
}

/// Apply a static analysis to an expression.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(transform = require_syntax)]
#[serde(deny_unknown_fields)]
pub struct Static {
    #[serde(default)]
    pub syntax: Named<Syntax>,
    pub expr: Text,
    pub analysis: Named<Analysis>,
}

/// Read an expression as a type expression (ext-typeexpr-README.md): a type
/// constraint (`any` allowed) when `constraint`, else an exact type.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(transform = require_syntax_and_constraint)]
#[serde(deny_unknown_fields)]
pub struct TypeExpr {
    #[serde(default)]
    pub syntax: Named<Syntax>,
    pub expr: Text,
    #[serde(default)]
    pub constraint: bool,
}

impl<'de, T: Deserialize<'de>, V: Deserialize<'de>> Input<T, V> {
    /// Reads the fields of an input of kind `kind`, each straight from `d`,
    /// so that an error keeps the place the format gives it.
    pub fn read<D: Deserializer<'de>>(kind: Kind, d: D) -> Result<Self, D::Error> {
        Ok(match kind {
            Kind::Convert => Input::Convert(Deserialize::deserialize(d)?),
            Kind::Unify => Input::Unify(Deserialize::deserialize(d)?),
            Kind::Identical => Input::Identical(Deserialize::deserialize(d)?),
            Kind::Matches => Input::Matches(Deserialize::deserialize(d)?),
            Kind::Operation => Input::Operation(Deserialize::deserialize(d)?),
            Kind::Expr => Input::Expr(Deserialize::deserialize(d)?),
            Kind::Template => Input::Template(Deserialize::deserialize(d)?),
            Kind::Config => Input::Config(Deserialize::deserialize(d)?),
            Kind::Static => Input::Static(Deserialize::deserialize(d)?),
            Kind::TypeExpr => Input::TypeExpr(Deserialize::deserialize(d)?),
        })
    }
}

impl<T, V> Input<T, V> {
    pub fn kind(&self) -> Kind {
        Kind::from(self)
    }

    /// What the fields alone cannot say: the number of types and operands,
    /// the extensions a kind has, a schema the interpreter takes.
    pub fn check(&self) -> Result<(), String> {
        let known =
            |extensions: &[Text], known: &str| match extensions.iter().find(|e| e.0 != known) {
                Some(e) => Err(format!(
                    "unknown extension `{}` in `extensions` (kind `{}` has: {known})",
                    shown(e),
                    self.kind().name()
                )),
                None => Ok(()),
            };
        match self {
            Input::Unify(u) if u.types.is_empty() => Err("`types` lists at least one type".into()),
            Input::Operation(o) if o.operands.len() != o.op.arity() => Err(format!(
                "`operands`: `{}` takes {} operand(s)",
                o.op.name(),
                o.op.arity()
            )),
            Input::Expr(e) => known(&e.extensions, "typeexpr"),
            Input::Config(c) if c.literal_only && !c.extensions.is_empty() => {
                Err("literal-only mode does not go with `extensions`".into())
            }
            Input::Config(c) => {
                let schema = c.schema.as_ref().map(|s| s.to_body_spec(0)).transpose();
                schema.map_err(|e| format!("`schema`: {e}"))?;
                known(&c.extensions, "dynblock")
            }
            _ => Ok(()),
        }
    }
}

/// How a `config` case processes its bodies (suite/README.md, "Bodies and
/// schemas"): `attributes`, the dynamic attributes mode, or a body schema.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Schema {
    /// `attributes`.
    Mode(Text),
    Body(SchemaBody),
}

/// A body schema, each block type's body schema and, for partial
/// processing, the schema of the remaining body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchemaBody {
    #[serde(default)]
    pub attributes: Vec<AttributeEntry>,
    #[serde(default)]
    pub blocks: Vec<BlockEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remain: Option<Box<Schema>>,
}

/// An attribute schema; a case file may write the name alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct AttributeEntry {
    pub name: Text,
    #[serde(default)]
    pub required: bool,
}

/// A block header schema, and how the block's body is processed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlockEntry {
    #[serde(rename = "type")]
    pub type_name: Text,
    #[serde(default)]
    pub labels: Vec<Text>,
    #[serde(default = "Schema::attributes")]
    pub body: Box<Schema>,
}

impl<'de> Deserialize<'de> for Schema {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mode = |mode: &str| {
            match mode {
            "attributes" => Ok(Schema::Mode(mode.into())),
            other => Err(format!(
                "a body is processed as `attributes` or with a schema (`{{attributes: [...], blocks: [...], remain: ...}}`), not `{}`",
                shown(other)
            )),
        }
        };
        d.deserialize_any(Expecting(
            "`attributes`, or a schema mapping",
            mode,
            Some(Schema::Body),
        ))
    }
}

/// The mapping form of [`AttributeEntry`].
struct AttributeFields(AttributeEntry);

impl<'de> Deserialize<'de> for AttributeFields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        AttributeEntry::deserialize(d).map(AttributeFields)
    }
}

impl<'de> Deserialize<'de> for AttributeEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = |name: &str| {
            Ok(AttributeEntry {
                name: name.into(),
                required: false,
            })
        };
        let expecting = "an attribute name, or a mapping `{name: ..., required: ...}`";
        d.deserialize_any(Expecting(
            expecting,
            name,
            Some(|AttributeFields(entry)| entry),
        ))
    }
}

impl Serialize for AttributeEntry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        AttributeEntry::serialize(self, s)
    }
}

impl Schema {
    fn attributes() -> Box<Schema> {
        Box::new(Schema::Mode("attributes".into()))
    }

    /// The interpreter's body spec; the same block type twice in one schema
    /// is an error, and so is nesting deeper than [`MAX_DEPTH`].
    pub fn to_body_spec(&self, depth: usize) -> Result<BodySpec, String> {
        let Schema::Body(body) = self else {
            return Ok(BodySpec::Attributes);
        };
        if depth > MAX_DEPTH {
            return Err("a schema nested too deeply".into());
        }
        let attributes = body.attributes.iter();
        let attributes = attributes.map(|a| AttributeSchema {
            name: a.name.0.clone(),
            required: a.required,
        });
        let mut schema = BodySchema {
            attributes: attributes.collect(),
            blocks: Vec::new(),
        };
        let mut block_bodies = BTreeMap::new();
        for b in &body.blocks {
            let type_name = b.type_name.0.clone();
            if block_bodies
                .insert(type_name.clone(), b.body.to_body_spec(depth + 1)?)
                .is_some()
            {
                return Err(format!(
                    "the block type `{}` is listed twice in one schema",
                    shown(&type_name)
                ));
            }
            let label_names = b.labels.iter().map(|l| l.0.clone()).collect();
            schema.blocks.push(BlockHeaderSchema {
                type_name,
                label_names,
            });
        }
        let remain = body
            .remain
            .as_ref()
            .map(|r| r.to_body_spec(depth + 1))
            .transpose()?;
        Ok(BodySpec::Schema {
            schema,
            block_bodies,
            remain: remain.map(Box::new),
        })
    }
}

/// The result of a static analysis, every expression as its exact source
/// text and every traversal step as `name`, `.attr` or `[KEY]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(transform = beside_others)]
pub enum StaticShape {
    List(Vec<Text>),
    Map(Vec<Pair>),
    Call(Call),
    Traversal(Vec<Text>),
}

/// In an answer, a static result's member sits beside the id.
fn beside_others(schema: &mut schemars::Schema) {
    let variants = schema.get_mut("oneOf").and_then(|v| v.as_array_mut());
    for variant in variants
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_object_mut())
    {
        variant.remove("additionalProperties");
    }
}

/// A key expression and a value expression of a map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    pub key: Text,
    pub value: Text,
}

/// A function call: the name, and the argument expressions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Call {
    pub name: Text,
    #[serde(default)]
    pub arguments: Vec<Text>,
}

/// A body: its attributes (of type `A`), its blocks in order, and under
/// partial processing the remaining body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "A: Deserialize<'de>"))]
pub struct Body<A> {
    #[serde(default)]
    pub attributes: BTreeMap<Text, A>,
    #[serde(default)]
    pub blocks: Vec<Block<A>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remain: Option<Box<Body<A>>>,
}

impl<A> Default for Body<A> {
    fn default() -> Self {
        Body {
            attributes: BTreeMap::new(),
            blocks: Vec::new(),
            remain: None,
        }
    }
}

/// A block: type, labels and body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "A: Deserialize<'de>"))]
pub struct Block<A> {
    #[serde(rename = "type")]
    pub type_name: Text,
    #[serde(default)]
    pub labels: Vec<Text>,
    #[serde(default)]
    pub body: Body<A>,
}

impl<A> Body<A> {
    /// Every attribute of the body, its blocks and its remaining body.
    pub fn all_attributes(&self) -> Vec<&A> {
        let (mut all, mut stack) = (Vec::new(), vec![self]);
        while let Some(body) = stack.pop() {
            all.extend(body.attributes.values());
            stack.extend(
                body.blocks
                    .iter()
                    .map(|b| &b.body)
                    .chain(body.remain.as_deref()),
            );
        }
        all
    }
}
