import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, runNode, schedulerEntry, TestApiServer } from '@keel/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionConfig, startScheduler, type RunningScheduler } from './delegated-auth-support.js';

// --version=vX.Y.Z on the built scheduler: it runs and reports that version, in its start-up log
// and in the User-Agent of every client it calls the API server with (seen in the server's audit
// log), and --version after it prints it.

const REPORTED = 'v1.33.7-keel.1';

interface AuditEvent {
  /** Left out when the request sent none. */
  readonly userAgent?: string;
  readonly requestURI: string;
}

describe('--version=vX.Y.Z (built keel-scheduler)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keel-sched-version-'));
  let api: TestApiServer | undefined;
  let scheduler: RunningScheduler | undefined;
  afterAll(async () => {
    await scheduler?.close();
    await api?.stop();
  });

  it('--version after it prints it and quits', async () => {
    const r = await runNode(schedulerEntry, [`--version=${REPORTED}`, '--version']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, `Keel ${REPORTED}\n`, '']);
  });

  it('names it in the start-up log and in the User-Agent of its API clients', async () => {
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const log = join(dir, 'audit.log');
    api = await TestApiServer.start({ args: [`--audit-policy-file=${policy}`, `--audit-log-path=${log}`] });
    await api.ready();
    const cc = connectionConfig(dir, api.url, api.ca);
    scheduler = await startScheduler([
      `--version=${REPORTED}`,
      `--connection-config=${cc}`,
      `--authentication-connection-config=${cc}`,
    ]);
    expect(scheduler.daemon.stderr).toMatch(`"Starting Keel scheduler" version="${REPORTED}"`);
    // A bearer token makes the secure port ask the API server with a TokenReview.
    expect((await scheduler.get('/metrics', { token: ADMIN_TOKEN })).status).toBe(200);

    const fromScheduler = (): AuditEvent[] =>
      (existsSync(log) ? readFileSync(log, 'utf8') : '')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as AuditEvent)
        .filter((e) => e.userAgent?.startsWith('keel-scheduler/'));
    const seen = (uri: RegExp) => fromScheduler().some((e) => uri.test(e.requestURI));
    const deadline = Date.now() + 15_000;
    while (!(seen(/^\/api\/v1\/pods\?/) && seen(/tokenreviews/)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const agents = new Set(fromScheduler().map((e) => e.userAgent ?? ''));
    expect(seen(/^\/api\/v1\/pods\?/) && seen(/tokenreviews/)).toBe(true);
    expect([...agents].filter((a) => !a.startsWith(`keel-scheduler/${REPORTED}`))).toEqual([]);
    expect(agents).toContain(`keel-scheduler/${REPORTED}`);
    expect(agents).toContain(`keel-scheduler/${REPORTED}/scheduler`);
  });
});
