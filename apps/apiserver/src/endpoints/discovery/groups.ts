/**
 * What discovery knows about the served API: groups, their versions (the first one preferred)
 * and each version's resources, built once from the resource views.
 */

export interface DiscoverySubresource {
  /** The part after the slash: `status`, `binding`. */
  readonly name: string;
  readonly kind: string;
  readonly verbs: readonly string[];
  /** Set only when the subresource's kind lives in another group/version (`scale` → autoscaling/v1). */
  readonly group?: string;
  readonly version?: string;
}

export interface DiscoveryResource {
  readonly name: string;
  readonly singularName: string;
  readonly namespaced: boolean;
  readonly kind: string;
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly storageVersionHash?: string;
  readonly subresources?: readonly DiscoverySubresource[];
}

export interface DiscoveryVersion {
  readonly version: string;
  readonly resources: readonly DiscoveryResource[];
}

/** One API group; `group: ''` is the core group served under /api. */
export interface DiscoveryGroup {
  readonly group: string;
  /** In order of preference: the first is the preferred version. */
  readonly versions: readonly DiscoveryVersion[];
}

/** What discovery reads from a resource view (the Event views carry all of it). */
export interface DiscoveryView {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly storageVersionHash?: string;
  readonly subresources?: readonly DiscoverySubresource[];
}

/** What the server's configuration changes in discovery. */
export interface DiscoveryFeatures {
  /** The StorageVersionHash feature gate; without it no resource carries a hash, as in the real server. */
  readonly storageVersionHash?: boolean;
}

function toResource(v: DiscoveryView, features: DiscoveryFeatures): DiscoveryResource {
  return {
    name: v.resource,
    singularName: v.singular,
    namespaced: v.namespaced,
    kind: v.kind,
    verbs: [...v.verbs].sort(),
    ...(v.shortNames?.length ? { shortNames: [...v.shortNames] } : {}),
    ...(v.categories?.length ? { categories: [...v.categories] } : {}),
    ...(v.storageVersionHash && features.storageVersionHash !== false
      ? { storageVersionHash: v.storageVersionHash }
      : {}),
    ...(v.subresources?.length ? { subresources: [...v.subresources] } : {}),
  };
}

/**
 * Groups views by group and version, keeping the order in which groups and versions first
 * appear (that order is the preference order); resources are sorted by name, as the real
 * server's installer sorts them.
 */
export function fromViews(
  views: readonly DiscoveryView[],
  features: DiscoveryFeatures = {},
): DiscoveryGroup[] {
  const groups = new Map<string, Map<string, DiscoveryResource[]>>();
  for (const view of views) {
    let versions = groups.get(view.group);
    if (!versions) groups.set(view.group, (versions = new Map<string, DiscoveryResource[]>()));
    let resources = versions.get(view.version);
    if (!resources) versions.set(view.version, (resources = []));
    if (resources.some((r) => r.name === view.resource)) {
      throw new Error(`discovery: ${view.resource} served twice in ${view.group}/${view.version}`);
    }
    resources.push(toResource(view, features));
  }
  return [...groups].map(([group, versions]) => ({
    group,
    versions: [...versions].map(([version, resources]) => ({
      version,
      resources: resources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    })),
  }));
}

export function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}
