//! One case in the terminal (`hcl-conformance show`): what its page on
//! the site shows (input, expected result, the spec sentences it covers,
//! other profiles' results and their notes), as plain text, then its
//! result against an implementation. Control characters of the suite's
//! text and of the implementation's answer are shown escaped
//! (`hcl_conformance_format::terminal`), except in source text, which
//! marks them `⟨U+001B⟩`.

use super::context::Context;
use super::notation::{self, Cell, Rows};
use hcl_conformance_format::documents;
use hcl_conformance_format::kinds::Keyword;
use hcl_conformance_format::suite::{Case, Expectation};
use hcl_conformance_format::terminal::{cut, escape_controls, SHOWN_BYTES};
use hcl_conformance_format::wire::Outcome;
use std::fmt::Write as _;

/// How a character shows in a terminal: invisible ones as marks.
fn visible(c: char) -> String {
    match c {
        '\r' => "␍".into(),
        '\t' => "\t".into(),
        c if c.is_control()
            || matches!(c, '\u{00a0}' | '\u{2000}'..='\u{200f}' | '\u{2028}'..='\u{202f}' | '\u{205f}'..='\u{2064}' | '\u{3000}' | '\u{feff}') =>
        {
            format!("⟨U+{:04X}⟩", c as u32)
        }
        c => c.to_string(),
    }
}

/// Source text with line numbers, the byte range `mark` underlined with
/// `^` (an empty range as one `^` where it is).
pub fn source_lines(source: &str, mark: Option<(usize, usize)>) -> String {
    let mut out = String::new();
    let mut offset = 0;
    let lines: Vec<&str> = source.split('\n').collect();
    let count = if source.ends_with('\n') {
        lines.len() - 1
    } else {
        lines.len()
    };
    for (n, line) in lines.iter().take(count.max(1)).enumerate() {
        let (mut shown, mut carets) = (String::new(), String::new());
        let mut any = false;
        for (i, c) in line.char_indices() {
            let at = offset + i;
            let text = visible(c);
            let width = text.chars().count();
            let marked =
                mark.is_some_and(|(s, e)| (s < e && at >= s && at < e) || (s == e && at == s));
            any |= marked;
            let fill = if marked {
                "^"
            } else if c == '\t' {
                "\t"
            } else {
                " "
            };
            carets.push_str(&fill.repeat(width));
            shown.push_str(&text);
        }
        let end = offset + line.len();
        if let Some((s, e)) = mark {
            // A range at the line's end, or over its newline.
            if (s == e && s == end) || (s < e && s <= end && e > end) {
                carets.push('^');
                any = true;
            }
        }
        let _ = writeln!(out, "  {:>4} | {shown}", n + 1);
        if any {
            let _ = writeln!(out, "       | {}", carets.trim_end());
        }
        offset = end + 1;
    }
    out
}

/// Rows as indented text; a source text numbered, `mark` (a range
/// `L:C-L:C`) underlined.
pub fn rows_text(rows: &Rows, mark: Option<&str>) -> String {
    let mut out = String::new();
    for (label, cell) in rows {
        match cell {
            Cell::Source(source, _) => {
                let _ = writeln!(out, "  {label}:");
                let offsets = mark.and_then(|r| notation::range_offsets(source, r));
                out.push_str(&source_lines(source, offsets));
            }
            Cell::Text(text) => {
                let text = text.text();
                let mut lines = text.lines();
                let _ = writeln!(out, "  {label}: {}", lines.next().unwrap_or(""));
                let pad = " ".repeat(label.chars().count() + 4);
                for line in lines {
                    let _ = writeln!(out, "{pad}{line}");
                }
            }
        }
    }
    out
}

fn expected_range(expect: &Expectation) -> Option<&str> {
    match expect {
        Expectation::Error { range, .. } => range.as_deref(),
        Expectation::OneOf(options) => options.iter().find_map(expected_range),
        _ => None,
    }
}

/// Words wrapped at `width` columns, each line indented by `indent`.
fn wrap(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + word.chars().count() + 1 > width {
            let _ = writeln!(out, "{indent}{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{indent}{line}");
    }
    out
}

/// What the site shows of a case, as text, for a terminal.
pub fn case_text(context: &Context, case: &Case) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", case.id);
    let _ = writeln!(
        out,
        "  {} · kind {} · area {}",
        case.location(),
        case.input.kind().name(),
        case.area
    );
    if let Some(description) = &case.description {
        out.push_str(&wrap(description, "  ", 76));
    }
    let _ = writeln!(out, "\ninput");
    out.push_str(&rows_text(
        &notation::input(&case.input),
        expected_range(&case.expect),
    ));
    let _ = writeln!(out, "\nexpected result");
    out.push_str(&rows_text(&notation::expectation(&case.expect), None));
    if let Some(why) = &case.implementation_defined {
        let _ = writeln!(out, "\nimplementation-defined");
        out.push_str(&wrap(why, "  ", 76));
    }
    for (profile, p) in &case.profiles {
        let _ = writeln!(out, "\nunder the profile {profile}");
        out.push_str(&rows_text(&notation::expectation(&p.expect), None));
        match context.note(&p.note) {
            Some(note) => {
                let _ = writeln!(out, "  why: {} ({})", note.title, p.note);
                let decision = super::markdown::section(&note.markdown, "What the suite expects");
                if !decision.is_empty() {
                    out.push_str(&wrap(decision, "    ", 74));
                }
            }
            None => {
                let _ = writeln!(out, "  why: {}", p.note);
            }
        }
    }
    let _ = writeln!(out, "\nwhat the spec says");
    for id in &case.covers {
        match context.suite.requirements.get(id) {
            Some(r) => {
                let _ = writeln!(out, "  {id} ({} § {})", documents::title(&r.doc), r.section);
                if r.kind == "grammar" {
                    for line in r.text.lines() {
                        let _ = writeln!(out, "    {line}");
                    }
                } else {
                    out.push_str(&wrap(&r.text, "    ", 74));
                }
                if r.ambiguity.is_some() {
                    for note in context.notes_by_requirement.get(id).into_iter().flatten() {
                        let _ = writeln!(out, "    ambiguous; spec-note: spec-notes/{note}");
                    }
                }
            }
            None => {
                let _ = writeln!(out, "  {id}");
            }
        }
    }
    escape_controls(&out).into_owned()
}

/// An implementation's answer and the verdict on it, as text for a
/// terminal.
pub fn result_text(
    against: &str,
    profile: &str,
    outcome: Option<&Outcome>,
    status: &str,
    message: &str,
) -> String {
    let mut out = format!("\nresult against {against}, profile {profile}: {status}\n");
    if let Some(outcome) = outcome {
        // An answer may be as long as the runner reads: cut as a failing
        // case's message is.
        out.push_str(&cut(
            &rows_text(&notation::outcome(outcome), None),
            SHOWN_BYTES,
        ));
    }
    if !message.trim().is_empty() && status != "passed" {
        for line in message.trim_end().lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    escape_controls(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_underlined() {
        assert_eq!(
            source_lines("a + b\n", Some((2, 3))),
            "     1 | a + b\n       |   ^\n"
        );
        assert_eq!(
            source_lines("ab", Some((2, 2))),
            "     1 | ab\n       |   ^\n"
        );
        assert_eq!(source_lines("x\ny", None), "     1 | x\n     2 | y\n");
        assert_eq!(source_lines("a\r\n", None), "     1 | a␍\n");
    }
}
