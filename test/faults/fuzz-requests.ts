import fc from 'fast-check';

// Generators of malformed API requests for fuzz.test.ts. Each request is one of the resource
// calls a client makes (create, update, four kinds of patch, get, list, watch, delete, delete
// collection) against a served resource, with something wrong in it: the body, the name, the
// query, the headers or the path.

export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Buffer;
  /** What was broken, for the failure report. */
  readonly what: string;
}

interface Resource {
  /** Collection path below the namespace (or the root for cluster-scoped ones). */
  readonly collection: (ns: string) => string;
  readonly apiVersion: string;
  readonly kind: string;
  /** A valid object of the kind (named `name`), the base every broken body starts from. */
  readonly valid: (name: string) => Record<string, unknown>;
  readonly strategic: boolean;
}

export const FUZZ_NAMESPACE = 'fuzz';
/** The object every resource has before the run, so updates, patches and deletes find one. */
export const TARGET = 'target';

export const RESOURCES: readonly Resource[] = [
  {
    collection: (ns) => `/api/v1/namespaces/${ns}/configmaps`,
    apiVersion: 'v1',
    kind: 'ConfigMap',
    valid: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }),
    strategic: true,
  },
  {
    collection: (ns) => `/api/v1/namespaces/${ns}/pods`,
    apiVersion: 'v1',
    kind: 'Pod',
    valid: (name) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels: { app: 'fuzz' } },
      spec: { containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 80 }] }] },
    }),
    strategic: true,
  },
  {
    collection: (ns) => `/api/v1/namespaces/${ns}/events`,
    apiVersion: 'v1',
    kind: 'Event',
    valid: (name) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name },
      involvedObject: { kind: 'Pod', name: 'p', namespace: FUZZ_NAMESPACE },
      reason: 'Fuzz',
      message: 'm',
      type: 'Normal',
    }),
    strategic: true,
  },
  {
    collection: (ns) => `/apis/events.k8s.io/v1/namespaces/${ns}/events`,
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    valid: (name) => ({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name },
      eventTime: '2024-05-01T10:00:00.000000Z',
      action: 'Fuzzed',
      reason: 'Fuzz',
      type: 'Normal',
      reportingController: 'keel.test/fuzz',
      reportingInstance: 'fuzz-1',
      regarding: { apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: FUZZ_NAMESPACE },
    }),
    strategic: true,
  },
  {
    collection: () => `/api/v1/namespaces`,
    apiVersion: 'v1',
    kind: 'Namespace',
    valid: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
    strategic: true,
  },
  {
    collection: (ns) => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`,
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    valid: (name) => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name },
      spec: { holderIdentity: 'h', leaseDurationSeconds: 10 },
    }),
    strategic: true,
  },
];

const MiB = 1024 * 1024;

/** Text with every kind of code point: ASCII, BMP, astral, controls and lone surrogates. */
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e', '\ufeff', '../..', '%00', '😀'.repeat(300)),
);

/** Names a server must refuse or survive: too long, upper case, dots, slashes, unicode. */
const badName = fc.oneof(
  anyText,
  fc.constantFrom(
    '',
    '.',
    '..',
    '-a',
    'a-',
    'A',
    'a_b',
    'a b',
    'a'.repeat(254),
    'a'.repeat(64),
    'a.b',
    '%2e%2e',
    '..%2f..%2fsecrets',
    '%00',
    '%ff',
    '%',
    '%zz',
    'a%2Fb',
    '%C3%A9',
    'x?y',
    'x#y',
  ),
  fc.stringMatching(/^[a-z0-9.-]{1,300}$/),
);

/** Percent-encodes what cannot go on an HTTP request line, leaving `%`, `/` and `.` as they are. */
function pathSafe(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (code > 0x20 && code < 0x7f && ch !== '#' && ch !== '?') out += ch;
    else {
      try {
        out += encodeURIComponent(ch);
      } catch {
        out += '%ED%A0%80'; // a lone surrogate as the bytes of its CESU form: not UTF-8
      }
    }
  }
  return out;
}

function querySafe(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
}

/** Any JSON value, shallow, as a replacement for a field of a valid object. */
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, true, -1, 1.5, 1e308, -0, '', [], {}, [[]], { '': null }, 'x'.repeat(1000)),
);

/** Field paths of a valid object that a wrong type is put into. */
const FIELD_PATHS: readonly (readonly string[])[] = [
  [],
  ['apiVersion'],
  ['kind'],
  ['metadata'],
  ['metadata', 'name'],
  ['metadata', 'generateName'],
  ['metadata', 'namespace'],
  ['metadata', 'labels'],
  ['metadata', 'labels', 'a'],
  ['metadata', 'annotations'],
  ['metadata', 'annotations', 'a'],
  ['metadata', 'resourceVersion'],
  ['metadata', 'uid'],
  ['metadata', 'finalizers'],
  ['metadata', 'ownerReferences'],
  ['metadata', 'ownerReferences', '0'],
  ['metadata', 'managedFields'],
  ['metadata', 'creationTimestamp'],
  ['metadata', 'deletionTimestamp'],
  ['metadata', 'deletionGracePeriodSeconds'],
  ['metadata', 'generation'],
  ['data'],
  ['data', 'k'],
  ['binaryData'],
  ['binaryData', 'b'],
  ['immutable'],
  ['spec'],
  ['spec', 'containers'],
  ['spec', 'containers', '0'],
  ['spec', 'containers', '0', 'name'],
  ['spec', 'containers', '0', 'image'],
  ['spec', 'containers', '0', 'ports'],
  ['spec', 'containers', '0', 'ports', '0', 'containerPort'],
  ['spec', 'containers', '0', 'resources'],
  ['spec', 'containers', '0', 'resources', 'limits', 'cpu'],
  ['spec', 'containers', '0', 'env'],
  ['spec', 'nodeName'],
  ['spec', 'priority'],
  ['spec', 'tolerations'],
  ['spec', 'volumes'],
  ['spec', 'finalizers'],
  ['spec', 'holderIdentity'],
  ['spec', 'leaseDurationSeconds'],
  ['spec', 'acquireTime'],
  ['spec', 'renewTime'],
  ['spec', 'leaseTransitions'],
  ['status'],
  ['involvedObject'],
  ['involvedObject', 'namespace'],
  ['regarding'],
  ['regarding', 'namespace'],
  ['eventTime'],
  ['firstTimestamp'],
  ['lastTimestamp'],
  ['count'],
  ['series'],
  ['series', 'count'],
  ['deprecatedCount'],
  ['reportingController'],
  ['type'],
  ['note'],
  ['message'],
];

function setPath(obj: Record<string, unknown>, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return value;
  let cur: Record<string, unknown> = obj;
  for (const key of path.slice(0, -1)) {
    const next = cur[key];
    if (next === null || typeof next !== 'object') cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
  return obj;
}

function nested(depth: number, open: string, close: string, leaf = '1'): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

/** A body that is wrong in one way, with the content type it is sent as. */
function badBody(
  res: Resource,
  name: string,
): fc.Arbitrary<{ body: string | Buffer; type: string; what: string }> {
  const json = (what: string, body: string | Buffer, type = 'application/json') => ({ body, type, what });
  return fc.oneof(
    // Invalid JSON: random text, a valid body cut short, stray bytes.
    anyText.map((t) => json('text as JSON', t)),
    fc.nat({ max: 200 }).map((n) => json('truncated JSON', JSON.stringify(res.valid(name)).slice(0, n))),
    fc.uint8Array({ maxLength: 200 }).map((b) => json('random bytes', Buffer.from(b))),
    fc
      .constantFrom(
        '{',
        '[',
        '{"a":}',
        '{"a" 1}',
        '{,}',
        'nul',
        'NaN',
        '{"a":1}}',
        '\ufeff{}',
        '{"a":"\\ud800"}',
      )
      .map((t) => json('malformed JSON', t)),
    // Wrong types anywhere in a valid object.
    fc
      .tuple(fc.constantFrom(...FIELD_PATHS), anyJson)
      .map(([path, v]) =>
        json(
          `wrong type at ${path.join('.') || '<root>'}`,
          JSON.stringify(setPath(res.valid(name), path, v)),
        ),
      ),
    // Unicode in names, labels, annotations and data.
    fc.tuple(anyText, anyText, anyText).map(([k, v, n]) =>
      json(
        'unicode in the object',
        JSON.stringify({
          ...res.valid(name),
          metadata: { name: n, labels: { [k]: v }, annotations: { [v]: k } },
          data: { [k]: v },
        }),
      ),
    ),
    // Deep nesting as JSON and as YAML.
    fc.constantFrom(50, 1000, 9_999, 10_001, 100_000).chain((d) =>
      fc.constantFrom(
        json(`JSON nested ${d} deep`, `{"metadata":{"name":"${name}"},"data":${nested(d, '{"a":', '}')}}`),
        json(`JSON array nested ${d} deep`, `{"metadata":{"name":"${name}"},"spec":${nested(d, '[', ']')}}`),
        // YAML past 10,001 levels costs the parser much and proves nothing more.
        json(
          `YAML nested ${d} deep`,
          `metadata:\n  name: ${name}\ndata: ${nested(Math.min(d, 10_001), '[', ']')}\n`,
          'application/yaml',
        ),
        json(
          `YAML flow map nested ${d} deep`,
          `data: ${nested(Math.min(d, 10_001), '{a: ', '}')}\n`,
          'application/yaml',
        ),
      ),
    ),
    // Invalid YAML.
    fc
      .constantFrom(
        'a: b: c',
        '- &a [*a]\n',
        'a: &a [*a, *a]\nb: *a\n',
        'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n',
        '\tmetadata: x',
        'metadata:\n name: a\n  x: y',
        '{',
        '---\n---\n',
        'metadata: !!binary Zm9v',
        'metadata: !!python/object:os.system ls',
        '? [a]\n: b',
        'a: 1\na: 2\n',
        '%YAML 9.9\n---\na: 1',
        'metadata: {name: 1e999}',
        '[1,2,3]',
        '"just a string"',
        '~',
        '',
      )
      .map((t) => json('invalid YAML', t, 'application/yaml')),
    anyText.map((t) => json('text as YAML', t, 'application/yaml')),
    fc.tuple(fc.constantFrom(...FIELD_PATHS), anyJson).map(([path, v]) =>
      // JSON is YAML: the same wrong types through the YAML decoder.
      json(
        `YAML wrong type at ${path.join('.') || '<root>'}`,
        JSON.stringify(setPath(res.valid(name), path, v)),
        'application/yaml',
      ),
    ),
    // Unusual or wrong content types with a valid body.
    fc
      .constantFrom(
        'text/plain',
        'application/xml',
        'application/vnd.kubernetes.protobuf',
        'application/json; charset=utf-16',
        'application/json;;',
        'application/',
        '/',
        '*/*',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
        'application/json-patch+json',
        'application/merge-patch+json',
        'application/apply-patch+yaml',
        'application/strategic-merge-patch+json',
      )
      .map((t) => json(`content type ${t}`, JSON.stringify(res.valid(name)), t)),
  );
}

/** A patch body that is wrong in one way, with its patch content type. */
function badPatch(res: Resource): fc.Arbitrary<{ body: string | Buffer; type: string; what: string }> {
  const types = [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/apply-patch+yaml',
    ...(res.strategic ? ['application/strategic-merge-patch+json'] : []),
  ];
  const op = fc.record(
    {
      op: fc.oneof(fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'nope', ''), anyJson),
      path: fc.oneof(
        fc.constantFrom(
          '/data/k',
          '/metadata/name',
          '/metadata/labels/a~1b',
          '/spec/containers/-',
          '/spec/containers/99',
          '',
          '/',
          '~2',
          '/data/~',
          '/metadata/resourceVersion',
        ),
        anyText,
        anyJson,
      ),
      from: fc.oneof(fc.constantFrom('/data', '/metadata', '/x/y'), anyJson),
      value: anyJson,
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    fc
      .tuple(fc.constantFrom(...types), anyText)
      .map(([type, t]) => ({ body: t, type, what: `text as ${type}` })),
    fc
      .tuple(fc.constantFrom(...types), anyJson)
      .map(([type, v]) => ({ body: JSON.stringify(v), type, what: `any JSON as ${type}` })),
    fc.array(op, { maxLength: 5 }).map((ops) => ({
      body: JSON.stringify(ops),
      type: 'application/json-patch+json',
      what: 'bad JSON patch ops',
    })),
    fc
      .tuple(
        fc.constantFrom(...types.filter((t) => t !== 'application/json-patch+json')),
        fc.constantFrom(...FIELD_PATHS),
        anyJson,
      )
      .map(([type, path, v]) => ({
        body: JSON.stringify(
          setPath(type === 'application/apply-patch+yaml' ? res.valid(TARGET) : {}, path, v),
        ),
        type,
        what: `${type} with a wrong type at ${path.join('.') || '<root>'}`,
      })),
    fc.tuple(fc.constantFrom(...types), fc.constantFrom(1000, 10_001, 50_000)).map(([type, d]) => ({
      body: `{"data":${nested(d, '{"a":', '}')}}`,
      type,
      what: `${type} nested ${d} deep`,
    })),
    fc
      .constantFrom(
        { $patch: 'delete' },
        { $patch: 'replace' },
        { $patch: 'nope' },
        { $retainKeys: 1 },
        { spec: { containers: [{ $patch: 'delete' }] } },
        { spec: { containers: [{ name: 'c', $patch: 'nope' }] } },
        { spec: { $setElementOrder: 1 } },
        { spec: { '$setElementOrder/containers': [{ name: 1 }] } },
        { spec: { '$deleteFromPrimitiveList/finalizers': 'x' } },
        { metadata: { $patch: 'delete' } },
        { data: { $patch: 'replace', k: 1 } },
      )
      .map((v) => ({
        body: JSON.stringify(v),
        type: res.strategic ? 'application/strategic-merge-patch+json' : 'application/merge-patch+json',
        what: `strategic directive ${JSON.stringify(v)}`,
      })),
  );
}

/** Query strings with bad selectors, resourceVersions, limits and friends. */
const badQuery = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'labelSelector',
        'fieldSelector',
        'resourceVersion',
        'resourceVersionMatch',
        'limit',
        'continue',
        'timeoutSeconds',
        'watch',
        'allowWatchBookmarks',
        'sendInitialEvents',
        'fieldManager',
        'fieldValidation',
        'dryRun',
        'force',
        'propagationPolicy',
        'gracePeriodSeconds',
        'orphanDependents',
        'pretty',
        'exact',
        'export',
        'includeUninitialized',
        '',
        '%',
      ),
      fc.oneof(
        anyText,
        fc.constantFrom(
          '',
          '-1',
          '0',
          '1',
          '9007199254740993',
          '99999999999999999999999',
          '1e3',
          '0x10',
          ' 1',
          'NaN',
          'true',
          'x',
          'a=',
          '=a',
          'a in (',
          'a notin ()',
          'a,,b',
          '!',
          '!!a',
          'a==b==c',
          'metadata.name=',
          'spec.nodeName!=x,status.phase=Running',
          'a in (b,c),d notin (e)',
          'a'.repeat(64) + '=b',
          'a/b/c=d',
          'Exact',
          'NotOlderThan',
          'All',
          'Orphan',
          'Foreground',
          'Strict',
        ),
      ),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${k}=${querySafe(v)}`).join('&'));

