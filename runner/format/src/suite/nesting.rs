//! How deep the collections of a case file nest, found in one scan of its
//! text before its YAML is parsed (`suite/README.md` § Errors in case
//! files: at most [`MAX_NESTING`] levels).
//!
//! libyaml, under serde_norway, takes time quadratic in how deep flow
//! collections (`[...]`, `{...}`) nest (a file 100,000 levels deep takes
//! minutes to reject), so the loader checks the depth first. The limit is
//! serde_norway's own (it reads no document deeper), counted over flow and
//! block collections together, so that a file too deep is refused here,
//! with the line and what to do, and not by the parser (were the scan ever
//! to count less than the parser, the parser's own error, `recursion limit
//! exceeded`, would be shown, with its line).
//!
//! The scan follows enough of YAML to pass over what cannot open a
//! collection (comments, quoted scalars, block scalars and plain scalars),
//! and tracks the block collections open by the columns of their entries
//! (`- ` for a sequence, `key:` for a mapping). Where it cannot tell, it
//! counts, so the depth it finds is never less than the real one for the
//! files it cannot parse exactly (a plain scalar continued on a line that
//! starts with `[`).

/// How deep the collections of a case file may nest: as deep as
/// serde_norway reads any document (128 levels).
pub const MAX_NESTING: usize = 128;

/// The line where the collections of a YAML text, flow and block ones
/// together, first nest deeper than `limit`, if they do.
pub fn nesting_exceeds(text: &str, limit: usize) -> Option<usize> {
    Scan::new(limit).run(text)
}

/// A block collection: a sequence (`- ` entries) or a mapping (`key:`).
#[derive(Clone, Copy, PartialEq)]
enum Block {
    Sequence,
    Mapping,
}

/// The state of the scan between lines.
struct Scan {
    limit: usize,
    /// How many flow collections are open.
    flow: usize,
    /// The quote of the quoted scalar under way, if any.
    quote: Option<u8>,
    /// While in a block scalar: the column of the node that holds it; its
    /// lines are blank or indented further.
    block_scalar: Option<usize>,
    /// The open block collections, by the column of their entries.
    blocks: Vec<(usize, Block)>,
}

impl Scan {
    fn new(limit: usize) -> Scan {
        Scan {
            limit,
            flow: 0,
            quote: None,
            block_scalar: None,
            blocks: Vec::new(),
        }
    }

    fn run(mut self, text: &str) -> Option<usize> {
        let mut lines = text.lines().enumerate();
        lines
            .find(|(_, line)| self.line(line.as_bytes()))
            .map(|(number, _)| number + 1)
    }

    /// How deep the collections open now nest.
    fn depth(&self) -> usize {
        self.flow + self.blocks.len()
    }

    /// Scans a line; `true` when its collections nest beyond the limit.
    fn line(&mut self, bytes: &[u8]) -> bool {
        let indent = bytes.iter().take_while(|b| **b == b' ').count();
        if let Some(holder) = self.block_scalar {
            if bytes.iter().all(u8::is_ascii_whitespace) || indent > holder {
                return false;
            }
            self.block_scalar = None;
        }
        // Whether a node may start here, and where the node that holds
        // what follows starts (a key, or a `-` entry).
        let mut node_start = self.quote.is_none();
        let (mut holder, mut token) = (indent, indent);
        let mut at = 0;
        while at < bytes.len() {
            let c = bytes[at];
            if let Some(q) = self.quote {
                at = self.in_quote(bytes, at, q);
                continue;
            }
            let next_is_blank = bytes.get(at + 1).is_none_or(|b| *b == b' ' || *b == b'\t');
            let after_blank = at == 0 || bytes[at - 1] == b' ' || bytes[at - 1] == b'\t';
            match c {
                b' ' | b'\t' => {}
                b'#' if after_blank => break,
                b'[' | b'{' if node_start || self.flow > 0 => {
                    self.flow += 1;
                    if self.depth() > self.limit {
                        return true;
                    }
                    node_start = true;
                }
                b']' | b'}' if self.flow > 0 => {
                    self.flow -= 1;
                    node_start = false;
                }
                b',' if self.flow > 0 => node_start = true,
                b'"' | b'\'' if node_start => {
                    self.quote = Some(c);
                    token = at;
                    node_start = false;
                }
                b'|' | b'>' if node_start && self.flow == 0 => {
                    self.block_scalar = Some(holder);
                    break;
                }
                b'-' | b'?' if node_start && next_is_blank => {
                    holder = at;
                    if c == b'-' && self.open(at, Block::Sequence) {
                        return true;
                    }
                }
                b':' if next_is_blank => {
                    holder = token;
                    node_start = true;
                    if self.open(token, Block::Mapping) {
                        return true;
                    }
                }
                // A tag or an anchor comes before its node.
                b'!' | b'&' if node_start => {
                    while at + 1 < bytes.len() && bytes[at + 1] != b' ' {
                        at += 1;
                    }
                }
                _ => {
                    if node_start {
                        token = at;
                    }
                    node_start = false;
                }
            }
            at += 1;
        }
        false
    }

