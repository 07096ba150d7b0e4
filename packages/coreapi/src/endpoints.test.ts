import { describe, expect, it } from 'vitest';
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { endpointsView, formatEndpoints, type Endpoints } from './endpoints.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);

function ep(body: Record<string, unknown>): Endpoints {
  return endpointsView.decode({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'e', namespace: 'kube-system' }, ...body }).object;
}

describe('Endpoints', () => {
  it('is a leader-election annotation lock without subsets', () => {
    const lock = ep({ metadata: { name: 'kube-scheduler', namespace: 'kube-system', annotations: { 'control-plane.alpha.kubernetes.io/leader': '{"holderIdentity":"a"}' } } });
    expect(strings(endpointsView.validateCreate(lock))).toEqual([]);
    expect(endpointsView.encode(lock)).toEqual({
      kind: 'Endpoints',
      apiVersion: 'v1',
      metadata: { name: 'kube-scheduler', namespace: 'kube-system', creationTimestamp: null, annotations: { 'control-plane.alpha.kubernetes.io/leader': '{"holderIdentity":"a"}' } },
    });
  });

  it('defaults port protocols to TCP', () => {
    expect(ep({ subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] }).subsets?.[0]?.ports).toEqual([{ port: 80, protocol: 'TCP' }]);
  });

  it.each<[string, unknown[], string[]]>([
    ['a valid subset', [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }], []],
    ['a subset without addresses', [{ ports: [{ port: 80 }] }], ['subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`']],
    [
      'a loopback address and an unnamed second port',
      [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'a', port: 80 }, { port: 0 }] }],
      [
        'subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
        'subsets[0].ports[1].name: Required value',
        'subsets[0].ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'a malformed address',
      [{ addresses: [{ ip: 'nope' }] }],
      [
        'subsets[0].addresses[0].ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        'subsets[0].addresses[0].ip: Invalid value: "nope": must be a valid IP address',
      ],
    ],
  ])('%s', (_name, subsets, errors) => {
    expect(strings(endpointsView.validateCreate(ep({ subsets })))).toEqual(errors);
  });

  it.each<[string, unknown[] | undefined, string]>([
    ['no subsets', undefined, '<none>'],
    ['one address and port', [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }], '10.0.0.1:80'],
    ['an IPv6 address', [{ addresses: [{ ip: 'fd00::1' }], ports: [{ port: 443 }] }], '[fd00::1]:443'],
    ['no ports', [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] }], '10.0.0.1,10.0.0.2'],
    [
      'more than three',
      [{ addresses: [1, 2, 3, 4, 5].map((i) => ({ ip: `10.0.0.${i}` })), ports: [{ port: 80 }] }],
      '10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 2 more...',
    ],
  ])('Endpoints column: %s', (_name, subsets, cell) => {
    expect(formatEndpoints(ep(subsets ? { subsets } : {}))).toBe(cell);
  });
});
