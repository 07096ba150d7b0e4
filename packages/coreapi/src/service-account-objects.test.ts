import { describe, expect, it } from 'vitest';
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { convertSecretFieldLabel, secretView, type Secret } from './secret.js';
import { serviceAccountView } from './serviceaccount.js';
import { decodeTokenRequest, tokenRequestResponse, validateTokenRequest } from './token-request.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);

function secret(body: Record<string, unknown>): Secret {
  return secretView.decode({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's', namespace: 'ns' },
    ...body,
  }).object;
}

describe('Secret', () => {
  it('encodes data with sorted keys, the type last, and never stringData', () => {
    const s = secret({
      type: 'kubernetes.io/tls',
      stringData: { 'tls.key': 'k' },
      data: { 'tls.crt': 'Yw==' },
    });
    expect(JSON.stringify(secretView.encode(s))).toBe(
      '{"kind":"Secret","apiVersion":"v1","metadata":{"name":"s","namespace":"ns","creationTimestamp":null},"data":{"tls.crt":"Yw==","tls.key":"aw=="},"type":"kubernetes.io/tls"}',
    );
  });

  it('counts the decoded bytes towards the 1 MiB limit', () => {
    const exactly = secret({ data: { a: Buffer.alloc(1024 * 1024).toString('base64') } });
    expect(strings(secretView.validateCreate(exactly))).toEqual([]);
    const over = secret({ data: { a: Buffer.alloc(1024 * 1024 + 1).toString('base64') } });
    expect(strings(secretView.validateCreate(over))).toEqual([
      'data: Too long: may not be more than 1048576 bytes',
    ]);
  });

  it('takes type, metadata.name and metadata.namespace as field labels', () => {
    expect(convertSecretFieldLabel('type', 'Opaque')).toEqual({ field: 'type', value: 'Opaque' });
    expect(() => convertSecretFieldLabel('data.a', 'x')).toThrow('field label not supported: data.a');
    expect(secretView.fields(secret({}))).toEqual({
      'metadata.name': 's',
      'metadata.namespace': 'ns',
      type: 'Opaque',
    });
  });
});

describe('ServiceAccount', () => {
  it('keeps only the names of the listed secrets', () => {
    const sa = serviceAccountView.decode({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'a', namespace: 'ns' },
      secrets: [{ name: 'x', uid: 'u', kind: 'Secret' }],
      automountServiceAccountToken: false,
    }).object;
    serviceAccountView.prepareForCreate(sa);
    expect(serviceAccountView.encode(sa)).toEqual({
      kind: 'ServiceAccount',
      apiVersion: 'v1',
      metadata: { name: 'a', namespace: 'ns', creationTimestamp: null },
      secrets: [{ name: 'x' }],
      automountServiceAccountToken: false,
    });
  });
});

describe('TokenRequest', () => {
  it('defaults the lifetime to an hour and writes boundObjectRef as null', () => {
    const req = decodeTokenRequest({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      status: { token: 'x' },
    }).object;
    expect(req.spec.expirationSeconds).toBe(3600);
    expect(tokenRequestResponse(req)).toEqual({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { audiences: null, expirationSeconds: 3600, boundObjectRef: null },
      status: { token: '', expirationTimestamp: null },
    });
  });

  it.each([
    [599, 'may not specify a duration less than 10 minutes'],
    [2 ** 32 + 1, 'may not specify a duration larger than 2^32 seconds'],
  ])('refuses %d seconds', (seconds, detail) => {
    const req = decodeTokenRequest({ spec: { expirationSeconds: seconds } }).object;
    expect(() => validateTokenRequest(req)).toThrow(
      `TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: ${seconds}: ${detail}`,
    );
  });
});
