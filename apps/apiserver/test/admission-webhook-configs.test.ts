import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique, type Json } from './support/core.js';
import { configBody, MUTATING, VALIDATING } from './support/admission-webhooks.js';

// admissionregistration.k8s.io/v1 webhook configurations as objects: defaults, validation with
// the real messages, generation, table and discovery. Nothing is called here.

let server: TestApiServer;

beforeAll(async () => {
  server = await TestApiServer.start();
  await server.ready();
});
afterAll(async () => {
  await server.stop();
});

const hook = (over: Json = {}): Json => ({
  name: 'check.keel.test',
  clientConfig: { url: 'https://127.0.0.1:9443/check' },
  rules: [
    { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'pods/status'] },
  ],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...over,
});

const invalidMessage = (kind: string, name: string, errs: string[]) =>
  `${kind}.admissionregistration.k8s.io "${name}" is invalid: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`;

describe('webhook configurations', () => {
  it('applies the v1 defaults and starts at generation 1', async () => {
    const name = unique('defaults');
    const res = await server.request('POST', MUTATING, { body: configBody('Mutating', name, [hook()]) });
    expect(res.status, res.text).toBe(201);
    const created = res.json as Json;
    expect((created['metadata'] as Json)['generation']).toBe(1);
    expect((created['webhooks'] as Json[])[0]).toEqual({
      name: 'check.keel.test',
      clientConfig: { url: 'https://127.0.0.1:9443/check' },
      rules: [
        {
          operations: ['CREATE'],
          apiGroups: [''],
          apiVersions: ['v1'],
          resources: ['pods', 'pods/status'],
          scope: '*',
        },
      ],
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      sideEffects: 'None',
      timeoutSeconds: 10,
      admissionReviewVersions: ['v1'],
      reinvocationPolicy: 'Never',
    });
    // A change to the webhooks is a new generation; a label is not.
    const path = `${MUTATING}/${name}`;
    const merge = { contentType: 'application/merge-patch+json' };
    const relabelled = await server.request('PATCH', path, {
      ...merge,
      body: { metadata: { labels: { a: 'b' } } },
    });
    expect(((relabelled.json as Json)['metadata'] as Json)['generation']).toBe(1);
    const changed = await server.request('PATCH', path, {
      ...merge,
      body: { webhooks: [hook({ timeoutSeconds: 5 })] },
    });
    expect(((changed.json as Json)['metadata'] as Json)['generation']).toBe(2);
  });

  it('refuses invalid webhooks with the real messages', async () => {
    const name = unique('invalid');
    const res = await server.request('POST', VALIDATING, {
      body: configBody('Validating', name, [
        hook({ name: 'short', sideEffects: undefined, admissionReviewVersions: [], timeoutSeconds: 31 }),
        hook({
          clientConfig: { url: 'http://example.com/x?a=b' },
          failurePolicy: 'Sometimes',
          sideEffects: 'Some',
        }),
        hook({
          clientConfig: {},
          rules: [{ operations: ['GET'], apiGroups: ['*', 'apps'], apiVersions: ['v1'], resources: [] }],
        }),
      ]),
    });
    expect(res.status).toBe(422);
    const body = res.json as Json;
    expect(body['reason']).toBe('Invalid');
    expect(body['message']).toBe(
      invalidMessage('ValidatingWebhookConfiguration', name, [
        'webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
        'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
        'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
        'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
        'webhooks[1].failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
        'webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
        `webhooks[1].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
        'webhooks[1].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
        'webhooks[2].rules[0].operations[0]: Unsupported value: "GET": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
        `webhooks[2].rules[0].apiGroups: Invalid value: ["*","apps"]: if '*' is present, must not specify other API groups`,
        'webhooks[2].rules[0].resources: Required value',
        'webhooks[2].clientConfig: Required value: exactly one of url or service is required',
        'webhooks[2].name: Duplicate value: "check.keel.test"',
      ]),
    );
  });

  it('accepts a service reference and defaults its port', async () => {
    const name = unique('service');
    const res = await server.request('POST', VALIDATING, {
      body: configBody('Validating', name, [
        hook({ clientConfig: { service: { namespace: 'default', name: 'hook', path: '/check' } } }),
      ]),
    });
    expect(res.status, res.text).toBe(201);
    const webhook = ((res.json as Json)['webhooks'] as Json[])[0] as Json;
    expect(webhook['clientConfig']).toEqual({
      service: { namespace: 'default', name: 'hook', path: '/check', port: 443 },
    });
    expect(webhook['reinvocationPolicy']).toBeUndefined();
  });

  it('prints the number of webhooks in tables', async () => {
    const name = unique('table');
    expect(
      (
        await server.request('POST', VALIDATING, {
          body: configBody('Validating', name, [hook(), hook({ name: 'two.keel.test' })]),
        })
      ).status,
    ).toBe(201);
    const res = await server.request('GET', `${VALIDATING}/${name}`, {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    const table = res.json as {
      columnDefinitions: { name: string; type: string }[];
      rows: { cells: unknown[] }[];
    };
    expect(table.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Webhooks', 'integer'],
      ['Age', 'string'],
    ]);
    expect(table.rows[0]?.cells.slice(0, 2)).toEqual([name, 2]);
  });

  it('are listed in discovery', async () => {
    const res = await server.request('GET', '/apis/admissionregistration.k8s.io/v1');
    const resources = (res.json as { resources: Json[] }).resources;
    expect(
      resources.map((r) => [r['name'], r['kind'], r['namespaced'], r['storageVersionHash'], r['categories']]),
    ).toEqual([
      [
        'mutatingwebhookconfigurations',
        'MutatingWebhookConfiguration',
        false,
        'Sqi0GUgDaX0=',
        ['api-extensions'],
      ],
      [
        'validatingwebhookconfigurations',
        'ValidatingWebhookConfiguration',
        false,
        'B0wHjQmsGNk=',
        ['api-extensions'],
      ],
    ]);
  });
});
