package main

// The native-syntax kinds: expr, template and config (runner/PROTOCOL.md,
// "Requests"), and the conversion of HCL diagnostics into error answers.

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// caseFile names the source of every expr, template and config request in
// ranges; the protocol's ranges carry no file name, so it is never shown.
const caseFile = "case.hcl"

// caseStart is where a case's source text starts.
var caseStart = hcl.Pos{Line: 1, Column: 1, Byte: 0}

// conformanceFunctions is the protocol's conformance function table: exactly
// these names, each bound to its go-cty standard library function, and
// each also under the namespaced names of namespacedPrefixes. The functions
// are immutable values, so every request shares the table.
var conformanceFunctions = withNamespaces(map[string]function.Function{
	"upper":    stdlib.UpperFunc,
	"lower":    stdlib.LowerFunc,
	"abs":      stdlib.AbsoluteFunc,
	"min":      stdlib.MinFunc,
	"max":      stdlib.MaxFunc,
	"length":   stdlib.LengthFunc,
	"concat":   stdlib.ConcatFunc,
	"coalesce": stdlib.CoalesceFunc,
	"keys":     stdlib.KeysFunc,
	"join":     stdlib.JoinFunc,
})

// namespacedPrefixes are the namespaces the table also holds every function
// in (runner/PROTOCOL.md § The conformance function table): a call
// core::upper("x") names the function "core::upper".
var namespacedPrefixes = []string{"core::", "provider::conformance::"}

func withNamespaces(table map[string]function.Function) map[string]function.Function {
	all := make(map[string]function.Function, len(table)*(1+len(namespacedPrefixes)))
	for name, f := range table {
		all[name] = f
		for _, prefix := range namespacedPrefixes {
			all[prefix+name] = f
		}
	}
	return all
}

// bodyAnswer is the answer to a config request: a body's attributes, by
// name, its blocks in source order and, under partial processing, what the
// remaining body gave.
type bodyAnswer struct {
	Attributes map[string]*wireValue `json:"attributes"`
	Blocks     []blockAnswer         `json:"blocks"`
	// Remain is the remaining body under partial processing (schema.go);
	// absent otherwise.
	Remain *bodyAnswer `json:"remain,omitempty"`
}

type blockAnswer struct {
	Type   string      `json:"type"`
	Labels []string    `json:"labels"`
	Body   *bodyAnswer `json:"body"`
}

// evalContext decodes the request's variables (unknowns included) into an
// evaluation context with the conformance function table.
func evalContext(req request) *hcl.EvalContext {
	vars := make(map[string]cty.Value, len(req.Variables))
	for name, w := range req.Variables {
		vars[name] = decodeValue(w)
	}
	return &hcl.EvalContext{Variables: vars, Functions: functionsFor(req)}
}

// sourceText returns a request's source text, which must be present (it may
// be empty).
func sourceText(text *string, field string) []byte {
	if text == nil {
		reject("the request needs a %q field", field)
	}
	return []byte(*text)
}

// evalExpr parses the request's expression and evaluates it.
func evalExpr(req request, phase *string) answer {
	src := sourceText(req.Expr, "expr")
	return evalSource(req, phase, src, hclsyntax.ParseExpression)
}

// evalTemplate parses the request's text as a template (template file mode:
// no surrounding quotes, heredoc or otherwise) and evaluates it.
func evalTemplate(req request, phase *string) answer {
	src := sourceText(req.Template, "template")
	return evalSource(req, phase, src, hclsyntax.ParseTemplate)
}

// evalSource answers an expr or template request with the given parser.
func evalSource(req request, phase *string, src []byte,
	parse func([]byte, string, hcl.Pos) (hclsyntax.Expression, hcl.Diagnostics)) answer {
	ctx := evalContext(req)
	expr, diags := parse(src, caseFile, caseStart)
	if diags.HasErrors() {
		return diagnosticsAnswer(req.ID, "parse", diags)
	}
	*phase = "eval"
	value, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return diagnosticsAnswer(req.ID, "eval", diags)
	}
	return answer{ID: req.ID, Value: encodeValue(value)}
}

