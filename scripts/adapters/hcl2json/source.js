"use strict";
// Reading the structure of a native-syntax configuration that hcl2json has
// already accepted, for the hcl2json adapter (adapter.js).
//
// hcl2json's JSON output keeps each body's attributes and blocks, but not
// the order of blocks of different types or labels (they become nested JSON
// objects, serialized with sorted keys), and it cannot tell an unlabelled
// block from an attribute whose value is a tuple of objects. This module
// scans the source text only as far as the adapter needs for those two
// things, and to see each attribute's expression text:
//
// - `scanConfig(text)`: the items of each body in source order: attributes
//   (name and expression text) and blocks (type, labels, body);
// - `isLiteral(exprText)`: whether an expression is a literal value the
//   adapter may report (a number, possibly negated, true, false, null, a
//   quoted string or heredoc with no template sequence, and tuples and
//   objects of those, with identifier or literal-string keys given once).
//
// Values never come from here: they come from hcl2json's output. The scanner
// is only ever run on text hcl2json (hashicorp/hcl's parser) accepted; on
// anything it cannot follow it throws ScanError, and the adapter then
// stops with that message rather than guess.

class ScanError extends Error {}

const ID_START = /[\p{ID_Start}_]/u;
const ID_CONTINUE = /[\p{ID_Continue}\-]/u;
const INLINE_SPACE = new Set([" ", "\t", "\f", "\v"]);

/** A cursor over source text (JavaScript string indexes). */
class Cursor {
  constructor(text) {
    this.s = text;
    this.i = 0;
  }

  eof() {
    return this.i >= this.s.length;
  }

  at(str, offset = 0) {
    return this.s.startsWith(str, this.i + offset);
  }

  fail(what) {
    const line = this.s.slice(0, this.i).split("\n").length;
    throw new ScanError(`source scan: ${what} (line ${line}, offset ${this.i})`);
  }

  /** The length of the newline at the cursor (LF or CR LF), or 0. */
  newlineLength() {
    if (this.s[this.i] === "\n") return 1;
    if (this.s[this.i] === "\r" && this.s[this.i + 1] === "\n") return 2;
    return 0;
  }

  /** Moves past a line comment's text, stopping before its newline. */
  skipLineComment() {
    while (!this.eof() && this.newlineLength() === 0) this.i++;
  }

  /** Moves past an inline comment. */
  skipInlineComment() {
    const end = this.s.indexOf("*/", this.i + 2);
    if (end < 0) this.fail("unterminated inline comment");
    this.i = end + 2;
  }

  /** Spaces and comments that contain no newline token. */
  skipInline() {
    for (;;) {
      const c = this.s[this.i];
      if (INLINE_SPACE.has(c) || (c === "\r" && this.s[this.i + 1] !== "\n")) {
        this.i++;
      } else if (c === "#" || this.at("//")) {
        this.skipLineComment();
      } else if (this.at("/*")) {
        this.skipInlineComment();
      } else {
        return;
      }
    }
  }

  /** Spaces, comments and newlines. */
  skipBlank() {
    for (;;) {
      this.skipInline();
      const n = this.newlineLength();
      if (n === 0) return;
      this.i += n;
    }
  }

  identifier() {
    const start = this.i;
    const first = this.codePointAt();
    if (first === undefined || !ID_START.test(first)) this.fail("expected an identifier");
    this.i += first.length;
    for (;;) {
      const c = this.codePointAt();
      if (c === undefined || !ID_CONTINUE.test(c)) break;
      this.i += c.length;
    }
    return this.s.slice(start, this.i);
  }

  codePointAt() {
    if (this.eof()) return undefined;
    return String.fromCodePoint(this.s.codePointAt(this.i));
  }

  /** A quoted template, from its opening quote past its closing quote. */
  quoted() {
    this.i++;
    for (;;) {
      if (this.eof()) this.fail("unterminated quoted template");
      const c = this.s[this.i];
      if (c === "\\") {
        this.i += 2;
      } else if (c === '"') {
        this.i++;
        return;
      } else {
        this.templatePart();
      }
    }
  }

  /**
   * One part of a template's text, past it: an escaped `$${` or `%%{`, a
   * template sequence, or one character.
   */
  templatePart() {
    if (this.at("$${") || this.at("%%{")) {
      this.i += 3;
    } else if (this.at("${") || this.at("%{")) {
      this.i += 2;
      this.templateSequence();
    } else {
      this.i++;
    }
  }

  /** The inside of `${ ... }` or `%{ ... }`, past its closing brace. */
  templateSequence() {
    this.balanced(true);
    if (this.s[this.i] !== "}") this.fail("unterminated template sequence");
    this.i++;
  }

