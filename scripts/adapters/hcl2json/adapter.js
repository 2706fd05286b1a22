#!/usr/bin/env node
"use strict";
// @cdktf/hcl2json behind the hcl-conformance subprocess protocol
// (runner/PROTOCOL.md and the protocol additions of issue #6).
//
// @cdktf/hcl2json is a WebAssembly build of tmccombs/hcl2json, which parses
// a native-syntax configuration with hashicorp/hcl's parser (a newer
// release than the suite's reference, 2.14.1) and writes the file as JSON
// without evaluating it: literal values as JSON values, other expressions
// as "${...}" strings of their source text, blocks as nested objects keyed
// by type and labels. This adapter answers `config` requests in native
// syntax from that output:
//
// - a parse error of hashicorp/hcl is an error in phase `parse`; an error of
//   hcl2json's conversion afterwards (it evaluates unary operators on
//   literals, and cannot write some block layouts as JSON) is one in phase
//   `eval` or `schema`;
// - an attribute whose expression is a literal (source.js `isLiteral`: the
//   adapter reads the attribute's source text, because a "${...}" string in
//   the output may be a literal string or an expression) gets hcl2json's
//   value, typed as the protocol wants but without exact types (tuples and
//   objects); every other attribute is `{"unevaluated": ...}` (feature
//   `unevaluated-values`);
// - blocks come in source order, read from the source text and matched to
//   hcl2json's nested objects (whose order is lost); a block or attribute
//   hcl2json's output does not have is left out and named on standard error.
//
// JSON-syntax configurations, expressions and templates are unsupported:
// hcl2json's entry point parses native configuration files only.
//
// The adapter answers one request per line until standard input closes and
// writes nothing else to standard output (the Go program's own writes to
// standard output go to standard error). If the WebAssembly program dies
// (a Go panic inside hcl2json), or on any unexpected exception, the adapter
// exits with a non-zero status and the reason on standard error: the runner
// reports CRASH, never a rejection.

const fs = require("fs");
const path = require("path");
const readline = require("readline");
const zlib = require("zlib");
const { scanConfig, isLiteral, ScanError } = require("./source");

const PACKAGE = "@cdktf/hcl2json";
const packageDir = path.dirname(require.resolve(`${PACKAGE}/package.json`));
const packageVersion = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")).version;

/** The versions the hello answer reports: the npm package, and the Go
 * modules its WebAssembly build embeds (read from the build's file paths). */
function versionText(wasmBytes) {
  const text = Buffer.from(wasmBytes).toString("latin1");
  const find = (module) => {
    const m = new RegExp(`${module.replace(/[/.]/g, "\\$&")}@(v[0-9][0-9A-Za-z.+-]*)/`).exec(text);
    return m ? m[1].replace(/^v/, "") : "unknown";
  };
  return (
    `${PACKAGE} ${packageVersion} (tmccombs/hcl2json ${find("github.com/tmccombs/hcl2json")}, ` +
    `hashicorp/hcl ${find("github.com/hashicorp/hcl/v2")}, go-cty ${find("github.com/zclconf/go-cty")})`
  );
}

// ---------------------------------------------------------------------------
// The WebAssembly program

/**
 * Starts hcl2json's Go program with the package's own Go support script and
 * returns its exported functions and the Go instance (whose `exited` says
 * whether it died).
 */
async function startHcl2json() {
  require(path.join(packageDir, "wasm", "bridge_wasm_exec.js"));
  // The Go runtime writes file descriptor 1 and 2 through globalThis.fs:
  // keep standard output for answers.
  const realFs = globalThis.fs;
  const toStderr = (fd) => (fd === 1 ? 2 : fd);
  globalThis.fs = Object.assign(Object.create(realFs), {
    writeSync: (fd, ...rest) => realFs.writeSync(toStderr(fd), ...rest),
    write: (fd, ...rest) => realFs.write(toStderr(fd), ...rest),
  });
  const wasmBytes = zlib.gunzipSync(fs.readFileSync(path.join(packageDir, "main.wasm.gz")));
  const go = new globalThis.Go();
  go.exit = (code) => {
    if (code !== 0) process.stderr.write(`hcl2json: the Go program exited with status ${code}\n`);
  };
  const { instance } = await WebAssembly.instantiate(wasmBytes, go.importObject);
  const exported = {};
  global.__parse_terraform_config_wasm__ = exported;
  go.run(instance).catch((error) => {
    process.stderr.write(`hcl2json: ${error && error.stack ? error.stack : error}\n`);
    process.exit(70);
  });
  if (typeof exported.parse !== "function") {
    throw new Error("hcl2json's WebAssembly program registered no parse function");
  }
  return { go, exported, version: versionText(wasmBytes) };
}

