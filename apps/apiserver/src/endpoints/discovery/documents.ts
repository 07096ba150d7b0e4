/**
 * The discovery bodies, field for field as Go encodes them (api-semantics §10.2, §10.3). The
 * root documents (/api, and /api/v1 for the core group) carry no apiVersion: the real server
 * strips it there for compatibility with release 1.1.
 */
import {
  groupVersionString,
  type DiscoveryGroup,
  type DiscoveryResource,
  type DiscoveryVersion,
} from './groups.js';

export interface ServerAddress {
  readonly clientCIDR: string;
  readonly serverAddress: string;
}

function groupVersionForDiscovery(group: string, version: string) {
  return { groupVersion: groupVersionString(group, version), version };
}

export function apiVersions(core: DiscoveryGroup | undefined, addresses: readonly ServerAddress[]) {
  return {
    kind: 'APIVersions',
    versions: core ? core.versions.map((v) => v.version) : [],
    serverAddressByClientCIDRs: addresses,
  };
}

export function apiGroup(g: DiscoveryGroup) {
  const versions = g.versions.map((v) => groupVersionForDiscovery(g.group, v.version));
  return { name: g.group, versions, ...(versions[0] ? { preferredVersion: versions[0] } : {}) };
}

export function apiGroupList(groups: readonly DiscoveryGroup[]) {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(apiGroup) };
}

export function apiGroupDocument(g: DiscoveryGroup) {
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) };
}

function sortedSubresources(r: DiscoveryResource) {
  return [...(r.subresources ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A resource and then its subresources (`pods`, `pods/binding`, `pods/status`). */
function apiResources(r: DiscoveryResource): Record<string, unknown>[] {
  const main = {
    name: r.name,
    singularName: r.singularName,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: r.verbs,
    ...(r.shortNames ? { shortNames: r.shortNames } : {}),
    ...(r.categories ? { categories: r.categories } : {}),
    ...(r.storageVersionHash ? { storageVersionHash: r.storageVersionHash } : {}),
  };
  const subs = sortedSubresources(r).map((s) => ({
    name: `${r.name}/${s.name}`,
    singularName: '',
    namespaced: r.namespaced,
    ...(s.group !== undefined ? { group: s.group } : {}),
    ...(s.version !== undefined ? { version: s.version } : {}),
    kind: s.kind,
    verbs: s.verbs,
  }));
  return [main, ...subs];
}

export function apiResourceList(group: string, v: DiscoveryVersion) {
  return {
    kind: 'APIResourceList',
    ...(group === '' ? {} : { apiVersion: 'v1' }),
    groupVersion: groupVersionString(group, v.version),
    resources: v.resources.flatMap(apiResources),
  };
}

// apidiscovery.k8s.io/v2 -------------------------------------------------------------------

function resourceDiscovery(group: string, version: string, r: DiscoveryResource) {
  const subresources = sortedSubresources(r).map((s) => ({
    subresource: s.name,
    responseKind: { group: s.group ?? group, version: s.version ?? version, kind: s.kind },
    verbs: s.verbs,
  }));
  return {
    resource: r.name,
    responseKind: { group, version, kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singularName,
    verbs: r.verbs,
    ...(r.shortNames ? { shortNames: r.shortNames } : {}),
    ...(r.categories ? { categories: r.categories } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}

function groupDiscovery(g: DiscoveryGroup) {
  // ObjectMeta's zero creationTimestamp is not omitted by Go's encoder; an empty name is.
  const metadata = g.group === '' ? { creationTimestamp: null } : { name: g.group, creationTimestamp: null };
  return {
    metadata,
    versions: g.versions.map((v) => ({
      version: v.version,
      resources: v.resources.map((r) => resourceDiscovery(g.group, v.version, r)),
      freshness: 'Current',
    })),
  };
}

export function apiGroupDiscoveryList(groups: readonly DiscoveryGroup[]) {
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: groups.map(groupDiscovery),
  };
}
