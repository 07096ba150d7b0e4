import { describe, expect, it } from 'vitest';
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { leaseView, type Lease } from './lease.js';
import { missingResourceVersion } from './scheme.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);

function lease(spec: Record<string, unknown>): Lease {
  const l = leaseView.decode({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'kube-scheduler', namespace: 'kube-system' }, spec }).object;
  leaseView.prepareForCreate(l);
  return l;
}

describe('Lease', () => {
  it.each<[string, string, string]>([
    ['three digits (client-node)', '2024-05-01T10:00:00.123Z', '2024-05-01T10:00:00.123000Z'],
    ['no fraction (Python)', '2024-05-01T10:00:00Z', '2024-05-01T10:00:00.000000Z'],
    ['nine digits, another offset', '2024-05-01T12:00:00.123456789+02:00', '2024-05-01T10:00:00.123456Z'],
  ])('accepts a MicroTime with %s and writes six digits', (_name, input, out) => {
    const encoded = leaseView.encode(lease({ holderIdentity: 'a', acquireTime: input, renewTime: input }));
    expect(encoded['spec']).toEqual({ holderIdentity: 'a', acquireTime: out, renewTime: out });
  });

  it('keeps an empty holder (a released lease) and drops the disabled coordinated fields', () => {
    const l = lease({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 0, strategy: 'OldestEmulationVersion', preferredHolder: 'x' });
    expect(leaseView.encode(l)['spec']).toEqual({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 0 });
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['a valid lease', { holderIdentity: 'h', leaseDurationSeconds: 15, leaseTransitions: 2 }, []],
    ['a zero duration', { leaseDurationSeconds: 0 }, ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0']],
    ['negative transitions', { leaseTransitions: -1 }, ['spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0']],
  ])('%s', (_name, spec, errors) => {
    expect(strings(leaseView.validateCreate(lease(spec)))).toEqual(errors);
  });

  it('does not allow unconditional updates; the 422 names the qualified resource', () => {
    expect(leaseView.allowUnconditionalUpdate).toBe(false);
    const err = missingResourceVersion(leaseView, 'x');
    expect(err.code).toBe(422);
    expect(err.message).toBe('leases.coordination.k8s.io "x" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
    expect(err.status.details).toEqual({
      name: 'x',
      group: 'coordination.k8s.io',
      kind: 'leases',
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be specified for an update', field: 'metadata.resourceVersion' }],
    });
  });

  it.each<[string, string]>([
    ['spec.holderIdentity', '"spec.holderIdentity" is not a known field selector: only "metadata.name", "metadata.namespace"'],
    ['spec.x', '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"'],
  ])('refuses the field label %s', (label, message) => {
    expect(() => leaseView.convertFieldLabel(label, 'v')).toThrow(message);
  });

  it.each<[string, unknown, string]>([
    ['the wrong version', { apiVersion: 'coordination.k8s.io/v1beta1', kind: 'Lease' }, 'the API version in the data (coordination.k8s.io/v1beta1) does not match the expected API version (coordination.k8s.io/v1)'],
    ['a bad time', { spec: { renewTime: 'yesterday' } }, 'Lease in version "v1" cannot be handled as a Lease: parsing time "yesterday"'],
  ])('refuses %s with a 400', (_name, body, message) => {
    expect(() => leaseView.decode(body)).toThrow(message);
  });

  it('prints Name, Holder and Age', () => {
    const l = lease({ holderIdentity: 'host_1' });
    l.metadata.creationTimestamp = '2024-05-01T10:00:00Z';
    expect(leaseView.tableRow(l, new Date('2024-05-03T10:00:00Z'))).toEqual(['kube-scheduler', 'host_1', '2d']);
  });
});