/** Headers a client should not send. */
const badHeaders = fc.oneof(
  fc.constant({}),
  fc.record(
    {
      accept: fc.constantFrom(
        'text/html',
        'application/xml',
        '*/*;q=0',
        'application/json;as=Table;v=v1;g=meta.k8s.io',
        'application/json;as=Table;v=v9;g=meta.k8s.io',
        'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
        'application/json;as=Nope',
        'application/vnd.kubernetes.protobuf',
        'application/yaml',
        'application/yaml;as=Table;v=v1;g=meta.k8s.io',
        'application/json;stream=watch',
        ';;;',
        'a'.repeat(4000),
      ),
      authorization: fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Basic Zm9vOmJhcg==',
        'Bearer x.y.z',
        'Nope',
        'Bearer ' + 'a'.repeat(5000),
      ),
      'impersonate-user': fc.constantFrom('', 'system:anonymous', 'bob'),
      'impersonate-group': fc.constantFrom('', 'system:masters'),
      'impersonate-extra-': fc.constantFrom('x'),
      'impersonate-extra-%zz': fc.constantFrom('x'),
      'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', '*;q=0', 'x'),
      'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'x'),
      'x-forwarded-for': fc.constantFrom('', 'x', '1.2.3.4, ,', '::1'),
      'audit-id': fc.constantFrom('', 'a'.repeat(2000), 'x y'),
      'if-match': fc.constantFrom('*', 'x'),
      'user-agent': fc.constantFrom('', 'a'.repeat(4000)),
    },
    { requiredKeys: [] },
  ),
);

