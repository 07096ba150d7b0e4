import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The `keel` package as a user's project gets it: packed with `pnpm pack`, installed with npm into
// a fresh project (offline: it must need nothing else), used through its documented API and bin.

const app = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'keel-packed-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function install(): string {
  execFileSync('pnpm', ['pack', '--pack-destination', work], { cwd: app, stdio: 'ignore' });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('pnpm pack wrote no tarball');
  const project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies: { keel: `file:${join(work, tarball)}` },
    }),
  );
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund'], { cwd: project, stdio: 'ignore' });
  return project;
}

describe('the packed keel package', () => {
  let project = '';
  beforeAll(() => {
    project = install();
  }, 120_000);

  it('starts a control plane from a fresh project with startControlPlane, schedules a pod and stops', () => {
    writeFileSync(
      join(project, 'smoke.mjs'),
      `import { request } from 'node:https';
import { startControlPlane } from 'keel';

const call = (cp, method, path, body) =>
  new Promise((resolve, reject) => {
    const req = request(cp.url + path, {
      method, ca: cp.ca,
      headers: { authorization: 'Bearer ' + cp.token, 'content-type': 'application/json' },
    }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body && JSON.stringify(body));
  });

const cp = await startControlPlane({ nodes: 2 });
const pod = { metadata: { name: 'smoke' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
const created = await call(cp, 'POST', '/api/v1/namespaces/default/pods', pod);
let nodeName = '';
for (let i = 0; i < 300 && !nodeName; i++) {
  await new Promise((r) => setTimeout(r, 100));
  nodeName = (await call(cp, 'GET', '/api/v1/namespaces/default/pods/smoke')).body.spec.nodeName ?? '';
}
console.log(JSON.stringify({ created: created.status, nodes: cp.nodes, nodeName, config: cp.connectionConfig }));
await cp.stop();
`,
    );
    const out = execFileSync(process.execPath, ['smoke.mjs'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(result['created']).toBe(201);
    expect(result['nodes']).toEqual(['keel-node-1', 'keel-node-2']);
    expect(['keel-node-1', 'keel-node-2']).toContain(result['nodeName']);
    expect(String(result['config'])).toMatch(/connection-config$/);
  });

  it('installs the keel bin', () => {
    const r = spawnSync(join(project, 'node_modules', '.bin', 'keel'), ['--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('keel up');
  });
});
