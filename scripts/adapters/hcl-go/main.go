// Command hcl-go puts the reference implementation of HCL (hashicorp/hcl
// and its type system go-cty, at the versions of go.mod or go-v2.25.mod:
// version.go) behind the hcl-conformance subprocess protocol
// (runner/PROTOCOL.md).
//
// It reads one JSON request per line on standard input and writes one JSON
// answer per line on standard output, flushing after each, until standard
// input closes. Only the library's public API is used: the adapter's own
// code decodes and encodes values, because ctyjson cannot carry unknowns.
//
// The files: main.go has the protocol's messages, the main loop and the
// dispatch; values.go decodes and encodes types and values; kinds.go answers
// the type-system kinds (convert, unify, identical, matches, operation);
// native.go answers the native-syntax kinds (expr, template, config) and
// turns HCL diagnostics into error answers; dynblock.go reads config bodies
// through the dynblock extension; schema.go processes config bodies with a
// schema; static.go answers the static analyses (static) and jsonstring.go
// maps positions in a JSON string's content back onto its source text;
// typeexpr.go reads type expressions (typeexpr) and provides the
// extension's convert function to expr requests that ask for it.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// adapterName is the name the handshake reports; its version is the
// library's, read from the build (version.go).
const adapterName = "hcl-go"

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

	// expr, template and config: the source text (nil when the field is
	// missing), the syntax of a config, and the variables to evaluate with.
	Expr      *string              `json:"expr"`
	Template  *string              `json:"template"`
	Config    *string              `json:"config"`
	Syntax    string               `json:"syntax"`
	Variables map[string]wireValue `json:"variables"`

	// config: the extensions to apply to the body ("dynblock"), the body
	// schema to process it with (absent: no schema; schema.go) and whether
	// to evaluate in literal-only mode.
	Extensions  []string        `json:"extensions"`
	Schema      json.RawMessage `json:"schema"`
	LiteralOnly bool            `json:"literal_only"`

	// static: the analysis to apply to the expression.
	Analysis string `json:"analysis"`

	// typeexpr: read the expression as a type constraint rather than a type.
	Constraint bool `json:"constraint"`
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
	Body         *bodyAnswer     `json:"body,omitempty"`
	List         *[]string       `json:"list,omitempty"`
	Map          *[]staticPair   `json:"map,omitempty"`
	Call         *staticCall     `json:"call,omitempty"`
	Traversal    *[]string       `json:"traversal,omitempty"`
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
	Severity string       `json:"severity"`
	Summary  string       `json:"summary"`
	Detail   string       `json:"detail,omitempty"`
	Range    *sourceRange `json:"range,omitempty"`
}

// sourceRange is the range of source text a diagnostic is about; lines and
// columns count from 1, bytes from 0, and the end is exclusive.
type sourceRange struct {
	Start sourcePos `json:"start"`
	End   sourcePos `json:"end"`
}

type sourcePos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
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
	case "expr":
		return evalExpr(req, &phase)
	case "template":
		return evalTemplate(req, &phase)
	case "config":
		return evalConfig(req, &phase)
	case "static":
		return analyzeStatic(req, &phase)
	case "typeexpr":
		return readTypeExpr(req, &phase)
	}
	return answer{ID: req.ID, Unsupported: fmt.Sprintf("hcl-go does not answer requests of kind %q", req.Kind)}
}

// ---------------------------------------------------------------------------
// Handshake

func hello(req request) answer {
	return answer{ID: req.ID, Name: adapterName, Version: adapterVersion(),
		Capabilities: &capabilities{
			Kinds:    []string{"convert", "unify", "identical", "matches", "operation", "expr", "template", "config", "static", "typeexpr"},
			Features: features(),
		}}
}