  /** Whether a heredoc header (`<<ID` or `<<-ID`) starts at the cursor. */
  atHeredoc() {
    if (!this.at("<<")) return false;
    const rest = this.s.slice(this.i + 2, this.i + 2 + 8);
    const c = rest[0] === "-" ? rest.slice(1) : rest;
    return c.length > 0 && ID_START.test(String.fromCodePoint(c.codePointAt(0)));
  }

  /**
   * A heredoc, from `<<` past its closing marker (not the newline after
   * it). The marker closes on a line of its own, spaces around it allowed,
   * when that line ends with a newline; a line that starts after a template
   * sequence cannot close.
   */
  heredoc() {
    this.i += 2;
    if (this.s[this.i] === "-") this.i++;
    const marker = this.identifier();
    this.skipLineComment();
    const n = this.newlineLength();
    if (n === 0) this.fail("heredoc header without a newline");
    this.i += n;
    let lineStart = true;
    for (;;) {
      if (this.eof()) this.fail("unterminated heredoc");
      if (lineStart) {
        let end = this.i;
        while (end < this.s.length && this.s[end] !== "\n") end++;
        if (end < this.s.length && this.s.slice(this.i, end).trim() === marker) {
          const at = this.s.indexOf(marker, this.i);
          this.i = at + marker.length;
          return;
        }
      }
      lineStart = false;
      const c = this.s[this.i];
      if (c === "\n") {
        this.i++;
        lineStart = true;
      } else {
        this.templatePart();
      }
    }
  }

  /**
   * Moves through an expression until, outside brackets, a newline, a line
   * comment, an unmatched closing brace, or the end of the text; with
   * `multiline`, newlines and comments do not end it (inside a template
   * sequence).
   */
  balanced(multiline) {
    const stack = [];
    for (;;) {
      if (this.eof()) return;
      const c = this.s[this.i];
      if (stack.length === 0) {
        if (!multiline && (this.newlineLength() > 0 || c === "#" || this.at("//"))) return;
        if (c === "}" || c === ")" || c === "]") return;
      }
      if (c === "#" || this.at("//")) {
        this.skipLineComment();
      } else if (this.at("/*")) {
        this.skipInlineComment();
      } else if (c === '"') {
        this.quoted();
      } else if (this.atHeredoc()) {
        this.heredoc();
      } else if (c === "(" || c === "[" || c === "{") {
        stack.push(c);
        this.i++;
      } else if (c === ")" || c === "]" || c === "}") {
        stack.pop();
        this.i++;
      } else {
        this.i++;
      }
    }
  }

  /** A quoted block label, decoded (labels hold no template sequences). */
  label() {
    const start = this.i;
    this.quoted();
    return decodeLiteral(this.s.slice(start + 1, this.i - 1), (w) => this.fail(w));
  }

  /** The items of a body until `}` (inside a block) or the end of text. */
  body(inBlock) {
    const items = [];
    for (;;) {
      this.skipBlank();
      if (this.eof()) {
        if (inBlock) this.fail("unterminated block");
        return items;
      }
      if (this.s[this.i] === "}") {
        if (!inBlock) this.fail("unexpected closing brace");
        return items;
      }
      items.push(this.item());
    }
  }

  item() {
    const name = this.identifier();
    this.skipInline();
    if (this.s[this.i] === "=" && this.s[this.i + 1] !== "=") {
      this.i++;
      const start = this.i;
      this.balanced(false);
      return { kind: "attribute", name, expr: this.s.slice(start, this.i) };
    }
    const labels = [];
    while (this.s[this.i] !== "{") {
      if (this.s[this.i] === '"') labels.push(this.label());
      else labels.push(this.identifier());
      this.skipInline();
    }
    this.i++;
    const body = this.body(true);
    this.i++;
    return { kind: "block", type: name, labels, body };
  }
}

/** Decodes the escapes of a quoted literal with no template sequence. */
function decodeLiteral(raw, fail) {
  let out = "";
  for (let i = 0; i < raw.length; ) {
    const c = raw[i];
    if (c === "\\") {
      const e = raw[i + 1];
      const simple = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" }[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
      } else if (e === "u" || e === "U") {
        const len = e === "u" ? 4 : 8;
        const hex = raw.slice(i + 2, i + 2 + len);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) fail("bad escape in a label");
        out += String.fromCodePoint(parseInt(hex, 16));
        i += 2 + len;
      } else {
        fail("unknown escape in a label");
      }
    } else if (raw.startsWith("$${", i) || raw.startsWith("%%{", i)) {
      out += raw.slice(i + 1, i + 3);
      i += 3;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The structure of a configuration's text: its root body's items. */
function scanConfig(text) {
  const cursor = new Cursor(text);
  // hcl2json's parser (hashicorp/hcl 2.23) skips a byte order mark at the
  // start of the file.
  if (text.startsWith("\ufeff")) cursor.i = 1;
  return cursor.body(false);
}

// ---------------------------------------------------------------------------
// Literal expressions

/** Whether the text of a quoted string's or heredoc's content has no
 * template sequence. Runs of three `$` or `%` before `{` count as uncertain
 * (not literal). */
function contentIsLiteral(raw) {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === "\\") {
      i++;
    } else if ((c === "$" || c === "%") && raw[i + 1] === c && raw[i + 2] === c) {
      return false;
    } else if ((c === "$" || c === "%") && raw[i + 1] === c && raw[i + 2] === "{") {
      i += 2;
    } else if ((c === "$" || c === "%") && raw[i + 1] === "{") {
      return false;
    }
  }
  return true;
}

