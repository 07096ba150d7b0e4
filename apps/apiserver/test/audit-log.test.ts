import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { apiServerEntry, runNode, TestApiServer, USER_TOKEN } from '@keel/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENTS, eventBody } from './support/fixtures.js';
import { exited, signal } from './support/lifecycle.js';

// The audit log sink end to end: formats, rotation, the blocking modes, and start-up errors.

const dir = mkdtempSync(join(tmpdir(), 'keel-audit-log-'));
let n = 0;
const file = (name: string, text: string) => {
  const p = join(dir, `${n++}-${name}`);
  writeFileSync(p, text);
  return p;
};
const CMS = '/api/v1/namespaces/default/configmaps';
const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/readyz*"]
- level: RequestResponse
  resources: [{resources: ["configmaps"]}]
- level: Metadata
`;

const running: TestApiServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop('SIGKILL')));
});

async function start(args: string[]): Promise<TestApiServer> {
  const server = await TestApiServer.start({
    args: [`--audit-policy-file=${file('policy.yaml', POLICY)}`, ...args],
  });
  running.push(server);
  await server.ready();
  return server;
}

async function stop(server: TestApiServer): Promise<void> {
  signal(server);
  expect((await exited(server)).code).toBe(0);
}

const auditID = (r: { headers: Record<string, string | string[] | undefined> }) =>
  String(r.headers['audit-id']);

describe('audit log sink', () => {
  it('json: one Event per line', async () => {
    const log = join(dir, 'json', 'audit.log');
    const server = await start([`--audit-log-path=${log}`]);
    const r = await server.request('POST', EVENTS, { body: eventBody('logged') });
    expect(r.status).toBe(201);
    await stop(server);
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    const events = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e['auditID'] === auditID(r));
    expect(events.map((e) => e['stage'])).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(Object.keys(events[1] ?? {}).slice(0, 8)).toEqual([
      'kind',
      'apiVersion',
      'level',
      'auditID',
      'stage',
      'requestURI',
      'verb',
      'user',
    ]);
    expect(events[1]).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      verb: 'create',
    });
  });

  it('--audit-log-truncate-enabled drops the bodies of an event over --audit-log-truncate-max-event-size', async () => {
    const log = join(dir, 'truncate.log');
    const server = await start([
      `--audit-log-path=${log}`,
      '--audit-log-truncate-enabled',
      '--audit-log-truncate-max-event-size=3000',
    ]);
    const body = (name: string, value: string) =>
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: value } });
    const big = await server.request('POST', CMS, { body: body('big', 'x'.repeat(5000)) });
    const small = await server.request('POST', CMS, { body: body('small', 'x') });
    expect([big.status, small.status]).toEqual([201, 201]);
    await stop(server);
    const complete = (r: typeof big) =>
      readFileSync(log, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((e) => e['auditID'] === auditID(r) && e['stage'] === 'ResponseComplete');
    expect(complete(big)?.['annotations']).toMatchObject({ 'audit.k8s.io/truncated': 'true' });
    expect(complete(big)).not.toHaveProperty('requestObject');
    expect(complete(big)).not.toHaveProperty('responseObject');
    // Under the limit, the RequestResponse level keeps both bodies.
    expect(complete(small)).toHaveProperty('requestObject');
    expect(complete(small)).toHaveProperty('responseObject');
  });

  it("a refused request is audited with the authorizer's forbid and reason", async () => {
    const log = join(dir, 'forbid.log');
    const server = await start([`--audit-log-path=${log}`, '--authorization-mode=AlwaysDeny']);
    const r = await server.request('GET', EVENTS, { token: USER_TOKEN });
    expect(r.status).toBe(403);
    await stop(server);
    const events = readFileSync(log, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e['auditID'] === auditID(r));
    expect(events.map((e) => e['stage'])).toEqual(['RequestReceived', 'ResponseComplete']);
    // Authorization runs after RequestReceived was recorded, so only the later stage has it.
    expect(events[0]).not.toHaveProperty('annotations');
    expect(events[1]).toMatchObject({
      user: { username: 'alice' },
      annotations: {
        'authorization.k8s.io/decision': 'forbid',
        'authorization.k8s.io/reason': expect.any(String) as string,
      },
      responseStatus: { status: 'Failure', reason: 'Forbidden', code: 403 },
    });
  });

  it('--audit-log-path=- writes to standard out', async () => {
    const server = await start(['--audit-log-path=-']);
    const r = await server.request('GET', `${EVENTS}/x`);
    await stop(server);
    const events = server.process.stdout
      .split('\n')
      .filter((l) => l.includes(auditID(r)))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => e['stage'])).toEqual(['RequestReceived', 'ResponseComplete']);
  });

  it('legacy: the one-line text format', async () => {
    const log = join(dir, 'legacy.log');
    const server = await start([`--audit-log-path=${log}`, '--audit-log-format=legacy']);
    const r = await server.request('GET', `${EVENTS}?limit=5`, {
      headers: { 'user-agent': 'kubectl/v1.34.1' },
    });
    await stop(server);
    const lines = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.includes(auditID(r)));
    expect(lines).toHaveLength(2);
    const tail =
      ` AUDIT: id="${auditID(r)}" stage="%STAGE%" ip="127.0.0.1" method="list" user="admin" ` +
      'groups="\\"system:masters\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" ' +
      `user-agent="kubectl/v1.34.1" namespace="default" uri="${EVENTS}?limit=5" response=`;
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d) AUDIT: /);
    expect(lines[0]?.slice(lines[0].indexOf(' '))).toBe(
      `${tail.replace('%STAGE%', 'RequestReceived')}"<deferred>"`,
    );
    expect(lines[1]?.slice(lines[1].indexOf(' '))).toBe(
      `${tail.replace('%STAGE%', 'ResponseComplete')}"200"`,
    );
  });

  it('rotation: lumberjack names, at most --audit-log-maxbackup backups, gzipped with --audit-log-compress', async () => {
    for (const compress of [false, true]) {
      const sub = join(dir, `rotate-${compress}`);
      const server = await start([
        `--audit-log-path=${join(sub, 'audit.log')}`,
        '--audit-log-maxsize=1',
        '--audit-log-maxbackup=2',
        ...(compress ? ['--audit-log-compress'] : []),
        '--audit-log-mode=batch',
        '--audit-log-batch-max-wait=10ms',
      ]);
      // Each create logs its 300 kB request and response: about 600 kB per event.
      for (let i = 0; i < 6; i++) {
        const r = await server.request('POST', CMS, {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `big-${i}` },
            data: { k: 'x'.repeat(300_000) },
          },
        });
        expect(r.status).toBe(201);
      }
      await stop(server);
      const names = readdirSync(sub).sort();
      const backup = compress
        ? /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log\.gz$/
        : /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/;
      expect(names.filter((f) => f !== 'audit.log')).toHaveLength(2);
      for (const f of names.filter((x) => x !== 'audit.log')) {
        expect(f).toMatch(backup);
        const text = compress
          ? gunzipSync(readFileSync(join(sub, f))).toString()
          : readFileSync(join(sub, f), 'utf8');
        // Whole lines only: a rotation never splits an event.
        for (const line of text.trimEnd().split('\n'))
          expect(JSON.parse(line)).toMatchObject({ kind: 'Event' });
        expect(text.length).toBeLessThanOrEqual(1024 * 1024);
      }
    }
  });

  it('rotation: --audit-log-maxage removes backups older than that many days, by the name', async () => {
    const sub = join(dir, 'rotate-age');
    mkdirSync(sub, { recursive: true });
    const stamp = (d: Date) => d.toISOString().replace(/:/g, '-').replace(/Z$/, '');
    const old = `audit-${stamp(new Date(Date.now() - 3 * 86_400_000))}.log`;
    const young = `audit-${stamp(new Date(Date.now() - 3_600_000))}.log`;
    writeFileSync(join(sub, old), '{}\n');
    writeFileSync(join(sub, young), '{}\n');
    const server = await start([
      `--audit-log-path=${join(sub, 'audit.log')}`,
      '--audit-log-maxsize=1',
      '--audit-log-maxage=2',
    ]);
    for (let i = 0; i < 2; i++) {
      const r = await server.request('POST', CMS, {
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `age-${i}` },
          data: { k: 'x'.repeat(300_000) },
        },
      });
      expect(r.status).toBe(201);
    }
    await stop(server);
    const names = readdirSync(sub);
    expect(names).not.toContain(old);
    expect(names).toContain(young);
    // The young one, the current file, and the one the rotation made.
    expect(names).toHaveLength(3);
  });

  it('blocking-strict fails the request when the event cannot be written; blocking does not', async () => {
    // Every write to /dev/full fails with ENOSPC.
    const strict = await start(['--audit-log-path=/dev/full', '--audit-log-mode=blocking-strict']);
    const r = await strict.request('GET', `${EVENTS}/x`);
    expect([r.status, r.text]).toEqual([
      500,
      `Internal Server Error: "${EVENTS}/x": failed to store audit event\n`,
    ]);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    await stop(strict);
    const blocking = await start(['--audit-log-path=/dev/full']);
    expect((await blocking.request('GET', `${EVENTS}/x`)).status).toBe(404);
    await stop(blocking);
  });

  it('without a policy file nothing is written', async () => {
    const log = join(dir, 'no-policy.log');
    const server = await TestApiServer.start({ args: [`--audit-log-path=${log}`] });
    running.push(server);
    await server.ready();
    expect((await server.request('GET', EVENTS)).status).toBe(200);
    await stop(server);
    expect(readdirSync(dir)).not.toContain('no-policy.log');
  });

  const base = ['--bind-address=127.0.0.1', '--secure-port=1', `--cert-dir=${join(dir, 'certs')}`];
  it.each([
    [
      () => [
        `--audit-policy-file=${file('bad.yaml', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n')}`,
      ],
      /^audit policy file \/.*bad\.yaml: rules\[0\]\.level: expected one of None, Metadata, Request, RequestResponse, got string "Everything"$/,
    ],
    [
      () => [
        `--audit-policy-file=${file('ok.yaml', POLICY)}`,
        `--audit-webhook-config-file=${file('kubeconfig.yaml', 'current-context: nowhere\n')}`,
      ],
      /^--audit-webhook-config-file: connection-config \/.*kubeconfig\.yaml: context "nowhere" not found$/,
    ],
    [
      () => [
        `--audit-policy-file=${file('ok.yaml', POLICY)}`,
        `--audit-log-path=${join(file('plain', 'x'), 'audit.log')}`,
      ],
      /^--audit-log-path: cannot open .*plain\/audit\.log for writing: E[A-Z]+: /,
    ],
  ] as [() => string[], RegExp][])(
    'bad audit configuration %# exits 1 with one Error: line',
    async (args, message) => {
      const r = await runNode(apiServerEntry, [...base, ...args()]);
      expect(r.code).toBe(1);
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('Error: '));
      expect(errors, r.stderr).toHaveLength(1);
      expect(errors[0]?.slice('Error: '.length)).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
  );
});
