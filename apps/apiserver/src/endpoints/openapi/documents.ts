/**
 * The OpenAPI v3 group-version documents and the swagger 2.0 document, both rendered from the
 * same operations and schema definitions.
 */
import { fallbackDefinitions } from './schema-fallback.js';
import { platformVersion } from '@keel/apimachinery';
import {
  definitionName,
  discoveryPath,
  resourcePaths,
  rootPath,
  tagOf,
  type OpenAPIView,
  type Operation,
  type PathItem,
} from './operations.js';
import { paramV2, paramV3 } from './parameters.js';
import { eventDefinitions } from './schema-events.js';
import { meta, metaDefinitions } from './schema-meta.js';
import { operationDefinitions, type GroupVersion } from './schema-status.js';
import { closure, toV2, toV3, type Definitions } from './schema.js';

const info = {
  title: 'Kubernetes',
  version: `v${platformVersion.major}.${platformVersion.minor}.${platformVersion.patch}`,
};
const bearer = {
  type: 'apiKey',
  description: 'Bearer Token authentication',
  name: 'authorization',
  in: 'header',
};
const jsonOnly = ['application/json'];
const watchTypes = ['application/json', 'application/json;stream=watch'];
const statusText: Readonly<Record<string, string>> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };

export interface GroupVersionViews extends GroupVersion {
  readonly views: readonly OpenAPIView[];
}

/** Views grouped by group/version in order of first appearance. */
export function byGroupVersion(views: readonly OpenAPIView[]): GroupVersionViews[] {
  const out = new Map<string, OpenAPIView[]>();
  for (const v of views) {
    const key = `${v.group}/${v.version}`;
    out.set(key, [...(out.get(key) ?? []), v]);
  }
  return [...out.values()].map((vs) => ({
    group: vs[0]?.group ?? '',
    version: vs[0]?.version ?? '',
    views: vs,
  }));
}

function gvk(v: OpenAPIView): Record<string, string> {
  return { group: v.group, kind: v.kind, version: v.version };
}

function pathsOf(gv: GroupVersionViews): { item: PathItem; view?: OpenAPIView }[] {
  return [
    { item: discoveryPath(gv.group, gv.version) },
    ...gv.views.flatMap((view) => resourcePaths(view).map((item) => ({ item, view }))),
  ];
}

function rootsOf(gv: GroupVersionViews): string[] {
  // Create-only kinds (TokenReview) have no list type.
  return gv.views.flatMap((v) => [
    definitionName(v.group, v.version, v.kind),
    ...(v.verbs.includes('list') ? [definitionName(v.group, v.version, v.listKind)] : []),
  ]);
}

/** Everything the operations reference (bodies, responses) plus the kinds themselves. */
function referenced(gv: GroupVersionViews): string[] {
  const refs = pathsOf(gv).flatMap(({ item }) =>
    item.ops.flatMap((op) => [...Object.values(op.responses), ...(op.body ? [op.body.def] : [])]),
  );
  return [...rootsOf(gv), ...refs, `${meta}.Status`];
}

function extensions(op: Operation, view: OpenAPIView | undefined): Record<string, unknown> {
  if (!op.action || !view) return {};
  return { 'x-kubernetes-action': op.action, 'x-kubernetes-group-version-kind': gvk(view) };
}

function opV3(op: Operation, gv: GroupVersion, view: OpenAPIView | undefined): Record<string, unknown> {
  const produces = op.watch ? watchTypes : jsonOnly;
  const responses: Record<string, unknown> = {};
  for (const [code, def] of Object.entries(op.responses)) {
    const content = Object.fromEntries(produces.map((t) => [t, { schema: { $ref: def } }]));
    responses[code] = { description: statusText[code] ?? 'OK', content };
  }
  responses['401'] = { description: 'Unauthorized' };
  const body = op.body;
  return {
    tags: [tagOf(gv.group, gv.version)],
    description: op.description,
    operationId: op.operationId,
    ...(op.params.length ? { parameters: op.params.map((p) => paramV3(p, view?.kind ?? '')) } : {}),
    ...(body
      ? {
          requestBody: {
            content: Object.fromEntries(
              (op.consumes ?? jsonOnly).map((t) => [t, { schema: { $ref: body.def } }]),
            ),
            ...(body.required ? { required: true } : {}),
          },
        }
      : {}),
    responses,
    ...extensions(op, view),
  };
}

