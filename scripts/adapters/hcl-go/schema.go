package main

// Config requests processed with a schema (runner/PROTOCOL.md, "Schemas and
// evaluation modes"): the file's body is processed through the library's
// public hcl.Body methods, Content (exhaustive), PartialContent (with a
// remaining body) and JustAttributes (the dynamic attributes mode), and the
// bodies of its blocks and its remaining body the same way, each with the
// schema the request gives for it.
//
// The adapter acts as a calling application and reports what the library
// does, including where it differs from the spec: it passes the request's
// schema to the library unchecked (hashicorp/hcl does not reject a schema
// that names an attribute twice), and it processes the remaining body of
// partial processing as the library hands it over.
//
// Order, per body: the content is extracted (its errors are in phase
// "schema"); its attributes are evaluated in source order (errors: "eval");
// then each block's body is processed, in order; then the remaining body.
// The first step that fails decides the answer.
//
// With the dynblock extension the file's body is wrapped by dynblock.Expand,
// which expands `dynamic` blocks when the content is extracted: the errors
// of evaluating their for_each and labels arguments come from the content
// step, and are answered in phase "eval" (the library marks a diagnostic of
// evaluation with the expression it evaluated); the others, of the blocks'
// structure and labels, in phase "schema".

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

// maxSpecDepth bounds the nesting of a request's schema, as the runner
// bounds the values and bodies it writes.
const maxSpecDepth = 1000

// bodySpec is how a body is processed: in the dynamic attributes mode, or
// with a body schema, its blocks' bodies with the specs of their types and,
// under partial processing, the remaining body with its own spec.
type bodySpec struct {
	// justAttributes: the dynamic attributes mode; the other fields are
	// unused.
	justAttributes bool
	schema         *hcl.BodySchema
	// blockBodies is the spec of each block type's bodies; a type without
	// one is processed in the dynamic attributes mode.
	blockBodies map[string]*bodySpec
	// remain is nil for exhaustive processing.
	remain *bodySpec
}

// attributesSpec is the dynamic attributes mode, the schema "attributes".
var attributesSpec = &bodySpec{justAttributes: true}

// hasSchema says whether a config request carries a schema.
func hasSchema(req request) bool {
	return len(req.Schema) > 0 && string(req.Schema) != "null"
}

// wireSpec is a schema object as a request writes it.
type wireSpec struct {
	Attributes []struct {
		Name     *string `json:"name"`
		Required bool    `json:"required"`
	} `json:"attributes"`
	Blocks []struct {
		Type   *string         `json:"type"`
		Labels []string        `json:"labels"`
		Body   json.RawMessage `json:"body"`
	} `json:"blocks"`
	Remain json.RawMessage `json:"remain"`
}

// decodeSpec reads a request's schema: the string "attributes", or an
// object of attribute schemas, block header schemas with their bodies'
// specs, and an optional remain spec. A malformed schema is a bad request.
func decodeSpec(raw json.RawMessage) *bodySpec {
	return decodeSpecAt(raw, 0)
}

func decodeSpecAt(raw json.RawMessage, depth int) *bodySpec {
	if depth > maxSpecDepth {
		reject("the schema is nested more than %d deep", maxSpecDepth)
	}
	var word string
	if err := json.Unmarshal(raw, &word); err == nil {
		if word != "attributes" {
			reject("a schema is \"attributes\" or an object, not %q", word)
		}
		return attributesSpec
	}
	var wire wireSpec
	if err := json.Unmarshal(raw, &wire); err != nil {
		reject("a schema is \"attributes\" or an object: %v", err)
	}
	spec := &bodySpec{schema: &hcl.BodySchema{}, blockBodies: map[string]*bodySpec{}}
	for _, a := range wire.Attributes {
		if a.Name == nil {
			reject("an attribute schema needs a string \"name\"")
		}
		spec.schema.Attributes = append(spec.schema.Attributes,
			hcl.AttributeSchema{Name: *a.Name, Required: a.Required})
	}
	for _, b := range wire.Blocks {
		if b.Type == nil {
			reject("a block header schema needs a string \"type\"")
		}
		spec.schema.Blocks = append(spec.schema.Blocks,
			hcl.BlockHeaderSchema{Type: *b.Type, LabelNames: append([]string{}, b.Labels...)})
		// A schema naming a block type twice gives it the last body spec
		// given, as the runner's reader of these schemas does.
		if len(b.Body) > 0 && string(b.Body) != "null" {
			spec.blockBodies[*b.Type] = decodeSpecAt(b.Body, depth+1)
		}
	}
	if len(wire.Remain) > 0 && string(wire.Remain) != "null" {
		spec.remain = decodeSpecAt(wire.Remain, depth+1)
	}
	return spec
}

