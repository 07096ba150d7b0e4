/**
 * Content negotiation of Keel's API server next to the reference kube-apiserver 1.20.2, request
 * by request: `as=PartialObjectMetadata(List)` on get, list, watch and writes (what client-go's
 * metadata client sends), the 406s for the wrong form, group or version, go-restful's 406 for an
 * Accept naming no produced type (/version with protobuf only, the resource routes), and the
 * plain-text endpoints. Errors must match byte for byte; objects once the values the servers
 * assign (uids, resourceVersions, times, continue tokens) are masked; protobuf as decoded.
 */
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProtobuf, type KubeProtobuf } from '@keel/protobuf';
import type { Json } from './support/client.js';
import { startKeelApiServer } from './support/keel.js';
import {
  ClusterPKI,
  requireReference,
  startReferenceApiServer,
  type RunningApiServer,
} from './support/reference.js';

const J = 'application/json';
const TABLE = ';as=Table;g=meta.k8s.io;v=v1';
const Y = 'application/yaml';
const PB = 'application/vnd.kubernetes.protobuf';
const POM = ';as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const POM_BETA = ';as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1';
const POML = ';as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const NS = 'negotiation';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
/** Only the test's own ConfigMaps (Keel also publishes kube-root-ca.crt in every namespace). */
const MINE = 'labelSelector=app%3Dneg';
const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const REVIEW = {
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SelfSubjectAccessReview',
  spec: { resourceAttributes: { verb: 'get', resource: 'pods' } },
};

type Compare = 'exact' | 'masked' | 'events' | 'status' | 'yaml';
interface Case {
  readonly method?: string;
  readonly path: string;
  readonly accept: string;
  readonly body?: unknown;
  /** The body's Content-Type (JSON unless said). */
  readonly type?: string;
  /**
   * exact: status, type and bytes; masked: JSON with assigned values masked; events: a watch's
   * lines masked, in any order (the reference's watch cache sends a resourceVersion=0 watch's
   * initial ADDED events in its store's map order, which changes from run to run); status: code
   * and type; yaml: the text with assigned values masked line by line.
   */
  readonly compare: Compare;
}

