import { describe, expect, it } from 'vitest';
import { HostPortInfo, podHostPorts, type HostPort } from './host-ports.js';
import { makePod } from './testing/fixtures.js';

const hp = (ip: string, port: number, protocol = 'TCP'): HostPort => ({ ip, protocol, port });

describe('podHostPorts', () => {
  it('keeps only host ports, with default IP and protocol', () => {
    const pod = makePod('p', {
      hostPorts: [
        { containerPort: 80 },
        { containerPort: 80, hostPort: 8080 },
        { hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' },
        { hostPort: 0 },
      ],
    });
    expect(podHostPorts(pod)).toEqual([hp('0.0.0.0', 8080), hp('10.0.0.1', 53, 'UDP')]);
  });
});

describe('HostPortInfo.conflicts', () => {
  const used = new HostPortInfo();
  used.add(hp('127.0.0.1', 8080));
  used.add(hp('0.0.0.0', 9090, 'UDP'));

  it.each([
    ['same ip, port and protocol', hp('127.0.0.1', 8080), true],
    ['0.0.0.0 against a specific ip', hp('0.0.0.0', 8080), true],
    ['another ip', hp('127.0.0.2', 8080), false],
    ['another protocol', hp('127.0.0.1', 8080, 'UDP'), false],
    ['a specific ip against 0.0.0.0', hp('10.1.1.1', 9090, 'UDP'), true],
    ['0.0.0.0 against 0.0.0.0', hp('0.0.0.0', 9090, 'UDP'), true],
    ['another port', hp('0.0.0.0', 9091, 'UDP'), false],
  ])('%s → %s', (_name, p, want) => {
    expect(used.conflicts(p)).toBe(want);
  });

  it('frees a port only when its last user leaves', () => {
    const h = new HostPortInfo();
    h.add(hp('0.0.0.0', 80));
    h.add(hp('0.0.0.0', 80));
    h.remove(hp('0.0.0.0', 80));
    expect(h.conflicts(hp('0.0.0.0', 80))).toBe(true);
    h.remove(hp('0.0.0.0', 80));
    expect(h.conflicts(hp('0.0.0.0', 80))).toBe(false);
    expect(h.size).toBe(0);
    h.remove(hp('0.0.0.0', 80));
    expect(h.size).toBe(0);
  });
});
