import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  corePath,
  createEvents,
  evPath,
  failure,
  newEvent,
  startServer,
  STORES,
  uniqueNs,
} from './support/events.js';

const UNRECOGNIZED =
  "the object provided is unrecognized (must be of type Event): couldn't get version/kind; json parse error:";

describe.each(STORES)('Event request bodies (%s store)', (store) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each([
    [
      'POST',
      '{"metadata":{"name":"x",}}',
      `${UNRECOGNIZED} invalid character '}' looking for beginning of object key string ({"metadata":{"name":"x",}})`,
    ],
    ['POST', '', `${UNRECOGNIZED} unexpected end of JSON input (<empty>)`],
    ['PUT', 'nope', `${UNRECOGNIZED} invalid character 'o' in literal null (expecting 'u') (6e6f7065)`],
    [
      'POST',
      '{"metadata":{"name":"a-rather-long-name-to-cut"}',
      `${UNRECOGNIZED} unexpected end of JSON input ({"metadata":{"name":"a-rather- ...)`,
    ],
  ])("%s of malformed JSON %j is 400 with Go's decoder message", async (method, text, message) => {
    const ns = uniqueNs();
    const res = await server.request(method, method === 'POST' ? evPath(ns) : evPath(ns, 'x'), {
      body: text,
      contentType: 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(failure(400, 'BadRequest', message));
  });

  it.each([
    ['application/merge-patch+json'],
    ['application/strategic-merge-patch+json'],
    ['application/json-patch+json'],
  ])('a malformed %s patch is 400 with the syntax error', async (type) => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'p')]);
    const res = await server.request('PATCH', evPath(ns, 'p'), { body: '{bad', contentType: type });
    expect(res.json).toEqual(
      failure(400, 'BadRequest', "invalid character 'b' looking for beginning of object key string"),
    );
  });

  it('a malformed DeleteOptions body is 400 and deletes nothing', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'd')]);
    const res = await server.request('DELETE', evPath(ns, 'd'), {
      body: '{bad',
      contentType: 'application/json',
    });
    expect(res.json).toEqual(
      failure(
        400,
        'BadRequest',
        "couldn't get version/kind; json parse error: invalid character 'b' looking for beginning of object key string",
      ),
    );
    const typed = await server.request('DELETE', evPath(ns, 'd'), { body: { gracePeriodSeconds: 'soon' } });
    expect(typed.json).toEqual(
      failure(
        400,
        'BadRequest',
        'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
      ),
    );
    expect((await server.request('GET', evPath(ns, 'd'))).status).toBe(200);
  });

  it.each([
    [
      'a core apiVersion on the events.k8s.io path',
      { apiVersion: 'v1' },
      'the API version in the data (v1) does not match the expected API version (events.k8s.io/v1)',
    ],
    [
      'another kind',
      { kind: 'Pod' },
      'Pod in version "v1" cannot be handled as a Event: no kind "Pod" is registered for version "events.k8s.io/v1" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"',
    ],
    [
      'a number where a string belongs',
      { metadata: { name: 5 } },
      'Event in version "v1" cannot be handled as a Event: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
    ],
    [
      'a count that does not fit int32',
      { deprecatedCount: 2 ** 31 },
      'Event in version "v1" cannot be handled as a Event: json: cannot unmarshal number 2147483648 into Go struct field Event.deprecatedCount of type int32',
    ],
  ])('%s is 400', async (_t, over, message) => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns), { body: newEvent(ns, 'x', over) });
    expect(res.json).toEqual(failure(400, 'BadRequest', message));
  });

  it('a name in the body that differs from the URL, or none, is 400 on update', async () => {
    const ns = uniqueNs();
    const res = await server.request('PUT', evPath(ns, 'url-name'), { body: newEvent(ns, 'body-name') });
    expect(res.json).toEqual(
      failure(
        400,
        'BadRequest',
        'the name of the object (body-name) does not match the name on the URL (url-name)',
      ),
    );
    const none = await server.request('PUT', evPath(ns, 'url-name'), { body: newEvent(ns, '') });
    expect(none.json).toEqual(
      failure(
        400,
        'BadRequest',
        'the name of the object (url-name based on URL) was undeterminable: name must be provided',
      ),
    );
  });

  it.each([
    [
      'moves it to another namespace',
      { metadata: { namespace: 'elsewhere' } },
      'application/merge-patch+json',
      'the namespace of the object (elsewhere) does not match the namespace on the request (NS)',
    ],
    [
      'renames it',
      { metadata: { name: 'other' } },
      'application/merge-patch+json',
      'the name of the object (other) does not match the name on the URL (p)',
    ],
    [
      'removes its name',
      [{ op: 'remove', path: '/metadata/name' }],
      'application/json-patch+json',
      'the name of the object (p based on URL) was undeterminable: name must be provided',
    ],
  ])('a patch that %s is 400 and changes nothing', async (_t, patch, type, message) => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'p')]);
    const res = await server.request('PATCH', evPath(ns, 'p'), {
      body: JSON.stringify(patch),
      contentType: type,
    });
    expect(res.json).toEqual(failure(400, 'BadRequest', message.replace('NS', ns)));
    expect(body(await server.request('GET', evPath(ns, 'p')))).toEqual(created);
  });

  it('accepts a YAML body and refuses other media types with 415', async () => {
    const ns = uniqueNs();
    const yaml = `apiVersion: v1
kind: Event
metadata:
  name: from-yaml
involvedObject:
  kind: Pod
  namespace: ${ns}
  name: p
reason: Pulled
message: from yaml
`;
    const res = await server.request('POST', corePath(ns), { body: yaml, contentType: 'application/yaml' });
    expect(res.status).toBe(201);
    expect(body(res)).toMatchObject({ metadata: { name: 'from-yaml' }, message: 'from yaml' });
    const plain = await server.request('POST', corePath(ns), { body: '{}', contentType: 'text/plain' });
    expect(plain.json).toEqual(
      failure(
        415,
        'UnsupportedMediaType',
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      ),
    );
  });
});
