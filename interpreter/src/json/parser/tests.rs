use super::*;

/// A range as `L:C-L:C`.
pub(crate) fn lc(range: Range) -> String {
    format!(
        "{}:{}-{}:{}",
        range.start.line, range.start.column, range.end.line, range.end.column
    )
}

fn ok(source: &str) -> Node {
    parse(source).unwrap_or_else(|d| panic!("{source:?}: {d:?}"))
}

/// The single diagnostic's range, checking that it is a parse error.
fn error(source: &str) -> String {
    let diagnostics = parse(source).expect_err(source);
    assert_eq!(diagnostics.len(), 1, "{source:?}");
    assert_eq!(diagnostics[0].phase, Phase::Parse, "{source:?}");
    lc(diagnostics[0].range.expect("a range"))
}

fn number(text: &str) -> Number {
    Number::parse_decimal(text, true).unwrap()
}

#[test]
fn every_kind_of_value_with_its_range() {
    let source = "{\n  \"a\": [1, -2.5e1, true, false, null],\n  \"b\": \"x\"\n}";
    let node = ok(source);
    assert_eq!(lc(node.range), "1:1-4:2");
    let NodeKind::Object(properties) = &node.kind else {
        panic!("an object")
    };
    assert_eq!(properties[0].name, "a");
    assert_eq!(lc(properties[0].name_range), "2:3-2:6");
    assert_eq!(lc(properties[0].range()), "2:3-2:38");
    let NodeKind::Array(elements) = &properties[0].value.kind else {
        panic!("an array")
    };
    let kinds: Vec<&NodeKind> = elements.iter().map(|e| &e.kind).collect();
    assert_eq!(
        kinds,
        [
            &NodeKind::Number(number("1")),
            &NodeKind::Number(number("-25")),
            &NodeKind::Bool(true),
            &NodeKind::Bool(false),
            &NodeKind::Null,
        ]
    );
    let ranges: Vec<String> = elements.iter().map(|e| lc(e.range)).collect();
    assert_eq!(
        ranges,
        [
            "2:9-2:10",
            "2:12-2:18",
            "2:20-2:24",
            "2:26-2:31",
            "2:33-2:37"
        ]
    );
    assert_eq!(properties[1].value.kind, NodeKind::String("x".into()));
    assert_eq!(lc(properties[1].value.range), "3:8-3:11");
}

#[test]
fn properties_keep_their_order_and_duplicates() {
    let node = ok(r#"{"z": 1, "a": 2, "z": 3, "m": 4}"#);
    let NodeKind::Object(properties) = &node.kind else {
        panic!("an object")
    };
    let names: Vec<&str> = properties.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["z", "a", "z", "m"]);
    assert_eq!(properties[2].value.kind, NodeKind::Number(number("3")));
}

#[test]
fn columns_count_characters_and_bytes_count_bytes() {
    let node = ok("[\"é€😀\", 1]");
    let NodeKind::Array(elements) = &node.kind else {
        panic!("an array")
    };
    let one = elements[1].range;
    assert_eq!(
        (one.start.line, one.start.column, one.start.byte),
        (1, 9, 14)
    );
    assert_eq!(ok("\r\n\t 1").range.start.line, 2);
}

#[test]
fn numbers_keep_full_precision() {
    let cases = [
        (
            "123456789012345678901234567890123456789",
            "123456789012345678901234567890123456789",
        ),
        ("0.1", "0.1"),
        ("-0", "0"),
        ("1E+2", "100"),
        ("25e-1", "2.5"),
        ("1e-999999999", "0"),
    ];
    for (source, expected) in cases {
        assert_eq!(
            ok(source).kind,
            NodeKind::Number(number(expected)),
            "{source}"
        );
    }
}

#[test]
fn a_number_beyond_the_representation_is_a_parse_error() {
    assert_eq!(error("1e999999999"), "1:1-1:12");
    assert_eq!(error("[0, -1e40000]"), "1:5-1:13");
    let digits = "9".repeat(40_001);
    assert_eq!(error(&digits), "1:1-1:40002");
    assert!(parse(&digits[1..]).is_ok());
}

#[test]
fn numbers_follow_the_json_grammar() {
    assert_eq!(error("01"), "1:1-1:3");
    assert_eq!(error("-"), "1:1-1:2");
    assert_eq!(error("1."), "1:1-1:3");
    assert_eq!(error("1e"), "1:1-1:3");
    assert_eq!(error("1e+"), "1:1-1:4");
    assert_eq!(error(".5"), "1:1-1:2");
    assert_eq!(error("+1"), "1:1-1:2");
    assert_eq!(error("0x10"), "1:2-1:3");
    assert_eq!(error("Infinity"), "1:1-1:9");
    assert_eq!(error("NaN"), "1:1-1:4");
}

