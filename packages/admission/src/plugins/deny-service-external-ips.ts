/**
 * DenyServiceExternalIPs (kube's plugin/pkg/admission/network/denyserviceexternalips): a Service
 * may not gain external IPs; an update that keeps or drops the ones it had passes, so existing
 * Services can still be changed and cleaned up.
 */
import { forbidden } from '@keel/apimachinery';
import type { Service } from '@keel/coreapi';
import type { AdmissionPlugin } from '../plugin.js';

const SERVICES = { group: '', resource: 'services' };

function addsExternalIPs(svc: Service, old: Service | undefined): boolean {
  const ips = svc.spec?.externalIPs ?? [];
  if (ips.length === 0) return false;
  if (!old) return true;
  const had = new Set(old.spec?.externalIPs ?? []);
  return ips.some((ip) => !had.has(ip));
}

export const denyServiceExternalIPs: AdmissionPlugin = {
  name: 'DenyServiceExternalIPs',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  validate(attrs) {
    if (attrs.resource.group !== '' || attrs.resource.resource !== 'services' || attrs.subresource !== '')
      return;
    const svc: Service | undefined = attrs.object;
    if (!svc) return;
    const old: Service | undefined = attrs.oldObject;
    if (addsExternalIPs(svc, old)) {
      throw forbidden(SERVICES, attrs.name, 'Use of external IPs is denied by admission control');
    }
  },
};
