import { describe, expect, it } from 'vitest';
import {
  microTimeString,
  recordFromAnnotation,
  recordFromLeaseSpec,
  recordToAnnotation,
  recordToLeaseSpec,
} from './record.js';

describe('record conversions', () => {
  it('formats epoch milliseconds as 6-digit MicroTime', () => {
    expect(microTimeString(Date.UTC(2024, 0, 2, 3, 4, 5, 60))).toBe('2024-01-02T03:04:05.060000Z');
  });

  it.each<[string, unknown, object]>([
    [
      'absent spec',
      undefined,
      { holderIdentity: '', leaseDurationSeconds: 0, acquireTime: '', renewTime: '', leaderTransitions: 0 },
    ],
    [
      'full spec, times normalised',
      {
        holderIdentity: 'a',
        leaseDurationSeconds: 15,
        acquireTime: '2024-01-02T04:04:05.5+01:00',
        renewTime: '2024-01-02T03:04:06.123456Z',
        leaseTransitions: 2,
        strategy: 'OldestEmulationVersion',
      },
      {
        holderIdentity: 'a',
        leaseDurationSeconds: 15,
        acquireTime: '2024-01-02T03:04:05.500000Z',
        renewTime: '2024-01-02T03:04:06.123456Z',
        leaderTransitions: 2,
      },
    ],
  ])('reads a Lease spec: %s', (_name, spec, expected) => {
    expect(recordFromLeaseSpec(spec)).toEqual(expected);
  });

  it.each<[unknown, string]>([
    [{ holderIdentity: 3 }, 'spec.holderIdentity must be a string'],
    [{ leaseDurationSeconds: 1.5 }, 'spec.leaseDurationSeconds must be an integer'],
    [{ renewTime: 'yesterday' }, 'cannot parse'],
  ])('rejects a malformed Lease spec %j', (spec, message) => {
    expect(() => recordFromLeaseSpec(spec)).toThrow(message);
  });

  it('writes a Lease spec, leaving unset times out', () => {
    const r = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: '',
      renewTime: '2024-01-02T03:04:06.000000Z',
      leaderTransitions: 4,
    };
    expect(recordToLeaseSpec(r)).toEqual({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      renewTime: '2024-01-02T03:04:06.000000Z',
      leaseTransitions: 4,
    });
  });

  it('writes the annotation as Go does (field order, metav1.Time seconds, null for unset) and reads it back', () => {
    const text = recordToAnnotation({
      holderIdentity: 'h_1',
      leaseDurationSeconds: 15,
      acquireTime: '',
      renewTime: '2024-01-02T03:04:06.999999Z',
      leaderTransitions: 1,
    });
    expect(text).toBe(
      '{"holderIdentity":"h_1","leaseDurationSeconds":15,"acquireTime":null,"renewTime":"2024-01-02T03:04:06Z","leaderTransitions":1}',
    );
    expect(recordFromAnnotation(text)).toEqual({
      holderIdentity: 'h_1',
      leaseDurationSeconds: 15,
      acquireTime: '',
      renewTime: '2024-01-02T03:04:06.000000Z',
      leaderTransitions: 1,
    });
    expect(() => recordFromAnnotation('{')).toThrow(SyntaxError);
  });
});
