package main

// Types and values as they travel in the protocol (runner/PROTOCOL.md,
// "Types" and "Values").

import (
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

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
