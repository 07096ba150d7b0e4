import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectionConfigError } from '@keel/client';
import { describe, expect, it } from 'vitest';
import { clientOptions, inClusterConnection, resolveConnection } from './connection.js';

const CA = '-----BEGIN CERTIFICATE-----\nca\n-----END CERTIFICATE-----\n';

function dir(): string {
  return mkdtempSync(join(tmpdir(), 'keel-sched-conn-'));
}

function kubeconfig(server: string): string {
  const d = dir();
  const file = join(d, 'scheduler.conf');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: c',
      'contexts: [{name: c, context: {cluster: k, user: u}}]',
      `clusters: [{name: k, cluster: {server: "${server}", certificate-authority-data: ${Buffer.from(CA).toString('base64')}}}]`,
      'users: [{name: u, user: {token: secret}}]',
      '',
    ].join('\n'),
  );
  return file;
}

const noCluster = () => {
  throw new ConnectionConfigError(
    'unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined',
  );
};

describe('resolveConnection', () => {
  it('reads the connection-config file', () => {
    const r = resolveConnection(kubeconfig('https://10.0.0.1:6443'), '', noCluster);
    expect([r.connection.server.href, r.connection.token, r.connection.ca, r.warnings]).toEqual([
      'https://10.0.0.1:6443/',
      'secret',
      CA,
      [],
    ]);
  });

  it('lets --master override the server of the file and keeps its credentials', () => {
    const r = resolveConnection(kubeconfig('https://10.0.0.1:6443'), 'https://127.0.0.1:7443', noCluster);
    expect([r.connection.server.href, r.connection.token]).toEqual(['https://127.0.0.1:7443/', 'secret']);
  });

  it('connects to --master alone without credentials', () => {
    const r = resolveConnection('', 'https://127.0.0.1:7443', noCluster);
    expect([r.connection.server.href, r.connection.token]).toEqual(['https://127.0.0.1:7443/', undefined]);
  });

  it('falls back to the in-cluster configuration with a warning', () => {
    const r = resolveConnection('', '', () => ({
      server: new URL('https://10.96.0.1:443'),
      insecureSkipTLSVerify: false,
    }));
    expect(r.connection.server.href).toBe('https://10.96.0.1/');
    expect(r.warnings).toEqual([
      'Neither --connection-config nor --master was specified. Using the inClusterConfig. This might not work.',
    ]);
  });

  it('fails with one line when there is no configuration at all', () => {
    expect(() => resolveConnection('', '', noCluster)).toThrow(
      new ConnectionConfigError(
        'invalid configuration: no configuration has been provided: give --connection-config or --master ' +
          '(unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined)',
      ),
    );
  });

  it('names the file when the connection-config cannot be read', () => {
    expect(() => resolveConnection('/nonexistent/keel.conf', '', noCluster)).toThrow(
      'connection-config /nonexistent/keel.conf: no such file or directory',
    );
  });
});

describe('inClusterConnection', () => {
  it('uses the service host and port, the mounted token and CA', () => {
    const d = dir();
    writeFileSync(join(d, 'token'), 'sa-token\n');
    writeFileSync(join(d, 'ca.crt'), CA);
    const c = inClusterConnection({
      env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' },
      tokenFile: join(d, 'token'),
      caFile: join(d, 'ca.crt'),
    });
    expect([c.server.href, c.token, c.tokenFile, c.ca]).toEqual([
      'https://[fd00::1]/',
      'sa-token',
      join(d, 'token'),
      CA,
    ]);
  });

  it('needs both environment variables', () => {
    expect(() =>
      inClusterConnection({ env: { KUBERNETES_SERVICE_HOST: '10.0.0.1' }, tokenFile: '/x', caFile: '/y' }),
    ).toThrow(
      'unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined',
    );
  });

  it('needs the token file', () => {
    expect(() =>
      inClusterConnection({
        env: { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' },
        tokenFile: '/nonexistent/token',
        caFile: '/nonexistent/ca.crt',
      }),
    ).toThrow('unable to load in-cluster configuration: /nonexistent/token: no such file or directory');
  });
});

describe('clientOptions', () => {
  it("applies client-go's defaults for zero and keeps a negative QPS (no throttling)", () => {
    expect(clientOptions({ qps: 0, burst: 0 }, 'ua')).toEqual({
      userAgent: 'ua',
      qps: 5,
      burst: 10,
      timeoutMs: 0,
    });
    expect(clientOptions({ qps: 50, burst: 100 }, 'ua', 7)).toEqual({
      userAgent: 'ua',
      qps: 50,
      burst: 100,
      timeoutMs: 7,
    });
    expect(clientOptions({ qps: -1, burst: 100 }, 'ua').qps).toBe(-1);
  });
});