class Hcl2jsonDied extends Error {}

/** hcl2json's `parse`: { json: TEXT } or { error: MESSAGE }. */
function hcl2jsonParse(wasm, text) {
  if (wasm.go.exited) throw new Hcl2jsonDied("hcl2json's Go program is no longer running");
  let result;
  wasm.exported.parse("config.hcl", text, (err, out) => {
    result = err ? { error: String(err) } : { json: String(out) };
  });
  if (result === undefined) {
    throw new Hcl2jsonDied(
      wasm.go.exited
        ? "hcl2json's Go program died while converting this input (see the panic above)"
        : "hcl2json's parse returned without calling back",
    );
  }
  return result;
}

// ---------------------------------------------------------------------------
// JSON with exact numbers

/**
 * Parses JSON text, keeping each number as { number: TEXT } so that no
 * digit is lost to a 64-bit float.
 */
function parseJson(text) {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const fail = () => {
    throw new Error(`hcl2json wrote malformed JSON at offset ${i}`);
  };
  const str = () => {
    const m = /^"(?:[^"\\]|\\.)*"/s.exec(text.slice(i));
    if (!m) fail();
    i += m[0].length;
    return JSON.parse(m[0]);
  };
  const value = (depth) => {
    if (depth > 10000) fail();
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj = new Map();
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        const key = str();
        ws();
        if (text[i++] !== ":") fail();
        obj.set(key, value(depth + 1));
        ws();
        const d = text[i++];
        if (d === "}") return obj;
        if (d !== ",") fail();
      }
    }
    if (c === "[") {
      i++;
      const arr = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        const d = text[i++];
        if (d === "]") return arr;
        if (d !== ",") fail();
      }
    }
    if (c === '"') return str();
    for (const [word, v] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    const m = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i));
    if (!m) fail();
    i += m[0].length;
    return { number: m[0] };
  };
  const v = value(0);
  ws();
  if (i !== text.length) fail();
  return v;
}

// ---------------------------------------------------------------------------
// From hcl2json's output to a protocol body

const isObject = (v) => v instanceof Map;
const isNumber = (v) => v !== null && typeof v === "object" && !isObject(v) && !Array.isArray(v) && "number" in v;

/**
 * A literal string as hcl2json writes it back to the string's value.
 * hcl2json writes strings the way HCL's JSON syntax would (where a string is
 * a template): it doubles the `$` of every `${` and the `%` of every `%{` in
 * a literal. Undoing that: every `$${` becomes `${` and every `%%{` becomes
 * `%{`, leftmost first, which inverts the doubling exactly.
 */
function unescapeLiteral(s) {
  return s.replaceAll("$${", "${").replaceAll("%%{", "%{");
}

/** A literal value of hcl2json's output as a protocol value (type, value). */
function protocolValue(v) {
  if (v === null) return { type: "dynamic", value: null };
  if (typeof v === "string") return { type: "string", value: unescapeLiteral(v) };
  if (typeof v === "boolean") return { type: "bool", value: v };
  if (isNumber(v)) return { type: "number", value: v.number };
  if (Array.isArray(v)) {
    const elems = v.map(protocolValue);
    return { type: ["tuple", elems.map((e) => e.type)], value: elems.map((e) => e.value) };
  }
  const types = {};
  const values = {};
  for (const [k, e] of v) {
    const pv = protocolValue(e);
    types[unescapeLiteral(k)] = pv.type;
    values[unescapeLiteral(k)] = pv.value;
  }
  return { type: ["object", types], value: values };
}

/** A protocol body from the scanned items of a body and hcl2json's object
 * for it; `where` names the body in messages. */