#[test]
fn strings_decode_every_escape() {
    let node = ok(r#""\"\\\/\b\f\n\r\t\u0041\u00e9\u0000""#);
    assert_eq!(
        node.kind,
        NodeKind::String("\"\\/\u{8}\u{c}\n\r\tAé\u{0}".into())
    );
}

#[test]
fn surrogate_pairs_decode_to_one_character() {
    assert_eq!(ok(r#""\ud83d\ude00""#).kind, NodeKind::String("😀".into()));
    assert_eq!(ok(r#""\uD834\uDD1E!""#).kind, NodeKind::String("𝄞!".into()));
}

/// A lone surrogate reads as U+FFFD REPLACEMENT CHARACTER, as in
/// hashicorp/hcl. SPEC-GAP(spec-notes/gaps/json-lone-surrogates.md)
#[test]
fn a_lone_surrogate_is_a_replacement_character() {
    let string = |s: &str| NodeKind::String(s.into());
    assert_eq!(ok(r#""\ud83d""#).kind, string("\u{fffd}"));
    assert_eq!(ok(r#""\ud83dx""#).kind, string("\u{fffd}x"));
    assert_eq!(ok(r#""\ud83d\u0041""#).kind, string("\u{fffd}A"));
    assert_eq!(ok(r#""a\ude00""#).kind, string("a\u{fffd}"));
    assert_eq!(ok(r#""\ud83d\ud83d""#).kind, string("\u{fffd}\u{fffd}"));
    assert_eq!(ok(r#""\ud83d\ud83d\ude00""#).kind, string("\u{fffd}😀"));
}

#[test]
fn strings_reject_control_characters_and_bad_escapes() {
    assert_eq!(error("\"a\tb\""), "1:3-1:4");
    assert_eq!(error("\"a\nb\""), "1:3-2:1");
    assert_eq!(error("\"\u{1f}\""), "1:2-1:3");
    assert_eq!(error(r#""\x""#), "1:2-1:4");
    assert_eq!(error(r#""\u12""#), "1:2-1:6");
    assert_eq!(error(r#""\u12G4""#), "1:2-1:6");
    assert_eq!(error("\"abc"), "1:1-1:5");
    assert_eq!(error("\"\\"), "1:2-1:3");
    // DEL and other non-control characters are fine unescaped.
    assert_eq!(
        ok("\"\u{7f}\u{85}\"").kind,
        NodeKind::String("\u{7f}\u{85}".into())
    );
}

#[test]
fn structural_errors() {
    assert_eq!(error(""), "1:1-1:1");
    assert_eq!(error("  \n "), "2:2-2:2");
    assert_eq!(error("[1, 2"), "1:6-1:6");
    assert_eq!(error("[1 2]"), "1:4-1:5");
    assert_eq!(error("[1,]"), "1:4-1:5");
    assert_eq!(error(r#"{"a": 1,}"#), "1:9-1:10");
    assert_eq!(error(r#"{"a" 1}"#), "1:6-1:7");
    assert_eq!(error(r#"{a: 1}"#), "1:2-1:3");
    assert_eq!(error(r#"{1: 1}"#), "1:2-1:3");
    assert_eq!(error("1 2"), "1:3-1:4");
    assert_eq!(error("{} x"), "1:4-1:5");
    assert_eq!(error("tru"), "1:1-1:4");
    assert_eq!(error("[true1]"), "1:2-1:7");
    assert_eq!(error("// c\n1"), "1:1-1:2");
    assert_eq!(error("\u{feff}1"), "1:1-1:2");
    assert_eq!(error("\u{a0}1"), "1:1-1:2");
}

#[test]
fn nesting_up_to_the_limit_is_accepted() {
    let depth = MAX_NESTING_DEPTH;
    let source = "[".repeat(depth) + &"]".repeat(depth);
    let node = ok(&source);
    let mut levels = 0;
    let mut current = &node;
    while let NodeKind::Array(elements) = &current.kind {
        levels += 1;
        match elements.first() {
            Some(inner) => current = inner,
            None => break,
        }
    }
    assert_eq!(levels, depth);
    let objects = "{\"a\":".repeat(depth) + "1" + &"}".repeat(depth);
    ok(&objects);
}

#[test]
fn nesting_beyond_the_limit_is_a_clean_error() {
    let depth = MAX_NESTING_DEPTH + 1;
    let source = "[".repeat(depth) + &"]".repeat(depth);
    let column = MAX_NESTING_DEPTH + 1;
    assert_eq!(error(&source), format!("1:{column}-1:{}", column + 1));
    let unclosed = "[{\"a\":".repeat(1_000_000);
    assert!(error(&unclosed).starts_with("1:"));
}

#[test]
fn large_inputs_parse() {
    let elements = vec![r#"{"k": "v\u0041", "n": 1.5}"#; 200_000].join(",");
    let source = format!("[{elements}]");
    let node = ok(&source);
    let NodeKind::Array(elements) = &node.kind else {
        panic!("an array")
    };
    assert_eq!(elements.len(), 200_000);
    let long_line = format!("\"{}\"", "é".repeat(1_000_000));
    assert!(matches!(ok(&long_line).kind, NodeKind::String(_)));
}

/// Every prefix, and many mutations, of a document end in a tree or a
/// diagnostic with a range inside the source, never in a panic.
#[test]
fn malformed_input_never_panics() {
    let document =
        "{\n \"a\": [1, -2.5e+3, \"\\ud83d\\ude00 é\\n\", true, null],\n \"b\": {\"c\": false}\n}";
    let mut inputs: Vec<String> = document
        .char_indices()
        .map(|(i, _)| document[..i].to_string())
        .collect();
    let alphabet = [
        '{', '}', '[', ']', '"', '\\', ':', ',', '0', '-', 'e', '.', 'u', 'd', '\n', 'é',
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..3_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let chars: Vec<char> = document.chars().collect();
        let at = (seed % chars.len() as u64) as usize;
        let replacement = alphabet[((seed >> 20) % alphabet.len() as u64) as usize];
        let mut mutated = chars.clone();
        mutated[at] = replacement;
        inputs.push(mutated.into_iter().collect());
    }
    for input in inputs {
        if let Err(diagnostics) = parse(&input) {
            let range = diagnostics[0].range.expect("a range");
            assert!(range.start.byte <= range.end.byte && range.end.byte <= input.len());
            assert!(
                input.is_char_boundary(range.start.byte) && input.is_char_boundary(range.end.byte)
            );
        }
    }
}
