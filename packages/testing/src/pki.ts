import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate and its key, as PEM text and as files. */
export interface TestCert {
  readonly certPem: string;
  readonly keyPem: string;
  readonly certFile: string;
  readonly keyFile: string;
}

export interface LeafSpec {
  /** '' for a certificate without a CommonName. */
  readonly cn: string;
  readonly orgs?: readonly string[];
  readonly usage?: 'client' | 'server' | 'none';
  /** Subject alternative names (DNS or IP). */
  readonly hosts?: readonly string[];
  /** Validity from now; -1 gives a certificate that expired yesterday. */
  readonly days?: number;
}

const REQ_CONFIG = '[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = unused\n';

/** Test certificates made with the openssl CLI in a private temporary directory. */
export class TestPKI {
  readonly dir = mkdtempSync(join(tmpdir(), 'keel-pki-'));
  private n = 0;

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  file(name: string, content: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, content);
    return path;
  }

  private openssl(args: string[]): void {
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  }

  private names(name: string): { certFile: string; keyFile: string; csr: string; ext: string; cnf: string } {
    const base = join(this.dir, `${name}-${this.n++}`);
    return {
      certFile: `${base}.crt`,
      keyFile: `${base}.key`,
      csr: `${base}.csr`,
      ext: `${base}.ext`,
      cnf: `${base}.cnf`,
    };
  }

  private read(f: { certFile: string; keyFile: string }): TestCert {
    return { ...f, certPem: readFileSync(f.certFile, 'utf8'), keyPem: readFileSync(f.keyFile, 'utf8') };
  }

  /** A root CA, or an intermediate CA when `parent` is given. */
  ca(cn: string, parent?: TestCert): TestCert {
    const f = this.names(cn.replace(/\W/g, '_'));
    writeFileSync(f.cnf, REQ_CONFIG);
    writeFileSync(
      f.ext,
      'basicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign,cRLSign,digitalSignature\n' +
        'subjectKeyIdentifier = hash\n' +
        (parent ? 'authorityKeyIdentifier = keyid\n' : ''),
    );
    this.csr(f, `/CN=${cn}`);
    this.sign(f, parent, 2);
    return this.read(f);
  }

  /** A leaf certificate signed by `issuer`. */
  leaf(issuer: TestCert, spec: LeafSpec): TestCert {
    const f = this.names(spec.cn.replace(/\W/g, '_') || 'no-cn');
    writeFileSync(f.cnf, REQ_CONFIG);
    const usage = spec.usage ?? 'client';
    const hosts = spec.hosts ?? [];
    writeFileSync(
      f.ext,
      'basicConstraints = critical,CA:FALSE\nkeyUsage = critical,digitalSignature,keyEncipherment\n' +
        'subjectKeyIdentifier = hash\nauthorityKeyIdentifier = keyid\n' +
        (usage === 'none' ? '' : `extendedKeyUsage = ${usage === 'client' ? 'clientAuth' : 'serverAuth'}\n`) +
        (hosts.length > 0
          ? `subjectAltName = ${hosts.map((h) => (/^[\d.]+$/.test(h) ? `IP:${h}` : `DNS:${h}`)).join(',')}\n`
          : ''),
    );
    const subject = [...(spec.orgs ?? []).map((o) => `/O=${o}`), spec.cn === '' ? '' : `/CN=${spec.cn}`].join(
      '',
    );
    this.csr(f, subject || '/O=none');
    this.sign(f, issuer, spec.days ?? 2);
    return this.read(f);
  }

  /** A client certificate: CN is the user ('' for none), each O a group; days -1 is expired. */
  client(issuer: TestCert, cn: string, orgs: readonly string[] = [], days?: number): TestCert {
    return this.leaf(issuer, { cn, orgs, ...(days !== undefined ? { days } : {}) });
  }

  /** A server certificate for 127.0.0.1 under its own CA. */
  serving(): { ca: TestCert; server: TestCert } {
    const ca = this.ca('serving-ca');
    return {
      ca,
      server: this.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1', 'localhost'] }),
    };
  }

  private csr(f: { keyFile: string; csr: string; cnf: string }, subject: string): void {
    this.openssl([
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      f.keyFile,
      '-out',
      f.csr,
      '-subj',
      subject,
      '-config',
      f.cnf,
    ]);
  }

  private sign(
    f: { certFile: string; keyFile: string; csr: string; ext: string },
    issuer: TestCert | undefined,
    days: number,
  ): void {
    const serial = `0x${randomBytes(8).toString('hex')}`;
    const signer = issuer ? ['-CA', issuer.certFile, '-CAkey', issuer.keyFile] : ['-key', f.keyFile];
    this.openssl([
      'x509',
      '-req',
      '-in',
      f.csr,
      ...signer,
      '-set_serial',
      serial,
      '-days',
      String(days),
      '-extfile',
      f.ext,
      '-out',
      f.certFile,
    ]);
  }
}
