// Command hcl-go puts the reference implementation of HCL (hashicorp/hcl
// v2.14.1 and its type system go-cty 1.12.1) behind the hcl-conformance
// subprocess protocol (runner/PROTOCOL.md).
//
// It reads one JSON request per line on standard input and writes one JSON
// answer per line on standard output, flushing after each, until standard
// input closes. Only the library's public API is used: the adapter's own
// code decodes and encodes values, because ctyjson cannot carry unknowns.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

const (
	adapterName    = "hcl-go"
	adapterVersion = "hashicorp/hcl 2.14.1, go-cty 1.12.1"
)

// ---------------------------------------------------------------------------
// Requests and answers

// request holds the fields of every kind; each handler reads the ones it needs.
type request struct {
	ID       string            `json:"id"`
	Kind     string            `json:"kind"`
	Value    *wireValue        `json:"value"`
	To       json.RawMessage   `json:"to"`
	Types    []json.RawMessage `json:"types"`
	Type     json.RawMessage   `json:"type"`
	Spec     json.RawMessage   `json:"spec"`
	Op       string            `json:"op"`
	Operands []wireValue       `json:"operands"`
}

// wireValue is a value as it travels: its type, its ctyjson-like encoding
// with unknown positions as null, and the tree marking the unknowns.
type wireValue struct {
	Type    json.RawMessage `json:"type"`
	Value   interface{}     `json:"value"`
	Unknown interface{}     `json:"unknown,omitempty"`
}

// answer is one line of output; only the fields that apply are set.
type answer struct {
	ID           string          `json:"id"`
	Name         string          `json:"name,omitempty"`
	Version      string          `json:"version,omitempty"`
	Capabilities *capabilities   `json:"capabilities,omitempty"`
	Value        *wireValue      `json:"value,omitempty"`
	Safety       string          `json:"safety,omitempty"`
	Type         json.RawMessage `json:"type,omitempty"`
	Result       *bool           `json:"result,omitempty"`
	Error        *failure        `json:"error,omitempty"`
	Unsupported  string          `json:"unsupported,omitempty"`
}

type capabilities struct {
	Kinds    []string `json:"kinds"`
	Features []string `json:"features"`
}

type failure struct {
	Phase       string       `json:"phase"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

type diagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail,omitempty"`
}

// fail builds an error answer with a single error diagnostic.
func fail(id, phase, summary, detail string) answer {
	return answer{ID: id, Error: &failure{Phase: phase,
		Diagnostics: []diagnostic{{Severity: "error", Summary: summary, Detail: detail}}}}
}

// badRequest is raised (as a panic) by the decoding helpers; handle turns it
// into an error answer of phase "parse".
type badRequest struct{ msg string }

func reject(format string, args ...interface{}) {
	panic(badRequest{fmt.Sprintf(format, args...)})
}

// ---------------------------------------------------------------------------
// Main loop

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if ans, ok := answerLine(line); ok {
				if err := enc.Encode(ans); err != nil {
					enc.Encode(fail(ans.ID, "eval", "hcl-go: cannot encode the answer", err.Error()))
				}
				out.Flush()
			}
		}
		if err == io.EOF {
			return
		} else if err != nil {
			fmt.Fprintf(os.Stderr, "hcl-go: reading stdin: %v\n", err)
			return
		}
	}
}

// answerLine parses one request line and answers it. A line whose id cannot
// be read gets no answer, only a message on standard error.
func answerLine(line []byte) (answer, bool) {
	var head struct {
		ID *string `json:"id"`
	}
	if err := json.Unmarshal(line, &head); err != nil || head.ID == nil {
		fmt.Fprintf(os.Stderr, "hcl-go: request without a readable id (%v): %s\n", err, bytes.TrimSpace(line))
		return answer{}, false
	}
	var req request
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		return fail(*head.ID, "parse", "Malformed request", err.Error()), true
	}
	return handle(req), true
}

// handle dispatches a request to its kind. The phase variable says what the
// handler is doing, so that a panic is reported in the right phase: bad
// input (a badRequest panic) is "parse", a panic inside the library is
// reported in the phase of the operation it interrupted.
func handle(req request) (ans answer) {
	phase := "parse"
	defer func() {
		if r := recover(); r != nil {
			if bad, ok := r.(badRequest); ok {
				ans = fail(req.ID, "parse", "Malformed request", bad.msg)
			} else {
				ans = fail(req.ID, phase, "hcl-go: the implementation panicked", fmt.Sprint(r))
			}
		}
	}()
	switch req.Kind {
	case "hello":
		return hello(req)
	case "convert":
		return convertValue(req, &phase)
	case "unify":
		return unify(req, &phase)
	case "identical":
		return identical(req)
	case "matches":
		return matches(req)
	case "operation":
		return operation(req, &phase)
	}
	return answer{ID: req.ID, Unsupported: fmt.Sprintf("hcl-go does not answer requests of kind %q", req.Kind)}
}

