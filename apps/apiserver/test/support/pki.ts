import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A trimmed copy of packages/auth/src/testing/pki.ts, which that package does not export:
// CAs and client certificates made with the openssl CLI.

export interface TestCert {
  readonly certPem: string;
  readonly keyPem: string;
  readonly certFile: string;
  readonly keyFile: string;
}

const REQ_CONFIG = '[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = unused\n';

export class TestPKI {
  readonly dir = mkdtempSync(join(tmpdir(), 'keel-e2e-pki-'));
  private n = 0;

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Writes a file in the PKI's directory and returns its path. */
  file(name: string, content: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, content);
    return path;
  }

  ca(cn: string): TestCert {
    return this.make(
      cn,
      `/CN=${cn}`,
      undefined,
      2,
      'basicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign,cRLSign,digitalSignature\n',
    );
  }

  /** A client certificate: CN is the user ('' for none), each O a group; days -1 is expired. */
  client(issuer: TestCert, cn: string, orgs: readonly string[] = [], days = 2): TestCert {
    const subject = [...orgs.map((o) => `/O=${o}`), cn === '' ? '' : `/CN=${cn}`].join('') || '/O=none';
    return this.make(
      cn || 'no-cn',
      subject,
      issuer,
      days,
      'basicConstraints = critical,CA:FALSE\nkeyUsage = critical,digitalSignature,keyEncipherment\nextendedKeyUsage = clientAuth\n',
    );
  }

  private make(
    name: string,
    subject: string,
    issuer: TestCert | undefined,
    days: number,
    ext: string,
  ): TestCert {
    const base = join(this.dir, `${name.replace(/\W/g, '_')}-${this.n++}`);
    const f = {
      certFile: `${base}.crt`,
      keyFile: `${base}.key`,
      csr: `${base}.csr`,
      ext: `${base}.ext`,
      cnf: `${base}.cnf`,
    };
    writeFileSync(f.cnf, REQ_CONFIG);
    writeFileSync(f.ext, ext);
    openssl(
      ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'].concat([
        '-keyout',
        f.keyFile,
        '-out',
        f.csr,
        '-subj',
        subject,
        '-config',
        f.cnf,
      ]),
    );
    const signer = issuer ? ['-CA', issuer.certFile, '-CAkey', issuer.keyFile] : ['-key', f.keyFile];
    const serial = `0x${randomBytes(8).toString('hex')}`;
    // `x509 -req` accepts a negative -days: the certificate expired before it was made.
    openssl(
      ['x509', '-req', '-in', f.csr, ...signer, '-set_serial', serial, '-days', String(days)].concat([
        '-extfile',
        f.ext,
        '-out',
        f.certFile,
      ]),
    );
    return {
      certFile: f.certFile,
      keyFile: f.keyFile,
      certPem: readFileSync(f.certFile, 'utf8'),
      keyPem: readFileSync(f.keyFile, 'utf8'),
    };
  }
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}
