import { isIP } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { NamedCertKey } from '@keel/flags';
import { ServingError } from '../errors.js';
import { certificateNames, errorMessage, readCertKeyFiles, type CertKeyPair } from './cert-key.js';
import { contextOptions, type ServerTlsOptions } from './tls-options.js';

/** One --tls-sni-cert-key entry, loaded. */
export interface SniCertificate {
  readonly certFile: string;
  readonly keyFile: string;
  /** Patterns given after ':' on the flag; empty means "use the certificate's own names". */
  readonly explicitNames: readonly string[];
  /** The certificate's names as kube extracts them: a DNS-like CN and the DNS SANs. */
  readonly extractedNames: readonly string[];
  readonly pair: CertKeyPair;
}

/**
 * Loads every --tls-sni-cert-key pair. The first failure is raised as one line naming the flag
 * value and the reason (kube: "failed to load SNI cert and key: ...").
 */
export function loadSniCertificates(entries: readonly NamedCertKey[]): SniCertificate[] {
  return entries.map((e) => {
    let pair: CertKeyPair;
    try {
      pair = readCertKeyFiles(e.certFile, e.keyFile);
    } catch (err) {
      throw new ServingError(
        `--tls-sni-cert-key ${JSON.stringify(`${e.certFile},${e.keyFile}`)}: failed to load SNI cert and key: ${errorMessage(err)}`,
      );
    }
    return {
      certFile: e.certFile,
      keyFile: e.keyFile,
      explicitNames: e.names,
      extractedNames: extractNames(pair),
      pair,
    };
  });
}

/**
 * kube's getCertificateNames: the CN when it is `*` or a DNS-1123 subdomain (after a leading `*.`)
 * and not an IP, and every DNS SAN. IP SANs are left out on purpose, as in kube: SNI never carries
 * an IP (an IP can still be given as an explicit pattern).
 */
export function extractNames(pair: CertKeyPair): string[] {
  const names = certificateNames(pair.leaf.raw);
  const cn = names.commonName;
  const validDomain = cn === '*' || isDNS1123Subdomain(cn.startsWith('*.') ? cn.slice(2) : cn);
  const fromCN = validDomain && isIP(cn) === 0 ? [cn] : [];
  return [...fromCN, ...names.dnsNames];
}

/**
 * kube's BuildNamedCertificates: explicit patterns overwrite extracted names, and within each kind
 * an earlier flag wins over a later one.
 */
export function buildNameMap<T>(
  entries: readonly {
    readonly explicitNames: readonly string[];
    readonly extractedNames: readonly string[];
    readonly value: T;
  }[],
): Map<string, T> {
  const byName = new Map<string, T>();
  const explicit = new Map<string, T>();
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    for (const n of e.explicitNames) explicit.set(n.toLowerCase(), e.value);
    // A pair's own names count only when the flag gave it no patterns.
    if (e.explicitNames.length === 0) for (const n of e.extractedNames) byName.set(n.toLowerCase(), e.value);
  }
  for (const [n, v] of explicit) byName.set(n, v);
  return byName;
}

/**
 * Go's Config.getCertificate lookup: the exact name, then the name with its first label replaced by
 * `*` (so `*.example.com` matches exactly one label). Undefined means "use the default certificate".
 */
export function lookupName<T>(byName: ReadonlyMap<string, T>, serverName: string): T | undefined {
  const name = serverName.toLowerCase().replace(/\.+$/, '');
  if (name === '') return undefined;
  const exact = byName.get(name);
  if (exact !== undefined) return exact;
  const labels = name.split('.');
  labels[0] = '*';
  return byName.get(labels.join('.'));
}

/**
 * Node's SNICallback for the loaded certificates. Every context carries the listener's shared TLS
 * settings, because the context chosen here replaces the default one for the whole connection.
 * Node calls it only when the client sends a server name; clients that send none (IP literals)
 * get the default certificate, so an explicit IP pattern only helps clients that put the IP in SNI.
 */
export function sniCallback(
  certs: readonly SniCertificate[],
  base: ServerTlsOptions,
): ((servername: string, cb: (err: Error | null, ctx?: SecureContext) => void) => void) | undefined {
  if (certs.length === 0) return undefined;
  const byName = buildNameMap(
    certs.map((c) => ({
      ...c,
      value: createSecureContext(contextOptions(base, c.pair.certPem, c.pair.keyPem)),
    })),
  );
  return (servername, cb) => cb(null, lookupName(byName, servername));
}

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_LABEL}(\\.${DNS1123_LABEL})*$`);

function isDNS1123Subdomain(s: string): boolean {
  return s.length <= 253 && DNS1123_SUBDOMAIN.test(s);
}
