//! The types of the information model.
//!
//! Spec: spec.md § Values and Value Types

mod display;

use std::collections::BTreeMap;

/// A type of the information model.
///
/// Object attribute names are kept in a `BTreeMap`, so two object types with
/// the same attributes compare equal whatever order they were written in.
///
/// Spec: spec.md § Primitive Types, § Structural Types, § Collection Types,
/// § Unknown Values and the Dynamic Pseudo-type
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    String,
    Number,
    Bool,
    List(Box<Type>),
    Set(Box<Type>),
    Map(Box<Type>),
    Object(BTreeMap<String, Type>),
    Tuple(Vec<Type>),
    /// The dynamic pseudo-type: a placeholder for a type not yet known.
    Dynamic,
}

impl Type {
    pub fn list(element: Type) -> Type {
        Type::List(Box::new(element))
    }

    pub fn set(element: Type) -> Type {
        Type::Set(Box::new(element))
    }

    pub fn map(element: Type) -> Type {
        Type::Map(Box::new(element))
    }

    pub fn object<K: Into<String>>(attributes: impl IntoIterator<Item = (K, Type)>) -> Type {
        Type::Object(
            attributes
                .into_iter()
                .map(|(name, ty)| (name.into(), ty))
                .collect(),
        )
    }

    /// Whether two types are identical.
    ///
    /// "Two structural types are identical if they are of the same kind and
    /// have attributes or elements with identical types." "Two collection
    /// types are identical if they are of the same kind and have the same
    /// element type." "The dynamic pseudo-type is identical only to itself."
    ///
    /// Spec: spec.md § Structural Types, § Collection Types
    pub fn is_identical(&self, other: &Type) -> bool {
        self == other
    }

    /// Whether this type *matches* the type specification `spec`.
    ///
    /// "Any type matches any type that it is identical to. Any type matches
    /// the dynamic pseudo-type." Applied at every depth, so `list(string)`
    /// matches `list(any)` but `set(string)` does not.
    ///
    /// Spec: spec.md § Type Specifications
    pub fn matches(&self, spec: &Type) -> bool {
        match (self, spec) {
            (_, Type::Dynamic) => true,
            (Type::List(a), Type::List(b))
            | (Type::Set(a), Type::Set(b))
            | (Type::Map(a), Type::Map(b)) => a.matches(b),
            (Type::Object(a), Type::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(name, ty)| b.get(name).is_some_and(|s| ty.matches(s)))
            }
            (Type::Tuple(a), Type::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(ty, s)| ty.matches(s))
            }
            _ => self == spec,
        }
    }

    /// Whether the dynamic pseudo-type appears anywhere in this type.
    pub fn has_dynamic(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::String | Type::Number | Type::Bool => false,
            Type::List(e) | Type::Set(e) | Type::Map(e) => e.has_dynamic(),
            Type::Object(attributes) => attributes.values().any(Type::has_dynamic),
            Type::Tuple(elements) => elements.iter().any(Type::has_dynamic),
        }
    }

    /// Whether the two types could become identical once the dynamic
    /// pseudo-types in them are replaced by known types.
    pub fn could_be_identical(&self, other: &Type) -> bool {
        match (self, other) {
            (Type::Dynamic, _) | (_, Type::Dynamic) => true,
            (Type::List(a), Type::List(b))
            | (Type::Set(a), Type::Set(b))
            | (Type::Map(a), Type::Map(b)) => a.could_be_identical(b),
            (Type::Object(a), Type::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(name, ty)| b.get(name).is_some_and(|o| ty.could_be_identical(o)))
            }
            (Type::Tuple(a), Type::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.could_be_identical(y))
            }
            _ => self == other,
        }
    }

    /// The element type of a collection type.
    pub fn collection_element(&self) -> Option<&Type> {
        match self {
            Type::List(e) | Type::Set(e) | Type::Map(e) => Some(e),
            _ => None,
        }
    }

    /// A short name of the type's kind, for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Type::String => "string",
            Type::Number => "number",
            Type::Bool => "bool",
            Type::List(_) => "list",
            Type::Set(_) => "set",
            Type::Map(_) => "map",
            Type::Object(_) => "object",
            Type::Tuple(_) => "tuple",
            Type::Dynamic => "dynamic",
        }
    }
}

/// Types nest as deeply as values do (the type of 200,000 nested tuples),
/// so dropping one must not recurse: nested types are moved onto a heap
/// stack and dropped one level at a time.
impl Drop for Type {
    fn drop(&mut self) {
        fn take_children(ty: &mut Type, stack: &mut Vec<Type>) {
            match ty {
                Type::List(e) | Type::Set(e) | Type::Map(e) if e.has_children() => {
                    stack.push(std::mem::replace(&mut **e, Type::Dynamic))
                }
                Type::Object(attributes) => stack.extend(
                    std::mem::take(attributes)
                        .into_values()
                        .filter(Type::has_children),
                ),
                Type::Tuple(elements) => stack.extend(
                    std::mem::take(elements)
                        .into_iter()
                        .filter(Type::has_children),
                ),
                _ => {}
            }
        }
        if !self.has_grandchildren() {
            return;
        }
        let mut stack = Vec::new();
        take_children(self, &mut stack);
        while let Some(mut ty) = stack.pop() {
            take_children(&mut ty, &mut stack);
        }
    }
}

impl Type {
    /// Whether the type holds other types.
    fn has_children(&self) -> bool {
        match self {
            Type::List(_) | Type::Set(_) | Type::Map(_) => true,
            Type::Object(attributes) => !attributes.is_empty(),
            Type::Tuple(elements) => !elements.is_empty(),
            _ => false,
        }
    }

    /// Whether a type it holds holds other types: if none does, the
    /// compiler's drop recurses one level only (the common case).
    fn has_grandchildren(&self) -> bool {
        match self {
            Type::List(e) | Type::Set(e) | Type::Map(e) => e.has_children(),
            Type::Object(attributes) => attributes.values().any(Type::has_children),
            Type::Tuple(elements) => elements.iter().any(Type::has_children),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_is_not_commutative() {
        let concrete = Type::list(Type::String);
        let spec = Type::list(Type::Dynamic);
        assert!(concrete.matches(&spec));
        assert!(!spec.matches(&concrete));
        assert!(!Type::set(Type::String).matches(&spec));
    }
}
