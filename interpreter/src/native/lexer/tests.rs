//! Lexer mode transitions: what each mode emits and which mode it pushes
//! or pops. The suite tests the lexer only through whole programs.

use super::TokenKind::*;
use super::{delimiter_nesting, Invalid, Lexer, StartMode, Token, TokenKind};

/// Every token of `source`, the last of which is `Eof`.
fn lex(source: &str, start: StartMode) -> Vec<Token> {
    let mut lexer = Lexer::new(source, start);
    let mut tokens = vec![lexer.next_token()];
    while tokens.last().map(|t| t.kind) != Some(Eof) {
        tokens.push(lexer.next_token());
    }
    tokens
}

/// The tokens of `source` with their text, without the final `Eof`.
fn tokens(source: &str, start: StartMode) -> Vec<(TokenKind, &str)> {
    let tokens = lex(source, start);
    assert_eq!(tokens.last().map(|t| t.kind), Some(Eof));
    assert_eq!(
        tokens.last().map(|t| t.span.end as usize),
        Some(source.len())
    );
    tokens[..tokens.len() - 1]
        .iter()
        .map(|t| (t.kind, &source[t.span.range()]))
        .collect()
}

fn config(source: &str) -> Vec<(TokenKind, &str)> {
    tokens(source, StartMode::ConfigFile)
}

fn template(source: &str) -> Vec<(TokenKind, &str)> {
    tokens(source, StartMode::TemplateFile)
}

#[test]
fn config_file_mode_reads_operators_numbers_and_identifiers() {
    assert_eq!(
        config("a-b = 1.5e+3 <= x...y.0 => !=\n"),
        vec![
            (Identifier, "a-b"),
            (Assign, "="),
            (NumberLit, "1.5e+3"),
            (LessOrEqual, "<="),
            (Identifier, "x"),
            (Ellipsis, "..."),
            (Identifier, "y"),
            (Dot, "."),
            (NumberLit, "0"),
            (FatArrow, "=>"),
            (NotEqual, "!="),
            (Newline, "\n"),
        ]
    );
    // A fraction or exponent needs digits (`1.` is `1`, `.`; `1e` is `1`,
    // `e`), but a point directly before an exponent belongs to the literal,
    // as in hashicorp/hcl: `1.e3` is one number.
    // SPEC-GAP(spec-notes/gaps/lexical-number-fraction-digits.md)
    assert_eq!(
        config("1.e3 1e 1.x 1.e"),
        vec![
            (NumberLit, "1.e3"),
            (NumberLit, "1"),
            (Identifier, "e"),
            (NumberLit, "1"),
            (Dot, "."),
            (Identifier, "x"),
            (NumberLit, "1"),
            (Dot, "."),
            (Identifier, "e"),
        ]
    );
}

/// Two colons in a row are one token, the namespace separator of
/// hashicorp/hcl v2.20.0 and later, in config file and template mode alike;
/// a colon alone stays a colon, and in literal text `::` is text.
/// SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
#[test]
fn two_colons_are_one_token_in_expressions_only() {
    assert_eq!(
        config("core::upper a:b : : :::"),
        vec![
            (Identifier, "core"),
            (DoubleColon, "::"),
            (Identifier, "upper"),
            (Identifier, "a"),
            (Colon, ":"),
            (Identifier, "b"),
            (Colon, ":"),
            (Colon, ":"),
            (DoubleColon, "::"),
            (Colon, ":"),
        ]
    );
    assert_eq!(
        template("a::b${x::y}\"::\""),
        vec![
            (Text, "a::b"),
            (InterpolationStart { strip: false }, "${"),
            (Identifier, "x"),
            (DoubleColon, "::"),
            (Identifier, "y"),
            (CloseBrace, "}"),
            (Text, "\"::\""),
        ]
    );
    assert_eq!(
        config("\"a::b\""),
        vec![(OpenQuote, "\""), (Text, "a::b"), (CloseQuote, "\"")]
    );
}

