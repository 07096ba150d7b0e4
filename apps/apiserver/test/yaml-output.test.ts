/**
 * `Accept: application/yaml` on the built keel-apiserver: objects, lists, Tables, write answers,
 * errors and discovery in YAML, as the reference's YAML serializer writes them (go-yaml v2 over the
 * JSON form: keys sorted, sequences not indented, YAML 1.1 look-alikes double-quoted), and a watch
 * refused with the stream types, since YAML has no stream form. Read back with a YAML 1.1 parser,
 * every answer must be the JSON answer's value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TestApiServer } from '@keel/testing';
import { newNamespace, type Json } from './support/core.js';

const YAML = 'application/yaml';
const TABLE = ';as=Table;v=v1;g=meta.k8s.io';
/** go-yaml reads YAML 1.1: `on`, `y`, `1_0` and `12:30` are not strings there. */
const read = (text: string): unknown => parse(text, { schema: 'yaml-1.1' });

describe('application/yaml answers', () => {
  let server: TestApiServer;
  let ns: string;
  const cms = () => `/api/v1/namespaces/${ns}/configmaps`;
  const get = (path: string, accept: string) => server.request('GET', path, { headers: { accept } });
  // Strings a careless YAML writer leaves plain and a YAML 1.1 reader takes for other types.
  const data = {
    empty: '',
    bool: 'on',
    yes: 'y',
    int: '1_000',
    octal: '0o17',
    float: '.5',
    sexagesimal: '12:30',
    time: '2020-01-02T03:04:05Z',
    nil: '~',
    star: '*',
    colon: 'a: b',
    image: 'nginx:1.14',
    multi: 'line one\nline two\n',
    a10: 'x',
    a9: 'x',
  };

  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
    ns = await newNamespace(server, 'yaml');
    const r = await server.request('POST', cms(), { body: { metadata: { name: 'a' }, data } });
    expect(r.status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('writes an object in YAML that reads back as its JSON, strings kept as strings', async () => {
    const json = (await get(`${cms()}/a`, 'application/json')).json;
    const r = await get(`${cms()}/a`, YAML);
    expect([r.status, r.headers['content-type']]).toEqual([200, YAML]);
    expect(read(r.text)).toEqual(json);
    expect((read(r.text) as Json)['data']).toEqual(data);
  });

  it('writes keys in go-yaml order, sequences unindented and look-alikes quoted', async () => {
    const text = (await get(`${cms()}/a`, YAML)).text;
    expect(text.split('\n').filter((l) => /^\S/.test(l))).toEqual([
      'apiVersion: v1',
      'data:',
      'kind: ConfigMap',
      'metadata:',
    ]);
    const dataBlock = text.slice(text.indexOf('data:\n'), text.indexOf('kind:'));
    // Numbers inside keys compare by value (a9 before a10); then the letters' order.
    expect(dataBlock).toContain('  a9: x\n  a10: x\n  bool: "on"\n');
    expect(dataBlock).toContain('  empty: ""\n');
    expect(dataBlock).toContain('  image: nginx:1.14\n');
    expect(dataBlock).toContain("  colon: 'a: b'\n");
    expect(dataBlock).toContain("  star: '*'\n");
    expect(dataBlock).toContain('  multi: |\n    line one\n    line two\n');
    expect(dataBlock).toContain('  time: "2020-01-02T03:04:05Z"\n');
    expect(text).toMatch(/\nmetadata:\n {2}creationTimestamp: "\d{4}-/);
    expect(text).toMatch(/\n {2}managedFields:\n {2}- apiVersion: v1\n/);
  });

  it('writes lists, Tables and write answers in YAML', async () => {
    const list = await get(cms(), YAML);
    expect([list.status, list.headers['content-type']]).toEqual([200, YAML]);
    expect(read(list.text)).toEqual((await get(cms(), 'application/json')).json);

    const table = await get(`${cms()}/a`, YAML + TABLE);
    expect([table.status, table.headers['content-type']]).toEqual([200, YAML]);
    const t = read(table.text) as Json;
    expect([t['kind'], t['apiVersion']]).toEqual(['Table', 'meta.k8s.io/v1']);

    const created = await server.request('POST', cms(), {
      headers: { accept: YAML },
      body: { metadata: { name: 'b' }, data: { k: 'true' } },
    });
    expect([created.status, created.headers['content-type']]).toEqual([201, YAML]);
    expect((read(created.text) as Json)['data']).toEqual({ k: 'true' });
    expect(created.text).toContain('  k: "true"\n');
  });

  it('writes errors and discovery in YAML', async () => {
    const r = await get(`${cms()}/nope`, YAML);
    expect([r.status, r.headers['content-type']]).toEqual([404, YAML]);
    expect(read(r.text)).toEqual({
      apiVersion: 'v1',
      kind: 'Status',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'configmaps' },
      code: 404,
    });
    // A group's document names its preferred version twice: written out twice, as go-yaml does.
    for (const path of ['/api/v1', '/apis', '/apis/coordination.k8s.io']) {
      const discovery = await get(path, YAML);
      expect([discovery.status, discovery.headers['content-type']]).toEqual([200, YAML]);
      expect(discovery.text).not.toMatch(/[&*]a1\b/);
      expect(read(discovery.text)).toEqual((await get(path, 'application/json')).json);
    }
  });

  it('prefers the Accept order, JSON first when named first', async () => {
    const r = await get(`${cms()}/a`, `application/json, ${YAML}`);
    expect(r.headers['content-type']).toBe('application/json');
    const y = await get(`${cms()}/a`, `${YAML}, application/json`);
    expect(y.headers['content-type']).toBe(YAML);
  });

  it('refuses a watch in YAML with the stream media types', async () => {
    const r = await get(`${cms()}?watch=1&timeoutSeconds=1`, YAML);
    expect(r.status).toBe(406);
    expect(r.text).toContain('application/json;stream=watch');
  });
});
