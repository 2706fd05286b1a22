//! Conversions to the collection types: list, set and map.
//!
//! Spec: spec.md § Collection and Structural Type Conversions

use super::{convert_value, Failure};
use crate::budget::{sequence_bytes, text_bytes, tree_bytes, Budget};
use crate::diagnostic::{quoted, shown};
use crate::types::Type;
use crate::value::Value;

/// Converts a list, set, tuple, map or object value to a list, set or map
/// type whose element type has been resolved.
///
/// - set to list: "Each set element becomes a corresponding list element, in
///   an undefined order" (here, the set's canonical order);
/// - list to set: "Each distinct list item becomes a distinct set item. If
///   two list items are equal, one of the two is lost in the conversion";
/// - tuple to list: "Each element in turn is converted to the list element
///   type, producing a list of identical length"; tuple to set goes through
///   that list;
/// - object to map: "Each attribute in turn is converted to the map element
///   type, and map element keys are set to the name of each corresponding
///   object attribute."
///
/// The collection, its element type and its elements are paid for from
/// `budget` as they are built.
///
/// Spec: spec.md § Collection and Structural Type Conversions
pub(crate) fn convert_to_collection(
    v: &Value,
    to: &Type,
    budget: &Budget,
) -> Result<Value, Failure> {
    let element_type = to.collection_element().expect("a collection type");
    budget.charge_type(element_type)?;
    let built = match (v, to) {
        (
            Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements),
            Type::List(_) | Type::Set(_),
        ) => {
            budget.charge(sequence_bytes::<Value>(elements.len()))?;
            let converted = convert_elements(elements, element_type, budget)?;
            if matches!(to, Type::List(_)) {
                Value::list(element_type.clone(), converted)
            } else {
                Value::set(element_type.clone(), converted)
            }
        }
        (Value::Map(_, entries) | Value::Object(entries), Type::Map(_)) => {
            budget.charge(tree_bytes::<Value>(entries.len()))?;
            let converted = entries
                .iter()
                .map(|(key, element)| {
                    budget.charge(text_bytes(key.len()))?;
                    convert_value(element, element_type, budget)
                        .map(|value| (key.clone(), value))
                        .map_err(|failure| failure.inside(&key_step(key)))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Value::map(element_type.clone(), converted)
        }
        _ => {
            return Err(Failure::new(format!(
                "a {} value cannot become a {}",
                v.ty().kind_name(),
                shown(to)
            )))
        }
    };
    built.map_err(|e| Failure::new(e.to_string()))
}

fn convert_elements(
    elements: &[Value],
    element_type: &Type,
    budget: &Budget,
) -> Result<Vec<Value>, Failure> {
    elements
        .iter()
        .enumerate()
        .map(|(i, element)| {
            convert_value(element, element_type, budget)
                .map_err(|failure| failure.inside(&format!("[{i}]")))
        })
        .collect()
}

/// The path step for a map key or object attribute name.
pub(crate) fn key_step(key: &str) -> String {
    format!("[{}]", quoted(key))
}
