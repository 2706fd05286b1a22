//! Conversions to the structural types: tuple and object.
//!
//! Spec: spec.md § Collection and Structural Type Conversions

use super::collection::key_step;
use super::{convert_value, Failure};
use crate::budget::{sequence_bytes, text_bytes, tree_bytes, Budget};
use crate::diagnostic::{quoted, shown};
use crate::types::Type;
use crate::value::Value;
use std::collections::BTreeMap;

/// Converts a list, set or tuple value to a tuple type.
///
/// "It is an error to convert a list or set to a tuple type whose number of
/// elements does not match the list or set length." A tuple converts to
/// another "as long as the tuples have the same length and the elements have
/// convertable types."
///
/// The tuple and its elements are paid for from `budget` as they are
/// built.
///
/// Spec: spec.md § Collection and Structural Type Conversions
pub(crate) fn convert_to_tuple(v: &Value, to: &Type, budget: &Budget) -> Result<Value, Failure> {
    let Type::Tuple(element_types) = to else {
        unreachable!("convert_to_tuple is called with tuple types only")
    };
    let elements = match v {
        Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => elements,
        _ => {
            return Err(Failure::new(format!(
                "a {} value cannot become a tuple",
                v.ty().kind_name()
            )))
        }
    };
    if elements.len() != element_types.len() {
        return Err(Failure::new(format!(
            "a {} of {} elements cannot become a tuple of {}",
            v.ty().kind_name(),
            elements.len(),
            element_types.len()
        )));
    }
    budget.charge(sequence_bytes::<Value>(elements.len()))?;
    let converted = elements
        .iter()
        .zip(element_types)
        .enumerate()
        .map(|(i, (element, ty))| {
            convert_value(element, ty, budget).map_err(|failure| failure.inside(&format!("[{i}]")))
        })
        .collect::<Result<_, _>>()?;
    Ok(Value::Tuple(converted))
}

/// Converts a map or object value to an object type.
///
/// - map to object: "It is an error to convert from a map value whose set of
///   keys does not exactly match the target type's attributes."
/// - object to object: common attributes are converted; "Any attribute
///   present in the target type but not in the source type is populated with
///   a null value of the appropriate type"; source attributes the target
///   lacks are dropped. SPEC-GAP(spec-notes/gaps/object-to-object-conversion.md)
///
/// The object, its names and its attributes (a null for each one the
/// source lacks) are paid for from `budget` as they are built.
///
/// Spec: spec.md § Collection and Structural Type Conversions
pub(crate) fn convert_to_object(v: &Value, to: &Type, budget: &Budget) -> Result<Value, Failure> {
    let Type::Object(attribute_types) = to else {
        unreachable!("convert_to_object is called with object types only")
    };
    budget.charge(tree_bytes::<Value>(attribute_types.len()))?;
    let mut attributes = BTreeMap::new();
    match v {
        Value::Map(_, entries) => {
            if let Some(extra) = entries.keys().find(|k| !attribute_types.contains_key(*k)) {
                return Err(Failure::new(format!(
                    "the map key {} is not an attribute of {}",
                    quoted(extra),
                    shown(to)
                )));
            }
            for (name, ty) in attribute_types {
                let Some(element) = entries.get(name) else {
                    return Err(Failure::new(format!("the map has no key {}", quoted(name))));
                };
                budget.charge(text_bytes(name.len()))?;
                let converted =
                    convert_value(element, ty, budget).map_err(|f| f.inside(&key_step(name)))?;
                attributes.insert(name.clone(), converted);
            }
        }
        Value::Object(source) => {
            for (name, ty) in attribute_types {
                budget.charge(text_bytes(name.len()))?;
                let converted = match source.get(name) {
                    Some(attribute) => convert_value(attribute, ty, budget)
                        .map_err(|f| f.inside(&format!(".{}", shown(name))))?,
                    None => {
                        budget.charge_type(ty)?;
                        Value::Null(ty.clone())
                    }
                };
                attributes.insert(name.clone(), converted);
            }
        }
        _ => {
            return Err(Failure::new(format!(
                "a {} value cannot become an object",
                v.ty().kind_name()
            )))
        }
    }
    Ok(Value::Object(attributes))
}
