import type { GroupVersionKind } from '@keel/admission';

interface KindView {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly resource: string;
}

/**
 * Which resources serve a kind (kube's RESTMapper), filled once the resources are installed:
 * admission is built before them, and asks only while serving requests.
 */
export class ServedKinds {
  private readonly byKind = new Map<string, string[]>();

  private static key(k: GroupVersionKind): string {
    return `${k.group}/${k.version}/${k.kind}`;
  }

  /** Records the views (subresources carry a `/` and are not what a kind maps to); returns them. */
  record<V extends KindView>(views: readonly V[]): readonly V[] {
    for (const v of views) {
      if (v.resource.includes('/')) continue;
      const key = ServedKinds.key(v);
      const resources = this.byKind.get(key) ?? [];
      if (!resources.includes(v.resource)) resources.push(v.resource);
      this.byKind.set(key, resources);
    }
    return views;
  }

  resourcesFor(kind: GroupVersionKind): readonly string[] {
    return this.byKind.get(ServedKinds.key(kind)) ?? [];
  }
}