const cases: readonly Case[] = [
  // PartialObjectMetadata of an object, both versions, JSON and protobuf.
  { path: `${CMS}/a`, accept: J + POM, compare: 'masked' },
  { path: `${CMS}/a`, accept: J + POM_BETA, compare: 'masked' },
  { path: `${CMS}/a`, accept: `*/*${POM}`, compare: 'masked' },
  { path: `${CMS}/a`, accept: `${PB}${POM},${J}${POM},${J}`, compare: 'status' },
  // Lists: each item's metadata, a page keeps its continue token, no items is null.
  { path: `${CMS}?${MINE}`, accept: J + POML, compare: 'masked' },
  { path: `${CMS}?${MINE}&limit=1`, accept: J + POML, compare: 'masked' },
  { path: `${CMS}?labelSelector=app%3Dnone`, accept: J + POML, compare: 'masked' },
  { path: `${CMS}?${MINE}`, accept: `${PB}${POML},${J}`, compare: 'status' },
  // The wrong form: 406 naming the Go type, raw JSON when only `as=` clauses were sent.
  { path: `${CMS}/a`, accept: J + POML, compare: 'exact' },
  { path: `${CMS}/a`, accept: `${J}${POML},${J}`, compare: 'exact' },
  { path: `${CMS}?${MINE}`, accept: J + POM, compare: 'exact' },
  { path: `/apis/events.k8s.io/v1/namespaces/${NS}/events`, accept: J + POM, compare: 'exact' },
  { path: `${CMS}/nope`, accept: J + POM, compare: 'exact' },
  // Another group, version or kind: the clause is passed over.
  { path: `${CMS}/a`, accept: `${J};as=PartialObjectMetadata;g=meta.k8s.io;v=v2`, compare: 'exact' },
  { path: `${CMS}/a`, accept: `${J};as=PartialObjectMetadata;g=apps;v=v1`, compare: 'exact' },
  { path: `${CMS}/a`, accept: `${J};as=PartialObjectMetadata`, compare: 'exact' },
  { path: `${CMS}/a`, accept: `${J};g=meta.k8s.io;v=v1`, compare: 'exact' },
  { path: `${CMS}/a`, accept: `${PB};as=Table;g=meta.k8s.io;v=v1`, compare: 'exact' },
  // go-restful's own 406 before the handler.
  { path: `${CMS}/a`, accept: 'text/plain', compare: 'exact' },
  { path: `${CMS}/a`, accept: `application/*${POM}`, compare: 'exact' },
  { path: `${CMS}/a`, accept: 'Application/JSON', compare: 'exact' },
  { path: `${CMS}/a`, accept: `${J};q=0`, compare: 'masked' },
  // Watches: PartialObjectMetadata events; PartialObjectMetadataList ends at the first event.
  { path: `${CMS}?watch=1&resourceVersion=0&timeoutSeconds=2&${MINE}`, accept: J + POM, compare: 'events' },
  { path: `${CMS}?watch=1&resourceVersion=0&timeoutSeconds=2&${MINE}`, accept: J + POML, compare: 'exact' },
  { path: `${CMS}?watch=1&timeoutSeconds=1`, accept: `application/yaml${POM}`, compare: 'exact' },
  // YAML: go-yaml's key order, quoting and layout (a ConfigMap whose values look like other types).
  { path: `${CMS}/y`, accept: Y, compare: 'yaml' },
  { path: `${CMS}?labelSelector=app%3Dyaml`, accept: Y, compare: 'yaml' },
  { path: `${CMS}/y`, accept: `${J};q=0.5, ${Y}`, compare: 'yaml' },
  { path: `${CMS}/y`, accept: Y + POM, compare: 'yaml' },
  { path: `${CMS}/nope`, accept: Y, compare: 'exact' },
  { path: `${CMS}/y`, accept: `${Y};as=Table;g=meta.k8s.io;v=v1`, compare: 'status' },
  { path: '/apis/apps', accept: Y, compare: 'exact' },
  {
    method: 'POST',
    path: CMS,
    accept: Y,
    body: { metadata: { name: 'made-y' }, data: { k: 'no', long: 'word '.repeat(30).trim() } },
    compare: 'yaml',
  },
  {
    method: 'POST',
    path: CMS,
    accept: Y,
    body: { metadata: { name: 'made-z' }, data: { k: 'no' } },
    compare: 'yaml',
  },
  // Writes and reviews.
  {
    method: 'POST',
    path: CMS,
    accept: J + POM,
    body: { metadata: { name: 'made', labels: { app: 'made' } } },
    compare: 'masked',
  },
  { method: 'POST', path: CMS, accept: J + POML, body: { metadata: { name: 'made2' } }, compare: 'exact' },
  { method: 'DELETE', path: `${CMS}/made`, accept: J + POM, compare: 'masked' },
  { method: 'DELETE', path: `${CMS}?labelSelector=app%3Ddel`, accept: J + POM, compare: 'exact' },
  { method: 'POST', path: SSAR, accept: J + POML, body: REVIEW, compare: 'exact' },
  { method: 'POST', path: SSAR, accept: 'text/plain', body: REVIEW, compare: 'exact' },
  // /version: go-restful's Produces(application/json).
  { path: '/version', accept: PB, compare: 'exact' },
  { path: '/version/', accept: PB, compare: 'exact' },
  { path: '/version', accept: 'text/plain', compare: 'exact' },
  { path: '/version', accept: 'application/*', compare: 'exact' },
  { path: '/version', accept: `text/plain;q=0.5, ${PB}`, compare: 'exact' },
  { path: '/version', accept: '*/*', compare: 'status' },
  { path: '/version', accept: `${PB},${J}`, compare: 'status' },
  { path: '/version', accept: `${PB};q=0.9,${J};q=0.5`, compare: 'status' },
  { path: '/version', accept: J + POM, compare: 'status' },
  { method: 'POST', path: '/version', accept: J, body: {}, compare: 'exact' },
  { path: '/.well-known/openid-configuration', accept: PB, compare: 'exact' },
  { path: '/openid/v1/jwks', accept: 'text/plain', compare: 'exact' },
  { path: '/openapi/v2', accept: PB, compare: 'exact' },
  // Discovery: /api/v1 is a go-restful route, /apis is not.
  { path: '/api/v1', accept: 'text/plain', compare: 'exact' },
  { path: '/apis', accept: 'text/plain', compare: 'exact' },
  // Tables of what a write answers (transformResponseObject); a Status stays a Status.
  {
    method: 'POST',
    path: CMS,
    accept: J + TABLE,
    body: { metadata: { name: 'tw', labels: { app: 'tw' } }, data: { a: '1' } },
    compare: 'masked',
  },
  {
    method: 'PUT',
    path: `${CMS}/tw`,
    accept: J + TABLE,
    body: { metadata: { name: 'tw', labels: { app: 'tw' } }, data: { a: '1', b: '2' } },
    compare: 'masked',
  },
  {
    method: 'PATCH',
    path: `${CMS}/tw`,
    accept: J + TABLE + ';includeObject=None',
    type: 'application/merge-patch+json',
    body: { data: { c: '3' } },
    compare: 'masked',
  },
  {
    method: 'PATCH',
    path: `${CMS}/tw?includeObject=Object`,
    accept: J + TABLE,
    type: 'application/merge-patch+json',
    body: { data: { d: '4' } },
    compare: 'masked',
  },
  { method: 'DELETE', path: `${CMS}/tw`, accept: J + TABLE, compare: 'masked' },
  {
    method: 'POST',
    path: CMS,
    accept: J + TABLE,
    body: { metadata: { name: 'tw2', labels: { app: 'tw' } } },
    compare: 'masked',
  },
  { method: 'DELETE', path: `${CMS}?labelSelector=app%3Dtw`, accept: J + TABLE, compare: 'masked' },
  { method: 'POST', path: SSAR, accept: J + TABLE, body: REVIEW, compare: 'exact' },
  // Subresources without a table convertor (negotiation comes first: nothing needs to exist).
  {
    method: 'POST',
    path: `/api/v1/namespaces/${NS}/pods/bp/binding`,
    accept: J + TABLE,
    body: { metadata: { name: 'bp' }, target: { kind: 'Node', name: 'n1' } },
    compare: 'exact',
  },
  {
    method: 'POST',
    path: `/api/v1/namespaces/${NS}/serviceaccounts/default/token`,
    accept: J + TABLE,
    body: { spec: { audiences: [] } },
    compare: 'exact',
  },
  // HEAD: go-restful's routes take GET only (405); /apis and /apis/<group> are plain handlers.
  { method: 'HEAD', path: `${CMS}/a`, accept: J, compare: 'exact' },
  { method: 'HEAD', path: CMS, accept: J, compare: 'exact' },
  { method: 'HEAD', path: `${CMS}?watch=1`, accept: J, compare: 'exact' },
  { method: 'HEAD', path: `${CMS}/nope`, accept: J, compare: 'exact' },
  { method: 'HEAD', path: '/api/v1/nopes', accept: J, compare: 'exact' },
  { method: 'HEAD', path: '/api', accept: J, compare: 'exact' },
  { method: 'HEAD', path: '/api/v1', accept: J, compare: 'exact' },
  { method: 'HEAD', path: '/apis', accept: J, compare: 'exact' },
  { method: 'HEAD', path: '/apis/apps', accept: J, compare: 'exact' },
  { method: 'HEAD', path: '/apis/apps/v1', accept: J, compare: 'exact' },
  { method: 'HEAD', path: '/version', accept: J, compare: 'exact' },
  { method: 'HEAD', path: '/healthz', accept: J, compare: 'exact' },
  { method: 'HEAD', path: '/metrics', accept: J, compare: 'status' },
  // Plain text whatever the Accept.
  { path: '/healthz', accept: PB, compare: 'exact' },
  { path: '/livez', accept: PB, compare: 'exact' },
  { path: '/readyz', accept: PB, compare: 'exact' },
];

