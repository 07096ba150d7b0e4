// One-shot set-up for compose.yaml: the credentials the two API servers and two schedulers share.
// Runs in the keel-apiserver image (as its unprivileged user) and writes, once, into KEEL_PKI_DIR:
//   ca.crt, apiserver.crt, apiserver.key  one serving certificate both API servers present, for the
//                                         names clients use (apiserver, apiserver-1/2, localhost)
//   sa.key, sa.pub                        the service-account signing key both servers share, so a
//                                         token one issues verifies on the other
//   tokens.csv                            random bearer tokens: an admin (system:masters) and the
//                                         scheduler (system:kube-scheduler, bound by default RBAC)
//   admin.conf, scheduler.conf            connection-configs (kubeconfig format) using them
// Files already there are kept, so a restarted stack keeps its credentials.
import { randomBytes, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';

const dir = process.env.KEEL_PKI_DIR ?? '/var/run/platform/pki';
const appDir = process.env.KEEL_APP_DIR ?? '/app';
/** What the schedulers dial: the network alias both API servers answer to. */
const schedulerServer = process.env.KEEL_SCHEDULER_SERVER ?? 'https://apiserver:6443';
/** What the admin dials from the host: apiserver-1's published port. */
const adminServer = process.env.KEEL_ADMIN_SERVER ?? 'https://127.0.0.1:6443';

mkdirSync(dir, { recursive: true, mode: 0o700 });
/** @param {string} name */
const path = (name) => join(dir, name);
/** @param {string} name @param {string} content */
const writeOnce = (name, content) => {
  if (!existsSync(path(name))) writeFileSync(path(name), content, { mode: 0o600 });
};

// The API server's own certificate code, from the image's dependencies: the same generator
// `--cert-dir` uses, so the pair has the shape the servers expect.
const servingEntry = createRequire(join(appDir, 'package.json')).resolve('@keel/serving');
/** @type {{ ensureSelfSignedCert: (o: { certDir: string; hosts: string[] }) => Promise<unknown> }} */
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- an import by path is untyped; the type above names what is used
const serving = await import(servingEntry);
await serving.ensureSelfSignedCert({
  certDir: dir,
  hosts: ['apiserver', 'apiserver-1', 'apiserver-2', 'localhost', '127.0.0.1'],
});

if (!existsSync(path('sa.key'))) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(path('sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o600 });
  writeFileSync(path('sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
}

const token = () => randomBytes(24).toString('hex');
writeOnce(
  'tokens.csv',
  `${token()},admin,keel-admin,"system:masters"\n${token()},system:kube-scheduler,keel-scheduler\n`,
);
const tokens = readFileSync(path('tokens.csv'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => line.split(','));
/** @param {string} user */
const tokenOf = (user) => tokens.find((t) => t[1] === user)?.[0];
const caData = readFileSync(path('ca.crt')).toString('base64');

/** @param {string} server @param {string} user @param {string | undefined} bearer */
const connectionConfig = (server, user, bearer) =>
  [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: keel',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${caData}`,
    'users:',
    `- name: ${user}`,
    '  user:',
    `    token: ${bearer}`,
    'contexts:',
    '- name: keel',
    '  context:',
    '    cluster: keel',
    `    user: ${user}`,
    'current-context: keel',
    '',
  ].join('\n');

writeOnce('admin.conf', connectionConfig(adminServer, 'admin', tokenOf('admin')));
writeOnce(
  'scheduler.conf',
  connectionConfig(schedulerServer, 'system:kube-scheduler', tokenOf('system:kube-scheduler')),
);
process.stdout.write(`credentials ready in ${dir}\n`);
