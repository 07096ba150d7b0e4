import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Test-only CA and client certificates made with the openssl CLI (the auth package has its own
// copy, which it does not export).

export interface TestCert {
  readonly certPem: string;
  readonly keyPem: string;
  readonly certFile: string;
  readonly keyFile: string;
}

const REQ_CONFIG = '[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = unused\n';
const CA_EXT =
  'basicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign,cRLSign,digitalSignature\n';
const CLIENT_EXT =
  'basicConstraints = critical,CA:FALSE\nkeyUsage = critical,digitalSignature,keyEncipherment\nextendedKeyUsage = clientAuth\n';

export class TestPKI {
  readonly dir = mkdtempSync(join(tmpdir(), 'keel-client-pki-'));
  private n = 0;

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  ca(cn: string): TestCert {
    return this.make(`/CN=${cn}`, undefined, CA_EXT);
  }

  /** A client certificate for user `cn` in the groups `orgs`. */
  client(issuer: TestCert, cn: string, orgs: readonly string[] = []): TestCert {
    return this.make([...orgs.map((o) => `/O=${o}`), `/CN=${cn}`].join(''), issuer, CLIENT_EXT);
  }

  private make(subject: string, issuer: TestCert | undefined, ext: string): TestCert {
    const base = join(this.dir, `cert-${this.n++}`);
    const [certFile, keyFile, csr, extFile, cnf] = ['crt', 'key', 'csr', 'ext', 'cnf'].map(
      (e) => `${base}.${e}`,
    ) as [string, string, string, string, string];
    writeFileSync(cnf, REQ_CONFIG);
    writeFileSync(extFile, ext);
    openssl(
      ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'].concat([
        '-keyout',
        keyFile,
        '-out',
        csr,
        '-subj',
        subject,
        '-config',
        cnf,
      ]),
    );
    const signer = issuer ? ['-CA', issuer.certFile, '-CAkey', issuer.keyFile] : ['-key', keyFile];
    const serial = `0x${randomBytes(8).toString('hex')}`;
    openssl(
      ['x509', '-req', '-in', csr, ...signer, '-set_serial', serial, '-days', '2'].concat([
        '-extfile',
        extFile,
        '-out',
        certFile,
      ]),
    );
    return {
      certFile,
      keyFile,
      certPem: readFileSync(certFile, 'utf8'),
      keyPem: readFileSync(keyFile, 'utf8'),
    };
  }
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}
