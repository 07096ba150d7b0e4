/**
 * The flowcontrol bootstrap across API servers on one Redis: a second server's start-up finds the
 * objects the first created and leaves them one each; it restores a suggested object that still
 * auto-updates and keeps one whose `apf.kubernetes.io/autoupdate-spec` an operator set to false.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { unique } from './support/core.js';

const PL = '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations';
const FS = '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas';

type Obj = {
  metadata: { name: string; uid: string; annotations?: Record<string, string> };
  spec: { limited?: { nominalConcurrencyShares?: number } };
};

const shares = async (server: TestApiServer, name: string) =>
  ((await server.request('GET', `${PL}/${name}`)).json as Obj).spec.limited?.nominalConcurrencyShares;

describe('flowcontrol bootstrap across two API servers on one Redis', () => {
  let a: TestApiServer;
  let b: TestApiServer | undefined;
  const args = [`--store-servers=${inject('redisUrl')}`, `--store-prefix=/apf-${unique('p')}`];
  beforeAll(async () => {
    a = await TestApiServer.start({ args });
    await a.ready();
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('keeps one object per name, restores auto-updated specs and keeps opted-out ones', async () => {
    const uids = ((await a.request('GET', FS)).json as { items: Obj[] }).items
      .map((o) => o.metadata.uid)
      .sort();
    expect(uids).toHaveLength(13);
    // An operator's own spec, opted out of updates.
    const low = (await a.request('GET', `${PL}/workload-low`)).json as Obj;
    low.metadata.annotations = { 'apf.kubernetes.io/autoupdate-spec': 'false' };
    (low.spec.limited as { nominalConcurrencyShares: number }).nominalConcurrencyShares = 7;
    expect((await a.request('PUT', `${PL}/workload-low`, { body: low })).status).toBe(200);
    // A change without opting out: the next start-up puts the suggested spec back.
    const global = (await a.request('GET', `${PL}/global-default`)).json as Obj;
    (global.spec.limited as { nominalConcurrencyShares: number }).nominalConcurrencyShares = 3;
    expect((await a.request('PUT', `${PL}/global-default`, { body: global })).status).toBe(200);

    b = await TestApiServer.start({ args });
    await b.ready();
    const after = ((await b.request('GET', FS)).json as { items: Obj[] }).items
      .map((o) => o.metadata.uid)
      .sort();
    expect(after).toEqual(uids);
    expect(await shares(b, 'workload-low')).toBe(7);
    expect(await shares(b, 'global-default')).toBe(20);
  });
});
