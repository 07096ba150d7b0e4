/**
 * Go's encoding/json syntax check (the scanner behind json.Unmarshal), for its error texts:
 * `invalid character 'x' looking for beginning of value`, `unexpected end of JSON input` ...
 * Decode errors reach clients verbatim (`Event in version "v1" cannot be handled as a Event:
 * <decode error>`), so bodies and continue tokens that do not parse report what Go reports.
 */
import { goQuote } from './go-format.js';

type Step = (c: string) => void;
const Ctx = { ObjectKey: 0, ObjectValue: 1, ArrayValue: 2 } as const;
type Ctx = (typeof Ctx)[keyof typeof Ctx];

class SyntaxFailure extends Error {}

/**
 * Go's quoteChar: the offending byte in single quotes. The scanner sees a string's characters
 * or, for raw bytes, one latin1 character per byte; either way the byte is the first one.
 */
function quoteChar(c: string, bytes: boolean): string {
  if (c === "'") return "'\\''";
  if (c === '"') return `'"'`;
  const firstByte = bytes ? c.charCodeAt(0) : (Buffer.from(c, 'utf8')[0] ?? 0);
  return `'${goQuote(String.fromCharCode(firstByte)).slice(1, -1)}'`;
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isHex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);

/** encoding/json's maxNestingDepth. */
export const MAX_NESTING_DEPTH = 10_000;

/**
 * Whether a JSON text nests objects and arrays deeper than Go's decoder takes: one pass over the
 * bytes, so every body can be checked before anything recursive walks the parsed value.
 */
export function jsonNestsTooDeep(raw: Uint8Array): boolean {
  // Every level opens with a byte of its own: a shorter text cannot go deeper than the limit.
  if (raw.length <= MAX_NESTING_DEPTH) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i];
    if (inString) {
      if (b === 0x5c)
        i++; // a backslash escapes the next byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) {
      if (++depth > MAX_NESTING_DEPTH) return true;
    } else if (b === 0x7d || b === 0x5d) depth--;
  }
  return false;
}

class Scanner {
  constructor(private readonly bytes: boolean) {}
  private readonly stack: Ctx[] = [];
  endTop = false;
  step: Step = (c) => this.beginValue(c);

  private fail(c: string, context: string): never {
    throw new SyntaxFailure(`invalid character ${quoteChar(c, this.bytes)} ${context}`);
  }

  /** Go's decoder refuses nesting deeper than this, as a syntax error, before it can recurse. */
  private push(c: string, ctx: Ctx): void {
    this.stack.push(ctx);
    if (this.stack.length > MAX_NESTING_DEPTH) this.fail(c, 'exceeded max depth');
  }

  private beginValue(c: string): void {
    if (isSpace(c)) return;
    if (c === '{') {
      this.push(c, Ctx.ObjectKey);
      this.step = (x) => this.beginStringOrEmpty(x);
    } else if (c === '[') {
      this.push(c, Ctx.ArrayValue);
      this.step = (x) => (isSpace(x) ? undefined : x === ']' ? this.endValue(x) : this.beginValue(x));
    } else if (c === '"') this.step = (x) => this.inString(x);
    else if (c === '-')
      this.step = (x) =>
        x === '0'
          ? (this.step = (y) => this.afterZero(y))
          : isDigit(x)
            ? (this.step = (y) => this.inInt(y))
            : this.fail(x, 'in numeric literal');
    else if (c === '0') this.step = (x) => this.afterZero(x);
    else if (isDigit(c)) this.step = (x) => this.inInt(x);
    else if (c === 't') this.literal('true', 1);
    else if (c === 'f') this.literal('false', 1);
    else if (c === 'n') this.literal('null', 1);
    else this.fail(c, 'looking for beginning of value');
  }

  private literal(word: string, i: number): void {
    this.step = (x) => {
      if (x !== word[i]) this.fail(x, `in literal ${word} (expecting '${word[i] ?? ''}')`);
      if (i + 1 === word.length) this.step = (y) => this.endValue(y);
      else this.literal(word, i + 1);
    };
  }

