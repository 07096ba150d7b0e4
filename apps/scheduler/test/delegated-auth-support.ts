import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, DaemonProcess, freePort, schedulerEntry, writeKubeconfig } from '@keel/testing';
import { Agent, request } from 'undici';
import { expect } from 'vitest';

// Shared by the delegated-auth*.test.ts files: a connection-config file for an API server, and
// the built scheduler with HTTPS on a free port plus a client for it.

/** A connection-config (JSON, which is YAML) for `server`, trusting `ca`, as `token`. */
export function connectionConfig(dir: string, server: string, ca: string, token = ADMIN_TOKEN): string {
  return writeKubeconfig(join(mkdtempSync(join(dir, 'cc-')), 'connection-config.json'), server, ca, token);
}

export interface Credentials {
  readonly token?: string;
  /** A client certificate and key, as PEM. */
  readonly cert?: { readonly certPem: string; readonly keyPem: string };
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Reply {
  readonly status: number;
  readonly text: string;
  readonly type: string;
  readonly json: unknown;
}

export interface RunningScheduler {
  readonly daemon: DaemonProcess;
  get(path: string, creds?: Credentials): Promise<Reply>;
  close(expectedCode?: number): Promise<void>;
}

/** The built scheduler serving HTTPS on a free port of 127.0.0.1; the client trusts its CA. */
export async function startScheduler(args: readonly string[]): Promise<RunningScheduler> {
  const port = await freePort();
  const certDir = mkdtempSync(join(tmpdir(), 'keel-sched-auth-'));
  const daemon = DaemonProcess.start(schedulerEntry, [
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    `--cert-dir=${certDir}`,
    ...args,
  ]);
  await daemon.waitFor(/"Serving securely"/);
  const ca = readFileSync(join(certDir, 'platform-scheduler-ca.crt'), 'utf8');
  const agents: Agent[] = [];
  return {
    daemon,
    async get(path, creds = {}) {
      const agent = new Agent({
        connect: { ca, ...(creds.cert ? { cert: creds.cert.certPem, key: creds.cert.keyPem } : {}) },
      });
      agents.push(agent);
      const headers: Record<string, string> = { ...creds.headers };
      if (creds.token !== undefined) headers['authorization'] = `Bearer ${creds.token}`;
      const r = await request(`https://127.0.0.1:${port}${path}`, { dispatcher: agent, headers });
      const text = await r.body.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: r.statusCode, text, type: String(r.headers['content-type']), json };
    },
    async close(expectedCode = 0) {
      await Promise.all(agents.map((a) => a.close()));
      expect((await daemon.stop()).code).toBe(expectedCode);
    },
  };
}

export const UNAUTHORIZED = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

export function forbiddenStatus(message: string): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Forbidden',
    details: {},
    code: 403,
  };
}
