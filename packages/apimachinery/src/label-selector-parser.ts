/**
 * The label selector parser, a port of apimachinery labels.Parse: same grammar and error texts.
 * Parse errors are thrown as a 400 BadRequest StatusError whose message is Go's error text
 * (`unable to parse requirement: ...`, `found 'x', expected: ...`).
 */
import { badRequest } from './errors.js';
import { aggregateFieldErrors } from './field-errors.js';
import { compareGoStrings } from './go-format.js';
import { scanLabelSelector, Tok, type Scanned } from './label-selector-lexer.js';
import {
  labelKeyError,
  labelSelectorFromRequirements,
  validateLabelRequirement,
  type LabelOperator,
  type LabelRequirement,
  type LabelSelector,
} from './label-selector.js';

const binaryOperators: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

class Parser {
  private position = 0;
  constructor(private readonly items: readonly Scanned[]) {}

  /** In a values context `in`/`notin` are plain identifiers. */
  private peek(values = true): Scanned {
    const item = this.items[this.position] ?? { tok: Tok.EndOfString, literal: '' };
    return values && (item.tok === Tok.In || item.tok === Tok.NotIn) ? { tok: Tok.Identifier, literal: item.literal } : item;
  }

  private next(values = true): Scanned {
    const item = this.peek(values);
    this.position++;
    return item;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, literal } = this.peek();
      if (tok === Tok.EndOfString) return reqs;
      if (tok !== Tok.Identifier && tok !== Tok.DoesNotExist) {
        throw new Error(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      reqs.push(this.requirement());
      const after = this.next();
      if (after.tok === Tok.EndOfString) return reqs;
      if (after.tok !== Tok.Comma) throw new Error(`found '${after.literal}', expected: ',' or 'end of string'`);
      const t2 = this.peek();
      if (t2.tok !== Tok.Identifier && t2.tok !== Tok.DoesNotExist) {
        throw new Error(`found '${t2.literal}', expected: identifier after ','`);
      }
    }
  }

  private requirement(): LabelRequirement {
    try {
      const [key, unary] = this.keyAndInferredOperator();
      let req: LabelRequirement;
      if (unary) {
        req = { key, operator: unary, values: [] };
      } else {
        const operator = this.operator();
        const values = operator === 'in' || operator === 'notin' ? this.setValues() : this.exactValue();
        req = { key, operator, values: [...new Set(values)].sort(compareGoStrings) };
      }
      const errs = validateLabelRequirement(req);
      if (errs.length > 0) throw new Error(aggregateFieldErrors(errs));
      return req;
    } catch (err) {
      throw new Error(`unable to parse requirement: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private keyAndInferredOperator(): [string, LabelOperator | undefined] {
    let { tok, literal } = this.next();
    let operator: LabelOperator | undefined;
    if (tok === Tok.DoesNotExist) {
      operator = '!';
      ({ tok, literal } = this.next());
    }
    if (tok !== Tok.Identifier) throw new Error(`found '${literal}', expected: identifier`);
    const ke = labelKeyError(literal, null);
    if (ke) throw new Error(aggregateFieldErrors([ke]));
    const la = this.peek().tok;
    if ((la === Tok.EndOfString || la === Tok.Comma) && operator !== '!') operator = 'exists';
    return [literal, operator];
  }

  private operator(): LabelOperator {
    const { tok, literal } = this.next(false);
    const ops: Partial<Record<Tok, LabelOperator>> = {
      [Tok.In]: 'in',
      [Tok.Equals]: '=',
      [Tok.DoubleEquals]: '==',
      [Tok.GreaterThan]: 'gt',
      [Tok.LessThan]: 'lt',
      [Tok.NotIn]: 'notin',
      [Tok.NotEquals]: '!=',
    };
    const op = ops[tok];
    if (!op) throw new Error(`found '${literal}', expected: ${binaryOperators.join(', ')}`);
    return op;
  }

  private setValues(): string[] {
    const open = this.next();
    if (open.tok !== Tok.OpenPar) throw new Error(`found '${open.literal}' expected: '('`);
    const { tok, literal } = this.peek();
    if (tok === Tok.ClosedPar) {
      this.next();
      return [''];
    }
    if (tok !== Tok.Identifier && tok !== Tok.Comma) throw new Error(`found '${literal}', expected: ',', ')' or identifier`);
    const values = this.identifiersList();
    // Go reports the token that opened the list here, not the one it found.
    if (this.next().tok !== Tok.ClosedPar) throw new Error(`found '${literal}', expected: ')'`);
    return values;
  }

  private identifiersList(): string[] {
    const s: string[] = [];
    for (;;) {
      const { tok, literal } = this.next();
      if (tok === Tok.Identifier) {
        s.push(literal);
        const la = this.peek();
        if (la.tok === Tok.Comma) continue;
        if (la.tok === Tok.ClosedPar) return s;
        throw new Error(`found '${la.literal}', expected: ',' or ')'`);
      } else if (tok === Tok.Comma) {
        if (s.length === 0) s.push('');
        const la = this.peek().tok;
        if (la === Tok.ClosedPar) {
          s.push('');
          return s;
        }
        if (la === Tok.Comma) {
          this.next();
          s.push('');
        }
      } else {
        throw new Error(`found '${literal}', expected: ',', or identifier`);
      }
    }
  }

  private exactValue(): string[] {
    const la = this.peek().tok;
    if (la === Tok.EndOfString || la === Tok.Comma) return [''];
    const { tok, literal } = this.next();
    if (tok === Tok.Identifier) return [literal];
    throw new Error(`found '${literal}', expected: identifier`);
  }
}

/** Parses `?labelSelector=`; throws a 400 BadRequest StatusError with Go's message. */
export function parseLabelSelector(text: string): LabelSelector {
  try {
    return labelSelectorFromRequirements(new Parser(scanLabelSelector(text)).parse());
  } catch (err) {
    throw badRequest(err instanceof Error ? err.message : String(err));
  }
}
