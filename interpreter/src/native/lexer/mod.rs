//! The lexer: source text to tokens, by modes pushed and popped on a stack.
//!
//! Spec: 002_e701fb6c663d6b71.txt § Lexical Analysis;
//! hclsyntax-spec.md § Lexical Elements
//!
//! > Lexical analysis occurs using several lexer modes that are pushed and
//! > popped on a stack. [...] The algorithm for retrieving the next token
//! > shall consider the topmost mode on the stack.
//!
//! One module per mode:
//! - `config_file`: config file mode, and template mode, which "extends
//!   the config file mode" with `~}`;
//! - `template_file`: template file mode, and the template text rule that
//!   heredoc and quoted template modes share;
//! - `heredoc`: heredoc header mode and heredoc mode;
//! - `quoted_template`: quoted template mode and its escapes;
//! - `comment`: the line comment and inline comment modes.
//!
//! The heredoc header and comment modes never push another mode, so each is
//! pushed and popped within one step, as a function call.
//!
//! The lexer never fails: a character sequence no mode accepts becomes an
//! [`TokenKind::Invalid`] token carrying the reason, which the parser
//! reports when it reaches it. Tokens hold byte spans only; the whole pass
//! is linear in the length of the source.

mod comment;
mod config_file;
mod heredoc;
mod identifier;
mod quoted_template;
mod template_file;

pub use heredoc::is_indentation;
pub use identifier::{is_id_continue, is_id_start};
pub use quoted_template::decode_escape;

use crate::source::Span;

/// The kinds of token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    // Config file mode.
    /// A newline sequence, or a line comment ("considered equivalent to a
    /// newline sequence").
    Newline,
    Identifier,
    NumberLit,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    And,
    Or,
    Bang,
    Equal,
    NotEqual,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
    Assign,
    FatArrow,
    OpenParen,
    CloseParen,
    OpenBracket,
    CloseBracket,
    /// `{`: "pushes a new config file mode".
    OpenBrace,
    /// `}`: "pops the current mode".
    CloseBrace,
    Question,
    Colon,
    /// `::`, which separates the namespaces of a function's name
    /// (`core::upper`). No production of hclsyntax-spec.md uses it;
    /// hashicorp/hcl scans it as one token from v2.20.0 on.
    /// SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
    DoubleColon,
    Ellipsis,
    Dot,
    Comma,
    /// `"`: "pushes the quoted template mode".
    OpenQuote,
    /// `<<IDENT` or `<<-IDENT` and its newline: the heredoc header, after
    /// which heredoc mode is pushed.
    HeredocOpen {
        flush: bool,
    },

    // Template mode.
    /// `~}`: "right brace with strip".
    CloseBraceStrip,

    // Template file, heredoc and quoted template modes.
    /// `${` or `${~`: pushes template mode.
    InterpolationStart {
        strip: bool,
    },
    /// `%{` or `%{~`: pushes template mode.
    DirectiveStart {
        strip: bool,
    },
    /// Literal text, taken verbatim.
    Text,
    /// An escape: `$${`, `%%{`, or in quoted template mode a backslash
    /// escape. Always well-formed (a malformed one is [`TokenKind::Invalid`]).
    Escape,
    /// The `"` that ends a quoted template.
    CloseQuote,
    /// The closing identifier of a heredoc (with the spaces around it).
    HeredocClose,

    /// A sequence no mode accepts, with the reason.
    Invalid(Invalid),
    /// The end of the source.
    Eof,
}

/// Why a sequence of characters is no token. Each variant names an input
/// that produces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// `$`, `&`, `~` outside a template sequence, U+FEFF...
    Character,
    /// `${ a ~ }`: a strip marker not followed by `}`.
    StripMarker,
    /// `1 << 2`, `<<EOT x`: a heredoc header that is not `<<`, an optional
    /// `-`, an identifier and a newline.
    HeredocHeader,
    /// `/* ...` to the end of the input.
    UnterminatedComment,
    /// `"abc` followed by a newline.
    NewlineInQuotedTemplate,
    /// `"\q"`: a backslash before a character that selects no escape.
    EscapeSelector,
    /// `"\` followed by a newline or the end of the input.
    MissingEscapeSelector,
    /// `"\u12"`: fewer than four hexadecimal digits.
    ShortUnicodeEscape,
    /// `"\U1234"`: fewer than eight hexadecimal digits.
    ShortLongUnicodeEscape,
    /// `"\uD800"`: a surrogate, or a code beyond U+10FFFF.
    NotACharacter,
}

impl Invalid {
    pub fn summary(self) -> &'static str {
        match self {
            Invalid::Character | Invalid::StripMarker => "Invalid character",
            Invalid::HeredocHeader => "Invalid heredoc header",
            Invalid::UnterminatedComment => "Unterminated comment",
            Invalid::NewlineInQuotedTemplate => "Invalid multi-line string",
            _ => "Invalid escape sequence",
        }
    }

    pub fn detail(self) -> &'static str {
        match self {
            Invalid::Character => "This character is not used within the language.",
            Invalid::StripMarker => "A strip marker (\"~\") must be immediately followed by \"}\".",
            Invalid::HeredocHeader => {
                "\"<<\" or \"<<-\" must be followed by an identifier and a newline; there is no shift operator."
            }
            Invalid::UnterminatedComment => "There is no \"*/\" to close this comment.",
            Invalid::NewlineInQuotedTemplate => {
                "A quoted string cannot contain a newline: use the escape \"\\n\", or a heredoc."
            }
            Invalid::EscapeSelector => "This character does not select an escape sequence.",
            Invalid::MissingEscapeSelector => {
                "A backslash must be followed by an escape sequence selector."
            }
            Invalid::ShortUnicodeEscape => {
                "The \\u escape sequence must be followed by four hexadecimal digits."
            }
            Invalid::ShortLongUnicodeEscape => {
                "The \\U escape sequence must be followed by eight hexadecimal digits."
            }
            Invalid::NotACharacter => "The escape sequence does not name a Unicode character.",
        }
    }
}

