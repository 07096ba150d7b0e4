import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCA, generateLeaf, type CertSpec, type GeneratedCert } from '../tls/x509-gen.js';

const DAY_MS = 24 * 3600_000;

export function tempDir(prefix = 'keel-serving-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function testCA(commonName = 'test-ca'): Promise<GeneratedCert> {
  const now = Date.now();
  return generateCA({ commonName, notBefore: new Date(now - DAY_MS), notAfter: new Date(now + DAY_MS) });
}

export function testLeaf(
  ca: GeneratedCert,
  spec: Partial<CertSpec> & Pick<CertSpec, 'commonName'>,
): Promise<GeneratedCert> {
  const now = Date.now();
  return generateLeaf(ca, { notBefore: new Date(now - DAY_MS), notAfter: new Date(now + DAY_MS), ...spec });
}

/** Writes a leaf (with its CA appended, as --tls-cert-file expects) and its key; returns the paths. */
export function writePair(
  dir: string,
  name: string,
  leaf: GeneratedCert,
  ca?: GeneratedCert,
): { certFile: string; keyFile: string } {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  writeFileSync(certFile, leaf.certPem + (ca?.certPem ?? ''));
  writeFileSync(keyFile, leaf.keyPem, { mode: 0o600 });
  return { certFile, keyFile };
}
