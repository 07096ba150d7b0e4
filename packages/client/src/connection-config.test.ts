import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConnectionConfigError, connectionFromUrl, loadConnectionConfig, type Connection } from './index.js';
import { kubeconfig, tempDir, writeConfig } from './testing/fixtures.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const CA = '-----BEGIN CERTIFICATE-----\nca\n-----END CERTIFICATE-----\n';
const CERT = '-----BEGIN CERTIFICATE-----\nclient\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n';

/** A directory with `sub/ca.crt`, `sub/client.crt`, `sub/client.key` and `sub/token`. */
function materialDir(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'ca.crt'), CA);
  writeFileSync(join(dir, 'sub', 'client.crt'), CERT);
  writeFileSync(join(dir, 'sub', 'client.key'), KEY);
  writeFileSync(join(dir, 'sub', 'token'), '  file-token\n');
  return dir;
}

type Plain = Omit<Connection, 'server'> & { server: string };
const plain = (c: Connection): Plain => ({ ...c, server: c.server.href });
const server = 'https://10.0.0.1:6443';

describe('loadConnectionConfig', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, Partial<Plain>]>([
    ['a token', { server }, { token: 't0k' }, { token: 't0k' }],
    [
      'a tokenFile relative to the file, trimmed',
      { server },
      { tokenFile: 'sub/token' },
      { token: 'file-token', tokenFile: '<dir>/sub/token' },
    ],
    ['a token wins over a tokenFile', { server }, { token: 'a', tokenFile: 'sub/token' }, { token: 'a' }],
    [
      'client certificate and key files and a CA file, relative to the file',
      { server, 'certificate-authority': 'sub/ca.crt' },
      { 'client-certificate': 'sub/client.crt', 'client-key': './sub/client.key' },
      { ca: CA, cert: CERT, key: KEY },
    ],
    [
      'inline certificate, key and CA data',
      { server, 'certificate-authority-data': b64(CA) },
      { 'client-certificate-data': b64(CERT), 'client-key-data': b64(KEY) },
      { ca: CA, cert: CERT, key: KEY },
    ],
    [
      'absolute paths',
      { server, 'certificate-authority': '<dir>/sub/ca.crt' },
      { tokenFile: '<dir>/sub/token' },
      { ca: CA, token: 'file-token', tokenFile: '<dir>/sub/token' },
    ],
    ['basic auth', { server }, { username: 'bob', password: 'pw' }, { username: 'bob', password: 'pw' }],
    [
      'insecure-skip-tls-verify and tls-server-name',
      { server, 'insecure-skip-tls-verify': true, 'tls-server-name': 'api.internal' },
      {},
      { insecureSkipTLSVerify: true, serverName: 'api.internal' },
    ],
    [
      'a server with a path prefix',
      { server: 'https://lb:443/platform/' },
      {},
      { server: 'https://lb/platform/' },
    ],
    [
      'no scheme and no TLS settings: http',
      { server: 'localhost:8080' },
      {},
      { server: 'http://localhost:8080/' },
    ],
    [
      'no scheme with a CA: https',
      { server: '10.0.0.1:6443', 'certificate-authority': 'sub/ca.crt' },
      {},
      { server: 'https://10.0.0.1:6443/', ca: CA },
    ],
  ])('%s', (_what, cluster, user, want) => {
    const dir = materialDir();
    const fill = (v: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(v).replaceAll('<dir>', dir)) as Record<string, unknown>;
    const conn = plain(
      loadConnectionConfig(writeConfig(dir, 'config', kubeconfig(fill(cluster), fill(user)))),
    );
    expect(conn).toEqual({ server: 'https://10.0.0.1:6443/', insecureSkipTLSVerify: false, ...fill(want) });
  });

  it('reads JSON, takes the context option over current-context, and its namespace', () => {
    const dir = tempDir();
    const doc = {
      clusters: [
        { name: 'one', cluster: { server: 'https://one:1' } },
        { name: 'two', cluster: { server: 'https://two:2' } },
      ],
      users: [{ name: 'u2', user: { token: 'tok-2' } }],
      contexts: [
        { name: 'first', context: { cluster: 'one' } },
        { name: 'second', context: { cluster: 'two', user: 'u2', namespace: 'team' } },
      ],
      'current-context': 'first',
    };
    const path = writeConfig(dir, 'config.json', doc, true);
    expect(plain(loadConnectionConfig(path))).toEqual({
      server: 'https://one:1/',
      insecureSkipTLSVerify: false,
    });
    expect(plain(loadConnectionConfig(path, { context: 'second' }))).toEqual({
      server: 'https://two:2/',
      insecureSkipTLSVerify: false,
      token: 'tok-2',
      namespace: 'team',
    });
  });

  it('refuses a JSON file with a key given twice, as client-go does', () => {
    const file = join(tempDir(), 'twice');
    writeFileSync(
      file,
      '{"clusters": [{"name": "c", "cluster": {"server": "https://one:1"}}],' +
        ' "contexts": [{"name": "x", "context": {"cluster": "c"}}],' +
        ' "current-context": "x", "current-context": "y"}\n',
    );
    expect(() => loadConnectionConfig(file)).toThrow(/^connection-config .*: not valid YAML or JSON: .+/);
  });

  it('a file that opens with { but is not JSON is read as YAML (a flow mapping), or refused by it', () => {
    const dir = tempDir();
    const flow = join(dir, 'flow');
    writeFileSync(
      flow,
      '{clusters: [{name: c, cluster: {server: "https://one:1"}}], contexts: [{name: x, context: {cluster: c}}],\n' +
        ' current-context: x}\n',
    );
    expect(plain(loadConnectionConfig(flow))).toEqual({
      server: 'https://one:1/',
      insecureSkipTLSVerify: false,
    });
    const bad = join(dir, 'bad');
    writeFileSync(bad, '{"clusters": [1,\n');
    expect(() => loadConnectionConfig(bad)).toThrow(/^connection-config .*: not valid YAML or JSON: .+/);
  });

  it.each([
    ['https://other:7443', 'https://other:7443/'],
    ['other:7443', 'https://other:7443/'],
  ])('--master %s replaces the server but keeps TLS and credentials', (master, want) => {
    const dir = materialDir();
    const path = writeConfig(
      dir,
      'config',
      kubeconfig({ server, 'certificate-authority': 'sub/ca.crt' }, { token: 't' }),
    );
    expect(plain(loadConnectionConfig(path, { master }))).toEqual({
      server: want,
      ca: CA,
      token: 't',
      insecureSkipTLSVerify: false,
    });
  });

  it('--master with a file that has no current-context connects without credentials', () => {
    const path = writeConfig(tempDir(), 'config', { clusters: [] });
    expect(plain(loadConnectionConfig(path, { master: 'https://m:1' }))).toEqual({
      server: 'https://m:1/',
      insecureSkipTLSVerify: false,
    });
  });

  const ctx = (cluster: Record<string, unknown>, user: Record<string, unknown>) => kubeconfig(cluster, user);
  it.each<[string, unknown, string, { context?: string }?]>([
    ['no current-context', { clusters: [] }, 'no current-context is set'],
    ['an unknown context', ctx({ server }, {}), 'context "nope" not found', { context: 'nope' }],
    ['the file is empty', '', 'the file is empty'],
    ['a list at the top level', [1], 'the top level must be a mapping'],
    ['contexts not a list', { contexts: { a: 1 }, 'current-context': 'a' }, 'contexts must be a list'],
    [
      'a missing cluster',
      { contexts: [{ name: 'x', context: { cluster: 'gone' } }], 'current-context': 'x' },
      'cluster "gone" of context "x" not found',
    ],
    [
      'a missing user',
      { ...ctx({ server }, {}), contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'who' } }] },
      'user "who" of context "ctx" not found',
    ],
    ['a cluster without server', ctx({}, {}), 'cluster "c" has no server'],
    [
      'a non-http server',
      ctx({ server: 'ftp://x' }, {}),
      'cluster "c": server "ftp://x" must be an http or https URL',
    ],
    [
      'a bad server URL',
      ctx({ server: 'https://[bad' }, {}),
      'cluster "c": server "https://[bad" is not a valid URL',
    ],
    [
      'a missing certificate file',
      ctx({ server }, { 'client-certificate': 'nope.crt', 'client-key': 'nope.key' }),
      'user "u": client-certificate <dir>/nope.crt: no such file or directory',
    ],
    [
      'a missing tokenFile',
      ctx({ server }, { tokenFile: 'tok' }),
      'user "u": tokenFile <dir>/tok: no such file or directory',
    ],
    [
      'a certificate without key',
      ctx({ server }, { 'client-certificate-data': b64(CERT) }),
      'user "u": client-certificate and client-key must be given together',
    ],
    [
      'both a file and data',
      ctx({ server, 'certificate-authority': 'a', 'certificate-authority-data': b64(CA) }, {}),
      'cluster "c": both certificate-authority and certificate-authority-data are set; use only one',
    ],
    [
      'bad base64',
      ctx({ server, 'certificate-authority-data': 'not base64!' }, {}),
      'cluster "c": certificate-authority-data is not valid base64',
    ],
    [
      'a CA with insecure-skip-tls-verify',
      ctx({ server, 'certificate-authority-data': b64(CA), 'insecure-skip-tls-verify': true }, {}),
      'cluster "c": a certificate authority cannot be combined with insecure-skip-tls-verify',
    ],
    [
      'a non-boolean flag',
      ctx({ server, 'insecure-skip-tls-verify': 'yes' }, {}),
      'cluster "c": insecure-skip-tls-verify must be true or false',
    ],
    ['a non-string token', ctx({ server }, { token: 5 }), 'user "u": token must be a string'],
    [
      'token and basic auth',
      ctx({ server }, { token: 't', username: 'u', password: 'p' }),
      'user "u": both a token and basic auth are set; use only one',
    ],
    [
      'an exec plugin',
      ctx({ server }, { exec: { command: 'x' } }),
      'user "u": exec credential plugins are not supported',
    ],
  ])('%s: one line naming the file', (_what, doc, problem, opts) => {
    const dir = tempDir();
    const path = join(dir, 'config');
    writeFileSync(path, typeof doc === 'string' ? doc : JSON.stringify(doc));
    expect(() => loadConnectionConfig(path, opts)).toThrow(
      new ConnectionConfigError(`connection-config ${path}: ${problem.replaceAll('<dir>', dir)}`),
    );
  });

  it.each([
    ['a missing file', (dir: string) => join(dir, 'absent'), 'no such file or directory'],
    ['a directory', (dir: string) => dir, 'is a directory'],
  ])('%s: one line', (_what, pathOf, problem) => {
    const path = pathOf(tempDir());
    expect(() => loadConnectionConfig(path)).toThrow(
      new ConnectionConfigError(`connection-config ${path}: ${problem}`),
    );
  });

  it('bad YAML: the parser message without its multi-line excerpt', () => {
    const dir = tempDir();
    const path = join(dir, 'config');
    writeFileSync(path, 'clusters: [1\ncurrent-context: x\n');
    let message = '';
    try {
      loadConnectionConfig(path);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(
      new RegExp(`^connection-config ${path}: not valid YAML or JSON: .+ at line 2, column 1$`),
    );
  });
});

describe('connectionFromUrl', () => {
  it.each([
    ['https://10.0.0.1:6443', 'https://10.0.0.1:6443/'],
    ['http://localhost:8080', 'http://localhost:8080/'],
    ['localhost:8080', 'http://localhost:8080/'],
  ])('%s', (master, want) => {
    expect(plain(connectionFromUrl(master))).toEqual({ server: want, insecureSkipTLSVerify: false });
  });

  it.each([
    ['unix:///x', '--master: server "unix:///x" must be an http or https URL'],
    ['https://h/?a=b', '--master: server "https://h/?a=b" must not have a query or fragment'],
  ])('%s is refused in one line', (master, message) => {
    expect(() => connectionFromUrl(master)).toThrow(new ConnectionConfigError(message));
  });
});
