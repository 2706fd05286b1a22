//! The areas of the suite, declared once from the spec's documents and
//! sections: the rows of the run summary, of the matrix and of the
//! coverage report. A case file is in the area of the first section its
//! `spec:` cites; a section no area names is in [`OTHER`], never dropped.

/// Each area, in table order, with its sections: `DOCUMENT ANCHOR...`, or
/// a document alone for every section of it that no other area names.
pub const AREAS: &[(&str, &[&str])] = &[
    (
        "lexical",
        &[
            "002_e701fb6c663d6b71.txt",
            "hclsyntax-spec.md source-code-representation comments-and-whitespace identifiers \
         keywords operators-and-delimiters numeric-literals",
        ],
    ),
    (
        "structure",
        &["hclsyntax-spec.md hcl-native-syntax-specification syntax-notation structural-elements \
         configuration-files bodies attribute-definitions blocks"],
    ),
    (
        "expressions",
        &["hclsyntax-spec.md", "003_ffa21bbb6e176447.txt", "spec.md functions-and-function-calls"],
    ),
    (
        "templates",
        &["hclsyntax-spec.md template-expressions templates template-literals \
         template-interpolations template-if-directive template-for-directive \
         template-interpolation-unwrapping"],
    ),
    (
        "types",
        &["spec.md values-and-value-types primitive-types structural-types collection-types \
         null-values unknown-values-and-the-dynamic-pseudo-type capsule-types type-specifications"],
    ),
    (
        "conversion",
        &["spec.md type-conversions-and-unification conversion-of-null-values \
         conversion-to-and-from-the-dynamic-pseudo-type primitive-type-conversions \
         collection-and-structural-type-conversions"],
    ),
    ("unification", &["spec.md type-unification"]),
    ("JSON syntax", &["json-spec.md"]),
    ("bodies", &["spec.md"]),
    (
        "static analysis",
        &[
            "hclsyntax-spec.md static-analysis static-list static-map static-call static-traversal",
            "spec.md static-analysis",
        ],
    ),
    ("extensions", &["ext-typeexpr-README.md", "ext-dynblock-README.md"]),
];

/// The area of sections no entry of [`AREAS`] names.
pub const OTHER: &str = "other";

/// The area of a section, `DOCUMENT#ANCHOR`: the area naming the section,
/// else the one naming its whole document, else [`OTHER`].
pub fn area_of(section: &str) -> &'static str {
    let (document, anchor) = section.split_once('#').unwrap_or((section, ""));
    let names = |wanted: Option<&str>| {
        AREAS.iter().find(|(_, sections)| {
            sections.iter().any(|s| {
                let mut words = s.split_whitespace();
                words.next() == Some(document)
                    && match wanted {
                        Some(anchor) => words.any(|a| a == anchor),
                        None => words.next().is_none(),
                    }
            })
        })
    };
    names(Some(anchor))
        .or_else(|| names(None))
        .map_or(OTHER, |(name, _)| name)
}

/// The names of the areas in table order, then [`OTHER`].
pub fn names() -> impl Iterator<Item = &'static str> {
    AREAS.iter().map(|(name, _)| *name).chain([OTHER])
}
