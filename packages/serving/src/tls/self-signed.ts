import 'reflect-metadata';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { discardLogger, type Logger } from '@keel/log';
import { ServingError } from '../errors.js';
import {
  canonicalIP,
  certificateCovers,
  errorMessage,
  readCertKeyFiles,
  readText,
  splitCertificates,
  type CertKeyPair,
} from './cert-key.js';
import { generateCA, generateLeaf } from './x509-gen.js';

/** File names inside --cert-dir. */
export interface SelfSignedFileNames {
  readonly cert: string;
  readonly key: string;
  /** The CA alone, so clients can be pointed at it to trust the serving certificate. */
  readonly ca: string;
}

/** kube-apiserver's pair name is `apiserver`; the CA file is a Keel addition. */
export const apiserverCertFileNames: SelfSignedFileNames = {
  cert: 'apiserver.crt',
  key: 'apiserver.key',
  ca: 'ca.crt',
};

/** `<pair>.crt`/`<pair>.key`; the CA gets the pair's prefix so two daemons can share one --cert-dir. */
export function pairFileNames(pairName: string): SelfSignedFileNames {
  return { cert: `${pairName}.crt`, key: `${pairName}.key`, ca: `${pairName}-ca.crt` };
}

export interface SelfSignedHostsInput {
  readonly bindAddress: string;
  readonly advertiseAddress?: string;
  readonly externalHostname?: string;
  /** kube-apiserver adds its service names (`platform.default.svc`, ...) and the service IP here. */
  readonly alternateNames?: readonly string[];
}

/**
 * The names a generated serving certificate covers: kube's public address, then the bind address
 * (or `localhost` when binding all interfaces) and the alternates. Keel also always adds the
 * loopback names, so local clients can verify the certificate whatever the bind address.
 */
export function selfSignedHosts(input: SelfSignedHostsInput): string[] {
  const { bindAddress } = input;
  const unspecified = bindAddress === '' || bindAddress === '0.0.0.0' || bindAddress === '::';
  const hosts = [
    input.advertiseAddress ?? '',
    unspecified ? 'localhost' : bindAddress,
    input.externalHostname ?? '',
    ...(input.alternateNames ?? []),
    'localhost',
    '127.0.0.1',
    '::1',
  ];
  return uniqueHosts(hosts);
}

export interface EnsureSelfSignedOptions {
  /** '' keeps the pair in memory only (the scheduler's default). */
  readonly certDir: string;
  /** IPs and DNS names the certificate must cover; the first names the certificates (kube's "public address"). */
  readonly hosts: readonly string[];
  readonly fileNames?: SelfSignedFileNames;
  readonly now?: Date;
  readonly logger?: Logger;
}

export interface SelfSignedCert {
  /** The serving certificate followed by the CA certificate, as written to the cert file. */
  readonly certPem: string;
  readonly keyPem: string;
  readonly caPem: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  readonly caFile?: string;
  /** False when a pair already in --cert-dir was reused. */
  readonly generated: boolean;
}

const HOUR_MS = 3600_000;
const VALIDITY_MS = 365 * 24 * HOUR_MS;
/** A reused certificate must stay valid at least this long, or a restarted daemon would soon serve an expired one. */
const MIN_REMAINING_MS = 24 * HOUR_MS;
/** kube names its CA `<host>-ca@<unix seconds>`: how a pair this code generated is recognised. */
const GENERATED_CA = /-ca@\d+$/;

/**
 * kube's MaybeDefaultWithSelfSignedCerts: reuse the pair in `certDir` if there is one, otherwise
 * generate a CA and a serving certificate signed by it. Unlike kube, a pair this code generated
 * earlier is regenerated when it has (nearly) expired or no longer covers every host; a pair put
 * there by someone else is never overwritten (kube's rule), only warned about.
 */
export async function ensureSelfSignedCert(opts: EnsureSelfSignedOptions): Promise<SelfSignedCert> {
  const log = opts.logger ?? discardLogger;
  const now = opts.now ?? new Date();
  const hosts = uniqueHosts(opts.hosts);
  // Taken (or dropped) whether or not a pair is generated below: it serves one call at most.
  const prepared = takeAhead(hosts, now);
  const names = opts.fileNames ?? apiserverCertFileNames;
  const files =
    opts.certDir === ''
      ? undefined
      : {
          cert: join(opts.certDir, names.cert),
          key: join(opts.certDir, names.key),
          ca: join(opts.certDir, names.ca),
        };
  if (files && existsSync(files.cert) && existsSync(files.key)) {
    const reused = reuse(files, hosts, now, log);
    if (reused) return reused;
  }
  const fresh = await (prepared ?? generate(hosts, now));
  if (!files) {
    log.info('Generated self-signed cert in-memory');
    return { ...fresh, generated: true };
  }
  try {
    mkdirSync(opts.certDir, { recursive: true, mode: 0o755 });
    writeAtomic(files.ca, fresh.caPem, 0o644);
    writeAtomic(files.key, fresh.keyPem, 0o600);
    writeAtomic(files.cert, fresh.certPem, 0o644);
  } catch (err) {
    throw new ServingError(`--cert-dir: unable to write the self-signed certificate: ${errorMessage(err)}`);
  }
  log.info(`Generated self-signed cert (${files.cert}, ${files.key})`);
  return { ...fresh, certFile: files.cert, keyFile: files.key, caFile: files.ca, generated: true };
}

type Files = { readonly cert: string; readonly key: string; readonly ca: string };

