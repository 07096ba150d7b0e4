/**
 * A response object as the reference's YAML serializer writes it: sigs.k8s.io/yaml's JSONToYAML,
 * that is go-yaml v2 (a port of libyaml's emitter) marshalling the decoded JSON. Written here
 * rather than with the `yaml` package because no library reproduces libyaml's choices (its key
 * sort, its quoting rules, folding past 80 columns), and because that package takes ~1.5 s of the
 * event loop for a list of 10,000 Events where this takes a few tens of milliseconds.
 *
 * Scalar styles follow go-yaml: a string YAML 1.1 would read as another type is double-quoted; one
 * plain text cannot hold is single-quoted, or double-quoted with escapes when it has characters
 * libyaml does not print; a string with a line feed is a literal block. One deliberate difference:
 * a string with another line break (CR, NEL, LS, PS) is double-quoted, where libyaml writes the
 * raw break and a reader gets a different string back.
 */
import { goYamlKeyLess, resolvesToNonString } from './yaml-resolve.js';

const BEST_WIDTH = 80;
const INDENT = 2;

const SPACES: string[] = [];
const spaces = (n: number): string => (SPACES[n] ??= ' '.repeat(n));

/** Where text goes, with libyaml's emitter state: the column and its two layout flags. */
class Writer {
  // Pieces joined once: appending to one string makes a rope that costs the collector more.
  readonly parts: string[] = [];
  column = 0;
  /** The last thing written is whitespace (or nothing yet on the line). */
  whitespace = true;
  /** Only indentation (and indicators such as `- `) on this line so far. */
  indention = true;

  put(s: string, width = s.length): void {
    this.parts.push(s);
    this.column += width;
  }

  lineBreak(): void {
    this.parts.push('\n');
    this.column = 0;
  }

  /** yaml_emitter_write_indent. */
  indent(n: number): void {
    if (!this.indention || this.column > n || (this.column === n && !this.whitespace)) this.lineBreak();
    if (this.column < n) this.put(spaces(n - this.column));
    this.whitespace = true;
    this.indention = true;
  }

  /** yaml_emitter_write_indicator. */
  indicator(s: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(s);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }
}

const isBreak = (c: number): boolean =>
  c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
/** libyaml's is_printable (astral characters are not). */
const isPrintable = (c: number): boolean =>
  c === 0x0a ||
  (c >= 0x20 && c <= 0x7e) ||
  (c >= 0xa0 && c <= 0xd7ff) ||
  (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);

/** The code point at i of s: a pair's, or U+FFFD for a lone surrogate (as Go's JSON decoder reads it). */
function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) return c;
  const next = s.charCodeAt(i + 1);
  return c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? (s.codePointAt(i) as number) : 0xfffd;
}

interface Analysis {
  readonly multiline: boolean;
  readonly blockPlainAllowed: boolean;
  readonly singleQuotedAllowed: boolean;
  readonly blockAllowed: boolean;
  /** A break other than a line feed (see the header). */
  readonly otherBreak: boolean;
}

const FIRST_INDICATORS = new Set('#,[]{}&*!|>\'"%@`'.split('').map((c) => c.charCodeAt(0)));
const SPACE = 0x20;
const blank = (c: number | undefined): boolean => c === SPACE || c === 0x09;

/** Words, names and paths (most of any object): plain text whatever the context. */
const PLAIN_WORD = /^[A-Za-z0-9_/][A-Za-z0-9_./-]*$/;
const PLAIN_OK: Analysis = {
  multiline: false,
  blockPlainAllowed: true,
  singleQuotedAllowed: true,
  blockAllowed: true,
  otherBreak: false,
};

/** yaml_emitter_analyze_scalar, block context only (Keel writes no flow collections but {} and []). */
const EMPTY: Analysis = { ...PLAIN_OK, blockAllowed: false };

