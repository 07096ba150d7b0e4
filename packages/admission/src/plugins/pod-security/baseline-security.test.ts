import { describe, expect, it } from 'vitest';
import {
  appArmorProfile,
  capabilitiesBaseline,
  procMount,
  seccompProfileBaseline,
  seLinuxOptions,
  sysctls,
} from './baseline-security.js';
import type { PodView } from './check.js';

const pod = (spec: Record<string, unknown>, annotations: Record<string, string> = {}): PodView => ({
  spec,
  annotations,
});
const c = (name: string, securityContext?: Record<string, unknown>) => ({
  name,
  image: 'i',
  securityContext,
});

describe('baseline security-setting checks', () => {
  it('capabilities: only the default set may be added', () => {
    expect(
      capabilitiesBaseline(pod({ containers: [c('a', { capabilities: { add: ['CHOWN', 'KILL'] } })] }))
        .allowed,
    ).toBe(true);
    expect(
      capabilitiesBaseline(
        pod({ containers: [c('flannel', { capabilities: { add: ['NET_RAW', 'NET_ADMIN', 'CHOWN'] } })] }),
      ),
    ).toEqual({
      allowed: false,
      reason: 'non-default capabilities',
      detail:
        'container "flannel" must not include "NET_ADMIN", "NET_RAW" in securityContext.capabilities.add',
    });
  });

  it('appArmor: Unconfined profiles and unknown annotation values', () => {
    expect(
      appArmorProfile(
        pod(
          { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [c('a')] },
          { 'container.apparmor.security.beta.kubernetes.io/a': 'localhost/x' },
        ),
      ).allowed,
    ).toBe(true);
    expect(appArmorProfile(pod({ securityContext: { appArmorProfile: { type: 'Unconfined' } } }))).toEqual({
      allowed: false,
      reason: 'forbidden AppArmor profile',
      detail: 'pod must not set AppArmor profile type to "Unconfined"',
    });
    expect(
      appArmorProfile(pod({ containers: [c('foo', { appArmorProfile: { type: 'Unconfined' } })] })).detail,
    ).toBe('container "foo" must not set AppArmor profile type to "Unconfined"');
    const r = appArmorProfile(
      pod(
        {},
        {
          'container.apparmor.security.beta.kubernetes.io/e': 'unconfined',
          'container.apparmor.security.beta.kubernetes.io/f': 'unknown',
          'container.apparmor.security.beta.kubernetes.io/b': 'runtime/default',
        },
      ),
    );
    expect(r.reason).toBe('forbidden AppArmor profiles');
    expect(r.detail).toBe(
      'annotations must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/e="unconfined"", "container.apparmor.security.beta.kubernetes.io/f="unknown""',
    );
  });

  it('seLinuxOptions: types outside the allowed set, user and role', () => {
    expect(
      seLinuxOptions(pod({ securityContext: { seLinuxOptions: { type: 'container_t', level: 's0' } } }))
        .allowed,
    ).toBe(true);
    expect(
      seLinuxOptions(
        pod({
          securityContext: { seLinuxOptions: { type: 'spc_t', user: 'u' } },
          containers: [c('a', { seLinuxOptions: { type: 'bad_t', role: 'r' } })],
        }),
      ),
    ).toEqual({
      allowed: false,
      reason: 'seLinuxOptions',
      detail:
        'pod and container "a" set forbidden securityContext.seLinuxOptions: types "bad_t", "spc_t"; user may not be set; role may not be set',
    });
  });

  it('procMount: only Default', () => {
    expect(procMount(pod({ containers: [c('a', { procMount: 'Default' })] })).allowed).toBe(true);
    expect(procMount(pod({ containers: [c('a', { procMount: 'Unmasked' })] })).detail).toBe(
      'container "a" must not set securityContext.procMount to "Unmasked"',
    );
  });

  it('seccompProfile: an explicit Unconfined is refused, unset is fine at baseline', () => {
    expect(seccompProfileBaseline(pod({ containers: [c('a')] })).allowed).toBe(true);
    expect(
      seccompProfileBaseline(
        pod({
          securityContext: { seccompProfile: { type: 'Unconfined' } },
          containers: [c('a', { seccompProfile: { type: 'Unconfined' } })],
        }),
      ),
    ).toEqual({
      allowed: false,
      reason: 'seccompProfile',
      detail: 'pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined"',
    });
  });

  it('sysctls: only the safe set', () => {
    expect(
      sysctls(pod({ securityContext: { sysctls: [{ name: 'net.ipv4.tcp_syncookies', value: '1' }] } }))
        .allowed,
    ).toBe(true);
    expect(
      sysctls(
        pod({
          securityContext: {
            sysctls: [
              { name: 'kernel.msgmax', value: '1' },
              { name: 'vm.swappiness', value: '1' },
            ],
          },
        }),
      ),
    ).toEqual({ allowed: false, reason: 'forbidden sysctls', detail: 'kernel.msgmax, vm.swappiness' });
  });
});