// blockSpec is the spec the bodies of blocks of a type are processed with.
func (s *bodySpec) blockSpec(typeName string) *bodySpec {
	if spec, ok := s.blockBodies[typeName]; ok {
		return spec
	}
	return attributesSpec
}

// processConfig parses a config request's file in its syntax and processes
// its body with spec, expanding its dynamic blocks with dynamicBlocks.
func processConfig(req request, phase *string, spec *bodySpec, dynamicBlocks bool) answer {
	src := sourceText(req.Config, "config")
	ctx := configContext(req)
	var file *hcl.File
	var diags hcl.Diagnostics
	switch req.Syntax {
	case "native":
		file, diags = hclsyntax.ParseConfig(src, caseFile, caseStart)
	case "json":
		file, diags = hcljson.Parse(src, caseFile)
	default:
		return answer{ID: req.ID, Unsupported: fmt.Sprintf("hcl-go answers config requests in the native and JSON syntaxes, not %q", req.Syntax)}
	}
	if diags.HasErrors() {
		return diagnosticsAnswer(req.ID, "parse", diags)
	}
	body := file.Body
	if dynamicBlocks {
		body = dynblock.Expand(body, ctx)
	}
	out, failedPhase, diags := processBody(body, spec, ctx, phase)
	if failedPhase != "" {
		return diagnosticsAnswer(req.ID, failedPhase, diags)
	}
	return answer{ID: req.ID, Body: out}
}

// processBody processes one body as spec says and evaluates its attributes
// with ctx (nil: literal-only mode). On failure it returns the phase of the
// step that failed and that step's diagnostics. phase tracks the step under
// way, so that a panic in the library is reported in its phase.
//
// Recursion follows the nesting of spec, which decodeSpec bounds.
func processBody(body hcl.Body, spec *bodySpec, ctx *hcl.EvalContext, phase *string) (*bodyAnswer, string, hcl.Diagnostics) {
	*phase = "schema"
	if spec.justAttributes {
		attrs, diags := body.JustAttributes()
		if diags.HasErrors() {
			return nil, "schema", diags
		}
		*phase = "eval"
		var evalDiags hcl.Diagnostics
		out := &bodyAnswer{Attributes: evalAttributes(attrs, ctx, &evalDiags), Blocks: []blockAnswer{}}
		if evalDiags.HasErrors() {
			return nil, "eval", evalDiags
		}
		return out, "", nil
	}

	var content *hcl.BodyContent
	var rest hcl.Body
	var diags hcl.Diagnostics
	if spec.remain == nil {
		content, diags = body.Content(spec.schema)
	} else {
		content, rest, diags = body.PartialContent(spec.schema)
	}
	if diags.HasErrors() {
		return nil, contentPhase(diags), diags
	}
	if content == nil {
		panic("hcl.Body returned no content and no error")
	}

	*phase = "eval"
	var evalDiags hcl.Diagnostics
	out := &bodyAnswer{
		Attributes: evalAttributes(content.Attributes, ctx, &evalDiags),
		Blocks:     make([]blockAnswer, 0, len(content.Blocks)),
	}
	if evalDiags.HasErrors() {
		return nil, "eval", evalDiags
	}

	for _, block := range content.Blocks {
		blockBody, failedPhase, diags := processBody(block.Body, spec.blockSpec(block.Type), ctx, phase)
		if failedPhase != "" {
			return nil, failedPhase, diags
		}
		out.Blocks = append(out.Blocks, blockAnswer{
			Type:   block.Type,
			Labels: append([]string{}, block.Labels...),
			Body:   blockBody,
		})
	}

	if spec.remain != nil {
		if rest == nil {
			panic("hcl.Body.PartialContent returned no remaining body")
		}
		remain, failedPhase, diags := processBody(rest, spec.remain, ctx, phase)
		if failedPhase != "" {
			return nil, failedPhase, diags
		}
		out.Remain = remain
	}
	return out, "", nil
}

// contentPhase is the phase of the errors of extracting a body's content:
// "eval" when the first error comes from evaluating an expression (which
// only a dynamic block's arguments are, when the content is extracted),
// "schema" otherwise.
func contentPhase(diags hcl.Diagnostics) string {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if d.Expression != nil || d.EvalContext != nil {
			return "eval"
		}
		return "schema"
	}
	return "schema"
}
