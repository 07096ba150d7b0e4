import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config-error.js';
import { TestPKI, type TestCert } from '@keel/testing';
import { parseCertificates, readCABundleFile, verifyClientChain } from './cert-chain.js';

const pki = new TestPKI();
afterAll(() => pki.cleanup());

const root = pki.ca('root');
const otherRoot = pki.ca('other-root');
const mid = pki.ca('intermediate', root);
const x = (c: TestCert) => new X509Certificate(c.certPem);
const DAY = 24 * 3600_000;

describe('verifyClientChain', () => {
  const roots = [x(root)];
  const UNKNOWN = 'x509: certificate signed by unknown authority';
  const EKU = 'x509: certificate specifies an incompatible key usage';

  it.each<[string, () => { leaf: TestCert; others?: TestCert[]; roots?: TestCert[] }, string | undefined]>([
    ['leaf signed by a root', () => ({ leaf: pki.leaf(root, { cn: 'a' }) }), undefined],
    [
      'leaf without extended key usage',
      () => ({ leaf: pki.leaf(root, { cn: 'a', usage: 'none' }) }),
      undefined,
    ],
    ['leaf for servers only', () => ({ leaf: pki.leaf(root, { cn: 'a', usage: 'server' }) }), EKU],
    ['leaf of another CA', () => ({ leaf: pki.leaf(otherRoot, { cn: 'a' }) }), UNKNOWN],
    [
      'through a presented intermediate',
      () => ({ leaf: pki.leaf(mid, { cn: 'a' }), others: [mid] }),
      undefined,
    ],
    ['intermediate not presented', () => ({ leaf: pki.leaf(mid, { cn: 'a' }) }), UNKNOWN],
    [
      'intermediate in the bundle itself',
      () => ({ leaf: pki.leaf(mid, { cn: 'a' }), roots: [mid] }),
      undefined,
    ],
    [
      'the root presented as an extra certificate changes nothing',
      () => ({ leaf: pki.leaf(otherRoot, { cn: 'a' }), others: [otherRoot] }),
      UNKNOWN,
    ],
    ['a bundle certificate presented as the leaf', () => ({ leaf: root }), undefined],
    [
      'signed by a non-CA certificate',
      () => {
        const notCA = pki.leaf(root, { cn: 'not-a-ca' });
        return { leaf: pki.leaf(notCA, { cn: 'a' }), others: [notCA] };
      },
      UNKNOWN,
    ],
    ['expired leaf', () => ({ leaf: pki.leaf(root, { cn: 'a', days: -1 }) }), 'expired'],
  ])('%s', (_name, make, expected) => {
    const { leaf, others = [], roots: bundle } = make();
    const err = verifyClientChain({ leaf: x(leaf), others: others.map(x) }, bundle ? bundle.map(x) : roots);
    if (expected === 'expired')
      expect(err).toMatch(/^x509: certificate has expired or is not yet valid: current time .* is after /);
    else expect(err).toBe(expected);
  });

  it.each([
    ['before', -3 * DAY],
    ['after', 3 * DAY],
  ])('reports a leaf outside its validity (%s)', (word, offset) => {
    const leaf = x(pki.leaf(root, { cn: 'a' }));
    const now = new Date(Date.now() + offset);
    const bound = new Date(word === 'before' ? leaf.validFrom : leaf.validTo)
      .toISOString()
      .replace('.000Z', 'Z');
    expect(verifyClientChain({ leaf, others: [] }, roots, now)).toBe(
      `x509: certificate has expired or is not yet valid: current time ${now.toISOString().replace(/\.\d{3}Z$/, 'Z')} is ${word} ${bound}`,
    );
  });

  it('reports an expired intermediate', () => {
    const oldMid = pki.ca('old-intermediate', root);
    // The intermediate lives 2 days, the leaf 30: in 5 days only the intermediate has expired.
    const leaf = pki.leaf(oldMid, { cn: 'a', days: 30 });
    const err = verifyClientChain(
      { leaf: x(leaf), others: [x(oldMid)] },
      roots,
      new Date(Date.now() + 5 * DAY),
    );
    expect(err).toMatch(/ is after /);
  });
});

describe('readCABundleFile', () => {
  it('reads every certificate of a bundle', () => {
    const path = pki.file('bundle.crt', `${root.certPem}junk\n${otherRoot.certPem}`);
    expect(parseCertificates(readCABundleFile('client-ca-file', path)).map((c) => c.subject)).toEqual([
      'CN=root',
      'CN=other-root',
    ]);
  });

  it.each([
    [
      'a missing file',
      () => join(pki.dir, 'nope.crt'),
      (p: string) => `--client-ca-file: open ${p}: no such file or directory`,
    ],
    [
      'a file without certificates',
      () => pki.file('empty.crt', 'hello\n'),
      (p: string) => `--client-ca-file: ${p} contains no PEM certificates`,
    ],
  ])('%s is a ConfigError', (_name, make, message) => {
    const path = make();
    expect(() => readCABundleFile('client-ca-file', path)).toThrow(new ConfigError(message(path)));
    expect(() => readCABundleFile('client-ca-file', path)).toThrow(ConfigError);
  });

  it('rejects a certificate block that does not parse', () => {
    const path = pki.file('broken.crt', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    expect(() => readCABundleFile('requestheader-client-ca-file', path)).toThrow(
      /^--requestheader-client-ca-file: /,
    );
  });
});
