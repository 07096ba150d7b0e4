/**
 * Field selectors: a port of apimachinery fields.ParseSelector. Terms are ANDed, each
 * `key=value`, `key==value` or `key!=value`; values may escape `\,`, `\=` and `\\`. Parse
 * errors and unsupported labels are thrown as 400 BadRequest StatusErrors with Go's text.
 */
import { badRequest } from './errors.js';
import { compareGoStrings, goQuote } from './go-format.js';

export type FieldOperator = '=' | '==' | '!=';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  readonly value: string;
}

export type Fields = Readonly<Record<string, string>>;

/** Maps a field label (and value) to the internal one; throws Error('...') when unsupported. */
export type FieldLabelConverter = (field: string, value: string) => { field: string; value: string };

export interface FieldSelector {
  /** In Go's order: terms sorted as written. */
  readonly requirements: readonly FieldRequirement[];
  /** A missing field counts as `""`, so `f=` matches it and `f!=x` matches it. */
  matches(fields: Fields): boolean;
  isEmpty(): boolean;
  toString(): string;
  /** The value an `=`/`==` term demands for `field`, if any. */
  requiresExactMatch(field: string): string | undefined;
  /** Rewrites every term; a converter error becomes a 400 with its message. */
  transform(convert: FieldLabelConverter): FieldSelector;
}

export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** Go's UnescapeValue: only `\\`, `\,` and `\=`; a bare `,` or `=` is an error. */
export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      throw badRequest(`invalid field selector: unescaped character in value: ${c}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Splits on commas that are not escaped. */
function splitTerms(text: string): string[] {
  if (text.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** The key is everything before the first operator; `!=` and `==` win over `=` at one spot. */
function splitTerm(term: string): [string, FieldOperator, string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

class TermsSelector implements FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}

  matches(fields: Fields): boolean {
    return this.requirements.every((r) => {
      const actual = Object.hasOwn(fields, r.field) ? (fields[r.field] ?? '') : '';
      return r.operator === '!=' ? actual !== r.value : actual === r.value;
    });
  }

  isEmpty(): boolean {
    return this.requirements.length === 0;
  }

  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator === '!=' ? '!=' : '='}${escapeFieldValue(r.value)}`).join(',');
  }

  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator !== '!=')?.value;
  }

  transform(convert: FieldLabelConverter): FieldSelector {
    return new TermsSelector(
      this.requirements.map((r) => {
        try {
          const out = convert(r.field, r.value);
          return { field: out.field, operator: r.operator, value: out.value };
        } catch (err) {
          throw badRequest(err instanceof Error ? err.message : String(err));
        }
      }),
    );
  }
}

export function everythingFieldSelector(): FieldSelector {
  return new TermsSelector([]);
}

/** `field=value` for one term, as Go's OneTermEqualSelector. */
export function oneTermEqualFieldSelector(field: string, value: string): FieldSelector {
  return new TermsSelector([{ field, operator: '=', value }]);
}

/** Parses `?fieldSelector=`; throws a 400 BadRequest StatusError with Go's message. */
export function parseFieldSelector(text: string): FieldSelector {
  const parts = splitTerms(text).sort(compareGoStrings);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    const [field, operator, rhs] = split;
    reqs.push({ field, operator, value: unescapeFieldValue(rhs) });
  }
  return new TermsSelector(reqs);
}

/** A converter accepting exactly `supported` (`field label not supported: <label>` otherwise). */
export function supportedFieldLabels(supported: readonly string[], renames: Readonly<Record<string, string>> = {}): FieldLabelConverter {
  const allowed = new Set(supported);
  return (field, value) => {
    if (!allowed.has(field)) throw new Error(`field label not supported: ${field}`);
    return { field: Object.hasOwn(renames, field) ? (renames[field] ?? field) : field, value };
  };
}

/** Go's default for kinds without their own conversion (e.g. Lease): only name and namespace. */
export const defaultMetaFieldLabels: FieldLabelConverter = (field, value) => {
  if (field === 'metadata.name' || field === 'metadata.namespace') return { field, value };
  throw new Error(`${goQuote(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`);
};

/** Throws the 400 `field label not supported: <label>` unless every term uses a supported label. */
export function checkFieldLabels(selector: FieldSelector, supported: readonly string[]): void {
  selector.transform(supportedFieldLabels(supported));
}
