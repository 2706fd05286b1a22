package main

// The static kind: the static analyses of spec.md § Static Analysis applied
// to a native-syntax expression, with hcl.ExprList, hcl.ExprMap, hcl.ExprCall
// and hcl.AbsTraversalForExpr (runner/PROTOCOL.md, "Requests").

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
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
func analyzeStatic(req request, phase *string) answer {
	if req.Syntax != "native" {
		return answer{ID: req.ID, Unsupported: fmt.Sprintf("hcl-go answers static requests in the native syntax only, not %q", req.Syntax)}
	}
	src := sourceText(req.Expr, "expr")
	switch req.Analysis {
	case "list", "map", "call", "traversal":
	default:
		reject("unknown analysis %q (want list, map, call or traversal)", req.Analysis)
	}
	expr, diags := hclsyntax.ParseExpression(src, caseFile, caseStart)
	if diags.HasErrors() {
		return diagnosticsAnswer(req.ID, "parse", diags)
	}
	*phase = "static"
	text := func(e hcl.Expression) string {
		r := e.Range()
		return string(src[r.Start.Byte:r.End.Byte])
	}
	switch req.Analysis {
	case "list":
		elements, diags := hcl.ExprList(expr)
		if diags.HasErrors() {
			return diagnosticsAnswer(req.ID, "static", diags)
		}
		list := make([]string, len(elements))
		for i, e := range elements {
			list[i] = text(e)
		}
		return answer{ID: req.ID, List: &list}
	case "map":
		pairs, diags := hcl.ExprMap(expr)
		if diags.HasErrors() {
			return diagnosticsAnswer(req.ID, "static", diags)
		}
		out := make([]staticPair, len(pairs))
		for i, p := range pairs {
			out[i] = staticPair{Key: text(p.Key), Value: text(p.Value)}
		}
		return answer{ID: req.ID, Map: &out}
	case "call":
		call, diags := hcl.ExprCall(expr)
		if diags.HasErrors() {
			return diagnosticsAnswer(req.ID, "static", diags)
		}
		out := &staticCall{Name: call.Name, Arguments: make([]string, len(call.Arguments))}
		for i, e := range call.Arguments {
			out.Arguments[i] = text(e)
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
