/**
 * Field-level validation errors (apimachinery field.Error) and their exact renderings: the cause
 * `message` is the body, the aggregate line is `field: body`.
 */
import { formatGoNumberV, goJsonMarshal, goQuote } from './go-format.js';
import { pathString, type PathLike } from './field-path.js';

/** Error type → the cause `reason` it is written as. */
export const fieldErrorTypes = {
  NotFound: 'FieldValueNotFound',
  Required: 'FieldValueRequired',
  Duplicate: 'FieldValueDuplicate',
  Invalid: 'FieldValueInvalid',
  NotSupported: 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
  InternalError: 'InternalError',
  TypeInvalid: 'FieldValueTypeInvalid',
} as const;

export type FieldErrorType = (typeof fieldErrorTypes)[keyof typeof fieldErrorTypes];

const typeTitles: Readonly<Record<FieldErrorType, string>> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Types whose body never shows the bad value. */
const valueless = new Set<FieldErrorType>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong', 'InternalError']);

/** Marks a bad value that must not be printed (Go's omitValue). */
export const omitValue: unique symbol = Symbol('omitValue');

export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly badValue: unknown;
  readonly detail: string;
}

function make(type: FieldErrorType, p: PathLike, badValue: unknown, detail: string): FieldError {
  return { type, field: pathString(p), badValue, detail };
}

export function required(p: PathLike, detail = ''): FieldError {
  return make('FieldValueRequired', p, '', detail);
}

export function invalidValue(p: PathLike, value: unknown, detail = ''): FieldError {
  return make('FieldValueInvalid', p, value, detail);
}

export function typeInvalid(p: PathLike, value: unknown, detail = ''): FieldError {
  return make('FieldValueTypeInvalid', p, value, detail);
}

/** `Unsupported value: <v>: supported values: "a", "b"` (no detail when the list is empty). */
export function notSupported(p: PathLike, value: unknown, supported: readonly string[]): FieldError {
  const detail = supported.length > 0 ? `supported values: ${supported.map((s) => goQuote(s)).join(', ')}` : '';
  return make('FieldValueNotSupported', p, value, detail);
}

export function forbiddenField(p: PathLike, detail: string): FieldError {
  return make('FieldValueForbidden', p, '', detail);
}

/** `Too long: may not be more than N bytes` (`byte` for 1; a negative max means unknown). */
export function tooLong(p: PathLike, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}` : 'value is too long';
  return make('FieldValueTooLong', p, '<value omitted>', detail);
}

/** `Too many: <actual>: must have at most N items` (a negative actual is left out). */
export function tooMany(p: PathLike, actual: number, maxQuantity: number): FieldError {
  const detail = maxQuantity >= 0 ? `must have at most ${maxQuantity} ${maxQuantity === 1 ? 'item' : 'items'}` : 'has too many items';
  return make('FieldValueTooMany', p, actual >= 0 ? actual : omitValue, detail);
}

export function duplicate(p: PathLike, value: unknown): FieldError {
  return make('FieldValueDuplicate', p, value, '');
}

export function fieldNotFound(p: PathLike, value: unknown): FieldError {
  return make('FieldValueNotFound', p, value, '');
}

export function fieldInternalError(p: PathLike, err: unknown): FieldError {
  return make('InternalError', p, err, err instanceof Error ? err.message : String(err));
}

/** How Go prints a bad value: strings quoted, ints/bools bare, anything else as JSON. */
export function renderBadValue(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return formatGoNumberV(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === undefined) return 'null';
  return goJsonMarshal(value);
}

/** The error without its field: what a cause's `message` holds. */
export function errorBody(e: FieldError): string {
  let s = typeTitles[e.type];
  if (!valueless.has(e.type) && e.badValue !== omitValue) s += `: ${renderBadValue(e.badValue)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** `field: body`, the form used in aggregate messages. */
export function fieldErrorString(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

/**
 * Go's error aggregate: one message alone, or `[a, b]` joined by `, ` after dropping exact
 * duplicates (a list whose messages are all the same prints as that one message).
 */
export function aggregateMessage(messages: readonly string[]): string {
  const seen = [...new Set(messages)];
  if (seen.length <= 1) return seen[0] ?? '';
  return `[${seen.join(', ')}]`;
}

export function aggregateFieldErrors(errs: readonly FieldError[]): string {
  return aggregateMessage(errs.map(fieldErrorString));
}