    /// Passes over a quoted scalar's character at `at`, closing the quote
    /// at its end; where the scan goes on.
    fn in_quote(&mut self, bytes: &[u8], at: usize, quote: u8) -> usize {
        let c = bytes[at];
        // An escape: `\x` in double quotes, `''` in single ones.
        let escape = (quote == b'"' && c == b'\\')
            || (quote == b'\'' && c == quote && bytes.get(at + 1) == Some(&quote));
        if escape {
            return at + 2;
        }
        if c == quote {
            self.quote = None;
        }
        at + 1
    }

    /// An entry of a block collection at `column` (outside flow
    /// collections, where entries are not blocks): the collections of
    /// columns further right have ended, and one at `column` goes on or
    /// starts. `true` when a new one nests beyond the limit.
    fn open(&mut self, column: usize, block: Block) -> bool {
        if self.flow > 0 {
            return false;
        }
        // A key at the column of a sequence ends the sequence: the
        // sequence was the value of the mapping's previous key.
        while let Some(&(c, open)) = self.blocks.last() {
            let ended =
                c > column || (c == column && open == Block::Sequence && block == Block::Mapping);
            if !ended {
                break;
            }
            self.blocks.pop();
        }
        match self.blocks.last() {
            Some(&(c, open)) if c == column && open == block => false,
            _ => {
                self.blocks.push((column, block));
                self.depth() > self.limit
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The depth of `text`, flow and block collections together.
    fn depth(text: &str) -> usize {
        (0..50)
            .find(|limit| nesting_exceeds(text, *limit).is_none())
            .unwrap_or(50)
    }

    #[test]
    fn block_collections_count_by_their_columns() {
        assert_eq!(depth("a: 1\n"), 1);
        assert_eq!(depth("a:\n  b:\n    c: 1\nd: 2\n"), 3);
        assert_eq!(depth("a:\n- x\n- y\nb: 1\n"), 2);
        assert_eq!(depth("- - - x\n"), 3);
        assert_eq!(depth("cases:\n  - name: a\n    v: [[1]]\n  - name: b\n"), 5);
        assert_eq!(nesting_exceeds("a:\n  b:\n    c: 1\n", 2), Some(3));
    }

    #[test]
    fn flow_collections_count_on_top_of_blocks() {
        assert_eq!(nesting_exceeds("- - - [x]\n", 4), None);
        assert_eq!(nesting_exceeds("- - - [[x]]\n", 4), Some(1));
    }

    #[test]
    fn block_scalars_and_quoted_keys_are_passed_over() {
        assert_eq!(depth("a: |\n  - - - x\nb: 1\n"), 1);
        assert_eq!(depth("\"a\": \n  'b': 1\n"), 2);
    }

    #[test]
    fn flow_collections_count_where_a_node_starts() {
        // Each line's block mapping or sequence counts a level too.
        assert_eq!(depth("a: [[1], {b: [2]}]\n"), 4);
        assert_eq!(depth("- - [1]\n- {a: {b: c}}\n"), 3);
        assert_eq!(depth("a: !tag [1]\nb: &anchor {c: [d]}\n"), 3);
        assert_eq!(depth("a: [\n  [1,\n   [2]],\n]\n"), 4);
        assert_eq!(nesting_exceeds("a: 1\nb: [[[x]]]\n", 2), Some(2));
    }

    #[test]
    fn text_that_cannot_open_a_collection_is_passed_over() {
        // Plain scalars, quoted scalars, comments, block scalars.
        assert_eq!(depth("expr: a[0] + b[c[1]]\n"), 1);
        assert_eq!(depth("a: '[[['\nb: \"[{\\\"[\"\nc: 'it''s ['\n"), 1);
        assert_eq!(depth("a: 1 # [[[\n# {{{\n"), 1);
        assert_eq!(depth("a: [\"]]\", '}']\n"), 2);
        assert_eq!(
            depth("- name: x\n  config: |\n    [[[\n    {\n\n  expr: [1]\n"),
            3
        );
        assert_eq!(depth("summary: >\n  [[[\nkind: [a]\n"), 2);
        assert_eq!(depth("a: \"multi\n  [[[ line\"\nb: [1]\n"), 2);
        assert_eq!(depth("description: it's [not a list\nb: [1]\n"), 2);
    }

    #[test]
    fn the_suite_nests_a_few_levels() {
        let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../../suite");
        let mut deepest = 0;
        for entry in walkdir::WalkDir::new(suite) {
            let path = entry.unwrap().into_path();
            if path.extension().is_some_and(|e| e == "yaml") {
                let text = std::fs::read_to_string(&path).unwrap();
                deepest = deepest.max(depth(&text));
            }
        }
        // Deep enough that the scan is exercised (block mappings and sequences
        // of cases, their bodies and values), far from the limit.
        assert!((10..MAX_NESTING / 4).contains(&deepest), "{deepest}");
    }
}
