/**
 * Go's crypto/tls cipher suite names, as --tls-cipher-suites accepts them, mapped to the OpenSSL
 * names Node's `tls` module takes. The split into preferred and insecure follows Go's
 * `tls.CipherSuites()` / `tls.InsecureCipherSuites()`, which is what the real daemons print in --help.
 */
export interface CipherSuite {
  /** The Go (IANA) name users type. */
  readonly goName: string;
  /** The name OpenSSL (and so Node's `ciphers` option) knows the same suite by. */
  readonly openssl: string;
  /** Listed by Go's InsecureCipherSuites(); still accepted, as the real daemons accept them. */
  readonly insecure: boolean;
  /** A TLS 1.3 suite (OpenSSL uses the IANA name for those). */
  readonly tls13: boolean;
}

type Row = readonly [goName: string, openssl: string];

const PREFERRED: readonly Row[] = [
  ['TLS_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256'],
  ['TLS_AES_256_GCM_SHA384', 'TLS_AES_256_GCM_SHA384'],
  ['TLS_CHACHA20_POLY1305_SHA256', 'TLS_CHACHA20_POLY1305_SHA256'],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'ECDHE-ECDSA-AES128-SHA'],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'ECDHE-ECDSA-AES128-GCM-SHA256'],
  ['TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', 'ECDHE-ECDSA-AES256-SHA'],
  ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'ECDHE-ECDSA-AES256-GCM-SHA384'],
  // The short CHACHA20 names are the legacy spellings the real daemons still accept.
  ['TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305', 'ECDHE-ECDSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-ECDSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'ECDHE-RSA-AES128-SHA'],
  ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'ECDHE-RSA-AES128-GCM-SHA256'],
  ['TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA', 'ECDHE-RSA-AES256-SHA'],
  ['TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'ECDHE-RSA-AES256-GCM-SHA384'],
  ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', 'ECDHE-RSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-RSA-CHACHA20-POLY1305'],
  ['TLS_RSA_WITH_AES_128_CBC_SHA', 'AES128-SHA'],
  ['TLS_RSA_WITH_AES_128_GCM_SHA256', 'AES128-GCM-SHA256'],
  ['TLS_RSA_WITH_AES_256_CBC_SHA', 'AES256-SHA'],
  ['TLS_RSA_WITH_AES_256_GCM_SHA384', 'AES256-GCM-SHA384'],
];

// RC4 and 3DES suites are absent from the OpenSSL 3 build Node ships; a list made only of them
// makes Node refuse to create the TLS context ("no cipher match"), just as a Go build without
// them would fail the handshake.
const INSECURE: readonly Row[] = [
  ['TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256', 'ECDHE-ECDSA-AES128-SHA256'],
  ['TLS_ECDHE_ECDSA_WITH_RC4_128_SHA', 'ECDHE-ECDSA-RC4-SHA'],
  ['TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA', 'ECDHE-RSA-DES-CBC3-SHA'],
  ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256', 'ECDHE-RSA-AES128-SHA256'],
  ['TLS_ECDHE_RSA_WITH_RC4_128_SHA', 'ECDHE-RSA-RC4-SHA'],
  ['TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'DES-CBC3-SHA'],
  ['TLS_RSA_WITH_AES_128_CBC_SHA256', 'AES128-SHA256'],
  ['TLS_RSA_WITH_RC4_128_SHA', 'RC4-SHA'],
];

function toSuite([goName, openssl]: Row, insecure: boolean): CipherSuite {
  return { goName, openssl, insecure, tls13: goName === openssl };
}

/** Every accepted name, preferred ones first, each group sorted as the real --help lists them. */
export const cipherSuites: readonly CipherSuite[] = [
  ...PREFERRED.map((r) => toSuite(r, false)),
  ...INSECURE.map((r) => toSuite(r, true)),
];

const byGoName: ReadonlyMap<string, CipherSuite> = new Map(cipherSuites.map((s) => [s.goName, s]));

/** The suite a Go name stands for, or undefined for a name Go does not know. */
export function lookupCipherSuite(goName: string): CipherSuite | undefined {
  return byGoName.get(goName);
}

/** Go name to OpenSSL name, for callers that only need the mapping. */
export const goToOpensslCipher: ReadonlyMap<string, string> = new Map(
  cipherSuites.map((s) => [s.goName, s.openssl]),
);

export const preferredCipherNames: readonly string[] = cipherSuites
  .filter((s) => !s.insecure)
  .map((s) => s.goName);
export const insecureCipherNames: readonly string[] = cipherSuites
  .filter((s) => s.insecure)
  .map((s) => s.goName);
