import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DaemonProcess, freePort, runNode, specOptions } from '@keel/testing';
import { describe, expect, it } from 'vitest';

// These run the BUILT entry point with plain node: vitest resolves CommonJS named imports that
// real Node rejects, so only this catches a daemon that cannot start outside the test runner.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const entry = join(root, 'apps', 'apiserver', 'dist', 'main.js');
const certDir = () => mkdtempSync(join(tmpdir(), 'keel-smoke-'));

describe('keel-apiserver command line (built, plain node)', () => {
  it('--help lists every API server option of the spec, in named sections', async () => {
    const r = await runNode(entry, ['--help']);
    expect(r.code).toBe(0);
    const names = specOptions(root).apiserver;
    expect(names.length).toBeGreaterThan(140);
    for (const name of names) {
      expect(r.stdout, `--${name}`).toMatch(new RegExp(`--${name}[ =\\[\\n]`));
    }
    for (const section of [
      'Generic',
      'Store',
      'Secure serving',
      'Auditing',
      'Features',
      'Authentication',
      'Authorization',
      'Admission',
      'Metrics',
      'Logs',
      'Global',
    ]) {
      expect(r.stdout).toContain(`\n${section} flags:\n`);
    }
    expect(r.stdout).toMatch(/--event-ttl duration +.*\(default 1h0m0s\)/);
    expect(r.stdout).toMatch(/--secure-port int +.*\(default 6443\)/);
    expect(r.stdout).toMatch(/--service-node-port-range portRange +.*\(default 30000-32767\)/);
  });

  it('--version prints the version; --version=raw the build information', async () => {
    const plain = await runNode(entry, ['--version']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^Keel v\d+\.\d+\.\d+\n$/);
    const raw = await runNode(entry, ['--version=raw']);
    expect(JSON.parse(raw.stdout)).toMatchObject({ major: '1', compiler: 'tsc' });
  });

  it.each([
    [['--secure-port=0'], /--secure-port 0 must be between 1 and 65535/],
    [['--goaway-chance=0.5'], /--goaway-chance/],
    [['--authorization-mode=ABAC'], /--authorization-policy-file/],
    [['--authorization-mode=Webhook'], /--authorization-webhook-config-file/],
    [['--oidc-client-id=x'], /--oidc-issuer-url/],
    [['--tls-cert-file=/x.crt'], /--tls-private-key-file/],
    [['--service-account-signing-key-file=/k'], /--service-account-issuer/],
    [
      ['--enable-priority-and-fairness', '--max-requests-inflight=0', '--max-mutating-requests-inflight=0'],
      /--max-requests-inflight and --max-mutating-requests-inflight sum to 0; with --enable-priority-and-fairness they must sum to a positive number/,
    ],
    [['--tls-cipher-suites=FOO'], /FOO/],
    [['--tls-min-version=VersionTLS99'], /VersionTLS99/],
    [['--audit-log-mode=sometimes'], /sometimes/],
    [['--store-servers=http://127.0.0.1:1'], /--store-servers/],
    [
      ['--event-ttl=5x'],
      /invalid argument "5x" for "--event-ttl" flag: time: unknown unit "x" in duration "5x"/,
    ],
    [['--feature-gates=NoSuchGate=true'], /unrecognized feature gate: NoSuchGate/],
    [
      ['--logging-format=json'],
      /--logging-format=json is not supported by Keel: Keel writes only the text format/,
    ],
    [['--service-node-port-range=2-1'], /--service-node-port-range/],
    [['--bind-address=not-an-ip'], /--bind-address/],
    [
      ['--encryption-provider-config=/nonexistent/enc.yaml'],
      /encryption provider config file \/nonexistent\/enc.yaml: cannot be read: ENOENT/,
    ],
    [['--watch-cache-sizes=pods#x'], /--watch-cache-sizes "pods#x" has a size that is not an integer/],
    [
      ['--http2-max-streams-per-connection=-1'],
      /--http2-max-streams-per-connection must not be negative, got -1/,
    ],
  ])('refuses %j with a clear line and exit 1', async (args, message) => {
    const r = await runNode(entry, args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/^Error: /m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports all problems at once', async () => {
    const r = await runNode(entry, ['--bogus', '--secure-port=abc', '--oidc-client-id=x', '--event-ttl=0s']);
    expect(r.code).toBe(1);
    expect(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('Error: ')).length,
    ).toBeGreaterThanOrEqual(4);
  });

  it('warns about a deprecated flag and names its replacement', async () => {
    const d = DaemonProcess.start(entry, [
      '--master-service-namespace=other',
      '--bind-address=127.0.0.1',
      `--secure-port=${await freePort()}`,
      `--cert-dir=${certDir()}`,
    ]);
    await d.waitFor(/Starting Keel API server/);
    expect(d.stderr).toContain('Flag --master-service-namespace has been deprecated');
    expect((await d.stop()).code).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'runs until %s, then exits 0, logging its flags at -v=1',
    async (sig) => {
      const d = DaemonProcess.start(entry, [
        '-v=1',
        '--bind-address=127.0.0.1',
        `--secure-port=${await freePort()}`,
        `--cert-dir=${certDir()}`,
      ]);
      await d.waitFor(/Starting Keel API server/);
      expect(d.stderr).toMatch(/"FLAG: --event-ttl=\\"1h0m0s\\""/);
      expect(d.stderr).toMatch(
        /^I\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ [\w.-]+:\d+\] "Starting Keel API server"/m,
      );
      expect((await d.stop(sig)).code).toBe(0);
    },
  );
});
