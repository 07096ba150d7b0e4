import { forbidden, namespaceTerminating } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import type { AdmissionAttributes } from '../attributes.js';
import { admissionName } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import { isNamespaceKind, namespaceNotFound, type NamespaceSource } from './namespace-lookup.js';

/**
 * The namespaces that can never be deleted: kube's default, kube-system and kube-public, which
 * Keel names default, platform-system and platform-public; kube-system too, which Keel also
 * creates for unmodified reference components.
 */
export const IMMORTAL_NAMESPACES: readonly string[] = [
  'default',
  'platform-system',
  'platform-public',
  'kube-system',
];

/** How long a deleted namespace is read from the store instead of the copy (kube's forceLiveLookupTTL). */
const LIVE_LOOKUP_MS = 30_000;
/** How many recently deleted namespaces are remembered (kube's LRU size). */
const LIVE_LOOKUP_ENTRIES = 100;

/** Access reviews answer for any namespace: refusing them would tell which namespaces exist. */
const ACCESS_REVIEWS = new Set(['authorization.k8s.io/localsubjectaccessreviews']);

interface NamespaceStatusLike {
  status?: { phase?: string };
}

function terminating(ns: StoredObject): boolean {
  return (ns as NamespaceStatusLike).status?.phase === 'Terminating';
}

function active(ns: StoredObject): boolean {
  return (ns as NamespaceStatusLike).status?.phase === 'Active';
}

/**
 * Namespaces deleted a moment ago, whose Terminating phase the copy may not show yet: writes
 * into them are decided on the store's state for a while. Oldest entries go first when full.
 */
class RecentlyDeleted {
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  add(name: string): void {
    this.until.delete(name);
    this.until.set(name, this.now() + LIVE_LOOKUP_MS);
    if (this.until.size > LIVE_LOOKUP_ENTRIES) {
      const oldest = this.until.keys().next().value;
      if (oldest !== undefined) this.until.delete(oldest);
    }
  }

  has(name: string): boolean {
    const until = this.until.get(name);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(name);
    return false;
  }
}

/**
 * NamespaceLifecycle: no new objects in a namespace that does not exist (404) or is being
 * deleted (403 with a NamespaceTerminating cause), and the system namespaces are never deleted.
 * Updates and deletes of objects pass: a terminating namespace's contents must be removable.
 */
export function namespaceLifecycle(source: NamespaceSource, now: () => number = Date.now): AdmissionPlugin {
  const recentlyDeleted = new RecentlyDeleted(now);
  return {
    name: 'NamespaceLifecycle',
    handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    async admit(attrs: AdmissionAttributes) {
      const namespaceKind = isNamespaceKind(attrs);
      if (attrs.operation === 'DELETE' && namespaceKind && IMMORTAL_NAMESPACES.includes(attrs.name)) {
        throw forbidden(
          { group: attrs.resource.group, resource: attrs.resource.resource },
          attrs.name,
          'this namespace may not be deleted',
        );
      }
      if (namespaceKind) {
        // Creates into it must now be refused even while the copy still shows it Active.
        if (attrs.operation === 'DELETE') recentlyDeleted.add(attrs.name);
        return;
      }
      if (attrs.namespace === '' || attrs.operation === 'DELETE') return;
      if (ACCESS_REVIEWS.has(`${attrs.resource.group}/${attrs.resource.resource}`)) return;

      let namespace = source.copy.get('', attrs.namespace);
      const stale = namespace !== undefined && active(namespace) && recentlyDeleted.has(attrs.namespace);
      if (namespace === undefined || stale) {
        namespace = await source.live(attrs.namespace);
        if (namespace === undefined) throw namespaceNotFound(attrs.namespace);
      }
      if (attrs.operation === 'CREATE' && (terminating(namespace) || namespace.metadata?.deletionTimestamp)) {
        throw namespaceTerminating(
          { group: attrs.resource.group, resource: attrs.resource.resource },
          admissionName(attrs),
          attrs.namespace,
        );
      }
    },
  };
}
