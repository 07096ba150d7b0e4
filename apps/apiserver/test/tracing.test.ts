import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiServerEntry, runNode, TestApiServer, TestOtlpCollector, USER_TOKEN } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'keel-tracing-'));
function configFile(name: string, doc: Record<string, unknown>): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'TracingConfiguration', ...doc }),
  );
  return path;
}
const CMS = '/api/v1/namespaces/default/configmaps';
const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;

describe('--tracing-config-file', () => {
  let collector: TestOtlpCollector;
  const servers: TestApiServer[] = [];
  async function start(doc: Record<string, unknown>): Promise<TestApiServer> {
    const file = configFile(`${servers.length}.json`, { endpoint: collector.endpoint, ...doc });
    // The SDK's batch delay (5 s by default) shortened, so the spans arrive while the test waits.
    const server = await TestApiServer.start({
      args: [`--tracing-config-file=${file}`],
      env: { ...process.env, OTEL_BSP_SCHEDULE_DELAY: '200' },
    });
    servers.push(server);
    await server.ready();
    return server;
  }
  beforeAll(async () => {
    collector = await TestOtlpCollector.start();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await collector?.stop();
  });

  it('exports a span per request, named as upstream, with the store calls beneath it', async () => {
    const server = await start({ samplingRatePerMillion: 1_000_000 });
    const name = `traced-${randomBytes(3).toString('hex')}`;
    const r = await server.request('POST', CMS, { body: { metadata: { name }, data: { a: 'b' } } });
    expect(r.status).toBe(201);
    const auditID = String(r.headers['audit-id']);
    const request = await collector.waitFor((s) => s.attributes['audit-id'] === auditID);
    expect(request).toMatchObject({
      name: 'POST /api/v1/namespaces/{:namespace}/configmaps',
      parentSpanId: '',
      kind: 2, // SERVER
      attributes: { 'http.method': 'POST', 'http.target': CMS, 'http.status_code': 201 },
      resource: { 'service.name': 'apiserver' },
    });
    expect(String(request.resource['service.instance.id'])).toMatch(/^apiserver-[a-z2-7]{26}$/);
    const create = await collector.waitFor(
      (s) => s.name === 'Create store3' && s.attributes['key'] === `/configmaps/default/${name}`,
    );
    expect([create.traceId, create.parentSpanId]).toEqual([request.traceId, request.spanId]);
    // A request for no resource is named by its method alone.
    const version = await server.request('GET', '/version');
    await collector.waitFor(
      (s) => s.attributes['audit-id'] === String(version.headers['audit-id']) && s.name === 'GET',
    );
  });

  it('samples nothing at rate 0, but joins a sampled trace a trusted caller sends', async () => {
    const server = await start({ samplingRatePerMillion: 0 });
    const untraced = await server.request('GET', `${CMS}/none`);
    const traceId = randomBytes(16).toString('hex');
    const parent = randomBytes(8).toString('hex');
    const joined = await server.request('GET', `${CMS}/none`, {
      headers: { traceparent: traceparent(traceId, parent) },
    });
    const span = await collector.waitFor(
      (s) => s.attributes['audit-id'] === String(joined.headers['audit-id']),
    );
    expect([span.traceId, span.parentSpanId]).toEqual([traceId, parent]);
    // By now the batch that would have held the unsampled request's span has gone out.
    expect(
      collector.spans.some((s) => s.attributes['audit-id'] === String(untraced.headers['audit-id'])),
    ).toBe(false);
  });

  it("starts a new trace for an untrusted caller, linking the caller's", async () => {
    const server = await start({ samplingRatePerMillion: 1_000_000 });
    const traceId = randomBytes(16).toString('hex');
    const parent = randomBytes(8).toString('hex');
    const r = await server.request('GET', `${CMS}/none`, {
      token: USER_TOKEN,
      headers: { traceparent: traceparent(traceId, parent) },
    });
    const span = await collector.waitFor((s) => s.attributes['audit-id'] === String(r.headers['audit-id']));
    expect(span.traceId).not.toBe(traceId);
    expect(span.parentSpanId).toBe('');
    expect(span.links).toEqual([{ traceId, spanId: parent }]);
  });

  it.each([
    [
      'an endpoint that is not host:port',
      { endpoint: 'http://collector:4317' },
      'endpoint: expected host:port, got "http://collector:4317"',
    ],
    [
      'a rate over a million',
      { samplingRatePerMillion: 1_000_001 },
      'samplingRatePerMillion: must be between 0 and 1000000, got 1000001',
    ],
    ['an unknown field', { sampling: 5 }, 'sampling: unknown field'],
  ])('refuses %s at start-up with one line naming the file and field', async (_name, doc, problem) => {
    const file = configFile(`bad-${randomBytes(3).toString('hex')}.json`, doc);
    const r = await runNode(apiServerEntry, [`--tracing-config-file=${file}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error: tracing config file ${file}: ${problem}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
