import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config-error.js';
import { TestPKI } from '@keel/testing';
import { loadTokenFile, TokenFileAuthenticator } from './token-file.js';

const pki = new TestPKI();
afterAll(() => pki.cleanup());

describe('loadTokenFile', () => {
  it.each<[string, string, Record<string, { name: string; uid: string; groups: string[] }>, number]>([
    ['three columns', 'tok1,alice,1\n', { tok1: { name: 'alice', uid: '1', groups: [] } }, 0],
    ['one group', 'tok1,alice,1,dev\n', { tok1: { name: 'alice', uid: '1', groups: ['dev'] } }, 0],
    [
      'quoted groups',
      'tok1,alice,1,"dev,ops"\n',
      { tok1: { name: 'alice', uid: '1', groups: ['dev', 'ops'] } },
      0,
    ],
    [
      'unquoted groups are separate columns (extra ignored)',
      'tok1,alice,1,dev,ops\n',
      { tok1: { name: 'alice', uid: '1', groups: ['dev'] } },
      0,
    ],
    [
      'an empty groups column is the group ""',
      'tok1,alice,1,\n',
      { tok1: { name: 'alice', uid: '1', groups: [''] } },
      0,
    ],
    ['empty token skipped', ',alice,1\ntok2,bob,2\n', { tok2: { name: 'bob', uid: '2', groups: [] } }, 1],
    [
      'duplicate: last wins',
      'tok1,alice,1\ntok1,bob,2\n',
      { tok1: { name: 'bob', uid: '2', groups: [] } },
      1,
    ],
    [
      'blank lines and CRLF',
      '\r\ntok1,alice,1\r\n\r\n',
      { tok1: { name: 'alice', uid: '1', groups: [] } },
      0,
    ],
    ['quoted token with a comma', '"a,b",alice,1\n', { 'a,b': { name: 'alice', uid: '1', groups: [] } }, 0],
    ['empty file', '', {}, 0],
  ])('%s', (_name, text, expected, warnings) => {
    const loaded = loadTokenFile(pki.file('tokens.csv', text));
    expect(
      Object.fromEntries(
        [...loaded.tokens].map(([k, v]) => [k, { name: v.name, uid: v.uid, groups: v.groups }]),
      ),
    ).toEqual(expected);
    expect(loaded.warnings).toHaveLength(warnings);
  });

  it('words the warnings as kube does', () => {
    const path = pki.file('warn.csv', ',a,1\ntok,b,2\ntok,c,3\n');
    expect(loadTokenFile(path).warnings).toEqual([
      `empty token has been found in token file '${path}', record number '1'`,
      `duplicate token has been found in token file '${path}', record number '3'`,
    ]);
  });

  it.each([
    [
      'two columns',
      'tok,alice\n',
      (p: string) =>
        `--token-auth-file: token file '${p}' must have at least 3 columns (token, user name, user uid), found 2`,
    ],
    [
      'one short row among good ones',
      'a,b,c\nd\n',
      (p: string) =>
        `--token-auth-file: token file '${p}' must have at least 3 columns (token, user name, user uid), found 1`,
    ],
    [
      'bad quoting',
      'to"k,alice,1\n',
      (p: string) => `--token-auth-file: ${p}: parse error on line 1, column 3: bare " in non-quoted-field`,
    ],
  ])('%s is a ConfigError', (_name, text, message) => {
    const path = pki.file('bad.csv', text);
    expect(() => loadTokenFile(path)).toThrow(new ConfigError(message(path)));
  });

  it('names the flag and path when the file cannot be read', () => {
    const missing = join(pki.dir, 'missing.csv');
    expect(() => loadTokenFile(missing)).toThrow(
      new ConfigError(`--token-auth-file: open ${missing}: no such file or directory`),
    );
    const dir = join(pki.dir, 'a-dir');
    mkdirSync(dir);
    expect(() => loadTokenFile(dir)).toThrow(
      new ConfigError(`--token-auth-file: read ${dir}: is a directory`),
    );
  });

  it.skipIf(process.getuid?.() === 0)('reports permission problems', () => {
    const path = pki.file('secret.csv', 'a,b,c\n');
    chmodSync(path, 0o000);
    expect(() => loadTokenFile(path)).toThrow(
      new ConfigError(`--token-auth-file: open ${path}: permission denied`),
    );
  });
});

describe('TokenFileAuthenticator', () => {
  const auth = new TokenFileAuthenticator(
    loadTokenFile(pki.file('t.csv', 'tok1,alice,1,"dev,ops"\n')).tokens,
  );

  it.each([
    ['tok1', { user: { name: 'alice', uid: '1', groups: ['dev', 'ops'], extra: {} } }],
    ['tok2', undefined],
    ['TOK1', undefined],
    ['', undefined],
  ])('%j', async (token, expected) => {
    expect(await auth.authenticateToken(token)).toEqual(expected);
  });
});
