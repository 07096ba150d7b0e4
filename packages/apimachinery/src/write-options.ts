/**
 * Create/update/patch/delete query options with the real server's validation: 422
 * `<Op>Options.meta.k8s.io "" is invalid: ...` for bad values, 400 for undecodable ones.
 */
import { badRequest, invalid } from './errors.js';
import { forbiddenField, invalidValue, notSupported, required, tooLong, type FieldError } from './field-errors.js';
import { goJsonKind, isGoPrintable, utf8Length } from './go-format.js';
import { isJsonObject } from './json.js';
import { fieldManagerMaxLength, queryOptionalBool, queryOptionalInt64, queryString, queryStrings } from './query-params.js';

export type FieldValidationDirective = 'Ignore' | 'Warn' | 'Strict';

export interface WriteOptions {
  /** True when `dryRun=All` was given. */
  readonly dryRun: boolean;
  /** As sent; empty means "derive it from the User-Agent" (see fieldManagerFromUserAgent). */
  readonly fieldManager: string;
  /** Empty defaults to Warn. */
  readonly fieldValidation: FieldValidationDirective;
}

export interface PatchOptions extends WriteOptions {
  readonly force: boolean | undefined;
}

export const patchContentTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
] as const;

export type PatchType = (typeof patchContentTypes)[number] | 'application/apply-patch+cbor';

export function isApplyPatch(t: PatchType): boolean {
  return t === 'application/apply-patch+yaml' || t === 'application/apply-patch+cbor';
}

export function validateDryRun(values: readonly string[]): FieldError[] {
  return values.every((v) => v === 'All') ? [] : [notSupported('dryRun', values, ['All'])];
}

/** ≤128 bytes and only printable runes (positions are byte offsets, as Go reports them). */
export function validateFieldManager(fieldManager: string, path = 'fieldManager'): FieldError[] {
  const errs: FieldError[] = [];
  if (utf8Length(fieldManager) > fieldManagerMaxLength) errs.push(tooLong(path, fieldManagerMaxLength));
  let pos = 0;
  for (const ch of fieldManager) {
    if (!isGoPrintable(ch)) {
      const cp = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalidValue(path, fieldManager, `invalid character U+${cp} (at position ${pos})`));
    }
    pos += utf8Length(ch);
  }
  return errs;
}

export function validateFieldValidation(value: string): FieldError[] {
  return ['', 'Ignore', 'Strict', 'Warn'].includes(value) ? [] : [notSupported('fieldValidation', value, ['', 'Ignore', 'Strict', 'Warn'])];
}

function metaKind(kind: string): { group: string; kind: string } {
  return { group: 'meta.k8s.io', kind };
}

function writeOptions(params: URLSearchParams, kind: string, extra: (fieldManager: string) => FieldError[]): WriteOptions {
  const dryRun = queryStrings(params, 'dryRun');
  const fieldManager = queryString(params, 'fieldManager');
  const fieldValidation = queryString(params, 'fieldValidation');
  const errs = [...extra(fieldManager), ...validateFieldManager(fieldManager), ...validateDryRun(dryRun), ...validateFieldValidation(fieldValidation)];
  if (errs.length > 0) throw invalid(metaKind(kind), '', errs);
  return { dryRun: dryRun.length > 0, fieldManager, fieldValidation: (fieldValidation || 'Warn') as FieldValidationDirective };
}

export function parseCreateOptions(params: URLSearchParams): WriteOptions {
  return writeOptions(params, 'CreateOptions', () => []);
}

export function parseUpdateOptions(params: URLSearchParams): WriteOptions {
  return writeOptions(params, 'UpdateOptions', () => []);
}

/** `force` is only for apply patches, which in turn need a fieldManager. */
export function parsePatchOptions(params: URLSearchParams, patchType: PatchType): PatchOptions {
  const force = queryOptionalBool(params, 'force');
  const base = writeOptions(params, 'PatchOptions', (fieldManager) => {
    if (!isApplyPatch(patchType)) return force === undefined ? [] : [forbiddenField('force', 'may not be specified for non-apply patch')];
    return fieldManager === '' ? [required('fieldManager', 'is required for apply patch')] : [];
  });
  return { ...base, force };
}

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

export interface DeleteOptions {
  readonly dryRun: boolean;
  readonly gracePeriodSeconds: number | undefined;
  readonly propagationPolicy: PropagationPolicy | undefined;
  readonly orphanDependents: boolean | undefined;
  readonly preconditions: { readonly uid?: string; readonly resourceVersion?: string } | undefined;
}

interface RawDelete {
  gracePeriodSeconds?: number | undefined;
  propagationPolicy?: string | undefined;
  orphanDependents?: boolean | undefined;
  dryRun: string[];
  preconditions?: { uid?: string; resourceVersion?: string } | undefined;
}

function bodyField<T>(body: Record<string, unknown>, name: string, goType: string, check: (v: unknown) => v is T): T | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (!check(v)) throw badRequest(`json: cannot unmarshal ${goJsonKind(v)} into Go struct field DeleteOptions.${name} of type ${goType}`);
  return v;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
const isPre = (v: unknown): v is { uid?: string; resourceVersion?: string } =>
  isJsonObject(v) && ['uid', 'resourceVersion'].every((k) => v[k] === undefined || v[k] === null || isStr(v[k]));

function fromBody(body: Record<string, unknown>): RawDelete {
  return {
    gracePeriodSeconds: bodyField(body, 'gracePeriodSeconds', 'int64', isInt),
    propagationPolicy: bodyField(body, 'propagationPolicy', 'v1.DeletionPropagation', isStr),
    orphanDependents: bodyField(body, 'orphanDependents', 'bool', isBool),
    dryRun: bodyField(body, 'dryRun', '[]string', isStrList) ?? [],
    preconditions: bodyField(body, 'preconditions', 'v1.Preconditions', isPre),
  };
}

/**
 * DELETE options: from the DeleteOptions body when there is one (the query string is then
 * ignored, as upstream does), otherwise from the query.
 */
export function parseDeleteOptions(params: URLSearchParams, body?: unknown): DeleteOptions {
  let raw: RawDelete;
  if (body !== undefined && body !== null) {
    if (!isJsonObject(body)) throw badRequest(`json: cannot unmarshal ${goJsonKind(body)} into Go value of type v1.DeleteOptions`);
    raw = fromBody(body);
  } else {
    raw = {
      gracePeriodSeconds: queryOptionalInt64(params, 'gracePeriodSeconds'),
      propagationPolicy: params.get('propagationPolicy') ?? undefined,
      orphanDependents: queryOptionalBool(params, 'orphanDependents'),
      dryRun: queryStrings(params, 'dryRun'),
    };
  }
  const errs: FieldError[] = [];
  const policy = raw.propagationPolicy;
  if (raw.orphanDependents !== undefined && policy !== undefined) {
    errs.push(invalidValue('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (policy !== undefined && !['Foreground', 'Background', 'Orphan'].includes(policy)) {
    errs.push(notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  errs.push(...validateDryRun(raw.dryRun));
  if (errs.length > 0) throw invalid(metaKind('DeleteOptions'), '', errs);
  return {
    dryRun: raw.dryRun.length > 0,
    gracePeriodSeconds: raw.gracePeriodSeconds,
    propagationPolicy: policy as PropagationPolicy | undefined,
    orphanDependents: raw.orphanDependents,
    preconditions: raw.preconditions,
  };
}
