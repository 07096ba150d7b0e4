import { getCiphers } from 'node:tls';
import { describe, expect, it } from 'vitest';
import {
  cipherSuites,
  goToOpensslCipher,
  insecureCipherNames,
  lookupCipherSuite,
  preferredCipherNames,
} from './index.js';

describe('cipher suite table', () => {
  it.each([
    ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'ECDHE-RSA-AES128-GCM-SHA256'],
    ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'ECDHE-ECDSA-AES256-GCM-SHA384'],
    ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-RSA-CHACHA20-POLY1305'],
    ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', 'ECDHE-RSA-CHACHA20-POLY1305'],
    ['TLS_RSA_WITH_AES_128_CBC_SHA', 'AES128-SHA'],
    ['TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'DES-CBC3-SHA'],
    ['TLS_AES_256_GCM_SHA384', 'TLS_AES_256_GCM_SHA384'],
  ])('%s -> %s', (go, openssl) => {
    expect(goToOpensslCipher.get(go)).toBe(openssl);
    expect(lookupCipherSuite(go)?.openssl).toBe(openssl);
  });

  it('knows every name once: 17 preferred plus 2 legacy CHACHA20 aliases, 8 insecure', () => {
    const names = cipherSuites.map((s) => s.goName);
    expect(new Set(names).size).toBe(names.length);
    expect(preferredCipherNames).toHaveLength(19);
    expect(insecureCipherNames).toEqual([
      'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256',
      'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA',
      'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA',
      'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256',
      'TLS_ECDHE_RSA_WITH_RC4_128_SHA',
      'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
      'TLS_RSA_WITH_AES_128_CBC_SHA256',
      'TLS_RSA_WITH_RC4_128_SHA',
    ]);
  });

  it('marks exactly the three TLS 1.3 suites', () => {
    expect(cipherSuites.filter((s) => s.tls13).map((s) => s.goName)).toEqual([
      'TLS_AES_128_GCM_SHA256',
      'TLS_AES_256_GCM_SHA384',
      'TLS_CHACHA20_POLY1305_SHA256',
    ]);
  });

  it('maps every suite without RC4 or 3DES to a cipher this Node build offers', () => {
    const offered = new Set(getCiphers());
    const missing = cipherSuites
      .filter((s) => !/RC4|3DES/.test(s.goName))
      .filter((s) => !offered.has(s.openssl.toLowerCase()))
      .map((s) => s.goName);
    expect(missing).toEqual([]);
  });

  it('does not know OpenSSL spellings or junk', () => {
    expect(lookupCipherSuite('ECDHE-RSA-AES128-GCM-SHA256')).toBeUndefined();
    expect(lookupCipherSuite('')).toBeUndefined();
  });
});
