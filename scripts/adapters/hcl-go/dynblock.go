package main

// The dynblock extension of config requests ("extensions": ["dynblock"]):
// the body is wrapped with dynblock.Expand (ext/dynblock) and read through
// the wrapper with schemas derived from the native syntax tree.
//
// hcl.Body.Content needs a schema, and the suite's config cases have none,
// so the adapter derives one per body from what the source holds:
//   - an attribute for every attribute written in the body (none required);
//   - a block type for every ordinary block, with as many label names as the
//     block has labels;
//   - for every `dynamic "NAME"` block, block type NAME with as many label
//     names as the static length of its `labels` list (hcl.ExprList; 0 when
//     `labels` is absent or not a static list). The blocks it generates are
//     read with the schema of its first `content` block's body.
// A body whose blocks of one type would need different label counts has no
// such schema: the request is answered "unsupported".

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// expandDynamicBlocks answers a config request with the dynblock extension:
// the file's body expanded, its attributes evaluated at every depth.
func expandDynamicBlocks(req request, body *hclsyntax.Body, ctx *hcl.EvalContext) answer {
	var diags hcl.Diagnostics
	out, why := readExpandedBody(dynblock.Expand(body, ctx), body, ctx, &diags)
	if why != "" {
		return answer{ID: req.ID, Unsupported: why}
	}
	if diags.HasErrors() {
		return diagnosticsAnswer(req.ID, "eval", diags)
	}
	return answer{ID: req.ID, Body: out}
}

// readExpandedBody reads an expanded body with the schema derived from the
// syntax body it came from, evaluates its attributes (in source order, so
// that the diagnostics come in a stable order) and reads its blocks the same
// way. The second result says why no schema could be derived, if so.
func readExpandedBody(expanded hcl.Body, syntax *hclsyntax.Body, ctx *hcl.EvalContext, diags *hcl.Diagnostics) (*bodyAnswer, string) {
	schema, sources, why := deriveSchema(syntax)
	if why != "" {
		return nil, why
	}
	content, contentDiags := expanded.Content(schema)
	*diags = append(*diags, contentDiags...)

	out := &bodyAnswer{
		Attributes: evalAttributes(content.Attributes, ctx, diags),
		Blocks:     make([]blockAnswer, 0, len(content.Blocks)),
	}
	for _, block := range content.Blocks {
		// A block's definition range starts at its type name; a generated
		// block has its dynamic block's definition range. Either way it
		// starts where the syntax block it came from starts.
		source, found := sources[block.DefRange.Start.Byte]
		if !found {
			panic(fmt.Sprintf("dynblock returned a block of type %q from an unknown source at %s", block.Type, block.DefRange))
		}
		body, why := readExpandedBody(block.Body, source, ctx, diags)
		if why != "" {
			return nil, why
		}
		out.Blocks = append(out.Blocks, blockAnswer{
			Type:   block.Type,
			Labels: append([]string{}, block.Labels...),
			Body:   body,
		})
	}
	return out, ""
}

// deriveSchema derives a body's schema from its syntax (see the file
// comment), and maps the start byte of every block definition to the syntax
// body its expanded blocks are read with.
func deriveSchema(syntax *hclsyntax.Body) (*hcl.BodySchema, map[int]*hclsyntax.Body, string) {
	schema := &hcl.BodySchema{}
	for name := range syntax.Attributes {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: name})
	}
	sort.Slice(schema.Attributes, func(i, j int) bool {
		return schema.Attributes[i].Name < schema.Attributes[j].Name
	})

	sources := make(map[int]*hclsyntax.Body, len(syntax.Blocks))
	labelCounts := map[string]int{}
	addBlockType := func(typeName string, labels int) string {
		if have, seen := labelCounts[typeName]; seen {
			if have != labels {
				return fmt.Sprintf("blocks of type %q with %d and %d labels in one body have no schema", typeName, have, labels)
			}
			return ""
		}
		labelCounts[typeName] = labels
		schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{
			Type:       typeName,
			LabelNames: labelNames(labels),
		})
		return ""
	}
	for _, block := range syntax.Blocks {
		start := block.DefRange().Start.Byte
		if block.Type != "dynamic" {
			sources[start] = block.Body
			if why := addBlockType(block.Type, len(block.Labels)); why != "" {
				return nil, nil, why
			}
			continue
		}
		// A dynamic block without its one label is reported by
		// dynblock.Expand itself; it generates nothing to read.
		if len(block.Labels) == 0 {
			continue
		}
		for _, inner := range block.Body.Blocks {
			if inner.Type == "content" {
				sources[start] = inner.Body
				break
			}
		}
		if why := addBlockType(block.Labels[0], staticLabelCount(block.Body)); why != "" {
			return nil, nil, why
		}
	}
	return schema, sources, ""
}

// staticLabelCount is the number of elements of a dynamic block's `labels`
// attribute when it is a static list, else 0.
func staticLabelCount(dynamicBody *hclsyntax.Body) int {
	attr, present := dynamicBody.Attributes["labels"]
	if !present {
		return 0
	}
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return 0
	}
	return len(exprs)
}

// labelNames makes n label names for a block header schema.
func labelNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("label%d", i)
	}
	return names
}
