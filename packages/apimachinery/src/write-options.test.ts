import { describe, expect, it } from 'vitest';
import { StatusError } from './errors.js';
import { parseCreateOptions, parseDeleteOptions, parsePatchOptions, parseUpdateOptions, type PatchType } from './write-options.js';

const q = (s: string): URLSearchParams => new URLSearchParams(s);

function failure(fn: () => unknown): StatusError['status'] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    return (err as StatusError).status;
  }
  throw new Error('no error thrown');
}

describe('create and update options', () => {
  it.each([
    ['', { dryRun: false, fieldManager: '', fieldValidation: 'Warn' }],
    ['dryRun=All', { dryRun: true, fieldManager: '', fieldValidation: 'Warn' }],
    ['dryRun=All&dryRun=All&fieldManager=kubectl-create&fieldValidation=Strict', { dryRun: true, fieldManager: 'kubectl-create', fieldValidation: 'Strict' }],
    ['fieldValidation=Ignore', { dryRun: false, fieldManager: '', fieldValidation: 'Ignore' }],
    ['fieldValidation=', { dryRun: false, fieldManager: '', fieldValidation: 'Warn' }],
  ])('%j', (query, want) => {
    expect(parseCreateOptions(q(query))).toEqual(want);
    expect(parseUpdateOptions(q(query))).toEqual(want);
  });

  it('the §1.3 dryRun example, byte for byte', () => {
    expect(JSON.stringify(failure(() => parseCreateOptions(q('dryRun=foo'))))).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",' +
        '"message":"CreateOptions.meta.k8s.io \\"\\" is invalid: dryRun: Unsupported value: [\\"foo\\"]: supported values: \\"All\\"",' +
        '"reason":"Invalid","details":{"group":"meta.k8s.io","kind":"CreateOptions",' +
        '"causes":[{"reason":"FieldValueNotSupported","message":"Unsupported value: [\\"foo\\"]: supported values: \\"All\\"","field":"dryRun"}]},"code":422}',
    );
  });

  it.each([
    ['dryRun=true', 'dryRun: Unsupported value: ["true"]: supported values: "All"'],
    ['dryRun=All&dryRun=', 'dryRun: Unsupported value: ["All",""]: supported values: "All"'],
    [`fieldManager=${'m'.repeat(129)}`, 'fieldManager: Too long: may not be more than 128 bytes'],
    ['fieldManager=abc%0Adef', 'fieldManager: Invalid value: "abc\\ndef": invalid character U+000A (at position 3)'],
    ['fieldManager=%C3%A9%7F', 'fieldManager: Invalid value: "é\\x7f": invalid character U+007F (at position 2)'],
    ['fieldValidation=x', 'fieldValidation: Unsupported value: "x": supported values: "", "Ignore", "Strict", "Warn"'],
    [
      'dryRun=x&fieldValidation=warn',
      '[dryRun: Unsupported value: ["x"]: supported values: "All", fieldValidation: Unsupported value: "warn": supported values: "", "Ignore", "Strict", "Warn"]',
    ],
  ])('%j → 422', (query, tail) => {
    expect(failure(() => parseCreateOptions(q(query)))).toMatchObject({ code: 422, message: `CreateOptions.meta.k8s.io "" is invalid: ${tail}` });
    expect(failure(() => parseUpdateOptions(q(query)))).toMatchObject({ code: 422, message: `UpdateOptions.meta.k8s.io "" is invalid: ${tail}` });
  });
});

describe('patch options', () => {
  const apply: PatchType = 'application/apply-patch+yaml';
  const merge: PatchType = 'application/merge-patch+json';

  it.each<[string, PatchType, object]>([
    ['fieldManager=kubectl&force=true', apply, { force: true, fieldManager: 'kubectl' }],
    ['fieldManager=kubectl&force=false', apply, { force: false }],
    ['fieldManager=kubectl', apply, { force: undefined }],
    ['', merge, { force: undefined, fieldManager: '' }],
    ['dryRun=All', 'application/strategic-merge-patch+json', { dryRun: true }],
  ])('%j (%s)', (query, type, want) => {
    expect(parsePatchOptions(q(query), type)).toMatchObject(want);
  });

  it.each<[string, PatchType, string]>([
    ['force=true', merge, 'force: Forbidden: may not be specified for non-apply patch'],
    ['force=false', 'application/json-patch+json', 'force: Forbidden: may not be specified for non-apply patch'],
    ['', apply, 'fieldManager: Required value: is required for apply patch'],
    ['force=true', 'application/apply-patch+cbor', 'fieldManager: Required value: is required for apply patch'],
    ['force=1&dryRun=x', merge, '[force: Forbidden: may not be specified for non-apply patch, dryRun: Unsupported value: ["x"]: supported values: "All"]'],
  ])('%j (%s) → 422', (query, type, tail) => {
    expect(failure(() => parsePatchOptions(q(query), type))).toMatchObject({ code: 422, message: `PatchOptions.meta.k8s.io "" is invalid: ${tail}` });
  });
});

describe('delete options', () => {
  it.each([
    ['', { dryRun: false, gracePeriodSeconds: undefined, propagationPolicy: undefined, orphanDependents: undefined, preconditions: undefined }],
    ['gracePeriodSeconds=0&propagationPolicy=Background&dryRun=All', { dryRun: true, gracePeriodSeconds: 0, propagationPolicy: 'Background' }],
    ['orphanDependents=false', { orphanDependents: false }],
  ])('query %j', (query, want) => {
    expect(parseDeleteOptions(q(query))).toMatchObject(want);
  });

  it('a body wins over the query', () => {
    const body = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground', preconditions: { uid: 'u1' }, gracePeriodSeconds: 5 };
    expect(parseDeleteOptions(q('propagationPolicy=bogus&dryRun=x'), body)).toEqual({
      dryRun: false,
      gracePeriodSeconds: 5,
      propagationPolicy: 'Foreground',
      orphanDependents: undefined,
      preconditions: { uid: 'u1' },
    });
  });

  it.each<[string, unknown, string]>([
    ['propagationPolicy=x', undefined, 'propagationPolicy: Unsupported value: "x": supported values: "Foreground", "Background", "Orphan", "nil"'],
    ['propagationPolicy=', undefined, 'propagationPolicy: Unsupported value: "": supported values: "Foreground", "Background", "Orphan", "nil"'],
    ['propagationPolicy=Background&orphanDependents=true', undefined, 'propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set'],
    ['dryRun=true', undefined, 'dryRun: Unsupported value: ["true"]: supported values: "All"'],
    ['', { orphanDependents: false, propagationPolicy: 'Nope' }, '[propagationPolicy: Invalid value: "Nope": orphanDependents and deletionPropagation cannot be both set, propagationPolicy: Unsupported value: "Nope": supported values: "Foreground", "Background", "Orphan", "nil"]'],
  ])('%j %j → 422', (query, body, tail) => {
    expect(failure(() => parseDeleteOptions(q(query), body))).toMatchObject({ code: 422, message: `DeleteOptions.meta.k8s.io "" is invalid: ${tail}` });
  });

  it.each<[string, unknown, string]>([
    ['gracePeriodSeconds=soon', undefined, 'strconv.ParseInt: parsing "soon": invalid syntax'],
    ['', { gracePeriodSeconds: 'soon' }, 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64'],
    ['', { dryRun: 'All' }, 'json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string'],
    ['', ['x'], 'json: cannot unmarshal array into Go value of type v1.DeleteOptions'],
  ])('%j %j → 400', (query, body, message) => {
    expect(failure(() => parseDeleteOptions(q(query), body))).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });
});