/** A recursive-descent recognizer of literal expressions. */
class LiteralReader extends Cursor {
  blank() {
    for (;;) {
      this.skipInline();
      const n = this.newlineLength();
      if (n === 0) return;
      this.i += n;
    }
  }

  /** Reads one literal value; false when the expression is anything else. */
  value(depth) {
    if (depth > 64) return false;
    this.blank();
    const c = this.s[this.i];
    if (c === "-") {
      this.i++;
      this.blank();
      return this.number();
    }
    if (c !== undefined && c >= "0" && c <= "9") return this.number();
    if (c === '"') {
      const start = this.i;
      try {
        this.quoted();
      } catch (e) {
        if (e instanceof ScanError) return false;
        throw e;
      }
      return contentIsLiteral(this.s.slice(start + 1, this.i - 1));
    }
    if (this.atHeredoc()) {
      const start = this.i;
      try {
        this.heredoc();
      } catch (e) {
        if (e instanceof ScanError) return false;
        throw e;
      }
      return contentIsLiteral(this.s.slice(start, this.i));
    }
    if (c === "[") return this.tuple(depth);
    if (c === "{") return this.object(depth);
    for (const word of ["true", "false", "null"]) {
      if (this.at(word)) {
        const after = this.s[this.i + word.length];
        if (after === undefined || !ID_CONTINUE.test(after)) {
          this.i += word.length;
          return true;
        }
      }
    }
    return false;
  }

  number() {
    const m = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.s.slice(this.i));
    if (!m) return false;
    this.i += m[0].length;
    const after = this.s[this.i];
    return after === undefined || !(ID_CONTINUE.test(after) || after === ".");
  }

  tuple(depth) {
    this.i++;
    this.blank();
    if (this.s[this.i] === "]") {
      this.i++;
      return true;
    }
    for (;;) {
      if (!this.value(depth + 1)) return false;
      this.blank();
      if (this.s[this.i] === ",") {
        this.i++;
        this.blank();
        if (this.s[this.i] === "]") {
          this.i++;
          return true;
        }
      } else if (this.s[this.i] === "]") {
        this.i++;
        return true;
      } else {
        return false;
      }
    }
  }

  object(depth) {
    this.i++;
    const keys = new Set();
    for (;;) {
      this.blank();
      if (this.s[this.i] === "}") {
        this.i++;
        return true;
      }
      let key;
      const c = this.s[this.i];
      if (c === '"') {
        const start = this.i;
        try {
          this.quoted();
        } catch (e) {
          if (e instanceof ScanError) return false;
          throw e;
        }
        const raw = this.s.slice(start + 1, this.i - 1);
        if (!contentIsLiteral(raw)) return false;
        try {
          key = decodeLiteral(raw, (what) => {
            throw new ScanError(what);
          });
        } catch (e) {
          if (e instanceof ScanError) return false;
          throw e;
        }
      } else {
        const first = this.codePointAt();
        if (first === undefined || !ID_START.test(first)) return false;
        const name = this.identifier();
        if (name === "null" || name === "true" || name === "false") return false;
        key = name;
      }
      // The same key given twice is an evaluation error in HCL, which
      // hcl2json does not report: not a value the adapter can give.
      if (keys.has(key)) return false;
      keys.add(key);
      this.skipInline();
      if (this.s[this.i] !== "=" && this.s[this.i] !== ":") return false;
      if (this.s[this.i + 1] === "=") return false;
      this.i++;
      if (!this.value(depth + 1)) return false;
      this.skipInline();
      if (this.s[this.i] === ",") this.i++;
    }
  }
}

/** Whether an attribute's expression text is a literal value (see above). */
function isLiteral(exprText) {
  // The newline that ended the attribute: a heredoc's closing marker needs it.
  const reader = new LiteralReader(exprText + "\n");
  if (!reader.value(0)) return false;
  reader.blank();
  return reader.eof();
}

module.exports = { scanConfig, isLiteral, ScanError };