type Call = 'create' | 'update' | 'patch' | 'get' | 'list' | 'watch' | 'delete' | 'deletecollection';

/** A malformed request against one of RESOURCES. */
export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    res: fc.constantFrom(...RESOURCES),
    call: fc.constantFrom<Call>(
      'create',
      'update',
      'patch',
      'patch',
      'get',
      'list',
      'watch',
      'delete',
      'deletecollection',
    ),
    ns: fc.oneof({ weight: 8, arbitrary: fc.constant(FUZZ_NAMESPACE) }, { weight: 1, arbitrary: badName }),
    name: fc.oneof({ weight: 3, arbitrary: fc.constant(TARGET) }, { weight: 2, arbitrary: badName }),
    query: fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 2, arbitrary: badQuery }),
    headers: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: badHeaders }),
    seed: fc.nat(),
  })
  .chain(({ res, call, ns, name, query, headers }) => {
    const collection = pathSafe(res.collection(ns));
    const item = `${collection}/${pathSafe(name)}`;
    const q = query === '' ? '' : `?${query}`;
    const base = { headers: { ...(headers as Record<string, string>) }, what: `${call} ${res.kind}` };
    switch (call) {
      case 'create':
        return badBody(res, name).map((b) => ({
          ...base,
          method: 'POST',
          path: collection + q,
          body: b.body,
          headers: { 'content-type': b.type, ...base.headers },
          what: `${base.what}: ${b.what}`,
        }));
      case 'update':
        return badBody(res, name).map((b) => ({
          ...base,
          method: 'PUT',
          path: item + q,
          body: b.body,
          headers: { 'content-type': b.type, ...base.headers },
          what: `${base.what}: ${b.what}`,
        }));
      case 'patch':
        return badPatch(res).map((b) => ({
          ...base,
          method: 'PATCH',
          path: item + (b.type === 'application/apply-patch+yaml' && q === '' ? '?fieldManager=fuzz' : q),
          body: b.body,
          headers: { 'content-type': b.type, ...base.headers },
          what: `${base.what}: ${b.what}`,
        }));
      case 'get':
        return fc.constant({ ...base, method: 'GET', path: item + q });
      case 'list':
        return fc.constant({ ...base, method: 'GET', path: collection + q });
      case 'watch':
        return fc.constant({
          ...base,
          method: 'GET',
          path: `${collection}?watch=true${q ? `&${query}` : ''}`,
        });
      case 'delete':
        return fc.option(badBody(res, name), { nil: undefined }).map((b) => ({
          ...base,
          method: 'DELETE',
          path: item + q,
          ...(b ? { body: b.body, headers: { 'content-type': b.type, ...base.headers } } : {}),
          what: `${base.what}${b ? `: ${b.what}` : ''}`,
        }));
      case 'deletecollection':
        return fc.constant({ ...base, method: 'DELETE', path: collection + q });
    }
  });