/// A token: its kind and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

/// The lexer modes that stay on the stack across tokens.
///
/// Spec: 002_e701fb6c663d6b71.txt § Lexical Analysis
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    ConfigFile,
    /// Inside `${ ... }` or `%{ ... }`.
    Template,
    TemplateFile,
    QuotedTemplate,
    /// Heredoc mode, "given the cached identifier".
    Heredoc {
        identifier: Span,
    },
}

/// The mode at the bottom of the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartMode {
    /// A configuration file or a standalone expression.
    ConfigFile,
    /// A standalone template.
    TemplateFile,
}

/// The lexer's state: the source, the position and the mode stack.
///
/// Tokens are produced one at a time ([`Lexer::next_token`]), as the
/// parser asks for them, so the whole token sequence is never held in
/// memory.
pub struct Lexer<'s> {
    source: &'s str,
    bytes: &'s [u8],
    pos: usize,
    /// The topmost mode of the stack, the one each step considers; held
    /// apart from the others so that a step reads it directly.
    mode: Mode,
    /// The modes beneath `mode`, the bottom one first.
    below: Vec<Mode>,
}

impl<'s> Lexer<'s> {
    /// A lexer at the start of `source`, with `start` at the bottom of the
    /// mode stack.
    pub fn new(source: &'s str, start: StartMode) -> Lexer<'s> {
        let bottom = match start {
            StartMode::ConfigFile => Mode::ConfigFile,
            StartMode::TemplateFile => Mode::TemplateFile,
        };
        Lexer {
            source,
            bytes: source.as_bytes(),
            pos: 0,
            mode: bottom,
            below: Vec::new(),
        }
    }

    /// The next token. After the end of the source, [`TokenKind::Eof`]
    /// again.
    ///
    /// "The algorithm for retrieving the next token shall consider the
    /// topmost mode on the stack."
    ///
    /// Config file and template mode, which read most tokens, are inlined
    /// here; the other modes' steps are kept out of line (`#[inline(never)]`)
    /// so that this function stays small.
    pub fn next_token(&mut self) -> Token {
        match self.mode {
            Mode::ConfigFile => config_file::step(self, false),
            Mode::Template => config_file::step(self, true),
            Mode::TemplateFile => template_file::step(self),
            Mode::QuotedTemplate => quoted_template::step(self),
            Mode::Heredoc { identifier } => heredoc::step(self, identifier),
        }
    }

    fn push(&mut self, mode: Mode) {
        let previous = std::mem::replace(&mut self.mode, mode);
        self.below.push(previous);
    }

    /// Pops the current mode; the bottom mode stays.
    fn pop(&mut self) {
        if let Some(mode) = self.below.pop() {
            self.mode = mode;
        }
    }

    /// Consumes `len` bytes as a token of `kind` that pushes `mode`.
    ///
    /// Never inlined: a step that ends with it then calls nothing it must
    /// come back from (the stack may grow here), which keeps the common
    /// steps free of saved registers.
    #[inline(never)]
    fn open(&mut self, kind: TokenKind, len: usize, mode: Mode) -> Token {
        let token = self.emit_len(kind, len);
        self.push(mode);
        token
    }

    /// Consumes `len` bytes as a token of `kind` that pops the current
    /// mode.
    fn close(&mut self, kind: TokenKind, len: usize) -> Token {
        let token = self.emit_len(kind, len);
        self.pop();
        token
    }

    /// The token of `kind` from `start` to the current position. A step
    /// emits one token.
    fn emit(&self, kind: TokenKind, start: usize) -> Token {
        Token {
            kind,
            span: Span::new(start, self.pos),
        }
    }

    /// Consumes `len` bytes and emits them as one token.
    fn emit_len(&mut self, kind: TokenKind, len: usize) -> Token {
        let start = self.pos;
        self.pos += len;
        self.emit(kind, start)
    }

    fn peek_byte(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    /// The length of the newline sequence at the current position, if any:
    /// `newline = "\n" | "\r\n"`.
    fn newline_len(&self) -> Option<usize> {
        match (self.peek_byte(0), self.peek_byte(1)) {
            (Some(b'\n'), _) => Some(1),
            (Some(b'\r'), Some(b'\n')) => Some(2),
            _ => None,
        }
    }
}

/// The deepest nesting of a source's delimiters, as the lexer reads them:
/// brackets, parentheses, braces and template sequences (`${`, `%{`), each
/// closed by its closing token. One pass of the lexer, with no recursion
/// and no memory beyond the lexer's mode stack: a cheap estimate of how
/// deep the parser will nest, which counts each of these once, more than
/// once (an index is an operator and a nested expression), or not at all
/// (a directive's `%{` is closed on its line, the levels of its body
/// counted by the parser).
pub fn delimiter_nesting(source: &str, start: StartMode) -> usize {
    let mut lexer = Lexer::new(source, start);
    let (mut depth, mut deepest) = (0usize, 0usize);
    loop {
        match lexer.next_token().kind {
            TokenKind::OpenParen
            | TokenKind::OpenBracket
            | TokenKind::OpenBrace
            | TokenKind::InterpolationStart { .. }
            | TokenKind::DirectiveStart { .. } => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            TokenKind::CloseParen
            | TokenKind::CloseBracket
            | TokenKind::CloseBrace
            | TokenKind::CloseBraceStrip => depth = depth.saturating_sub(1),
            TokenKind::Eof => return deepest,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