// ---------------------------------------------------------------------------
// Request kinds

func hello(req request) answer {
	return answer{ID: req.ID, Name: adapterName, Version: adapterVersion,
		Capabilities: &capabilities{
			Kinds:    []string{"convert", "unify", "identical", "matches", "operation"},
			Features: []string{"unknown", "safety"},
		}}
}

// convertValue converts with convert.Convert (unsafe conversions allowed)
// and classifies the conversion with convert.GetConversion, which only
// returns safe conversions.
func convertValue(req request, phase *string) answer {
	if req.Value == nil {
		reject("convert needs a value")
	}
	in := decodeValue(*req.Value)
	to := decodeType(req.To)
	*phase = "conversion"
	out, err := convert.Convert(in, to)
	if err != nil {
		return fail(req.ID, "conversion", "Unsuitable value", err.Error())
	}
	return answer{ID: req.ID, Value: encodeValue(out), Safety: safety(in.Type(), to)}
}

// safety is "safe" when cty has a safe conversion between the types.
// convert.Convert returns its input untouched when the types are equal, while
// GetConversion has no conversion from a primitive type to itself, so equal
// types are classed as safe before asking GetConversion.
func safety(from, to cty.Type) string {
	if from.Equals(to) || convert.GetConversion(from, to) != nil {
		return "safe"
	}
	return "unsafe"
}

// unify uses safe unification (convert.Unify). Note that hclsyntax's
// conditional operator uses convert.UnifyUnsafe instead; the two differ when
// the dynamic pseudo-type is among the types (Unify keeps it, UnifyUnsafe
// selects the other type).
func unify(req request, phase *string) answer {
	types := make([]cty.Type, len(req.Types))
	for i, raw := range req.Types {
		types[i] = decodeType(raw)
	}
	*phase = "unification"
	t, _ := convert.Unify(types)
	if t == cty.NilType {
		return fail(req.ID, "unification", "No common type", "the types have no safe common supertype")
	}
	return answer{ID: req.ID, Type: encodeType(t)}
}

func identical(req request) answer {
	if len(req.Types) != 2 {
		reject("identical needs exactly two types, got %d", len(req.Types))
	}
	result := decodeType(req.Types[0]).Equals(decodeType(req.Types[1]))
	return answer{ID: req.ID, Result: &result}
}

func matches(req request) answer {
	result := decodeType(req.Type).TestConformance(decodeType(req.Spec)) == nil
	return answer{ID: req.ID, Result: &result}
}

// operationSource gives the native-syntax expression of each operation, with
// the operands bound to the variables a and b.
var operationSource = map[string]string{
	"equal":            "a == b",
	"not-equal":        "a != b",
	"add":              "a + b",
	"subtract":         "a - b",
	"multiply":         "a * b",
	"divide":           "a / b",
	"modulo":           "a % b",
	"negate":           "-a",
	"less":             "a < b",
	"less-or-equal":    "a <= b",
	"greater":          "a > b",
	"greater-or-equal": "a >= b",
	"and":              "a && b",
	"or":               "a || b",
	"not":              "!a",
}

// operation evaluates the operator's expression with hclsyntax.
func operation(req request, phase *string) answer {
	src, ok := operationSource[req.Op]
	if !ok {
		return answer{ID: req.ID, Unsupported: fmt.Sprintf("hcl-go has no operation %q", req.Op)}
	}
	want := 2
	if req.Op == "negate" || req.Op == "not" {
		want = 1
	}
	if len(req.Operands) != want {
		reject("operation %s needs %d operands, got %d", req.Op, want, len(req.Operands))
	}
	vars := map[string]cty.Value{}
	for i, name := range []string{"a", "b"}[:want] {
		vars[name] = decodeValue(req.Operands[i])
	}
	*phase = "eval"
	expr, diags := hclsyntax.ParseExpression([]byte(src), "operation.hcl", hcl.Pos{Line: 1, Column: 1, Byte: 0})
	if diags.HasErrors() {
		return diagnosticsAnswer(req.ID, "parse", diags)
	}
	result, diags := expr.Value(&hcl.EvalContext{Variables: vars})
	if diags.HasErrors() {
		return diagnosticsAnswer(req.ID, "eval", diags)
	}
	return answer{ID: req.ID, Value: encodeValue(result)}
}

