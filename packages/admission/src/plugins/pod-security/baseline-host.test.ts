import { describe, expect, it } from 'vitest';
import { hostNamespaces, hostPathVolumes, hostPorts, hostProcess, privileged } from './baseline-host.js';
import type { PodView } from './check.js';

const pod = (spec: Record<string, unknown>, annotations: Record<string, string> = {}): PodView => ({
  spec,
  annotations,
});
const c = (name: string, more: Record<string, unknown> = {}) => ({ name, image: 'i', ...more });

describe('baseline host checks', () => {
  it('hostProcess: pod and containers that set windowsOptions.hostProcess=true', () => {
    expect(hostProcess(pod({ containers: [c('a')] })).allowed).toBe(true);
    const hp = { securityContext: { windowsOptions: { hostProcess: true } } };
    expect(hostProcess(pod({ ...hp, containers: [c('a', hp), c('b', hp)] }))).toEqual({
      allowed: false,
      reason: 'hostProcess',
      detail: 'pod and containers "a", "b" must not set securityContext.windowsOptions.hostProcess=true',
    });
  });

  it('hostNamespaces: hostNetwork, hostPID and hostIPC in that order', () => {
    expect(hostNamespaces(pod({ hostNetwork: false })).allowed).toBe(true);
    expect(hostNamespaces(pod({ hostIPC: true, hostNetwork: true, hostPID: true }))).toEqual({
      allowed: false,
      reason: 'host namespaces',
      detail: 'hostNetwork=true, hostPID=true, hostIPC=true',
    });
  });

  it('privileged: init, regular and ephemeral containers', () => {
    const priv = { securityContext: { privileged: true } };
    expect(
      privileged(pod({ containers: [c('a', { securityContext: { privileged: false } })] })).allowed,
    ).toBe(true);
    const r = privileged(
      pod({
        initContainers: [c('init', priv)],
        containers: [c('a', priv)],
        ephemeralContainers: [c('dbg', priv)],
      }),
    );
    expect(r.detail).toBe('containers "init", "a", "dbg" must not set securityContext.privileged=true');
    expect(privileged(pod({ containers: [c('a', priv)] })).detail).toBe(
      'container "a" must not set securityContext.privileged=true',
    );
  });

  it('hostPorts: names the containers and the ports, sorted as strings', () => {
    expect(
      hostPorts(pod({ containers: [c('a', { ports: [{ containerPort: 80, hostPort: 0 }] })] })).allowed,
    ).toBe(true);
    expect(
      hostPorts(
        pod({
          containers: [
            c('a', { ports: [{ containerPort: 80, hostPort: 9100 }] }),
            c('b', { ports: [{ containerPort: 81, hostPort: 10250 }] }),
          ],
        }),
      ),
    ).toEqual({
      allowed: false,
      reason: 'hostPort',
      detail: 'containers "a", "b" use hostPorts 10250, 9100',
    });
    expect(hostPorts(pod({ containers: [c('a', { ports: [{ hostPort: 80 }] })] })).detail).toBe(
      'container "a" uses hostPort 80',
    );
  });

  it('hostPathVolumes: names the volumes', () => {
    expect(hostPathVolumes(pod({ volumes: [{ name: 'e', emptyDir: {} }] })).allowed).toBe(true);
    expect(
      hostPathVolumes(
        pod({
          volumes: [
            { name: 'proc', hostPath: { path: '/proc' } },
            { name: 'sys', hostPath: {} },
          ],
        }),
      ),
    ).toEqual({ allowed: false, reason: 'hostPath volumes', detail: 'volumes "proc", "sys"' });
  });
});
