//! Static analysis of JSON values that represent expressions.
//!
//! Spec: json-spec.md § Static Analysis; spec.md § Static Analysis
//!
//! > Due to the limited expressive power of the JSON syntax alone, use of
//! > these static analyses functions rather than normal expression
//! > evaluation is used as additional context for how a JSON value is to be
//! > interpreted, which means that static analyses can result in a
//! > different interpretation of a given expression than normal evaluation.
//!
//! A value the analysis does not apply to is one diagnostic of
//! [`Phase::Static`] whose range is the whole value.

use super::expression::{eval_node, in_json_source};
use super::parser::{parse_json_text, Node, NodeKind, Property};
use super::string::ContentMap;
use super::with_nesting_limit;
use crate::diagnostic::{Diagnostic, Phase};
use crate::native::ast::node;
use crate::native::Parsed;
use crate::source::{LineIndex, Span};
use crate::static_analysis::{
    apply, Analysis, StaticCall, StaticExpression, StaticPair, StaticResult, Traversal,
};
use crate::value::Value;
use std::rc::Rc;

/// Parses a JSON text and applies the static `analysis` to it, through the
/// same [`StaticExpression`] implementation that the extensions read JSON
/// expressions with ([`JsonExpression`]).
///
/// Parse errors of the JSON text are diagnostics of [`Phase::Parse`]; a
/// value the analysis does not apply to, a string whose content is no
/// native expression included, is one diagnostic of [`Phase::Static`]
/// ([`not_applicable`]).
///
/// Spec: json-spec.md § Static Analysis
pub fn analyze(source: &str, analysis: Analysis) -> Result<StaticResult, Vec<Diagnostic>> {
    with_nesting_limit(None, |depth_limit| {
        let node = parse_json_text(source, depth_limit).map_err(|d| vec![d])?;
        let expression = JsonExpression {
            node: &node,
            source,
        };
        let lines = LineIndex::new(source);
        let found = apply(&expression, analysis, |span| lines.range(span));
        found.ok_or_else(|| not_applicable_native(&node, source, analysis))
    })
}

/// Why a call or traversal analysis does not apply: not a string, content
/// that does not parse as a native expression (the parse error is the
/// detail of a diagnostic of [`Phase::Static`] for the whole value; the
/// JSON text itself parsed), or a native expression the native analysis
/// does not apply to (its diagnostic, traced back into the JSON source).
///
/// Spec: json-spec.md § Static Call, § Static Traversal ("If the original
/// expression is not a string or its contents cannot be parsed as a native
/// syntax expression then static call analysis is not supported")
fn not_applicable_native(node: &Node, source: &str, analysis: Analysis) -> Vec<Diagnostic> {
    let NodeKind::String(content) = &node.kind else {
        return vec![not_applicable(node, analysis, None)];
    };
    if matches!(analysis, Analysis::List | Analysis::Map) {
        return vec![not_applicable(node, analysis, None)];
    }
    let diagnostics = match crate::native::static_analysis::analyze(content, analysis) {
        Err(diagnostics) => diagnostics,
        // The native analysis applies, but its parts cannot be placed in
        // the JSON source.
        Ok(_) => return vec![not_applicable(node, analysis, None)],
    };
    match diagnostics.iter().find(|d| d.phase == Phase::Parse) {
        Some(parse_error) => vec![not_applicable(
            node,
            analysis,
            Some(&parse_error.to_string()),
        )],
        None => in_json_source(diagnostics, source, node.range),
    }
}

/// A JSON value read as an expression, with the source it is in.
#[derive(Clone, Copy, Debug)]
pub struct JsonExpression<'a> {
    pub node: &'a Node,
    pub source: &'a str,
}

impl StaticExpression for JsonExpression<'_> {
    fn span(&self) -> Span {
        span_of(self.node)
    }

    /// "An expression interpreted as a static list must be a JSON array.
    /// Each of the values in the array is interpreted as an expression and
    /// returned."
    ///
    /// Spec: json-spec.md § Static List
    fn static_list(&self) -> Option<Vec<Box<dyn StaticExpression + '_>>> {
        let NodeKind::Array(elements) = &self.node.kind else {
            return None;
        };
        let element = |node| -> Box<dyn StaticExpression + '_> {
            Box::new(JsonExpression {
                node,
                source: self.source,
            })
        };
        Some(elements.iter().map(element).collect())
    }

    /// "An expression interpreted as a static map must be a JSON object.
    /// Each of the key/value pairs in the object is presented as a pair of
    /// expressions": a key is the property name, a string expression.
    ///
    /// Spec: json-spec.md § Static Map
    fn static_map(&self) -> Option<Vec<StaticPair<'_>>> {
        let NodeKind::Object(properties) = &self.node.kind else {
            return None;
        };
        let source = self.source;
        Some(
            properties
                .iter()
                .map(|property| property_pair(property, source))
                .collect(),
        )
    }

    /// "An expression interpreted as a static call must be a string. The
    /// content of the string is interpreted as a native syntax expression
    /// (not a _template_, unlike normal evaluation) and then the static
    /// call analysis is delegated to that expression."
    ///
    /// Spec: json-spec.md § Static Call
    fn static_call(&self) -> Option<StaticCall<'_>> {
        NativeInString::of(self)?.owned_call()
    }

    /// "An expression interpreted as a static traversal must be a string.
    /// The content of the string is interpreted as a native syntax
    /// expression (not a _template_, unlike normal evaluation) and then
    /// static traversal analysis is delegated to that expression."
    ///
    /// Spec: json-spec.md § Static Traversal
    fn static_traversal(&self) -> Option<Traversal> {
        let NodeKind::String(content) = &self.node.kind else {
            return None;
        };
        crate::native::parse_expression(content)
            .ok()?
            .tree()
            .static_traversal()
    }

    fn literal_value(&self) -> Option<Value> {
        eval_node(self.node, self.source, None).ok()
    }
}