// diagnosticsAnswer turns HCL diagnostics into an error answer.
func diagnosticsAnswer(id, phase string, diags hcl.Diagnostics) answer {
	f := &failure{Phase: phase}
	for _, d := range diags {
		severity := "error"
		if d.Severity == hcl.DiagWarning {
			severity = "warning"
		}
		f.Diagnostics = append(f.Diagnostics, diagnostic{Severity: severity, Summary: d.Summary, Detail: d.Detail})
	}
	return answer{ID: id, Error: f}
}

// ---------------------------------------------------------------------------
// Types: go-cty's own JSON type encoding

func decodeType(raw json.RawMessage) cty.Type {
	if len(raw) == 0 {
		reject("a type is missing")
	}
	t, err := ctyjson.UnmarshalType(raw)
	if err != nil {
		reject("invalid type %s: %v", raw, err)
	}
	return t
}

func encodeType(t cty.Type) json.RawMessage {
	raw, err := ctyjson.MarshalType(t)
	if err != nil {
		panic(fmt.Sprintf("cannot encode type %#v: %v", t, err))
	}
	return raw
}

// ---------------------------------------------------------------------------
// Values: decoding walks the JSON value and the unknown tree together

func decodeValue(w wireValue) cty.Value {
	return decodeAt(decodeType(w.Type), w.Value, w.Unknown)
}

// decodeAt decodes v as a value of type t; unknown is the matching part of
// the unknown tree (nil, a bool, an array or an object).
func decodeAt(t cty.Type, v interface{}, unknown interface{}) cty.Value {
	if unknown == true {
		if v != nil {
			reject("an unknown value must be written null, got %v", v)
		}
		return cty.UnknownVal(t)
	}
	if unknown == false {
		unknown = nil
	}
	if v == nil {
		if unknown != nil {
			reject("a null value cannot have unknown parts")
		}
		return cty.NullVal(t)
	}
	switch {
	case t == cty.String:
		s, ok := v.(string)
		if !ok {
			reject("a string must be a JSON string, got %v", v)
		}
		return cty.StringVal(s)
	case t == cty.Bool:
		b, ok := v.(bool)
		if !ok {
			reject("a bool must be a JSON boolean, got %v", v)
		}
		return cty.BoolVal(b)
	case t == cty.Number:
		return decodeNumber(v)
	case t.IsListType(), t.IsSetType(), t.IsTupleType():
		return decodeSequence(t, v, unknown)
	case t.IsMapType(), t.IsObjectType():
		return decodeMapping(t, v, unknown)
	}
	reject("a known value of type %s cannot be written", t.FriendlyName())
	return cty.NilVal
}

// decodeNumber reads a JSON number or a decimal string at 512 bits, as
// cty.ParseNumberVal does; "+Inf" and "-Inf" are the infinities.
func decodeNumber(v interface{}) cty.Value {
	var s string
	switch n := v.(type) {
	case json.Number:
		s = string(n)
	case string:
		s = n
	default:
		reject("a number must be a JSON number or string, got %v", v)
	}
	switch s {
	case "+Inf":
		return cty.PositiveInfinity
	case "-Inf":
		return cty.NegativeInfinity
	}
	n, err := cty.ParseNumberVal(s)
	if err != nil {
		reject("invalid number %q", s)
	}
	return n
}

// decodeSequence decodes a list, set or tuple from a JSON array.
func decodeSequence(t cty.Type, v interface{}, unknown interface{}) cty.Value {
	items, ok := v.([]interface{})
	if !ok {
		reject("a %s must be a JSON array", t.FriendlyName())
	}
	if t.IsTupleType() && len(items) != len(t.TupleElementTypes()) {
		reject("%s needs %d elements, got %d", t.FriendlyName(), len(t.TupleElementTypes()), len(items))
	}
	marks := unknownArray(unknown, len(items))
	elems := make([]cty.Value, len(items))
	for i, item := range items {
		if t.IsTupleType() {
			elems[i] = decodeAt(t.TupleElementType(i), item, marks[i])
		} else {
			elems[i] = decodeAt(t.ElementType(), item, marks[i])
		}
	}
	switch {
	case t.IsTupleType():
		return cty.TupleVal(elems)
	case len(elems) == 0 && t.IsListType():
		return cty.ListValEmpty(t.ElementType())
	case len(elems) == 0:
		return cty.SetValEmpty(t.ElementType())
	case t.IsListType():
		return cty.ListVal(elems)
	}
	return cty.SetVal(elems)
}