// evalConfig answers a config request. A request with a schema, and a JSON
// file (which without a schema is read in the dynamic attributes mode), is
// processed through hcl.Body's schema methods (schema.go), its body wrapped
// by dynblock.Expand with the dynblock extension. A native file without a
// schema is walked through its syntax tree: every attribute of its body and
// of the bodies of its blocks, at every depth, is evaluated, all of them
// even after one fails, so the error answer has the diagnostics of every
// attribute. With the dynblock extension the body is read through
// dynblock.Expand instead, with schemas derived from the syntax tree
// (dynblock.go).
func evalConfig(req request, phase *string) answer {
	if req.LiteralOnly && len(req.Variables) > 0 {
		// spec.md § Expression Evaluation: a calling application that asks
		// for literal-only mode and gives variables is in error; the
		// library does not check that, so the adapter, as the calling
		// application, does.
		return fail(req.ID, "eval", "Variables in literal-only mode",
			"literal-only mode has no variables, but the request gives some")
	}
	dynamicBlocks := false
	for _, extension := range req.Extensions {
		if extension != "dynblock" {
			return answer{ID: req.ID, Unsupported: fmt.Sprintf("hcl-go does not know the extension %q", extension)}
		}
		dynamicBlocks = true
	}
	if hasSchema(req) {
		return processConfig(req, phase, decodeSpec(req.Schema), dynamicBlocks)
	}
	if req.Syntax == "json" {
		return processConfig(req, phase, attributesSpec, dynamicBlocks)
	}
	if req.Syntax != "native" {
		return answer{ID: req.ID, Unsupported: fmt.Sprintf("hcl-go answers config requests in the native and JSON syntaxes, not %q", req.Syntax)}
	}
	src := sourceText(req.Config, "config")
	ctx := configContext(req)
	file, diags := hclsyntax.ParseConfig(src, caseFile, caseStart)
	if diags.HasErrors() {
		return diagnosticsAnswer(req.ID, "parse", diags)
	}
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		panic(fmt.Sprintf("hclsyntax.ParseConfig returned a body of type %T", file.Body))
	}
	*phase = "eval"
	if dynamicBlocks {
		return expandDynamicBlocks(req, body, ctx)
	}
	var evalDiags hcl.Diagnostics
	out := evalBody(body, ctx, &evalDiags)
	if evalDiags.HasErrors() {
		return diagnosticsAnswer(req.ID, "eval", evalDiags)
	}
	return answer{ID: req.ID, Body: out}
}

// configContext is the evaluation context of a config request's attributes:
// the request's variables and the conformance functions, or, in literal-only
// mode, no context at all. hashicorp/hcl evaluates an expression given a nil
// *hcl.EvalContext in its literal-only mode (no variables, no functions, and
// JSON strings taken verbatim rather than as templates).
func configContext(req request) *hcl.EvalContext {
	if req.LiteralOnly {
		return nil
	}
	return evalContext(req)
}

// evalAttributes evaluates attributes in source order, so that the
// diagnostics come in a stable order; a failing attribute is left out of the
// result and its diagnostics are added to diags.
func evalAttributes(attrs hcl.Attributes, ctx *hcl.EvalContext, diags *hcl.Diagnostics) map[string]*wireValue {
	ordered := make([]*hcl.Attribute, 0, len(attrs))
	for _, attr := range attrs {
		ordered = append(ordered, attr)
	}
	sort.Slice(ordered, func(i, j int) bool {
		return ordered[i].Range.Start.Byte < ordered[j].Range.Start.Byte
	})
	out := make(map[string]*wireValue, len(ordered))
	for _, attr := range ordered {
		value, valueDiags := attr.Expr.Value(ctx)
		*diags = append(*diags, valueDiags...)
		if !valueDiags.HasErrors() {
			out[attr.Name] = encodeValue(value)
		}
	}
	return out
}

// evalBody evaluates a body's attributes, in source order so that the
// diagnostics come in a stable order, then walks its blocks.
func evalBody(body *hclsyntax.Body, ctx *hcl.EvalContext, diags *hcl.Diagnostics) *bodyAnswer {
	attrs := make(hcl.Attributes, len(body.Attributes))
	for name, attr := range body.Attributes {
		attrs[name] = attr.AsHCLAttribute()
	}
	out := &bodyAnswer{
		Attributes: evalAttributes(attrs, ctx, diags),
		Blocks:     make([]blockAnswer, 0, len(body.Blocks)),
	}
	for _, block := range body.Blocks {
		out.Blocks = append(out.Blocks, blockAnswer{
			Type:   block.Type,
			Labels: append([]string{}, block.Labels...),
			Body:   evalBody(block.Body, ctx, diags),
		})
	}
	return out
}

// diagnosticsAnswer turns HCL diagnostics, at least one of them an error,
// into an error answer. Warnings are left out: they do not reject the input,
// and the protocol's error answers are about what rejected it.
func diagnosticsAnswer(id, phase string, diags hcl.Diagnostics) answer {
	f := &failure{Phase: phase, Diagnostics: []diagnostic{}}
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		f.Diagnostics = append(f.Diagnostics, diagnostic{
			Severity: "error",
			Summary:  d.Summary,
			Detail:   d.Detail,
			Range:    rangeOf(d.Subject),
		})
	}
	return answer{ID: id, Error: f}
}

// diagnosticsAnswerWithoutRanges is diagnosticsAnswer for source text the
// adapter wrote itself, whose ranges mean nothing to the case.
func diagnosticsAnswerWithoutRanges(id, phase string, diags hcl.Diagnostics) answer {
	ans := diagnosticsAnswer(id, phase, diags)
	for i := range ans.Error.Diagnostics {
		ans.Error.Diagnostics[i].Range = nil
	}
	return ans
}

// rangeOf converts a diagnostic's subject, if it has one.
func rangeOf(r *hcl.Range) *sourceRange {
	if r == nil {
		return nil
	}
	return &sourceRange{
		Start: sourcePos{Line: r.Start.Line, Column: r.Start.Column, Byte: r.Start.Byte},
		End:   sourcePos{Line: r.End.Line, Column: r.End.Column, Byte: r.End.Byte},
	}
}
