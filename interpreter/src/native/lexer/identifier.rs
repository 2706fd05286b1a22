//! The characters of identifiers.
//!
//! Spec: hclsyntax-spec.md § Identifiers
//!
//! > Identifiers are interpreted as per UAX #31 Section 2. Specifically,
//! > their syntax is defined in terms of the `ID_Start` and `ID_Continue`
//! > character properties [...] `Identifier = ID_Start (ID_Continue | '-')*;`
//!
//! The spec names no Unicode version. The properties are those of Unicode
//! 9.0.0, the version hashicorp/hcl v2.14.1's scanner tables are generated
//! from; characters whose status a later version changed (U+200D ZERO
//! WIDTH JOINER continues an identifier only from Unicode 15.1, letters of
//! scripts added after 9.0 start one only from their version) are
//! implementation-defined in the suite.
//! SPEC-GAP(spec-notes/gaps/lexical-identifier-unicode-version.md)
//!
//! The `unicode-xid` crate, pinned to its release of Unicode 9.0.0
//! tables, provides `XID_Start` and `XID_Continue`, which are `ID_Start`
//! and `ID_Continue` minus the few characters whose NFKC forms are not
//! identifiers (UAX #31 § 5.1, "NFKC Modifications"). Those characters
//! are added back here, so the sets are exactly `ID_Start` and
//! `ID_Continue`.
//!
//! `_` is `ID_Continue` but not `ID_Start`; it may nevertheless start an
//! identifier, read as the spec's "certain unambiguous punctuation tokens"
//! (a common UAX #31 profile, and hashicorp/hcl's behavior).
//! SPEC-GAP(spec-notes/gaps/lexical-identifier-underscore.md)

use unicode_xid::UnicodeXID;

/// Characters in `ID_Start` but not in `XID_Start`.
const ID_START_NOT_XID: &[char] = &[
    '\u{037A}', '\u{0E33}', '\u{0EB3}', '\u{309B}', '\u{309C}', '\u{FC5E}', '\u{FC5F}', '\u{FC60}',
    '\u{FC61}', '\u{FC62}', '\u{FC63}', '\u{FDFA}', '\u{FDFB}', '\u{FE70}', '\u{FE72}', '\u{FE74}',
    '\u{FE76}', '\u{FE78}', '\u{FE7A}', '\u{FE7C}', '\u{FE7E}', '\u{FF9E}', '\u{FF9F}',
];

/// Characters in `ID_Continue` but not in `XID_Continue`.
const ID_CONTINUE_NOT_XID: &[char] = &[
    '\u{037A}', '\u{309B}', '\u{309C}', '\u{FC5E}', '\u{FC5F}', '\u{FC60}', '\u{FC61}', '\u{FC62}',
    '\u{FC63}', '\u{FDFA}', '\u{FDFB}', '\u{FE70}', '\u{FE72}', '\u{FE74}', '\u{FE76}', '\u{FE78}',
    '\u{FE7A}', '\u{FE7C}', '\u{FE7E}',
];

/// Whether `c` has the Unicode property `ID_Start` (of Unicode 9.0.0).
/// SPEC-GAP(spec-notes/gaps/lexical-identifier-unicode-version.md)
pub fn is_id_start(c: char) -> bool {
    UnicodeXID::is_xid_start(c) || ID_START_NOT_XID.contains(&c)
}

/// Whether `c` has the Unicode property `ID_Continue` (of Unicode 9.0.0).
/// SPEC-GAP(spec-notes/gaps/lexical-identifier-unicode-version.md)
pub fn is_id_continue(c: char) -> bool {
    UnicodeXID::is_xid_continue(c) || ID_CONTINUE_NOT_XID.contains(&c)
}

/// The ASCII bytes that continue an identifier: `ID_Continue` (letters,
/// digits, `_`) and `-`.
const ASCII_CONTINUE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
        b += 1;
    }
    table
};

/// Where an identifier that has ASCII characters up to `from` ends, if it
/// ends on an ASCII byte (or at the end of the source): the fast path of
/// [`identifier_len`], for the common case of an identifier that is ASCII
/// throughout. `None` if a non-ASCII character follows, which only
/// [`identifier_len`] can judge.
#[inline]
pub(super) fn ascii_identifier_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut end = from;
    while let Some(&b) = bytes.get(end) {
        if !ASCII_CONTINUE[usize::from(b)] {
            return b.is_ascii().then_some(end);
        }
        end += 1;
    }
    Some(end)
}

/// The length in bytes of the identifier at byte offset `from` of
/// `source`, if one starts there: `(ID_Start | '_') (ID_Continue | '-')*`.
pub(super) fn identifier_len(source: &str, from: usize) -> Option<usize> {
    // Fast path: an ASCII identifier, the common case, read byte by byte.
    let bytes = source.as_bytes();
    let first = *bytes.get(from)?;
    if first.is_ascii_alphabetic() || first == b'_' {
        if let Some(end) = ascii_identifier_end(bytes, from + 1) {
            return Some(end - from);
        }
    }
    let text = source.get(from..)?;
    let mut chars = text.char_indices();
    let (_, first) = chars.next()?;
    // SPEC-GAP(spec-notes/gaps/lexical-identifier-underscore.md)
    if !(is_id_start(first) || first == '_') {
        return None;
    }
    for (i, c) in chars {
        let ascii_continue = c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if !(ascii_continue || (!c.is_ascii() && is_id_continue(c))) {
            return Some(i);
        }
    }
    Some(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_allow_dashes_and_leading_underscores_but_not_leading_digits() {
        assert_eq!(identifier_len("foo-bar baz", 0), Some(7));
        assert_eq!(identifier_len("a_1-", 0), Some(4));
        assert_eq!(identifier_len("_a", 0), Some(2));
        assert_eq!(identifier_len("_", 0), Some(1));
        assert_eq!(identifier_len("\u{B7}a", 0), None);
        assert_eq!(identifier_len("1a", 0), None);
        assert_eq!(identifier_len("-a", 0), None);
        assert_eq!(identifier_len("été.", 0), Some("été".len()));
        // U+0E33 is ID_Start but not XID_Start.
        assert_eq!(identifier_len("\u{0E33}x", 0), Some(4));
        // A combining mark continues but does not start an identifier.
        assert_eq!(identifier_len("e\u{301}", 0), Some(3));
        assert_eq!(identifier_len("\u{301}", 0), None);
    }

    #[test]
    fn identifier_properties_are_those_of_unicode_9() {
        assert_eq!(unicode_xid::UNICODE_VERSION, (9, 0, 0));
        // ZERO WIDTH JOINER: ID_Continue only from Unicode 15.1.
        assert_eq!(identifier_len("a\u{200D}b", 0), Some(1));
        // SYRIAC LETTER MALAYALAM NGA: assigned in Unicode 10.0.
        assert_eq!(identifier_len("\u{860}", 0), None);
        // VEDIC SIGN ARDHAVISARGA: ID_Continue in 9.0, ID_Start from 10.0.
        assert_eq!(identifier_len("a\u{1CF2}", 0), Some(4));
        assert_eq!(identifier_len("\u{1CF2}", 0), None);
    }
}
