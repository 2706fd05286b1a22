package main

// The request kinds of the type system: convert, unify, identical, matches
// and operation.

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

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

// operation evaluates the operator's expression with hclsyntax. Its
// diagnostics go without ranges: they would point into the adapter's own
// expression (operationSource), not into anything the case wrote.
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
		return diagnosticsAnswerWithoutRanges(req.ID, "parse", diags)
	}
	result, diags := expr.Value(&hcl.EvalContext{Variables: vars})
	if diags.HasErrors() {
		return diagnosticsAnswerWithoutRanges(req.ID, "eval", diags)
	}
	return answer{ID: req.ID, Value: encodeValue(result)}
}