#[test]
fn comments_are_newlines_or_whitespace() {
    assert_eq!(
        config("a # x\r\nb // y\nc /* z\n */ d"),
        vec![
            (Identifier, "a"),
            (Newline, "# x\r\n"),
            (Identifier, "b"),
            (Newline, "// y\n"),
            (Identifier, "c"),
            (Identifier, "d"),
        ]
    );
    assert_eq!(
        config("a # end"),
        vec![(Identifier, "a"), (Newline, "# end")]
    );
    assert_eq!(
        config("a /* open"),
        vec![
            (Identifier, "a"),
            (Invalid(Invalid::UnterminatedComment), "/* open")
        ]
    );
}

#[test]
fn braces_push_and_pop_modes_so_interpolations_nest() {
    // `${` pushes template mode; `{` in it pushes config file mode, whose
    // `}` pops back to template mode; the next `}` pops to quoted mode.
    assert_eq!(
        config(r#""a${ {b = "c"} }d""#),
        vec![
            (OpenQuote, "\""),
            (Text, "a"),
            (InterpolationStart { strip: false }, "${"),
            (OpenBrace, "{"),
            (Identifier, "b"),
            (Assign, "="),
            (OpenQuote, "\""),
            (Text, "c"),
            (CloseQuote, "\""),
            (CloseBrace, "}"),
            (CloseBrace, "}"),
            (Text, "d"),
            (CloseQuote, "\""),
        ]
    );
}

#[test]
fn strip_markers_exist_only_in_template_mode() {
    assert_eq!(
        template("a${~x~}b%{~ if y ~}"),
        vec![
            (Text, "a"),
            (InterpolationStart { strip: true }, "${~"),
            (Identifier, "x"),
            (CloseBraceStrip, "~}"),
            (Text, "b"),
            (DirectiveStart { strip: true }, "%{~"),
            (Identifier, "if"),
            (Identifier, "y"),
            (CloseBraceStrip, "~}"),
        ]
    );
    // Outside a template sequence `~}` is one invalid token, a lone `~` no
    // token; inside, `~ }` is not a strip marker.
    assert_eq!(config("~}")[0], (Invalid(Invalid::Character), "~}"));
    assert_eq!(config("~ }")[0], (Invalid(Invalid::Character), "~"));
    assert_eq!(template("${a ~ }")[2], (Invalid(Invalid::StripMarker), "~"));
    // In literal text `~}` is text.
    assert_eq!(template("~}"), vec![(Text, "~}")]);
}

#[test]
fn template_file_mode_reads_text_and_escapes() {
    assert_eq!(
        template("$$${a}%%{ $x %y\\n"),
        vec![
            (Text, "$"),
            (Escape, "$${"),
            (Text, "a}"),
            (Escape, "%%{"),
            (Text, " $x %y\\n"),
        ]
    );
}

#[test]
fn quoted_template_mode_reads_escapes_and_rejects_newlines() {
    assert_eq!(
        config(r#""a\"\\\u00e9\U0001F600\q\uD800\u12""#),
        vec![
            (OpenQuote, "\""),
            (Text, "a"),
            (Escape, "\\\""),
            (Escape, "\\\\"),
            (Escape, "\\u00e9"),
            (Escape, "\\U0001F600"),
            (Invalid(Invalid::EscapeSelector), "\\q"),
            (Invalid(Invalid::NotACharacter), "\\uD800"),
            (Invalid(Invalid::ShortUnicodeEscape), "\\u12"),
            (CloseQuote, "\""),
        ]
    );
    // A newline ends the string (and is an error); lexing goes on in
    // config file mode.
    assert_eq!(
        config("\"ab\r\nc"),
        vec![
            (OpenQuote, "\""),
            (Text, "ab"),
            (Invalid(Invalid::NewlineInQuotedTemplate), "\r\n"),
            (Identifier, "c"),
        ]
    );
    // A lone carriage return is text.
    assert_eq!(config("\"a\rb\"")[1], (Text, "a\rb"));
}

#[test]
fn heredoc_header_pushes_heredoc_mode_until_the_closing_line() {
    assert_eq!(
        config("x = <<EOT\na ${b}\nEOTX\nEOT EOT\nEOT\ny"),
        vec![
            (Identifier, "x"),
            (Assign, "="),
            (HeredocOpen { flush: false }, "<<EOT\n"),
            (Text, "a "),
            (InterpolationStart { strip: false }, "${"),
            (Identifier, "b"),
            (CloseBrace, "}"),
            (Text, "\n"),
            (Text, "EOTX\n"),
            (Text, "EOT EOT\n"),
            (HeredocClose, "EOT"),
            (Newline, "\n"),
            (Identifier, "y"),
        ]
    );
    // Spaces around the closing identifier, tabs too, are part of the
    // closing line for `<<` as for `<<-`; a carriage return is not one.
    assert_eq!(
        config("<<EOT\n \tEOT \u{3000}\n"),
        vec![
            (HeredocOpen { flush: false }, "<<EOT\n"),
            (HeredocClose, " \tEOT \u{3000}"),
            (Newline, "\n"),
        ]
    );
    assert_eq!(
        config("<<EOT\nEOT\r\r\n"),
        vec![
            (HeredocOpen { flush: false }, "<<EOT\n"),
            (Text, "EOT\r\r\n")
        ]
    );
    // `<<-` allows indentation before the closing identifier, tabs too.
    assert_eq!(
        config("<<-EOT\r\n  a\r\n\t EOT\r\n"),
        vec![
            (HeredocOpen { flush: true }, "<<-EOT\r\n"),
            (Text, "  a\r\n"),
            (HeredocClose, "\t EOT"),
            (Newline, "\r\n"),
        ]
    );
    // The closing identifier needs its newline.
    assert_eq!(
        config("<<EOT\nEOT"),
        vec![(HeredocOpen { flush: false }, "<<EOT\n"), (Text, "EOT")]
    );
}

#[test]
fn invalid_heredoc_headers_pop_back_to_config_file_mode() {
    assert_eq!(
        config("1 << 2"),
        vec![
            (NumberLit, "1"),
            (Invalid(Invalid::HeredocHeader), "<<"),
            (NumberLit, "2"),
        ]
    );
    assert_eq!(
        config("<<EOT \n")[..2],
        [(Invalid(Invalid::HeredocHeader), "<<"), (Identifier, "EOT")]
    );
}

#[test]
fn a_closing_brace_never_pops_the_bottom_mode() {
    assert_eq!(
        template("a}b${c}}d"),
        vec![
            (Text, "a}b"),
            (InterpolationStart { strip: false }, "${"),
            (Identifier, "c"),
            (CloseBrace, "}"),
            (Text, "}d"),
        ]
    );
    assert_eq!(
        config("}}a"),
        vec![(CloseBrace, "}"), (CloseBrace, "}"), (Identifier, "a")]
    );
}

#[test]
fn the_nesting_of_delimiters_is_counted_without_parsing() {
    let config = |s: &str| delimiter_nesting(s, StartMode::ConfigFile);
    assert_eq!(config("a = 1 + 2"), 0);
    assert_eq!(config("a = [[1], (2), {b = [3]}]"), 3);
    assert_eq!(config(&("b {\n".repeat(50) + &"}\n".repeat(50))), 50);
    // A template sequence is a level, its quotes are not.
    assert_eq!(config(&("\"${".repeat(10) + "1" + &"}\"".repeat(10))), 10);
    // A directive closes on its line.
    assert_eq!(config("\"%{if a}${[1]}%{endif}\""), 2);
    // Siblings do not nest.
    assert_eq!(config(&"[1] ".repeat(1_000)), 1);
    assert_eq!(delimiter_nesting("${[1]}", StartMode::TemplateFile), 2);
    // Unbalanced closers count nothing.
    assert_eq!(config("]]] [1]"), 1);
}
