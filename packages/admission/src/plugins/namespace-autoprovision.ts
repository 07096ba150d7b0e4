import { isAlreadyExists } from '@keel/apimachinery';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import { isNamespaceKind, type NamespaceSource } from './namespace-lookup.js';

/**
 * NamespaceAutoProvision: a create into a namespace that does not exist creates the namespace
 * first (as an Active namespace with the server's defaults). Another writer creating it at the
 * same moment is no failure; any other failure refuses the create with a 403 naming it.
 * A dry run creates nothing.
 */
export function namespaceAutoProvision(
  source: NamespaceSource,
  createNamespace: (name: string) => Promise<void>,
): AdmissionPlugin {
  return {
    name: 'NamespaceAutoProvision',
    handles: (op) => op === 'CREATE',
    async admit(attrs) {
      if (attrs.dryRun || attrs.namespace === '' || isNamespaceKind(attrs)) return;
      if (source.copy.get('', attrs.namespace)) return;
      try {
        await createNamespace(attrs.namespace);
      } catch (err) {
        if (isAlreadyExists(err)) return;
        throw admissionForbidden(attrs, err instanceof Error ? err.message : String(err));
      }
    },
  };
}
