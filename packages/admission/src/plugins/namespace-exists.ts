import type { AdmissionPlugin } from '../plugin.js';
import {
  findNamespace,
  isNamespaceKind,
  namespaceNotFound,
  type NamespaceSource,
} from './namespace-lookup.js';

/**
 * NamespaceExists: every write of a namespaced object (create, update, delete) needs its namespace
 * to exist, else the real server's 404 for the namespace. Validating: it judges the final request.
 */
export function namespaceExists(source: NamespaceSource): AdmissionPlugin {
  return {
    name: 'NamespaceExists',
    handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    async validate(attrs) {
      if (attrs.namespace === '' || isNamespaceKind(attrs)) return;
      if (!(await findNamespace(source, attrs.namespace))) throw namespaceNotFound(attrs.namespace);
    },
  };
}
