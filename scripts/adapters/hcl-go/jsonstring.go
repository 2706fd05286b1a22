package main

// The source text of a JSON static call's arguments
// (spec-notes/gaps/json-static-call-argument-text.md).
//
// hashicorp/hcl reads a JSON static call by parsing the decoded content of
// the JSON string as a native expression, starting the content's positions
// at the string token's start (its opening quotation mark). So an
// argument's range, in bytes, is the string's start plus the argument's
// offset in the decoded content: one byte early, and blind to the escapes
// before it. The adapter takes the content offsets back out of the range
// and maps them onto the JSON text through its own decoding of the string,
// which follows the decoding the library uses (encoding/json's: the JSON
// escapes, a `\u` surrogate pair as one character, a lone surrogate or an
// invalid UTF-8 byte as U+FFFD).

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// contentUnit is where one piece of a JSON string's content is written: a
// character as written, or one escape (a surrogate pair's two escapes
// together), as byte offsets in the JSON text.
type contentUnit struct {
	sourceStart, sourceEnd int
}

// jsonStringContent is the decoded content of a JSON string token and the
// map from each content byte back to the unit of source text it came from.
type jsonStringContent struct {
	src     []byte
	token   hcl.Range
	units   []contentUnit
	unitOf  []int // content byte -> index into units
	decoded []byte
	// problem, when not empty, says why the map cannot be trusted; every
	// text is then a message saying so.
	problem string
}

// jsonStringArgumentText returns the function that writes a JSON static
// call's argument, given the range the library reports for it, as the part
// of the JSON text that holds it, escapes as written. expr is the JSON
// string the call was read from; its verbatim value (what the library
// decoded, read in literal-only mode) checks the adapter's own decoding.
func jsonStringArgumentText(src []byte, expr hcl.Expression) func(hcl.Range) string {
	content := decodeJSONString(src, expr.Range())
	if content.problem == "" {
		value, diags := expr.Value(nil)
		switch {
		case diags.HasErrors() || !value.IsKnown() || value.IsNull() || !value.Type().Equals(cty.String):
			content.problem = "the call's JSON value is not a string"
		case value.AsString() != string(content.decoded):
			content.problem = fmt.Sprintf("the adapter decoded the JSON string to %q, the library to %q", content.decoded, value.AsString())
		}
	}
	return content.sourceText
}

// decodeJSONString decodes the JSON string token at token in src, recording
// where each piece of the content is written. The library has parsed the
// token, so it is a valid JSON string; anything else is recorded as a
// problem rather than trusted.
func decodeJSONString(src []byte, token hcl.Range) *jsonStringContent {
	c := &jsonStringContent{src: src, token: token}
	start, end := token.Start.Byte, token.End.Byte
	if start < 0 || end > len(src) || end-start < 2 || src[start] != '"' || src[end-1] != '"' {
		c.problem = fmt.Sprintf("the range %d-%d is no JSON string token", start, end)
		return c
	}
	i := start + 1
	last := end - 1 // the closing quotation mark
	for i < last {
		unitStart := i
		var decoded []byte
		if src[i] == '\\' {
			decoded, i = decodeEscape(src[:last], i)
			if decoded == nil {
				c.problem = fmt.Sprintf("an invalid escape at byte %d", unitStart)
				return c
			}
		} else if src[i] < utf8.RuneSelf {
			decoded = src[i : i+1]
			i++
		} else {
			r, size := utf8.DecodeRune(src[i:last])
			// An invalid byte decodes to U+FFFD, as encoding/json does.
			decoded = []byte(string(r))
			i += size
		}
		c.add(unitStart, i, decoded)
	}
	return c
}

// add appends one unit: the source bytes [sourceStart, sourceEnd) that
// decode to decoded.
func (c *jsonStringContent) add(sourceStart, sourceEnd int, decoded []byte) {
	index := len(c.units)
	c.units = append(c.units, contentUnit{sourceStart: sourceStart, sourceEnd: sourceEnd})
	for range decoded {
		c.unitOf = append(c.unitOf, index)
	}
	c.decoded = append(c.decoded, decoded...)
}

// decodeEscape decodes the escape at src[i] (a backslash; src ends before
// the closing quotation mark) and returns what it stands for and the offset
// after it, or nil for an invalid escape.
func decodeEscape(src []byte, i int) ([]byte, int) {
	if i+1 >= len(src) {
		return nil, i
	}
	switch src[i+1] {
	case '"', '\\', '/':
		return []byte{src[i+1]}, i + 2
	case 'b':
		return []byte{'\b'}, i + 2
	case 'f':
		return []byte{'\f'}, i + 2
	case 'n':
		return []byte{'\n'}, i + 2
	case 'r':
		return []byte{'\r'}, i + 2
	case 't':
		return []byte{'\t'}, i + 2
	case 'u':
		r, ok := hex4(src, i+2)
		if !ok {
			return nil, i
		}
		next := i + 6
		if utf16.IsSurrogate(r) {
			// A surrogate pair is one character; a surrogate that is not
			// the first of a pair is U+FFFD, and whatever follows it is
			// decoded on its own.
			if next+1 < len(src) && src[next] == '\\' && src[next+1] == 'u' {
				if r2, ok := hex4(src, next+2); ok {
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						return []byte(string(pair)), next + 6
					}
				}
			}
			r = utf8.RuneError
		}
		return []byte(string(r)), next
	}
	return nil, i
}

// hex4 reads the four hexadecimal digits of a `\u` escape at src[i:].
func hex4(src []byte, i int) (rune, bool) {
	if i+4 > len(src) {
		return 0, false
	}
	var r rune
	for _, b := range src[i : i+4] {
		var digit byte
		switch {
		case '0' <= b && b <= '9':
			digit = b - '0'
		case 'a' <= b && b <= 'f':
			digit = b - 'a' + 10
		case 'A' <= b && b <= 'F':
			digit = b - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(digit)
	}
	return r, true
}

// sourceText is the JSON text holding the content that an argument's range
// covers: from the unit holding its first byte to the end of the unit
// holding its last. A range that does not fit the content is written as a
// message saying so, a wrong answer that fails the case.
func (c *jsonStringContent) sourceText(r hcl.Range) string {
	if c.problem != "" {
		return "<hcl-go: " + c.problem + ">"
	}
	from := r.Start.Byte - c.token.Start.Byte
	to := r.End.Byte - c.token.Start.Byte
	if from < 0 || from > to || to > len(c.decoded) {
		return fmt.Sprintf("<hcl-go: the range %d-%d is outside the %d bytes of the string's content>", from, to, len(c.decoded))
	}
	if from == to {
		return ""
	}
	first := c.units[c.unitOf[from]]
	lastUnit := c.units[c.unitOf[to-1]]
	return string(c.src[first.sourceStart:lastUnit.sourceEnd])
}