/** Paths outside the resources: traversal, encodings, unknown groups and versions. */
export const fuzzPath: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND'),
    fc.oneof(
      fc.constantFrom(
        '/api/v1/namespaces/../../etc/passwd',
        '/api/v1/namespaces/%2e%2e/%2e%2e/secrets',
        '/api/v1/namespaces/fuzz/configmaps/..',
        '/api/v1/namespaces/fuzz/configmaps/%2F',
        '/api/v1/namespaces/fuzz/configmaps/a/b/c/d',
        '/api/v1/namespaces/fuzz/pods/target/status/x',
        '/api/v1/namespaces/fuzz/pods/target/nope',
        '/api/v1/namespaces/fuzz/pods/target/log',
        '/api/v1/namespaces/fuzz/pods/target/exec',
        '/api/v1/namespaces/fuzz/pods/target/binding',
        '/api/v1/namespaces/fuzz/pods/target/eviction',
        '/api/v1/namespaces/fuzz/nope',
        '/api/v1//namespaces',
        '/api//v1/namespaces',
        '//api/v1',
        '/api/v2/namespaces',
        '/apis/events.k8s.io/v2/events',
        '/apis/coordination.k8s.io/v1beta1/leases',
        '/apis/%00/v1',
        '/apis',
        '/apis/',
        '/api/',
        '/api/v1/watch/namespaces/fuzz/configmaps',
        '/api/v1/watch/namespaces/fuzz/configmaps/target',
        '/api/v1/watch/../namespaces',
        '/api/v1/namespaces/fuzz/configmaps/target/',
        '/api/v1/namespaces/fuzz/configmaps%2ftarget',
        '/api/v1/namespaces/fuzz%2fconfigmaps',
        '/%',
        '/%zz',
        '/api/v1/namespaces/%ff%fe',
        '/api/v1/namespaces/\u00e9',
        '/openapi/v2/../../api',
        '/openapi/v3/apis/%zz',
        '/version/..',
        '/readyz/../api',
        '/metrics/..%2f..%2fapi',
        '/' + 'a/'.repeat(2000),
        '/api/v1/namespaces/' + 'a'.repeat(8000),
      ),
      fc.array(badName, { minLength: 1, maxLength: 8 }).map((segs) => '/' + segs.map(pathSafe).join('/')),
      fc
        .tuple(fc.constantFrom('/api/v1/', '/apis/'), fc.array(badName, { maxLength: 6 }))
        .map(([p, segs]) => p + segs.map(pathSafe).join('/')),
    ),
  )
  .map(([method, path]): FuzzRequest => {
    const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
    return {
      method,
      path: pathSafe(path),
      headers: withBody ? { 'content-type': 'application/json' } : {},
      ...(withBody ? { body: '{}' } : {}),
      what: `${method} on an odd path`,
    };
  });

