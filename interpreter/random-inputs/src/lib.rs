//! Random inputs for the tests that feed the syntaxes and `hcl-ref` what
//! no case file holds (the fuzz tests of `hcl-interpreter`,
//! `hcl-conformance-format` and `hcl-conformance`), and for the runner's
//! generative conformance (`hcl-conformance fuzz`): a small deterministic
//! generator and the mutation of a text. Written once here: it depends on
//! no workspace crate, so it stands outside their layering (interpreter,
//! format, site, runner), every crate's tests may use it, and the runner
//! builds on it.
//!
//! Bounded in iterations, not in time, and seeded: a test that uses it
//! sees the same inputs on every run.

/// xorshift64* (Vigna, "An experimental exploration of Marsaglia's
/// xorshift generators, scrambled"): small, deterministic, good enough to
/// generate and mutate text. The state must not be 0.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// True once in `one_in` times.
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    /// One of `items`, which must not be empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// How [`mutate_text`] mutates: what it splices in, and which characters
/// it inserts.
pub struct Mutations<'a> {
    /// Pieces of the syntax spliced in (tokens, keywords, delimiters).
    pub pieces: &'a [&'a str],
    /// Hostile strings spliced in as well, where not empty (deep nesting,
    /// long runs); an empty list leaves that mutation out.
    pub hostile: &'a [&'a str],
    /// Inserted characters are below this code point (those that are no
    /// `char`, surrogates, become `?`).
    pub chars_below: u32,
}

/// `text` with one to four mutations, each at a random place: a few
/// characters deleted, a piece (or a hostile string) spliced in, a stretch
/// of the text copied elsewhere, the rest cut off, or a random character
/// inserted.
pub fn mutate_text(text: &str, rng: &mut Rng, how: &Mutations) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let kinds = if how.hostile.is_empty() { 5 } else { 6 };
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(chars.len() + 1);
        let mut kind = rng.below(kinds);
        // Without hostile strings, the kinds after it move up one.
        if how.hostile.is_empty() && kind >= 2 {
            kind += 1;
        }
        match kind {
            0 if !chars.is_empty() => {
                let end = (at + 1 + rng.below(8)).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            1 => {
                let piece = rng.pick(how.pieces);
                chars.splice(at..at, piece.chars());
            }
            2 => {
                let hostile = rng.pick(how.hostile);
                chars.splice(at..at, hostile.chars());
            }
            3 if !chars.is_empty() => {
                let from = rng.below(chars.len());
                let end = (from + 1 + rng.below(16)).min(chars.len());
                let copy: Vec<char> = chars[from..end].to_vec();
                chars.splice(at..at, copy);
            }
            4 => chars.truncate(at),
            _ => chars.insert(
                at,
                char::from_u32(rng.below(how.chars_below as usize) as u32).unwrap_or('?'),
            ),
        }
    }
    chars.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_xorshift64_star() {
        // The first outputs from state 1, worked by hand from the steps.
        let mut rng = Rng(1);
        assert_eq!(rng.next_u64(), 5_180_492_295_206_395_165);
        let mut again = Rng(1);
        again.next_u64();
        assert_eq!(rng.next_u64(), again.next_u64());
        assert!((0..1000).all(|_| rng.below(7) < 7));
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn mutations_change_the_text_and_splice_only_what_they_are_given() {
        let how = Mutations {
            pieces: &["PIECE"],
            hostile: &[],
            chars_below: 0x80,
        };
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let texts: Vec<String> = (0..200)
            .map(|_| mutate_text("a = 1", &mut rng, &how))
            .collect();
        assert!(texts.iter().any(|t| t.contains("PIECE")));
        assert!(texts.iter().any(|t| t.len() < "a = 1".len()));
        assert!(texts.iter().all(|t| t.is_ascii() && !t.contains("HOSTILE")));
        let hostile = Mutations {
            hostile: &["HOSTILE"],
            ..how
        };
        let texts: Vec<String> = (0..200)
            .map(|_| mutate_text("a = 1", &mut rng, &hostile))
            .collect();
        assert!(texts.iter().any(|t| t.contains("HOSTILE")));
    }
}
