/** The label selector lexer, a direct port of apimachinery labels.Lexer (byte-for-byte tokens). */

export const Tok = {
  Error: 0,
  EndOfString: 1,
  ClosedPar: 2,
  Comma: 3,
  DoesNotExist: 4,
  DoubleEquals: 5,
  Equals: 6,
  GreaterThan: 7,
  Identifier: 8,
  In: 9,
  LessThan: 10,
  NotEquals: 11,
  NotIn: 12,
  OpenPar: 13,
} as const;

export type Tok = (typeof Tok)[keyof typeof Tok];

export interface Scanned {
  readonly tok: Tok;
  readonly literal: string;
}

const string2token: ReadonlyMap<string, Tok> = new Map([
  [')', Tok.ClosedPar],
  [',', Tok.Comma],
  ['!', Tok.DoesNotExist],
  ['==', Tok.DoubleEquals],
  ['=', Tok.Equals],
  ['>', Tok.GreaterThan],
  ['in', Tok.In],
  ['<', Tok.LessThan],
  ['!=', Tok.NotEquals],
  ['notin', Tok.NotIn],
  ['(', Tok.OpenPar],
]);

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string): boolean => '=!(),><'.includes(ch) && ch.length === 1;

/** Go reads bytes and treats NUL (and the end) as end of string; `''` plays that role here. */
class Lexer {
  private pos = 0;
  constructor(private readonly s: string) {}

  private read(): string {
    if (this.pos < this.s.length) {
      const ch = this.s[this.pos] ?? '';
      this.pos++;
      return ch === '\0' ? '' : ch;
    }
    return '';
  }

  private unread(): void {
    this.pos--;
  }

  private scanIdOrKeyword(): Scanned {
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === '') break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
    }
    return { tok: string2token.get(buffer) ?? Tok.Identifier, literal: buffer };
  }

  private scanSpecialSymbol(): Scanned {
    let last: Scanned | undefined;
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === '') break;
      if (!isSpecialSymbol(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
      const tok = string2token.get(buffer);
      if (tok !== undefined) {
        last = { tok, literal: buffer };
      } else if (last) {
        this.unread();
        break;
      }
    }
    return last ?? { tok: Tok.Error, literal: `error expected: keyword found '${buffer}'` };
  }

  lex(): Scanned {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === '') return { tok: Tok.EndOfString, literal: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdOrKeyword();
  }
}

/** All tokens up to and including EndOfString. */
export function scanLabelSelector(s: string): Scanned[] {
  const lexer = new Lexer(s);
  const items: Scanned[] = [];
  for (;;) {
    const item = lexer.lex();
    items.push(item);
    if (item.tok === Tok.EndOfString) return items;
  }
}
