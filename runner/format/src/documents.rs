//! The documents that requirements and case files cite, declared once:
//! each file name (as `requirements.jsonl` names it) with a readable
//! title, its version and where it comes from. The coverage report, the
//! documentation site and `show` name a document by this table.
//!
//! Spec: the documents of `/work/shared/specs/hcl-v2.14.1/` and the seeds
//! `002_*` (the lexer-mode grammar) and `003_*` (the Terraform expressions
//! guide), which `requirements.jsonl` cites by file name.

/// A cited document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Document {
    /// The file name, as `requirements.jsonl` and `spec:` cite it.
    pub file: &'static str,
    /// The prefix of its requirement ids (`native.splat-operators.001`),
    /// also the name of its page on the documentation site.
    pub short: &'static str,
    /// What a reader calls it.
    pub title: &'static str,
    /// Which version of it the suite was written from.
    pub version: &'static str,
    /// Where it is published, when it has a stable address (its sections
    /// are at `URL#ANCHOR`).
    pub url: Option<&'static str>,
}

/// Every cited document, in the order a reader meets them: the information
/// model, the two syntaxes, the lexer modes and the guide, the extensions.
pub const DOCUMENTS: &[Document] = &[
    Document {
        file: "spec.md",
        short: "hcl",
        title: "HCL Syntax-Agnostic Information Model",
        version: "hashicorp/hcl v2.14.1",
        url: Some("https://github.com/hashicorp/hcl/blob/v2.14.1/spec.md"),
    },
    Document {
        file: "hclsyntax-spec.md",
        short: "native",
        title: "HCL Native Syntax Specification",
        version: "hashicorp/hcl v2.14.1",
        url: Some("https://github.com/hashicorp/hcl/blob/v2.14.1/hclsyntax/spec.md"),
    },
    Document {
        file: "002_e701fb6c663d6b71.txt",
        short: "lexmodes",
        title: "HCL Native Syntax Lexer Modes (an EBNF grammar)",
        version: "a grammar based upon HCL 2.14, as given to the project (seed 002)",
        url: None,
    },
    Document {
        file: "003_ffa21bbb6e176447.txt",
        short: "tfexpr",
        title: "Terraform Expressions Guide",
        version: "the Terraform 0.12 configuration language documentation, as given to the project (seed 003)",
        url: None,
    },
    Document {
        file: "json-spec.md",
        short: "json",
        title: "HCL JSON Syntax Specification",
        version: "hashicorp/hcl v2.14.1",
        url: Some("https://github.com/hashicorp/hcl/blob/v2.14.1/json/spec.md"),
    },
    Document {
        file: "ext-typeexpr-README.md",
        short: "typeexpr",
        title: "HCL Type Expressions Extension",
        version: "hashicorp/hcl v2.14.1",
        url: Some("https://github.com/hashicorp/hcl/blob/v2.14.1/ext/typeexpr/README.md"),
    },
    Document {
        file: "ext-dynblock-README.md",
        short: "dynblock",
        title: "HCL Dynamic Blocks Extension",
        version: "hashicorp/hcl v2.14.1",
        url: Some("https://github.com/hashicorp/hcl/blob/v2.14.1/ext/dynblock/README.md"),
    },
];

/// The document of a file name.
pub fn document(file: &str) -> Option<&'static Document> {
    DOCUMENTS.iter().find(|d| d.file == file)
}

/// The readable title of a file name; the name itself for a document the
/// table does not know.
pub fn title(file: &str) -> &str {
    document(file).map_or(file, |d| d.title)
}
