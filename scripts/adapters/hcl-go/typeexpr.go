package main

// The type expressions extension (ext-typeexpr-README.md): the typeexpr kind
// reads an expression with typeexpr.Type or typeexpr.TypeConstraint, and an
// expr request that asks for the extension gets typeexpr.ConvertFunc as
// "convert" in its function table (runner/PROTOCOL.md, "Requests").

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty/function"
)

// readTypeExpr parses the request's expression in its syntax (a JSON value
// for "json") and reads it as a type (constraint false) or a type
// constraint (constraint true). Source that does not parse is a "parse"
// error; an expression that is no type expression is a "static" one.
func readTypeExpr(req request, phase *string) answer {
	src := sourceText(req.Expr, "expr")
	var expr hcl.Expression
	var diags hcl.Diagnostics
	switch req.Syntax {
	case "", "native":
		expr, diags = hclsyntax.ParseExpression(src, caseFile, caseStart)
	case "json":
		expr, diags = hcljson.ParseExpression(src, caseFile)
	default:
		reject("unknown syntax %q (want native or json)", req.Syntax)
	}
	if diags.HasErrors() {
		return diagnosticsAnswer(req.ID, "parse", diags)
	}
	*phase = "static"
	read := typeexpr.Type
	if req.Constraint {
		read = typeexpr.TypeConstraint
	}
	ty, diags := read(expr)
	if diags.HasErrors() {
		return diagnosticsAnswer(req.ID, "static", diags)
	}
	return answer{ID: req.ID, Type: encodeType(ty)}
}

// functionsFor is the function table of a request: the conformance table,
// joined by "convert" when the request asks for the typeexpr extension
// (expr requests; the extensions of a config request are its own).
func functionsFor(req request) map[string]function.Function {
	wanted := false
	for _, extension := range req.Extensions {
		switch {
		case extension == "typeexpr":
			wanted = true
		case req.Kind == "expr":
			reject("unknown extension %q for an expr request (want typeexpr)", extension)
		}
	}
	if !wanted {
		return conformanceFunctions
	}
	functions := make(map[string]function.Function, len(conformanceFunctions)+1)
	for name, f := range conformanceFunctions {
		functions[name] = f
	}
	functions["convert"] = typeexpr.ConvertFunc
	return functions
}
