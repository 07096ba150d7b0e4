/** The minimal object model the client relies on; resources are otherwise opaque JSON. */

export interface ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generateName?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly [key: string]: unknown;
}

/** Any API object: kind, apiVersion and metadata are what the client looks at. */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ObjectMeta;
  readonly [key: string]: unknown;
}

export interface ListMeta {
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

export interface KubeList<T = KubeObject> {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ListMeta;
  readonly items: readonly T[];
}

/** client-go's MetaNamespaceKeyFunc: `namespace/name`, or `name` for cluster-scoped objects. */
export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? '';
  return ns ? `${ns}/${name}` : name;
}
