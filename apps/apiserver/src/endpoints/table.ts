/**
 * Server-side Tables (meta.k8s.io Table, api-semantics §10.4): what `kubectl get` asks for with
 * `Accept: application/json;as=Table;v=v1;g=meta.k8s.io,...`. The response is plain
 * `application/json`; kubectl recognises the Table by its kind and apiVersion.
 */
import { badRequest } from '@keel/apimachinery';
import { negotiateMediaOptions, RESOURCE } from './media-options.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';
export type TableVersion = 'v1' | 'v1beta1';

export interface TableColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

/** What a Table needs from a resource view (both the apiserver's and the Event views fit). */
export interface TableView<I> {
  readonly tableColumns: readonly TableColumnDefinition[];
  tableRow(obj: I, now: Date): unknown[];
  /** The wire form, with kind, apiVersion and metadata. */
  encode(obj: I): Record<string, unknown>;
}

export interface TableOptions {
  readonly includeObject: IncludeObject;
  readonly now: Date;
  /** The Table version the client accepted. @default 'v1' */
  readonly version?: TableVersion;
}

export interface TableListMeta {
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

export interface TableRow {
  readonly cells: unknown[];
  readonly object: unknown;
}

export interface Table {
  readonly kind: 'Table';
  readonly apiVersion: string;
  readonly metadata: TableListMeta;
  /** Null on watch events after the first (Go's nil slice), as the real server sends them. */
  readonly columnDefinitions: readonly TableColumnDefinition[] | null;
  readonly rows: TableRow[];
}

/**
 * The Table version the negotiated media type asks for (the first clause the endpoint serves:
 * JSON or YAML with `as=Table;g=meta.k8s.io;v=v1|v1beta1`), or undefined when that clause asks
 * for the object itself or another conversion (PartialObjectMetadata).
 */
export function negotiateTable(accept: string | undefined): TableVersion | undefined {
  const c = negotiateMediaOptions(accept, RESOURCE)?.convert;
  return c?.kind === 'Table' ? c.version : undefined;
}

export function wantsTable(accept: string | undefined): boolean {
  return negotiateTable(accept) !== undefined;
}

/** `?includeObject=`: empty means Metadata; anything unknown is the real server's 400. */
export function parseIncludeObject(value: string | null | undefined): IncludeObject {
  if (value === null || value === undefined || value === '') return 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  throw badRequest(`unrecognized includeObject value: "${value}"`);
}

function tableApiVersion(opts: TableOptions): string {
  return `meta.k8s.io/${opts.version ?? 'v1'}`;
}

function rowObject<I>(view: TableView<I>, obj: I, opts: TableOptions): unknown {
  switch (opts.includeObject) {
    case 'None':
      // A nil RawExtension encodes as null.
      return null;
    case 'Object':
      return view.encode(obj);
    case 'Metadata':
      return {
        kind: 'PartialObjectMetadata',
        apiVersion: tableApiVersion(opts),
        metadata: view.encode(obj)['metadata'] ?? {},
      };
  }
}

function row<I>(view: TableView<I>, obj: I, opts: TableOptions): TableRow {
  return { cells: view.tableRow(obj, opts.now), object: rowObject(view, obj, opts) };
}

/** ListMeta fields are all omitempty. */
function listMeta(meta: TableListMeta): TableListMeta {
  return {
    ...(meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}),
    ...(meta.continue ? { continue: meta.continue } : {}),
    ...(meta.remainingItemCount !== undefined ? { remainingItemCount: meta.remainingItemCount } : {}),
  };
}

/** The Table for a list response: the list's metadata, one row per item (possibly none). */
export function tableForList<I>(
  view: TableView<I>,
  items: readonly I[],
  meta: TableListMeta,
  opts: TableOptions,
): Table {
  return {
    kind: 'Table',
    apiVersion: tableApiVersion(opts),
    metadata: listMeta(meta),
    columnDefinitions: view.tableColumns,
    rows: items.map((i) => row(view, i, opts)),
  };
}

function resourceVersionOf<I>(view: TableView<I>, obj: I): string | undefined {
  const meta = view.encode(obj)['metadata'];
  if (typeof meta !== 'object' || meta === null) return undefined;
  const rv = (meta as { resourceVersion?: unknown }).resourceVersion;
  return typeof rv === 'string' ? rv : undefined;
}

/** The Table for one object: its resourceVersion and one row. */
export function tableForObject<I>(
  view: TableView<I>,
  obj: I,
  opts: TableOptions & { readonly headers?: boolean },
): Table {
  return {
    kind: 'Table',
    apiVersion: tableApiVersion(opts),
    metadata: listMeta({ resourceVersion: resourceVersionOf(view, obj) }),
    columnDefinitions: opts.headers === false ? null : view.tableColumns,
    rows: [row(view, obj, opts)],
  };
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

/** One watch event whose object is a one-row Table; `headers` says whether it carries the columns. */
export function tableWatchEvent<I>(
  view: TableView<I>,
  type: WatchEventType,
  obj: I,
  opts: TableOptions & { readonly headers: boolean },
): { type: WatchEventType; object: Table } {
  return { type, object: tableForObject(view, obj, opts) };
}

/**
 * For a watch stream: only the first event carries columnDefinitions (kubectl reuses them).
 * ERROR events keep their Status object and are written by the caller untouched, as the real
 * server passes a Status through the Table conversion.
 */
export function tableWatchEncoder<I>(
  view: TableView<I>,
  opts: TableOptions,
  /** Ages are printed relative to each event's time on a long stream; default: opts.now. */
  clock?: () => Date,
): (type: WatchEventType, obj: I) => { type: WatchEventType; object: Table } {
  let headers = true;
  return (type, obj) => {
    const now = clock ? clock() : opts.now;
    const event = tableWatchEvent(view, type, obj, { ...opts, now, headers });
    headers = false;
    return event;
  };
}