function analyze(s: string): Analysis {
  if (PLAIN_WORD.test(s)) return PLAIN_OK;
  if (s.length === 0) return EMPTY;
  let blockIndicators = s.startsWith('---') || s.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let otherBreak = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  const last = s.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = codePointAt(s, i);
    // (An astral character is not printable: the next unit, its other half, adds nothing.)
    if (c > 0xffff) i++;
    const followedByWhitespace = i >= last || blank(s.charCodeAt(i + 1));
    if (i === 0) {
      if (FIRST_INDICATORS.has(c)) blockIndicators = true;
      else if ((c === 0x3f || c === 0x3a || c === 0x2d) && followedByWhitespace) blockIndicators = true;
    } else if ((c === 0x3a && followedByWhitespace) || (c === 0x23 && precededByWhitespace)) {
      blockIndicators = true;
    }
    if (!isPrintable(c)) special = true;
    if (c === SPACE) {
      if (i === 0) leadingSpace = true;
      if (i === last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (c !== 0x0a) otherBreak = true;
      if (i === 0) leadingBreak = true;
      if (i === last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = blank(c) || isBreak(c);
  }
  let blockPlainAllowed = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak);
  let singleQuotedAllowed = true;
  let blockAllowed = !trailingSpace;
  if (breakSpace) blockPlainAllowed = singleQuotedAllowed = false;
  if (spaceBreak || special) blockPlainAllowed = singleQuotedAllowed = blockAllowed = false;
  if (lineBreaks || blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed, otherBreak };
}

type Style = 'plain' | 'single' | 'double' | 'literal';

/** go-yaml's stringv request, then yaml_emitter_select_scalar_style. */
function styleOf(s: string, a: Analysis, simpleKey: boolean): Style {
  let style: Style = s.includes('\n') ? 'literal' : resolvesToNonString(s) ? 'double' : 'plain';
  if (a.otherBreak) return 'double';
  if (style === 'plain' && (!a.blockPlainAllowed || (s === '' && simpleKey))) style = 'single';
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
  return style;
}

/** Whether a string written from this column could reach a space past the fold width. */
const mayFold = (w: Writer, breaks: boolean, written: string): boolean =>
  breaks && w.column + written.length > BEST_WIDTH + 1;

/** Plain and single-quoted text holds only printable BMP characters: a unit is a column. */
function writeFolding(w: Writer, s: string, indent: number, quoted: boolean): void {
  let spaces = false;
  const last = s.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = s.charCodeAt(i);
    if (c === SPACE) {
      const inner = !quoted || (i !== 0 && i !== last);
      if (!spaces && inner && w.column > BEST_WIDTH && s.charCodeAt(i + 1) !== SPACE) w.indent(indent);
      else w.put(' ');
      spaces = true;
    } else {
      w.put(quoted && c === 0x27 ? "''" : (s[i] as string));
      w.indention = false;
      spaces = false;
    }
  }
}

function writePlain(w: Writer, s: string, breaks: boolean, indent: number): void {
  if (!w.whitespace) w.put(' ');
  if (mayFold(w, breaks, s)) writeFolding(w, s, indent, false);
  else w.put(s);
  w.whitespace = false;
  w.indention = false;
}

function writeSingle(w: Writer, s: string, breaks: boolean, indent: number): void {
  w.indicator("'", true, false, false);
  const doubled = s.replaceAll("'", "''");
  if (mayFold(w, breaks, doubled)) writeFolding(w, s, indent, true);
  else w.put(doubled);
  w.indicator("'", false, false, false);
}

const ESCAPES: Readonly<Record<number, string>> = {
  0x00: '0',
  0x07: 'a',
  0x08: 'b',
  0x09: 't',
  0x0a: 'n',
  0x0b: 'v',
  0x0c: 'f',
  0x0d: 'r',
  0x1b: 'e',
  0x22: '"',
  0x5c: '\\',
  0x85: 'N',
  0xa0: '_',
  0x2028: 'L',
  0x2029: 'P',
};