/** Values a YAML writer must quote for a YAML 1.1 reader, or cannot write plain, or in a block. */
const YAML_DATA = {
  empty: '',
  bool: 'on',
  word: 'yes',
  int: '1_000',
  hex: '0x1F',
  float: '.5',
  sexagesimal: '12:30',
  time: '2020-01-02T03:04:05Z',
  date: '2020-01-02',
  nil: '~',
  star: '*',
  colon: 'a: b',
  hash: 'a #b',
  quote: "it's",
  both: `it's "x"`,
  image: 'nginx:1.14',
  multi: 'line one\nline two\n',
  multiNoEnd: 'line one\nline two',
  spaces: ' padded ',
  unicode: 'héllo ✓',
  tab: 'a\tb',
  emoji: 'hi 😀',
  spaceBreak: 'a \nb',
  breakSpace: 'a\n b',
  leadingBreak: '\nx',
  twoBreaks: 'x\n\n',
  dash: '- x',
  dashWord: '-x',
  long: 'word '.repeat(30).trim(),
  longQuoted: `it's ${'word '.repeat(30).trim()}`,
  longDouble: `"${'word '.repeat(30).trim()}"`,
  longNumber: `1${' 2'.repeat(45)}`,
  a10: 'x',
  a9: 'x',
  a_b: 'x',
  a1: 'x',
  a01: 'x',
  A: 'x',
  'dot.key': 'x',
  'dash-key': 'x',
  'x-1': 'x',
  x_1: 'x',
};

interface Answer {
  readonly status: number;
  readonly type: string;
  readonly body: Buffer;
}

const MASKED = new Set([
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'continue',
  'time',
  'managedFields',
  // Keel's Table columns carry newer releases' field docs.
  'description',
]);