function opV2(op: Operation, gv: GroupVersion, view: OpenAPIView | undefined): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [code, def] of Object.entries(op.responses)) {
    responses[code] = { description: statusText[code] ?? 'OK', schema: { $ref: def } };
  }
  responses['401'] = { description: 'Unauthorized' };
  const body = op.body
    ? [
        {
          name: 'body',
          in: 'body',
          ...(op.body.required ? { required: true } : {}),
          schema: { $ref: op.body.def },
        },
      ]
    : [];
  const params = [...body, ...op.params.map((p) => paramV2(p, view?.kind ?? ''))];
  return {
    description: op.description,
    consumes: op.consumes ?? ['*/*'],
    produces: op.watch ? watchTypes : jsonOnly,
    schemes: ['https'],
    tags: [tagOf(gv.group, gv.version)],
    operationId: op.operationId,
    ...(params.length ? { parameters: params } : {}),
    responses,
    ...extensions(op, view),
  };
}

function pathObject(
  gv: GroupVersionViews,
  render: (op: Operation, gv: GroupVersion, view: OpenAPIView | undefined) => Record<string, unknown>,
  param: (name: PathItem['params'][number], kind: string) => Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { item, view } of pathsOf(gv)) {
    out[item.path] = {
      ...Object.fromEntries(item.ops.map((op) => [op.method, render(op, gv, view)])),
      ...(item.params.length ? { parameters: item.params.map((p) => param(p, view?.kind ?? '')) } : {}),
    };
  }
  return out;
}

function definitionsFor(
  served: readonly GroupVersion[],
  extra: Definitions,
  views: readonly OpenAPIView[],
): Definitions {
  const known = { ...metaDefinitions(), ...operationDefinitions(served), ...eventDefinitions, ...extra };
  return { ...fallbackDefinitions(views, known), ...known };
}

function pick(
  defs: Definitions,
  names: readonly string[],
  render: (s: unknown) => unknown,
): Record<string, unknown> {
  return Object.fromEntries(closure(defs, names).map((n) => [n, render(defs[n])]));
}

/** The `/openapi/v3/<api|apis/g>/<v>` document of one group version. */
export function openapiV3Document(
  gv: GroupVersionViews,
  served: readonly GroupVersion[],
  extra: Definitions = {},
): Record<string, unknown> {
  const defs = definitionsFor(served, extra, gv.views);
  return {
    openapi: '3.0.0',
    info,
    paths: toV3(pathObject(gv, opV3, paramV3)),
    components: { schemas: pick(defs, referenced(gv), toV3), securitySchemes: { BearerToken: bearer } },
  };
}

/** The one `/openapi/v2` document covering every served group version. */
export function openapiV2Document(
  gvs: readonly GroupVersionViews[],
  extra: Definitions = {},
): Record<string, unknown> {
  const defs = definitionsFor(
    gvs,
    extra,
    gvs.flatMap((g) => g.views),
  );
  let paths: Record<string, unknown> = {};
  for (const gv of gvs) paths = { ...paths, ...pathObject(gv, opV2, paramV2) };
  return {
    swagger: '2.0',
    info,
    paths: toV2(paths),
    definitions: pick(defs, gvs.flatMap(referenced), toV2),
    securityDefinitions: { BearerToken: bearer },
    security: [{ BearerToken: [] }],
  };
}

/** The index key of a group version: `api/v1`, `apis/events.k8s.io/v1`. */
export function indexKey(gv: GroupVersion): string {
  return rootPath(gv.group, gv.version).slice(1);
}