/** The existing pair, or undefined when a pair generated here earlier should be replaced. */
function reuse(files: Files, hosts: readonly string[], now: Date, log: Logger): SelfSignedCert | undefined {
  const ours = generatedHere(files.cert);
  let pair: CertKeyPair;
  try {
    pair = readCertKeyFiles(files.cert, files.key);
  } catch (err) {
    if (ours) {
      log.info('Regenerating self-signed cert', { cert: files.cert, reason: errorMessage(err) });
      return undefined;
    }
    throw new ServingError(
      `--cert-dir: unable to load ${files.cert} and ${files.key}: ${errorMessage(err)} ` +
        '(remove both files to have a self-signed pair generated)',
    );
  }
  const problem = unusable(pair, hosts, now);
  if (problem !== undefined) {
    if (ours) {
      log.info('Regenerating self-signed cert', { cert: files.cert, reason: problem });
      return undefined;
    }
    log.warning('Using certificate from --cert-dir anyway', { cert: files.cert, problem });
  }
  const caPem =
    readCA(files.ca) ?? (pair.chain.length > 0 ? pair.chain.map((c) => c.toString()).join('') : pair.certPem);
  return {
    certPem: pair.certPem,
    keyPem: pair.keyPem,
    caPem,
    certFile: files.cert,
    keyFile: files.key,
    ...(existsSync(files.ca) ? { caFile: files.ca } : {}),
    generated: false,
  };
}

/** Why the pair cannot serve `hosts` at `now`, or undefined when it can. */
function unusable(pair: CertKeyPair, hosts: readonly string[], now: Date): string | undefined {
  const notBefore = new Date(pair.leaf.validFrom);
  const notAfter = new Date(pair.leaf.validTo);
  if (now < notBefore) return `not valid before ${notBefore.toISOString()}`;
  if (notAfter.getTime() - now.getTime() < MIN_REMAINING_MS) return `expires at ${notAfter.toISOString()}`;
  const missing = hosts.filter((h) => !certificateCovers(pair.leaf, h));
  if (missing.length > 0) return `does not cover ${missing.join(', ')}`;
  return undefined;
}

function generatedHere(certFile: string): boolean {
  try {
    const [first] = splitCertificates(readText(certFile));
    if (first === undefined) return false;
    const issuerCN = new x509.X509Certificate(first).issuerName.getField('CN');
    return issuerCN.some((cn) => GENERATED_CA.test(cn));
  } catch {
    return false;
  }
}

function readCA(path: string): string | undefined {
  try {
    const blocks = splitCertificates(readText(path));
    return blocks.length > 0 ? blocks.join('') : undefined;
  } catch {
    return undefined;
  }
}

export type GeneratedPair = { certPem: string; keyPem: string; caPem: string };

/** A pair generated before it was asked for (generateAhead), for the next generation only. */
let ahead:
  | { readonly hosts: readonly string[]; readonly at: number; readonly pair: Promise<GeneratedPair> }
  | undefined;

/** How long a pair generated ahead may wait: it is dated from its generation. */
const AHEAD_MAX_AGE_MS = 60_000;

/**
 * Generates the pair the next ensureSelfSignedCert for `hosts` would (same names, dated now), for
 * a daemon with time to spare before it knows its arguments (apps/keel's launcher): that call then
 * takes it instead of generating one while it starts. Only the next ensureSelfSignedCert looks at
 * it, and takes it only for the same hosts within a minute; either way it is dropped then.
 */
export function generateAhead(hosts: readonly string[]): Promise<GeneratedPair> {
  const unique = uniqueHosts(hosts);
  const now = new Date();
  const pair = generate(unique, now);
  ahead = { hosts: unique, at: now.getTime(), pair };
  return pair;
}

function takeAhead(hosts: readonly string[], now: Date): Promise<GeneratedPair> | undefined {
  const prepared = ahead;
  ahead = undefined;
  if (prepared === undefined) return undefined;
  const age = now.getTime() - prepared.at;
  const same = prepared.hosts.length === hosts.length && prepared.hosts.every((h, i) => h === hosts[i]);
  if (!same || age < 0 || age > AHEAD_MAX_AGE_MS) return undefined;
  // Should it have failed, the generation it stood in for runs now.
  return prepared.pair.catch(() => generate(hosts, now));
}

async function generate(hosts: readonly string[], now: Date): Promise<GeneratedPair> {
  const host = hosts[0] ?? 'localhost';
  const unix = Math.floor(now.getTime() / 1000);
  // kube backdates by an hour so that a peer with a slightly slow clock accepts the certificate.
  const notBefore = new Date(now.getTime() - HOUR_MS);
  const ca = await generateCA({
    commonName: `${host}-ca@${unix}`,
    notBefore,
    notAfter: new Date(now.getTime() + VALIDITY_MS),
  });
  const leaf = await generateLeaf(ca, {
    commonName: `${host}@${unix}`,
    hosts,
    notBefore,
    notAfter: new Date(notBefore.getTime() + VALIDITY_MS),
    usage: 'server',
  });
  return { certPem: leaf.certPem + ca.certPem, keyPem: leaf.keyPem, caPem: ca.certPem };
}

function uniqueHosts(hosts: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const h of hosts) {
    const v = isIP(h) !== 0 ? canonicalIP(h) : h.toLowerCase();
    if (v !== '') seen.add(v);
  }
  return [...seen];
}

// A crash between writing and renaming must never leave a truncated key or certificate behind.
function writeAtomic(path: string, data: string, mode: number): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, data, { mode });
  renameSync(tmp, path);
}
