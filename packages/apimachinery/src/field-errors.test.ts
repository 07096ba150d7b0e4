import { describe, expect, it } from 'vitest';
import { invalid } from './errors.js';
import {
  aggregateFieldErrors,
  aggregateMessage,
  duplicate,
  errorBody,
  fieldErrorString,
  fieldInternalError,
  fieldNotFound,
  forbiddenField,
  invalidValue,
  notSupported,
  required,
  tooLong,
  tooMany,
  typeInvalid,
  type FieldError,
} from './field-errors.js';
import { path } from './field-path.js';

describe('error bodies and strings (§1.3)', () => {
  it.each<[FieldError, string, string]>([
    [required('reportingInstance'), 'FieldValueRequired', 'reportingInstance: Required value'],
    [required(path('metadata', 'name'), 'name or generateName is required'), 'FieldValueRequired', 'metadata.name: Required value: name or generateName is required'],
    [invalidValue('involvedObject.namespace', '', 'does not match event.namespace'), 'FieldValueInvalid', 'involvedObject.namespace: Invalid value: "": does not match event.namespace'],
    [invalidValue('a', 'tab\there', 'bad'), 'FieldValueInvalid', 'a: Invalid value: "tab\\there": bad'],
    [invalidValue('a', 'ü', ''), 'FieldValueInvalid', 'a: Invalid value: "ü"'],
    [invalidValue('metadata.resourceVersion', 0, 'must be specified for an update'), 'FieldValueInvalid', 'metadata.resourceVersion: Invalid value: 0: must be specified for an update'],
    [invalidValue('a', true, 'd'), 'FieldValueInvalid', 'a: Invalid value: true: d'],
    [invalidValue('a', 1.5, ''), 'FieldValueInvalid', 'a: Invalid value: 1.5'],
    [invalidValue('a', null, ''), 'FieldValueInvalid', 'a: Invalid value: null'],
    [invalidValue('a', { kind: 'Pod', name: '<x>' }, 'd'), 'FieldValueInvalid', 'a: Invalid value: {"kind":"Pod","name":"\\u003cx\\u003e"}: d'],
    [notSupported('dryRun', ['true'], ['All']), 'FieldValueNotSupported', 'dryRun: Unsupported value: ["true"]: supported values: "All"'],
    [
      notSupported('fieldValidation', 'x', ['', 'Ignore', 'Strict', 'Warn']),
      'FieldValueNotSupported',
      'fieldValidation: Unsupported value: "x": supported values: "", "Ignore", "Strict", "Warn"',
    ],
    [notSupported('a', 'x', []), 'FieldValueNotSupported', 'a: Unsupported value: "x"'],
    [forbiddenField('sendInitialEvents', 'sendInitialEvents is forbidden for list'), 'FieldValueForbidden', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
    [tooLong('fieldManager', 128), 'FieldValueTooLong', 'fieldManager: Too long: may not be more than 128 bytes'],
    [tooLong('a', 1), 'FieldValueTooLong', 'a: Too long: may not be more than 1 byte'],
    [tooLong('a', -1), 'FieldValueTooLong', 'a: Too long: value is too long'],
    [tooMany('a', 5, 3), 'FieldValueTooMany', 'a: Too many: 5: must have at most 3 items'],
    [tooMany('a', -1, 1), 'FieldValueTooMany', 'a: Too many: must have at most 1 item'],
    [duplicate('a', 'x'), 'FieldValueDuplicate', 'a: Duplicate value: "x"'],
    [fieldNotFound('a', 'x'), 'FieldValueNotFound', 'a: Not found: "x"'],
    [typeInvalid('a', 'x', 'must be an integer'), 'FieldValueTypeInvalid', 'a: Invalid value: "x": must be an integer'],
    [fieldInternalError('a', new Error('boom')), 'InternalError', 'a: Internal error: boom'],
    [invalidValue(null, 'k', 'm'), 'FieldValueInvalid', '<nil>: Invalid value: "k": m'],
  ])('%j', (err, type, text) => {
    expect(err.type).toBe(type);
    expect(fieldErrorString(err)).toBe(text);
    expect(errorBody(err)).toBe(text.slice(err.field.length + 2));
  });
});

describe('aggregate', () => {
  it.each([
    [['a'], 'a'],
    [['a', 'b'], '[a, b]'],
    [['a', 'b', 'a'], '[a, b]'],
    [['a', 'a'], 'a'],
    [[], ''],
  ])('%j → %s', (msgs, want) => {
    expect(aggregateMessage(msgs)).toBe(want);
  });

  it('renders field errors', () => {
    expect(aggregateFieldErrors([required('x'), required('x'), required('y')])).toBe('[x: Required value, y: Required value]');
  });
});

describe('invalid (422 Status)', () => {
  it('is the §1.3 example byte for byte', () => {
    const err = invalid({ group: '', kind: 'Event' }, 'ev1', [required('reportingInstance'), required('action')]);
    expect(JSON.stringify(err.status)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",' +
        '"message":"Event \\"ev1\\" is invalid: [reportingInstance: Required value, action: Required value]",' +
        '"reason":"Invalid",' +
        '"details":{"name":"ev1","kind":"Event",' +
        '"causes":[{"reason":"FieldValueRequired","message":"Required value","field":"reportingInstance"},' +
        '{"reason":"FieldValueRequired","message":"Required value","field":"action"}]},' +
        '"code":422}',
    );
  });

  it('names options kinds with their group and keeps duplicate causes', () => {
    const e = notSupported('dryRun', ['foo'], ['All']);
    const err = invalid({ group: 'meta.k8s.io', kind: 'CreateOptions' }, '', [e, e]);
    expect(err.message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["foo"]: supported values: "All"');
    expect(err.status.details).toEqual({
      group: 'meta.k8s.io',
      kind: 'CreateOptions',
      causes: [
        { reason: 'FieldValueNotSupported', message: 'Unsupported value: ["foo"]: supported values: "All"', field: 'dryRun' },
        { reason: 'FieldValueNotSupported', message: 'Unsupported value: ["foo"]: supported values: "All"', field: 'dryRun' },
      ],
    });
  });

  it('a single error has no brackets', () => {
    expect(invalid({ group: '', kind: 'Event' }, 'e', [required('action')]).message).toBe('Event "e" is invalid: action: Required value');
  });
});
