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

use super::expression::in_json_source;
use super::on_large_stack;
use super::parser::{parse_json_text, Node, NodeKind};
use super::string::ContentMap;
use crate::diagnostic::{Diagnostic, Phase};
use crate::static_analysis::{Analysis, StaticResult};

/// Parses a JSON text and applies the static `analysis` to it.
///
/// Parse errors of the JSON text are diagnostics of [`Phase::Parse`]; a
/// value the analysis does not apply to, a string whose content is no
/// native expression included, is one diagnostic of [`Phase::Static`].
///
/// Spec: json-spec.md § Static Analysis
pub fn analyze(source: &str, analysis: Analysis) -> Result<StaticResult, Vec<Diagnostic>> {
    on_large_stack(|| {
        let node = parse_json_text(source).map_err(|d| vec![d])?;
        let found = match (analysis, &node.kind) {
            (Analysis::List, NodeKind::Array(elements)) => Some(static_list(elements)),
            (Analysis::Map, NodeKind::Object(_)) => Some(static_map(&node)),
            (Analysis::Call | Analysis::Traversal, NodeKind::String(content)) => {
                return static_native(content, &node, source, analysis)
            }
            _ => None,
        };
        found.ok_or_else(|| vec![not_applicable(&node, analysis, None)])
    })
}

/// "An expression interpreted as a static list must be a JSON array. Each
/// of the values in the array is interpreted as an expression and
/// returned."
///
/// Spec: json-spec.md § Static List
fn static_list(elements: &[Node]) -> StaticResult {
    StaticResult::List(elements.iter().map(|e| e.range).collect())
}

/// "An expression interpreted as a static map must be a JSON object. Each
/// of the key/value pairs in the object is presented as a pair of
/// expressions." A key is the property name as written, quotation marks
/// included: a string expression, which in full expression mode is a
/// template ("evaluating the key expression with a non-`nil` evaluation
/// context will evaluate any template sequences given in the property
/// name"). Duplicate names are all returned, in source order.
///
/// Spec: json-spec.md § Static Map
fn static_map(node: &Node) -> StaticResult {
    let NodeKind::Object(properties) = &node.kind else {
        unreachable!("called on objects only");
    };
    let pairs = properties.iter().map(|p| (p.name_range, p.value.range));
    StaticResult::Map(pairs.collect())
}

/// "An expression interpreted as a static call must be a string. The
/// content of the string is interpreted as a native syntax expression (not
/// a _template_, unlike normal evaluation) and then the static call
/// analysis is delegated to that expression." Likewise for a static
/// traversal.
///
/// "If the original expression is not a string or its contents cannot be
/// parsed as a native syntax expression then static call analysis is not
/// supported": content that does not parse gives a diagnostic of
/// [`Phase::Static`] (whose detail is the parse error), not of
/// [`Phase::Parse`]; the JSON text itself parsed. The ranges of the
/// result (a call's arguments) and of a diagnostic of the native analysis
/// are traced back into the JSON source.
///
/// Spec: json-spec.md § Static Call, § Static Traversal
fn static_native(
    content: &str,
    node: &Node,
    source: &str,
    analysis: Analysis,
) -> Result<StaticResult, Vec<Diagnostic>> {
    let found = crate::native::static_analysis::analyze(content, analysis);
    let diagnostics = match found {
        Ok(StaticResult::Call { name, arguments }) => {
            let Some(map) = ContentMap::new(source, node.range) else {
                return Err(vec![not_applicable(node, analysis, None)]);
            };
            let arguments = arguments.into_iter().map(|r| map.range(r)).collect();
            return Ok(StaticResult::Call { name, arguments });
        }
        Ok(found) => return Ok(found),
        Err(diagnostics) => diagnostics,
    };
    match diagnostics.iter().find(|d| d.phase == Phase::Parse) {
        Some(parse_error) => Err(vec![not_applicable(
            node,
            analysis,
            Some(&parse_error.to_string()),
        )]),
        None => Err(in_json_source(diagnostics, source, node.range)),
    }
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