  private beginStringOrEmpty(c: string): void {
    if (isSpace(c)) return;
    if (c === '}') {
      this.stack[this.stack.length - 1] = Ctx.ObjectValue;
      this.endValue(c);
      return;
    }
    this.beginString(c);
  }

  private beginString(c: string): void {
    if (isSpace(c)) return;
    if (c === '"') this.step = (x) => this.inString(x);
    else this.fail(c, 'looking for beginning of object key string');
  }

  private inString(c: string): void {
    if (c === '"') this.step = (x) => this.endValue(x);
    else if (c === '\\') this.step = (x) => this.inEscape(x);
    else if (c < ' ') this.fail(c, 'in string literal');
  }

  private inEscape(c: string): void {
    if ('bfnrt\\/"'.includes(c) && c.length === 1) this.step = (x) => this.inString(x);
    else if (c === 'u') this.hex(4);
    else this.fail(c, 'in string escape code');
  }

  private hex(left: number): void {
    this.step = (x) => {
      if (!isHex(x)) this.fail(x, 'in \\u hexadecimal character escape');
      if (left === 1) this.step = (y) => this.inString(y);
      else this.hex(left - 1);
    };
  }

  private inInt(c: string): void {
    if (isDigit(c)) return;
    this.afterZero(c);
  }

  private afterZero(c: string): void {
    if (c === '.')
      this.step = (x) =>
        isDigit(x)
          ? (this.step = (y) => this.inFraction(y))
          : this.fail(x, 'after decimal point in numeric literal');
    else if (c === 'e' || c === 'E') this.step = (x) => this.exponentSign(x);
    else this.endValue(c);
  }

  private inFraction(c: string): void {
    if (isDigit(c)) return;
    if (c === 'e' || c === 'E') this.step = (x) => this.exponentSign(x);
    else this.endValue(c);
  }

  private exponentSign(c: string): void {
    if (c === '+' || c === '-') {
      this.step = (x) => this.exponentFirst(x);
      return;
    }
    this.exponentFirst(c);
  }

  private exponentFirst(c: string): void {
    if (!isDigit(c)) this.fail(c, 'in exponent of numeric literal');
    this.step = (x) => (isDigit(x) ? undefined : this.endValue(x));
  }

  private endValue(c: string): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) {
      this.endTop = true;
      this.step = (x) => (isSpace(x) ? undefined : this.fail(x, 'after top-level value'));
      this.step(c);
      return;
    }
    if (isSpace(c)) {
      this.step = (x) => this.endValue(x);
      return;
    }
    if (top === Ctx.ObjectKey) {
      if (c !== ':') this.fail(c, 'after object key');
      this.stack[this.stack.length - 1] = Ctx.ObjectValue;
      this.step = (x) => this.beginValue(x);
    } else if (top === Ctx.ObjectValue) {
      if (c === ',') {
        this.stack[this.stack.length - 1] = Ctx.ObjectKey;
        this.step = (x) => this.beginString(x);
      } else if (c === '}') this.pop();
      else this.fail(c, 'after object key:value pair');
    } else if (c === ',') this.step = (x) => this.beginValue(x);
    else if (c === ']') this.pop();
    else this.fail(c, 'after array element');
  }

  private pop(): void {
    this.stack.pop();
    if (this.stack.length === 0) this.endTop = true;
    this.step = (x) => this.endValue(x);
  }
}

/**
 * The Go error text for malformed JSON, or undefined when the input is valid JSON. Pass raw
 * bytes when they may not be UTF-8 (a decoded continue token): Go reports the byte it saw, not
 * a replacement character.
 */
export function goJsonSyntaxError(input: string | Uint8Array): string | undefined {
  const bytes = typeof input !== 'string';
  const text = bytes ? Buffer.from(input).toString('latin1') : input;
  const s = new Scanner(bytes);
  try {
    for (const c of text) s.step(c);
    if (!s.endTop) s.step(' ');
    return s.endTop ? undefined : 'unexpected end of JSON input';
  } catch (err) {
    if (err instanceof SyntaxFailure) return err.message;
    throw err;
  }
}
