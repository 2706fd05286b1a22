//! The hand-written documents (README.md, suite/README.md,
//! runner/PROTOCOL.md, the spec-notes) cannot drift from the tree: their
//! tables render as tables, suite/README.md's folder table lists exactly
//! the suite's folders, and a figure of the suite's size is the suite's.

use hcl_conformance_format::suite::load_suite;
use std::path::{Path, PathBuf};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// The Markdown files of the project, build output and hidden folders
/// left out.
fn markdown_files() -> Vec<PathBuf> {
    let skip = |e: &walkdir::DirEntry| {
        let name = e.file_name().to_string_lossy();
        e.depth() > 0 && (name.starts_with('.') || name == "target" || name == "node_modules")
    };
    let files = walkdir::WalkDir::new(ROOT)
        .into_iter()
        .filter_entry(|e| !skip(e))
        .filter_map(Result::ok);
    files
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect()
}

/// The cells separators of a table row: its unescaped pipes (GitHub's
/// Markdown splits cells at a pipe even inside a code span).
fn pipes(row: &str) -> usize {
    let mut chars = row.chars();
    let mut count = 0;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '|' => count += 1,
            _ => {}
        }
    }
    count
}

fn is_delimiter_row(row: &str) -> bool {
    let inner = row.trim().trim_matches('|');
    !inner.is_empty()
        && inner.split('|').all(|c| {
            let c = c.trim().trim_start_matches(':').trim_end_matches(':');
            !c.is_empty() && c.chars().all(|x| x == '-')
        })
}

/// Each problem of the tables of a Markdown text: rows after a blank line
/// with no header and delimiter row (they render as text with literal
/// pipes), rows with another number of cells than their header's.
fn table_problems(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut problems = Vec::new();
    let (mut fenced, mut n) = (false, 0);
    while n < lines.len() {
        if lines[n].trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let starts =
            !fenced && lines[n].starts_with('|') && (n == 0 || lines[n - 1].trim().is_empty());
        if !starts {
            n += 1;
            continue;
        }
        let end = (n..lines.len())
            .find(|&m| !lines[m].starts_with('|'))
            .unwrap_or(lines.len());
        if end - n < 2 || !is_delimiter_row(lines[n + 1]) {
            problems.push(format!("line {}: a table row without a header and delimiter row above it (renders as text)", n + 1));
        } else {
            for (m, row) in lines.iter().enumerate().take(end).skip(n + 2) {
                if pipes(row) != pipes(lines[n]) {
                    problems.push(format!(
                        "line {}: {} cells, the header has {}",
                        m + 1,
                        pipes(row) - 1,
                        pipes(lines[n]) - 1
                    ));
                }
            }
        }
        n = end;
    }
    problems
}

#[test]
fn tables_render_as_tables() {
    let mut problems = Vec::new();
    for path in markdown_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path
            .strip_prefix(ROOT)
            .unwrap_or(&path)
            .display()
            .to_string();
        problems.extend(
            table_problems(&text)
                .into_iter()
                .map(|p| format!("{name}: {p}")),
        );
    }
    assert!(
        problems.is_empty(),
        "tables that do not render:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_table_check_finds_orphan_rows_and_wrong_cell_counts() {
    let text = "| a | b |\n| --- | --- |\n| 1 | 2 |\n| `x|y` | 3 |\n\nprose\n\n| 4 | 5 |\n\ntext\n| not a table |\n";
    assert_eq!(
        table_problems(text),
        [
            "line 4: 3 cells, the header has 2",
            "line 8: a table row without a header and delimiter row above it (renders as text)"
        ]
    );
}

#[test]
fn the_suite_folder_table_lists_the_suite_folders() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("suite/README.md")).unwrap();
    let mut listed: Vec<String> = readme
        .lines()
        .filter_map(|l| {
            l.strip_prefix("| `")?
                .split_once("/` |")
                .map(|(f, _)| f.to_string())
        })
        .collect();
    let mut folders: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("suite"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    listed.sort();
    folders.sort();
    assert_eq!(
        listed, folders,
        "suite/README.md's folder table against the folders of suite/"
    );
}

/// Figures of the suite's size in prose (`by 3,509 cases`, `the suite of
/// 2,887 cases`, `all 2123 cases`): a number of at least 1,000 cases after
/// `by`, `of`, `all` or `the`.
fn suite_sizes(text: &str) -> Vec<(usize, String)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut found = Vec::new();
    for w in words.windows(3) {
        let number = w[1].replace(',', "");
        let Ok(n) = number.parse::<usize>() else {
            continue;
        };
        if n >= 1000
            && w[2].trim_end_matches(|c: char| !c.is_alphabetic()) == "cases"
            && ["by", "of", "all", "the"].contains(&w[0])
        {
            found.push((n, w.join(" ")));
        }
    }
    found
}

#[test]
fn figures_of_the_suite_size_are_the_suites() {
    let suite = load_suite(&Path::new(ROOT).join("suite")).expect("the suite loads");
    let total = suite.cases().count();
    let mut wrong = Vec::new();
    for path in markdown_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        // The matrix section of README.md is generated (scripts/matrix
        // --check holds it to the run).
        let text = match (
            text.find("<!-- matrix:start -->"),
            text.find("<!-- matrix:end -->"),
        ) {
            (Some(a), Some(b)) if a < b => format!("{}{}", &text[..a], &text[b..]),
            _ => text,
        };
        let name = path
            .strip_prefix(ROOT)
            .unwrap_or(&path)
            .display()
            .to_string();
        for (n, phrase) in suite_sizes(&text) {
            if n != total {
                wrong.push(format!("{name}: \"{phrase}\""));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the suite has {total} cases, but these say otherwise (quote no count by hand: the README's matrix is generated):\n{}",
        wrong.join("\n")
    );
    assert_eq!(
        suite_sizes("covered by 3,509 cases: and all 12 cases"),
        [(3509, "by 3,509 cases:".to_string())]
    );
}