function buildBody(items, json, where, notes) {
  const attributes = {};
  const blocks = [];
  const taken = new Map();
  for (const item of items) {
    if (item.kind === "attribute") {
      if (!json.has(item.name)) {
        notes.push(`hcl2json's output has no attribute ${where}${item.name}`);
        continue;
      }
      const expr = item.expr.trim();
      if (isLiteral(item.expr)) {
        attributes[item.name] = protocolValue(json.get(item.name));
      } else {
        // Cut by code points: a cut inside a surrogate pair would write a
        // lone surrogate, which is no JSON text.
        const points = Array.from(expr);
        attributes[item.name] = { unevaluated: `not a literal: ${points.length > 80 ? points.slice(0, 77).join("") + "..." : expr}` };
      }
      continue;
    }
    // A block: hcl2json keys it by type, then by each label, and keeps the
    // bodies of blocks with the same type and labels in a list.
    const pathKey = JSON.stringify([item.type, ...item.labels]);
    const name = [item.type, ...item.labels.map((l) => JSON.stringify(l))].join(" ");
    let node = json.get(item.type);
    for (const label of item.labels) node = isObject(node) ? node.get(label) : undefined;
    const index = taken.get(pathKey) || 0;
    taken.set(pathKey, index + 1);
    const body = Array.isArray(node) ? node[index] : undefined;
    if (!isObject(body)) {
      notes.push(`hcl2json's output has no body for block ${where}${name} (number ${index + 1})`);
      continue;
    }
    blocks.push({
      type: item.type,
      labels: item.labels,
      body: buildBody(item.body, body, `${where}${name} > `, notes),
    });
  }
  return { attributes, blocks };
}

/** The error phase of a message hcl2json's `parse` rejected with. */
function errorPhase(message) {
  if (message.startsWith("parse config:")) return "parse";
  // Blocks of one type with and without labels, which hcl2json cannot
  // write as JSON.
  if (message.includes("Unable to convert Block to JSON") || message.includes("cannot have blocks with and without labels")) {
    return "schema";
  }
  return "eval";
}

function answerConfig(wasm, request) {
  const id = request.id;
  const syntax = request.syntax === undefined ? "native" : request.syntax;
  if (syntax !== "native") {
    return { id, unsupported: `${syntax} syntax: hcl2json converts native-syntax files only` };
  }
  if (Array.isArray(request.extensions) && request.extensions.length > 0) {
    return { id, unsupported: `extensions ${request.extensions.join(", ")}: hcl2json does not expand them` };
  }
  const text = request.config;
  if (typeof text !== "string") throw new Error("a config request without config text");
  const result = hcl2jsonParse(wasm, text);
  if (result.error !== undefined) {
    return {
      id,
      error: { phase: errorPhase(result.error), diagnostics: [{ severity: "error", summary: result.error }] },
    };
  }
  const json = parseJson(result.json);
  if (!isObject(json)) throw new Error("hcl2json's output is not a JSON object");
  const notes = [];
  const body = buildBody(scanConfig(text), json, "", notes);
  for (const note of notes) process.stderr.write(`hcl2json adapter, request ${id}: ${note}\n`);
  return { id, body };
}

function answer(wasm, request) {
  const id = request.id;
  switch (request.kind) {
    case "hello":
      return {
        id,
        name: "hcl2json",
        version: wasm.version,
        capabilities: { kinds: ["config"], features: ["unevaluated-values"] },
      };
    case "config":
      return answerConfig(wasm, request);
    default:
      return { id, unsupported: `kind ${JSON.stringify(request.kind)}: hcl2json converts configuration files only` };
  }
}

// ---------------------------------------------------------------------------

function die(error) {
  if (error instanceof Hcl2jsonDied || error instanceof ScanError) {
    process.stderr.write(`hcl2json adapter: ${error.message}\n`);
  } else {
    process.stderr.write(`hcl2json adapter: unexpected error\n${error && error.stack ? error.stack : error}\n`);
  }
  process.exit(70);
}

async function main() {
  const wasm = await startHcl2json();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    const reply = answer(wasm, JSON.parse(line));
    process.stdout.write(JSON.stringify(reply) + "\n");
  }
}

if (require.main === module) {
  process.on("uncaughtException", die);
  process.on("unhandledRejection", die);
  main().catch(die);
}

module.exports = { startHcl2json, hcl2jsonParse, parseJson, answer, Hcl2jsonDied };
