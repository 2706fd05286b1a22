//! What the tests of `hcl-ref`'s answers share (`hcl_ref`,
//! `protocol_fuzz`): reading JSON of any depth, and measuring it.

use serde::Deserialize;
use serde_json::Value as Json;

/// Parses JSON of any depth, without a recursion limit (the callers run on
/// a large stack).
pub fn parse_deep(text: &str) -> Option<Json> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let parsed = Json::deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some(parsed)
}

/// How deep a JSON value nests (counted without recursion).
pub fn nesting(v: &Json) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(v, 0)];
    while let Some((v, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        match v {
            Json::Array(items) => stack.extend(items.iter().map(|i| (i, depth + 1))),
            Json::Object(members) => stack.extend(members.values().map(|m| (m, depth + 1))),
            _ => {}
        }
    }
    deepest
}
