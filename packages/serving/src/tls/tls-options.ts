import {
  createSecureContext,
  DEFAULT_CIPHERS,
  type SecureContextOptions,
  type SecureVersion,
} from 'node:tls';
import type { KeyObject } from 'node:crypto';
import { ServingError } from '../errors.js';
import type { SecureServingConfig } from '../secure-serving-options.js';
import { errorMessage, readText, splitCertificates } from './cert-key.js';

/** The TLS settings every secure context of a listener shares (the default one and each SNI one). */
export interface ServerTlsOptions {
  readonly minVersion?: SecureVersion;
  /** Node's `ciphers`: TLS ≤ 1.2 cipher names and TLS 1.3 suite names in one ':' list. */
  readonly ciphers?: string;
  /** Client CA bundle (PEM): certificates are requested and verified against it, never required. */
  readonly ca?: string;
  readonly requestCert: boolean;
  /** Always false: a client without a (valid) certificate may still authenticate another way. */
  readonly rejectUnauthorized: false;
}

type TlsConfig = Pick<SecureServingConfig, 'minVersion' | 'opensslCiphers'>;

/**
 * --tls-min-version, --tls-cipher-suites and the client CA as Node options.
 *
 * Cipher suites: Go applies --tls-cipher-suites to TLS 1.0–1.2 only and always allows every TLS 1.3
 * suite. Node behaves the same when the list names no TLS 1.3 suite; when it does, Node restricts
 * TLS 1.3 to those suites too (stricter than Go, and what the user asked for). A list of only TLS 1.3
 * suites makes Node refuse TLS ≤ 1.2 altogether, as Go does (no TLS 1.2 suite left).
 *
 * VersionTLS10/11: the OpenSSL 3 that Node ships refuses those versions at its default security level,
 * so `@SECLEVEL=0` is added to the cipher list; otherwise the flag would be accepted and have no effect.
 */
export function serverTlsOptions(config: TlsConfig, clientCA?: string): ServerTlsOptions {
  const suites = [...new Set(config.opensslCiphers)];
  const legacy = config.minVersion === 'TLSv1' || config.minVersion === 'TLSv1.1';
  let ciphers: string | undefined = suites.length > 0 ? suites.join(':') : undefined;
  if (legacy && (ciphers === undefined || suites.some((s) => !isTls13Suite(s)))) {
    ciphers = `${ciphers ?? DEFAULT_CIPHERS}:@SECLEVEL=0`;
  }
  try {
    createSecureContext({
      ...(ciphers !== undefined ? { ciphers } : {}),
      ...(config.minVersion ? { minVersion: config.minVersion } : {}),
    });
  } catch (err) {
    throw new ServingError(
      `--tls-cipher-suites: none of the suites can be used with this runtime's TLS library ` +
        `(OpenSSL ${process.versions.openssl}): ${errorMessage(err)}`,
    );
  }
  if (clientCA !== undefined && splitCertificates(clientCA).length === 0) {
    throw new ServingError('the client CA bundle contains no certificates');
  }
  return {
    ...(config.minVersion ? { minVersion: config.minVersion } : {}),
    ...(ciphers !== undefined ? { ciphers } : {}),
    ...(clientCA !== undefined ? { ca: clientCA } : {}),
    requestCert: clientCA !== undefined,
    rejectUnauthorized: false,
  };
}

/** The options for one secure context: the shared settings plus one certificate and key. */
export function contextOptions(
  base: ServerTlsOptions,
  certPem: string,
  keyPem: string,
): SecureContextOptions {
  return {
    cert: certPem,
    key: keyPem,
    ...(base.minVersion ? { minVersion: base.minVersion } : {}),
    ...(base.ciphers !== undefined ? { ciphers: base.ciphers } : {}),
    ...(base.ca !== undefined ? { ca: base.ca } : {}),
  };
}

/**
 * Reads a CA bundle named by a flag (--client-ca-file, --requestheader-client-ca-file); the error
 * is one line naming the flag and the file.
 */
export function readCABundle(flag: string, path: string): string {
  let text: string;
  try {
    text = readText(path);
  } catch (err) {
    throw new ServingError(`--${flag}: ${errorMessage(err)}`);
  }
  const blocks = splitCertificates(text);
  if (blocks.length === 0) throw new ServingError(`--${flag}: ${path} contains no PEM certificates`);
  return blocks.join('');
}

/**
 * A start-up warning when no configured TLS ≤ 1.2 suite fits the serving key (ECDHE-ECDSA suites
 * need an EC key, the others an RSA key): such clients would all fail their handshake. Keel's
 * self-signed certificates are ECDSA, kube's are RSA, so an RSA-only list copied from a kube setup
 * trips over this.
 */
export function cipherKeyMismatch(opensslCiphers: readonly string[], key: KeyObject): string | undefined {
  const tls12 = opensslCiphers.filter((s) => !isTls13Suite(s));
  if (tls12.length === 0) return undefined;
  const ec = key.asymmetricKeyType === 'ec';
  if (tls12.some((s) => s.includes('ECDSA') === ec)) return undefined;
  return (
    `none of the TLS 1.2 cipher suites in --tls-cipher-suites works with the serving certificate's ` +
    `${ec ? 'ECDSA' : 'RSA'} key; only TLS 1.3 clients will be able to connect`
  );
}

function isTls13Suite(openssl: string): boolean {
  return openssl.startsWith('TLS_');
}