// decodeMapping decodes a map or an object from a JSON object.
func decodeMapping(t cty.Type, v interface{}, unknown interface{}) cty.Value {
	fields, ok := v.(map[string]interface{})
	if !ok {
		reject("a %s must be a JSON object", t.FriendlyName())
	}
	marks := unknownObject(unknown)
	attrs := make(map[string]cty.Value, len(fields))
	for k, field := range fields {
		et := cty.DynamicPseudoType
		if t.IsMapType() {
			et = t.ElementType()
		} else if t.HasAttribute(k) {
			et = t.AttributeType(k)
		} else {
			reject("%s has no attribute %q", t.FriendlyName(), k)
		}
		attrs[k] = decodeAt(et, field, marks[k])
	}
	if t.IsObjectType() {
		for k := range t.AttributeTypes() {
			if _, ok := attrs[k]; !ok {
				reject("the value of %s lacks attribute %q", t.FriendlyName(), k)
			}
		}
		return cty.ObjectVal(attrs)
	}
	if len(attrs) == 0 {
		return cty.MapValEmpty(t.ElementType())
	}
	return cty.MapVal(attrs)
}

// unknownArray reads the unknown tree of a sequence: absent (all known) or
// an array with one entry per element.
func unknownArray(unknown interface{}, n int) []interface{} {
	if unknown == nil {
		return make([]interface{}, n)
	}
	marks, ok := unknown.([]interface{})
	if !ok || len(marks) != n {
		reject("the unknown tree of a sequence of %d elements must be an array of %d entries", n, n)
	}
	return marks
}

// unknownObject reads the unknown tree of a map or object: absent (all known)
// or an object with entries for the keys that hold unknowns.
func unknownObject(unknown interface{}) map[string]interface{} {
	if unknown == nil {
		return nil
	}
	marks, ok := unknown.(map[string]interface{})
	if !ok {
		reject("the unknown tree of a map or object must be a JSON object")
	}
	return marks
}

// ---------------------------------------------------------------------------
// Values: encoding produces the JSON value and the unknown tree together

func encodeValue(v cty.Value) *wireValue {
	value, unknown := encodeAt(v)
	w := &wireValue{Type: encodeType(v.Type()), Value: value}
	if unknown != nil {
		w.Unknown = unknown
	}
	return w
}

// encodeAt returns the JSON form of v and its unknown tree, which is nil
// when v is wholly known.
func encodeAt(v cty.Value) (interface{}, interface{}) {
	v, _ = v.Unmark()
	if !v.IsKnown() {
		return nil, true
	}
	if v.IsNull() {
		return nil, nil
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return v.AsString(), nil
	case t == cty.Bool:
		return v.True(), nil
	case t == cty.Number:
		return encodeNumber(v.AsBigFloat()), nil
	case t.IsListType(), t.IsSetType(), t.IsTupleType():
		return encodeSequence(v)
	case t.IsMapType(), t.IsObjectType():
		return encodeMapping(v)
	}
	panic(fmt.Sprintf("cannot encode a value of type %s", t.FriendlyName()))
}

// encodeNumber writes a number as a decimal string in full precision.
func encodeNumber(f *big.Float) string {
	if f.IsInf() {
		if f.Sign() > 0 {
			return "+Inf"
		}
		return "-Inf"
	}
	return f.Text('f', -1)
}

// encodeSequence writes a list, set or tuple, sets in cty's element order.
func encodeSequence(v cty.Value) (interface{}, interface{}) {
	items := []interface{}{}
	marks := []interface{}{}
	anyUnknown := false
	for it := v.ElementIterator(); it.Next(); {
		_, ev := it.Element()
		item, mark := encodeAt(ev)
		items = append(items, item)
		if mark == nil {
			mark = false
		} else {
			anyUnknown = true
		}
		marks = append(marks, mark)
	}
	if !anyUnknown {
		return items, nil
	}
	return items, marks
}

// encodeMapping writes a map or an object; its unknown tree only has the
// keys that hold unknowns.
func encodeMapping(v cty.Value) (interface{}, interface{}) {
	fields := map[string]interface{}{}
	marks := map[string]interface{}{}
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		field, mark := encodeAt(ev)
		fields[k.AsString()] = field
		if mark != nil {
			marks[k.AsString()] = mark
		}
	}
	if len(marks) == 0 {
		return fields, nil
	}
	return fields, marks
}
