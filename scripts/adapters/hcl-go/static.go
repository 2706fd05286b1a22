package main

// The static kind: the static analyses of spec.md § Static Analysis applied
// to an expression, with hcl.ExprList, hcl.ExprMap, hcl.ExprCall and
// hcl.AbsTraversalForExpr (runner/PROTOCOL.md, "Requests"). A native
// expression is parsed with hclsyntax.ParseExpression, a JSON value with
// json.ParseExpression; the library's JSON expressions implement the
// analyses as json-spec.md § Static Analysis describes.

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

// staticPair is one key/value pair of a static map, as source text.
type staticPair struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// staticCall is a static call: the function name and the argument
// expressions as source text.
type staticCall struct {
	Name      string   `json:"name"`
	Arguments []string `json:"arguments"`
}

// analyzeStatic parses the request's expression and applies the requested
// analysis. Every expression in the answer is the exact source text of its
// range; a traversal is its root name followed by `.name` and `[KEY]` steps.
//
// The arguments of a JSON static call are the exception: the library parses
// them from the decoded content of the JSON string and gives their ranges in
// bytes of that content counted from the string's opening quotation mark, so
// their text is found through the map jsonstring.go builds from the content
// back onto the JSON text (spec-notes/gaps/json-static-call-argument-text.md).
func analyzeStatic(req request, phase *string) answer {
	src := sourceText(req.Expr, "expr")
	switch req.Analysis {
	case "list", "map", "call", "traversal":
	default:
		reject("unknown analysis %q (want list, map, call or traversal)", req.Analysis)
	}
	var expr hcl.Expression
	var diags hcl.Diagnostics
	switch req.Syntax {
	case "native":
		expr, diags = hclsyntax.ParseExpression(src, caseFile, caseStart)
	case "json":
		expr, diags = hcljson.ParseExpression(src, caseFile)
	default:
		return answer{ID: req.ID, Unsupported: fmt.Sprintf("hcl-go answers static requests in the native and JSON syntaxes, not %q", req.Syntax)}
	}
	if diags.HasErrors() {
		return diagnosticsAnswer(req.ID, "parse", diags)
	}
	*phase = "static"
	switch req.Analysis {
	case "list":
		elements, diags := hcl.ExprList(expr)
		if diags.HasErrors() {
			return diagnosticsAnswer(req.ID, "static", diags)
		}
		list := make([]string, len(elements))
		for i, e := range elements {
			list[i] = sourceSlice(src, e.Range())
		}
		return answer{ID: req.ID, List: &list}
	case "map":
		pairs, diags := hcl.ExprMap(expr)
		if diags.HasErrors() {
			return diagnosticsAnswer(req.ID, "static", diags)
		}
		out := make([]staticPair, len(pairs))
		for i, p := range pairs {
			out[i] = staticPair{Key: sourceSlice(src, p.Key.Range()), Value: sourceSlice(src, p.Value.Range())}
		}
		return answer{ID: req.ID, Map: &out}
	case "call":
		call, diags := hcl.ExprCall(expr)
		if diags.HasErrors() {
			return diagnosticsAnswer(req.ID, "static", diags)
		}
		argumentText := func(r hcl.Range) string { return sourceSlice(src, r) }
		if req.Syntax == "json" {
			argumentText = jsonStringArgumentText(src, expr)
		}
		out := &staticCall{Name: call.Name, Arguments: make([]string, len(call.Arguments))}
		for i, e := range call.Arguments {
			out.Arguments[i] = argumentText(e.Range())
		}
		return answer{ID: req.ID, Call: out}
	default:
		traversal, diags := hcl.AbsTraversalForExpr(expr)
		if diags.HasErrors() {
			return diagnosticsAnswer(req.ID, "static", diags)
		}
		steps := make([]string, len(traversal))
		for i, step := range traversal {
			steps[i] = traversalStep(step)
		}
		return answer{ID: req.ID, Traversal: &steps}
	}
}

// sourceSlice is the source text a range covers. A range outside the
// source, which the library should never return, is written as a text that
// says so: a wrong answer that fails the case, where an error answer could
// pass a case that expects the analysis not to apply.
func sourceSlice(src []byte, r hcl.Range) string {
	if r.Start.Byte < 0 || r.Start.Byte > r.End.Byte || r.End.Byte > len(src) {
		return fmt.Sprintf("<hcl-go: the library returned the range %d-%d in a source of %d bytes>", r.Start.Byte, r.End.Byte, len(src))
	}
	return string(src[r.Start.Byte:r.End.Byte])
}

// traversalStep writes a step as the protocol does: the root's name,
// `.name` for an attribute, `[KEY]` for an index with KEY the key's JSON
// form (a decimal number, a string, true, false or null).
func traversalStep(step hcl.Traverser) string {
	switch s := step.(type) {
	case hcl.TraverseRoot:
		return s.Name
	case hcl.TraverseAttr:
		return "." + s.Name
	case hcl.TraverseIndex:
		return "[" + indexKey(s.Key) + "]"
	}
	panic(fmt.Sprintf("unexpected traversal step %T", step))
}

func indexKey(key cty.Value) string {
	switch {
	case key.IsNull():
		return "null"
	case !key.IsKnown():
		panic("an index key is unknown")
	case key.Type() == cty.String:
		return jsonQuote(key.AsString())
	case key.Type() == cty.Number:
		return key.AsBigFloat().Text('f', -1)
	case key.Type() == cty.Bool:
		if key.True() {
			return "true"
		}
		return "false"
	}
	panic(fmt.Sprintf("an index key of type %s", key.Type().FriendlyName()))
}

// jsonQuote quotes a string as JSON with the fewest escapes: `"`, `\` and
// the control characters (short forms where JSON has them), so that the
// same key is always written the same way.
func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