/// A property of a JSON object as a pair of a static map.
fn property_pair<'a>(property: &'a Property, source: &'a str) -> StaticPair<'a> {
    (
        Box::new(PropertyName(property)),
        Box::new(JsonExpression {
            node: &property.value,
            source,
        }),
    )
}

/// A property name of a JSON object, as the key expression of a static
/// map: a string.
struct PropertyName<'a>(&'a Property);

impl StaticExpression for PropertyName<'_> {
    fn span(&self) -> Span {
        let range = self.0.name_range;
        Span::new(range.start.byte, range.end.byte)
    }

    fn static_list(&self) -> Option<Vec<Box<dyn StaticExpression + '_>>> {
        None
    }

    fn static_map(&self) -> Option<Vec<StaticPair<'_>>> {
        None
    }

    fn static_call(&self) -> Option<StaticCall<'_>> {
        None
    }

    fn static_traversal(&self) -> Option<Traversal> {
        crate::native::parse_expression(&self.0.name)
            .ok()?
            .tree()
            .static_traversal()
    }

    fn literal_value(&self) -> Option<Value> {
        Some(Value::string(&self.0.name))
    }
}

/// A native expression written in a JSON string: its text, read again for
/// each analysis, and where each byte of the string's content is in the
/// JSON source, so that its parts are given there.
struct NativeInString {
    content: Rc<str>,
    /// The expression's bytes of the content.
    span: Span,
    /// The source offset of each content offset.
    offsets: Rc<[usize]>,
}

impl NativeInString {
    /// The content of a JSON string, as a native expression.
    fn of(expression: &JsonExpression) -> Option<NativeInString> {
        let NodeKind::String(content) = &expression.node.kind else {
            return None;
        };
        let map = ContentMap::new(expression.source, expression.node.range)?;
        Some(NativeInString {
            content: content.as_str().into(),
            span: Span::new(0, content.len()),
            offsets: map.source_offsets().into(),
        })
    }

    fn parsed(&self) -> Option<Parsed<node::Expression>> {
        crate::native::parse_expression(self.content.get(self.span.range())?).ok()
    }

    /// The static call this expression is, its arguments owned.
    fn owned_call(&self) -> Option<StaticCall<'static>> {
        let parsed = self.parsed()?;
        let tree = parsed.tree();
        let call = tree.static_call()?;
        Some(StaticCall {
            name: call.name,
            arguments: call.arguments.iter().map(|e| self.part(e.span())).collect(),
            arguments_span: self.in_source(call.arguments_span),
        })
    }

    /// A part of this expression, at `span` of its own text.
    fn part(&self, span: Span) -> Box<dyn StaticExpression> {
        Box::new(NativeInString {
            content: self.content.clone(),
            span: Span {
                start: self.span.start + span.start,
                end: self.span.start + span.end,
            },
            offsets: self.offsets.clone(),
        })
    }

    /// The source span of a span of this expression's own text.
    fn in_source(&self, span: Span) -> Span {
        let at = |offset: u32| {
            let content_offset = self.span.start as usize + offset as usize;
            self.offsets
                .get(content_offset)
                .or(self.offsets.last())
                .copied()
                .unwrap_or(0)
        };
        Span::new(at(span.start), at(span.end))
    }
}

impl StaticExpression for NativeInString {
    fn span(&self) -> Span {
        self.in_source(Span::new(0, self.span.range().len()))
    }

    fn static_list(&self) -> Option<Vec<Box<dyn StaticExpression + '_>>> {
        let parsed = self.parsed()?;
        let tree = parsed.tree();
        let elements = tree.static_list()?;
        Some(elements.iter().map(|e| self.part(e.span())).collect())
    }

    fn static_map(&self) -> Option<Vec<StaticPair<'_>>> {
        let parsed = self.parsed()?;
        let tree = parsed.tree();
        let pairs = tree.static_map()?;
        Some(
            pairs
                .iter()
                .map(|(k, v)| (self.part(k.span()), self.part(v.span())))
                .collect(),
        )
    }

    fn static_call(&self) -> Option<StaticCall<'_>> {
        self.owned_call()
    }

    fn static_traversal(&self) -> Option<Traversal> {
        self.parsed()?.tree().static_traversal()
    }

    fn literal_value(&self) -> Option<Value> {
        self.parsed()?.tree().literal_value()
    }
}

/// The byte span of a node.
fn span_of(node: &Node) -> Span {
    Span::new(node.range.start.byte, node.range.end.byte)
}

/// The diagnostic of an analysis that does not apply to the value.
fn not_applicable(node: &Node, analysis: Analysis, why: Option<&str>) -> Diagnostic {
    let required = match analysis {
        Analysis::List => "A static list is required: a JSON array.",
        Analysis::Map => "A static map is required: a JSON object.",
        Analysis::Call => {
            "A static call is required: a JSON string holding a function call, like \"f(a, b)\"."
        }
        Analysis::Traversal => {
            "A static traversal is required: a JSON string holding a variable with attribute accesses and constant indexes, like \"a.b[0]\"."
        }
    };
    let detail = match why {
        Some(why) => format!("{required} The string is no native expression: {why}"),
        None => required.to_string(),
    };
    Diagnostic {
        phase: Phase::Static,
        summary: "Invalid expression".into(),
        detail,
        range: Some(node.range),
    }
}

#[cfg(test)]
mod tests;
