import { describe, expect, it } from 'vitest';
import type { PodView } from './check.js';
import {
  allowPrivilegeEscalation,
  capabilitiesRestricted,
  restrictedVolumes,
  runAsNonRoot,
  runAsUser,
  seccompProfileRestricted,
} from './restricted.js';

const pod = (spec: Record<string, unknown>): PodView => ({ spec, annotations: {} });
const c = (name: string, securityContext?: Record<string, unknown>) => ({
  name,
  image: 'i',
  securityContext,
});

describe('restricted checks', () => {
  it('volumes: only the core ephemeral and claim-backed types', () => {
    const ok = [
      'configMap',
      'secret',
      'emptyDir',
      'projected',
      'downwardAPI',
      'persistentVolumeClaim',
      'csi',
      'ephemeral',
    ];
    expect(restrictedVolumes(pod({ volumes: ok.map((t, i) => ({ name: `v${i}`, [t]: {} })) })).allowed).toBe(
      true,
    );
    expect(
      restrictedVolumes(
        pod({
          volumes: [{ name: 'host', hostPath: { path: '/' } }, { name: 'n', nfs: {} }, { name: 'odd' }],
        }),
      ),
    ).toEqual({
      allowed: false,
      reason: 'restricted volume types',
      detail: 'volumes "host", "n", "odd" use restricted volume types "hostPath", "nfs", "unknown"',
    });
    expect(restrictedVolumes(pod({ volumes: [{ name: 'host', hostPath: {} }] })).detail).toBe(
      'volume "host" uses restricted volume type "hostPath"',
    );
  });

  it('allowPrivilegeEscalation must be false on every container, Windows pods aside', () => {
    expect(
      allowPrivilegeEscalation(pod({ containers: [c('a', { allowPrivilegeEscalation: false })] })).allowed,
    ).toBe(true);
    expect(
      allowPrivilegeEscalation(pod({ containers: [c('a'), c('b', { allowPrivilegeEscalation: true })] })),
    ).toEqual({
      allowed: false,
      reason: 'allowPrivilegeEscalation != false',
      detail: 'containers "a", "b" must set securityContext.allowPrivilegeEscalation=false',
    });
    expect(allowPrivilegeEscalation(pod({ os: { name: 'windows' }, containers: [c('a')] })).allowed).toBe(
      true,
    );
  });

  it('runAsNonRoot: pod-level true covers containers; false anywhere is refused', () => {
    expect(runAsNonRoot(pod({ securityContext: { runAsNonRoot: true }, containers: [c('a')] })).allowed).toBe(
      true,
    );
    expect(runAsNonRoot(pod({ containers: [c('a', { runAsNonRoot: true }), c('b')] })).detail).toBe(
      'pod or container "b" must set securityContext.runAsNonRoot=true',
    );
    expect(
      runAsNonRoot(
        pod({ securityContext: { runAsNonRoot: false }, containers: [c('a', { runAsNonRoot: false })] }),
      ).detail,
    ).toBe('pod and container "a" must not set securityContext.runAsNonRoot=false');
  });

  it('runAsUser: 0 is refused on the pod and on containers', () => {
    expect(runAsUser(pod({ securityContext: { runAsUser: 1000 }, containers: [c('a')] })).allowed).toBe(true);
    expect(
      runAsUser(pod({ securityContext: { runAsUser: 0 }, containers: [c('a', { runAsUser: 0 })] })),
    ).toEqual({
      allowed: false,
      reason: 'runAsUser=0',
      detail: 'pod and container "a" must not set runAsUser=0',
    });
  });

  it('seccompProfile: required on the pod or every container', () => {
    expect(
      seccompProfileRestricted(
        pod({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [c('a')] }),
      ).allowed,
    ).toBe(true);
    expect(
      seccompProfileRestricted(
        pod({ containers: [c('a', { seccompProfile: { type: 'Localhost' } }), c('b')] }),
      ).detail,
    ).toBe(
      'pod or container "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"',
    );
    expect(
      seccompProfileRestricted(
        pod({
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          containers: [c('a', { seccompProfile: { type: 'Unconfined' } })],
        }),
      ).detail,
    ).toBe('container "a" must not set securityContext.seccompProfile.type to "Unconfined"');
  });

  it('capabilities: drop ALL, add at most NET_BIND_SERVICE', () => {
    expect(
      capabilitiesRestricted(
        pod({ containers: [c('a', { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } })] }),
      ).allowed,
    ).toBe(true);
    expect(
      capabilitiesRestricted(
        pod({
          containers: [c('a'), c('b', { capabilities: { drop: ['ALL'], add: ['SYS_ADMIN', 'CHOWN'] } })],
        }),
      ),
    ).toEqual({
      allowed: false,
      reason: 'unrestricted capabilities',
      detail:
        'container "a" must set securityContext.capabilities.drop=["ALL"]; container "b" must not include "CHOWN", "SYS_ADMIN" in securityContext.capabilities.add',
    });
  });
});