function escape(c: number): string {
  const short = ESCAPES[c];
  if (short !== undefined) return `\\${short}`;
  const hex = c.toString(16).toUpperCase();
  if (c <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  return c <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`;
}

/** Printable BMP text without `"`, `\\` or a BOM: written as it is between double quotes. */
const DOUBLE_AS_IS = /^[\x20\x21\x23-\x5b\x5d-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$/;

function writeDouble(w: Writer, s: string, breaks: boolean, indent: number): void {
  w.indicator('"', true, false, false);
  if (DOUBLE_AS_IS.test(s) && !mayFold(w, breaks, s)) {
    w.put(s);
    w.indicator('"', false, false, false);
    return;
  }
  let spaces = false;
  const last = s.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = codePointAt(s, i);
    if (c > 0xffff) i++;
    if (!isPrintable(c) || c === 0xfeff || isBreak(c) || c === 0x22 || c === 0x5c) {
      w.put(escape(c));
      spaces = false;
    } else if (c === SPACE) {
      if (breaks && !spaces && w.column > BEST_WIDTH && i > 0 && i < last) {
        w.indent(indent);
        if (s.charCodeAt(i + 1) === SPACE) w.put('\\');
      } else w.put(' ');
      spaces = true;
    } else {
      w.put(String.fromCharCode(c), 1);
      spaces = false;
    }
  }
  w.indicator('"', false, false, false);
}

function writeLiteral(w: Writer, s: string, indent: number): void {
  w.indicator('|', true, false, false);
  if (s.startsWith(' ') || s.startsWith('\n')) w.indicator(String(INDENT), false, false, false);
  // Chomping: strip without a final break, keep with more than one (or nothing but one).
  if (!s.endsWith('\n')) w.indicator('-', false, false, false);
  else if (s.length === 1 || s.endsWith('\n\n')) w.indicator('+', false, false, false);
  w.lineBreak();
  w.indention = true;
  w.whitespace = true;
  // Each line at the block's indent; an empty line stays empty (libyaml writes no indent there).
  s.split('\n').forEach((text, n) => {
    if (n > 0) {
      w.lineBreak();
      w.indention = true;
    }
    if (text === '') return;
    w.indent(indent);
    w.put(text);
    w.indention = false;
  });
}

function writeString(w: Writer, s: string, indent: number, simpleKey: boolean, a?: Analysis): void {
  const breaks = !simpleKey;
  switch (styleOf(s, a ?? analyze(s), simpleKey)) {
    case 'plain':
      return writePlain(w, s, breaks, indent);
    case 'single':
      return writeSingle(w, s, breaks, indent);
    case 'double':
      return writeDouble(w, s, breaks, indent);
    case 'literal':
      return writeLiteral(w, s, indent);
  }
}

/** go-yaml's float: strconv.FormatFloat(f, 'g', -1, 64). */
function goFloat(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (!Number.isFinite(n)) return n > 0 ? '.inf' : '-.inf';
  const [mantissa = '', exp = '0'] = n.toExponential().split('e');
  const e = Number(exp);
  if (e >= -4 && e < 6) return String(n);
  const abs = Math.abs(e);
  return `${mantissa}e${e < 0 ? '-' : '+'}${abs < 10 ? `0${abs}` : abs}`;
}

function scalarText(v: number | boolean | null): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  // An integral JSON number is an int to go-yaml, any other a float64.
  return Number.isInteger(v) && Math.abs(v) < 1e21 ? String(v) : goFloat(v);
}

type Emit = (w: Writer, v: unknown, parent: number, mappingContext: boolean) => void;

const emitMapping = (w: Writer, o: Record<string, unknown>, m: number, emit: Emit): void => {
  const keys = Object.keys(o);
  keys.sort((a, b) => (goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0));
  for (const k of keys) {
    w.indent(m);
    const a = analyze(k);
    if (!a.multiline && Buffer.byteLength(k) <= 128) {
      writeString(w, k, m + INDENT, true, a);
      w.indicator(':', false, false, false);
    } else {
      // Not a simple key: the long form, `? key` then `: value` on its own line.
      w.indicator('?', true, false, true);
      writeString(w, k, m + INDENT, false, a);
      w.indent(m);
      w.indicator(':', true, false, true);
    }
    emit(w, o[k], m, true);
  }
};

const emitNode: Emit = (w, v, parent, mappingContext) => {
  if (Array.isArray(v) && v.length > 0) {
    const indentless = mappingContext && !w.indention;
    const s = parent < 0 ? 0 : indentless ? parent : parent + INDENT;
    for (const item of v) {
      w.indent(s);
      w.indicator('-', true, false, true);
      emitNode(w, item, s, false);
    }
    return;
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0) {
    emitMapping(w, v as Record<string, unknown>, parent < 0 ? 0 : parent + INDENT, emitNode);
    return;
  }
  if (typeof v === 'object' && v !== null) {
    // An empty collection is a flow one.
    w.indicator(Array.isArray(v) ? '[]' : '{}', true, false, false);
    return;
  }
  const indent = parent < 0 ? INDENT : parent + INDENT;
  if (typeof v === 'string') {
    writeString(w, v, indent, false);
    return;
  }
  if (!w.whitespace) w.put(' ');
  w.put(scalarText(typeof v === 'number' || typeof v === 'boolean' ? v : null));
  w.whitespace = false;
  w.indention = false;
};

/** The object as the reference's `application/yaml` body: its JSON form, in YAML. */
export function toKubeYaml(obj: unknown): string {
  const w = new Writer();
  // The JSON form exactly (toJSON, undefined members dropped, NaN as null), as JSONToYAML reads it.
  emitNode(w, JSON.parse(JSON.stringify(obj)) as unknown, -1, false);
  // The document's end: a line break unless the last block scalar ended with one.
  w.indent(0);
  return w.parts.join('');
}