/** A Table row's cells with ages masked (the servers' objects were made a second apart). */
const ages = (cells: unknown): unknown =>
  Array.isArray(cells)
    ? (cells as unknown[]).map((c) => (typeof c === 'string' && /^\d+[smhd]$/.test(c) ? 'age' : c))
    : cells;

/** The JSON (or each line of a watch) with what a server assigns masked. */
function masked(body: Buffer): unknown {
  const mask = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(mask);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, MASKED.has(k) ? 'masked' : k === 'cells' ? ages(x) : mask(x)]),
    );
  };
  const text = body.toString('utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => mask(JSON.parse(l) as Json));
}

/** YAML with the assigned values masked on their lines and managedFields left out. */
function maskedYaml(body: Buffer): string {
  return body
    .toString('utf8')
    .replace(/^( *)managedFields:\n(?:\1[- ] .*\n)*/gm, '')
    .replace(/^( *(?:- )?)(uid|resourceVersion|creationTimestamp|time|continue): .*$/gm, '$1$2: masked');
}

/** A watch's masked lines as a sorted list of their JSON, to compare them as a set. */
function unordered(lines: unknown): string[] {
  return (lines as unknown[]).map((l) => JSON.stringify(l)).sort();
}

describe('content negotiation: Keel next to kube-apiserver 1.20.2', () => {
  let pki: ClusterPKI;
  let ref: RunningApiServer;
  let keel: RunningApiServer;
  let agent: Agent;
  let pb: KubeProtobuf;
  const answers = new Map<RunningApiServer, Answer[]>();

  async function send(server: RunningApiServer, c: Case): Promise<Answer> {
    const headers: Record<string, string> = { accept: c.accept };
    if (c.body !== undefined) headers['content-type'] = c.type ?? J;
    const res = await request(server.url + c.path, {
      method: (c.method ?? 'GET') as 'GET',
      headers,
      dispatcher: agent,
      ...(c.body !== undefined ? { body: JSON.stringify(c.body) } : {}),
    });
    const type = res.headers['content-type'];
    return {
      status: res.statusCode,
      type: typeof type === 'string' ? type : '',
      body: Buffer.from(await res.body.arrayBuffer()),
    };
  }

  async function seed(server: RunningApiServer): Promise<void> {
    const cm = (name: string, app: string): Json => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, labels: { app }, annotations: { note: name } },
      data: { k: 'v' },
    });
    await server.admin.create('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: NS },
    });
    for (const name of ['a', 'b', 'c']) await server.admin.create(CMS, cm(name, 'neg'));
    await server.admin.create(CMS, { ...cm('y', 'yaml'), data: YAML_DATA });
    await server.admin.create(CMS, cm('d', 'del'));
  }

  beforeAll(async () => {
    requireReference();
    pb = await loadProtobuf();
    pki = new ClusterPKI();
    [ref, keel] = await Promise.all([startReferenceApiServer(pki), startKeelApiServer(pki)]);
    agent = new Agent({ connect: { ca: pki.ca.certPem, cert: pki.admin.certPem, key: pki.admin.keyPem } });
    for (const server of [ref, keel]) {
      await seed(server);
      const out: Answer[] = [];
      // In order: the writes change what later requests see, alike on both servers.
      for (const c of cases) out.push(await send(server, c));
      answers.set(server, out);
    }
  });
  afterAll(async () => {
    await agent?.close();
    await Promise.all([ref?.stop(), keel?.stop()]);
    pki?.cleanup();
  });

  it.each(cases.map((c, i) => [`${c.method ?? 'GET'} ${c.path} [${c.accept}]`, i] as const))(
    '%s',
    (_name, i) => {
      const r = answers.get(ref)?.[i];
      const k = answers.get(keel)?.[i];
      if (!r || !k) throw new Error('no answer');
      const c = cases[i] as Case;
      expect([k.status, k.type]).toEqual([r.status, r.type]);
      // Protobuf bodies as Keel's codec reads them (its encoder leaves empty proto2 fields out,
      // gogo writes them: the same message in other bytes); the others as text.
      const show = (a: Answer) =>
        a.type.startsWith(PB) && a.body.length > 0 ? pb.decode(a.body) : a.body.toString('utf8');
      if (c.compare === 'exact') expect(show(k)).toEqual(show(r));
      if (c.compare === 'masked') expect(masked(k.body)).toEqual(masked(r.body));
      if (c.compare === 'yaml') expect(maskedYaml(k.body)).toEqual(maskedYaml(r.body));
      if (c.compare === 'events') expect(unordered(masked(k.body))).toEqual(unordered(masked(r.body)));
    },
  );
});