/** A handful of 10 MiB bodies (over the 3 MiB limit) on every write call. */
export function hugeBodies(): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  const blob = 'x'.repeat(10 * MiB);
  for (const res of RESOURCES) {
    const collection = res.collection(FUZZ_NAMESPACE);
    const big = JSON.stringify({ ...res.valid('huge'), data: { k: blob } });
    out.push(
      {
        method: 'POST',
        path: collection,
        headers: { 'content-type': 'application/json' },
        body: big,
        what: `10 MiB create ${res.kind}`,
      },
      {
        method: 'PUT',
        path: `${collection}/${TARGET}`,
        headers: { 'content-type': 'application/yaml' },
        body: big,
        what: `10 MiB update ${res.kind}`,
      },
      {
        method: 'PATCH',
        path: `${collection}/${TARGET}?fieldManager=fuzz`,
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: big,
        what: `10 MiB apply ${res.kind}`,
      },
      {
        method: 'PATCH',
        path: `${collection}/${TARGET}`,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: `{"data":{"k":"${blob}"}}`,
        what: `10 MiB merge patch ${res.kind}`,
      },
      {
        method: 'DELETE',
        path: `${collection}/${TARGET}`,
        headers: { 'content-type': 'application/json' },
        body: big,
        what: `10 MiB delete ${res.kind}`,
      },
    );
  }
  return out;
}
