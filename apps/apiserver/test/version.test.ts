import { versionInfo } from '@keel/apimachinery';
import { apiServerEntry, runNode, TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectlOk } from './support/clients/kubectl.js';

// --version=vX.Y.Z on the built API server: it runs (not a ParseBool error) and reports that
// version wherever it reports one: GET /version, kubectl version, the start-up log, and
// --version when that comes after it.

const REPORTED = 'v1.33.7-keel.1';

describe('--version=vX.Y.Z (built keel-apiserver)', () => {
  let server: TestApiServer;
  let plain: TestApiServer;
  let cfg: ClientConfig;
  beforeAll(async () => {
    [server, plain] = await Promise.all([
      TestApiServer.start({ args: [`--version=${REPORTED}`] }),
      TestApiServer.start(),
    ]);
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), plain?.stop()]);
  });

  it('GET /version answers that gitVersion, with major and minor derived as kube builds do', async () => {
    const r = await server.request('GET', '/version');
    expect(r.status).toBe(200);
    // The pre-release part makes the minor 33+, as a vendor's build of 1.33 reports it.
    expect(r.json).toMatchObject({ major: '1', minor: '33+', gitVersion: REPORTED, compiler: 'tsc' });
    const without = await plain.request('GET', '/version');
    const { major, minor, gitVersion } = versionInfo();
    expect(without.json).toMatchObject({ major, minor, gitVersion });
  });

  it('kubectl version shows it as the server version', async () => {
    const out = JSON.parse(await kubectlOk(cfg, ['version', '-o', 'json'])) as {
      serverVersion: Record<string, string>;
    };
    expect(out.serverVersion).toMatchObject({ major: '1', minor: '33+', gitVersion: REPORTED });
  });

  it('the start-up log names it', () => {
    expect(server.process.stderr).toMatch(new RegExp(`"Starting Keel API server" version="${REPORTED}"`));
  });

  it('--version after it prints it and quits; --version=raw prints it in the build info', async () => {
    const printed = await runNode(apiServerEntry, [`--version=${REPORTED}`, '--version']);
    expect([printed.code, printed.stdout, printed.stderr]).toEqual([0, `Keel ${REPORTED}\n`, '']);
    const raw = await runNode(apiServerEntry, [`--version=${REPORTED}`, '--version=raw']);
    expect(raw.code).toBe(0);
    expect(JSON.parse(raw.stdout)).toMatchObject({
      gitVersion: REPORTED,
      platformVersion: REPORTED,
      major: '1',
      minor: '33+',
    });
  });

  it('refuses a value that is not a semantic version, naming the flag', async () => {
    const r = await runNode(apiServerEntry, ['--version=v1.33']);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'Error: invalid argument "v1.33" for "--version" flag: illegal version string "v1.33"\n',
    ]);
  });
});
