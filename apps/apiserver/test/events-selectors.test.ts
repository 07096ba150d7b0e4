import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  corePath,
  createEvents,
  evPath,
  failure,
  names,
  newCoreEvent,
  newEvent,
  startServer,
  STORES,
  uniqueNs,
} from './support/events.js';

/**
 * Three events per namespace: `pod` (events.k8s.io, source falls back to its controller),
 * `deploy` (events.k8s.io, a Warning about a Deployment) and `legacy` (core/v1, with a
 * source component of its own).
 */
async function seed(server: TestApiServer, ns: string): Promise<void> {
  await createEvents(server, ns, [
    newEvent(ns, 'pod', {
      metadata: { name: 'pod', labels: { app: 'web', tier: 'fe', ver: '1' } },
      reason: 'Started',
      reportingController: 'ctl-a',
      regarding: {
        kind: 'Pod',
        namespace: ns,
        name: 'p1',
        uid: 'uid-1',
        apiVersion: 'v1',
        resourceVersion: '10',
        fieldPath: 'spec.containers{a,b}',
      },
    }),
    newEvent(ns, 'deploy', {
      metadata: { name: 'deploy', labels: { app: 'db', ver: '2' } },
      reason: 'Scaled',
      type: 'Warning',
      reportingController: 'ctl-b',
      regarding: {
        kind: 'Deployment',
        namespace: ns,
        name: 'd2',
        uid: 'uid-2',
        apiVersion: 'apps/v1',
        resourceVersion: '20',
      },
    }),
  ]);
  const res = await server.request('POST', corePath(ns), {
    body: newCoreEvent(ns, 'legacy', {
      metadata: { name: 'legacy', labels: { app: 'web' } },
      involvedObject: { kind: 'Pod', namespace: ns, name: 'p1', uid: 'uid-1' },
      reportingComponent: 'ctl-c',
    }),
  });
  if (res.status !== 201) throw new Error(res.text);
}

const enc = encodeURIComponent;

describe.each(STORES)('Event selectors (%s store)', (store) => {
  let server: TestApiServer;
  let ns: string;
  beforeAll(async () => {
    server = await startServer(store);
    ns = uniqueNs('sel');
    await seed(server, ns);
  });
  afterAll(async () => {
    await server.stop();
  });

  async function select(path: string): Promise<string[]> {
    const res = await server.request('GET', path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    return names(body(res)).sort();
  }

  it.each([
    ['metadata.name=pod', ['pod']],
    [`metadata.namespace=${'NS'}`, ['deploy', 'legacy', 'pod']],
    ['reason=Scaled', ['deploy']],
    ['reason!=Scaled', ['legacy', 'pod']],
    ['reason==Started', ['pod']],
    ['type=Warning', ['deploy']],
    ['reportingController=ctl-a', ['pod']],
    ['reportingController=ctl-c', ['legacy']],
    ['source=ctl-a', ['pod']],
    ['source=nodeagent', ['legacy']],
    ['source=ctl-c', []],
    ['regarding.kind=Deployment', ['deploy']],
    ['regarding.namespace=NS', ['deploy', 'legacy', 'pod']],
    ['regarding.name=p1', ['legacy', 'pod']],
    ['regarding.uid=uid-2', ['deploy']],
    ['regarding.apiVersion=apps/v1', ['deploy']],
    ['regarding.resourceVersion=10', ['pod']],
    ['regarding.fieldPath=spec.containers{a\\,b}', ['pod']],
    ['regarding.fieldPath=', ['deploy', 'legacy']],
    ['regarding.name=p1,type=Normal,reason!=Pulled', ['pod']],
  ])('events.k8s.io/v1 fieldSelector %s', async (sel, want) => {
    expect(await select(evPath(ns, undefined, `fieldSelector=${enc(sel.replaceAll('NS', ns))}`))).toEqual(
      want,
    );
  });

  it.each([
    ['metadata.name=legacy', ['legacy']],
    ['metadata.namespace=NS', ['deploy', 'legacy', 'pod']],
    ['involvedObject.kind=Pod', ['legacy', 'pod']],
    ['involvedObject.namespace=NS', ['deploy', 'legacy', 'pod']],
    ['involvedObject.name=d2', ['deploy']],
    ['involvedObject.uid=uid-1', ['legacy', 'pod']],
    ['involvedObject.apiVersion=v1', ['pod']],
    ['involvedObject.resourceVersion=20', ['deploy']],
    ['involvedObject.fieldPath=spec.containers{a\\,b}', ['pod']],
    ['reason=Pulled', ['legacy']],
    ['reportingComponent=ctl-b', ['deploy']],
    ['source=nodeagent', ['legacy']],
    ['source=ctl-b', ['deploy']],
    ['type=Normal', ['legacy', 'pod']],
  ])('core/v1 fieldSelector %s', async (sel, want) => {
    expect(await select(corePath(ns, undefined, `fieldSelector=${enc(sel.replaceAll('NS', ns))}`))).toEqual(
      want,
    );
  });

  it.each([
    ['app=web', ['legacy', 'pod']],
    ['app==web', ['legacy', 'pod']],
    ['app!=web', ['deploy']],
    ['app in (web,db)', ['deploy', 'legacy', 'pod']],
    ['app notin (web)', ['deploy']],
    ['tier', ['pod']],
    ['!tier', ['deploy', 'legacy']],
    ['tier!=fe', ['deploy', 'legacy']],
    ['tier notin (fe)', ['deploy', 'legacy']],
    ['ver>1', ['deploy']],
    ['ver<2', ['pod']],
    ['app=web,!tier', ['legacy']],
    [' app in ( web ) , ver ', ['pod']],
    ['', ['deploy', 'legacy', 'pod']],
  ])('labelSelector %j', async (sel, want) => {
    expect(await select(evPath(ns, undefined, `labelSelector=${enc(sel)}`))).toEqual(want);
    expect(await select(corePath(ns, undefined, `labelSelector=${enc(sel)}`))).toEqual(want);
  });

  it('label and field selectors combine', async () => {
    expect(
      await select(
        evPath(ns, undefined, `labelSelector=${enc('app=web')}&fieldSelector=${enc('reason=Started')}`),
      ),
    ).toEqual(['pod']);
  });

  it.each([
    [evPath, 'involvedObject.name=x', 'field label not supported: involvedObject.name'],
    [evPath, 'reportingComponent=x', 'field label not supported: reportingComponent'],
    [evPath, 'note=x', 'field label not supported: note'],
    [corePath, 'regarding.name=x', 'field label not supported: regarding.name'],
    [corePath, 'reportingController=x', 'field label not supported: reportingController'],
    [evPath, 'reason', "invalid selector: 'reason'; can't understand 'reason'"],
    [evPath, 'reason=a=b', 'invalid field selector: unescaped character in value: ='],
    [evPath, 'reason=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
  ])('fieldSelector %#: 400', async (path, sel, message) => {
    const res = await server.request('GET', path(ns, undefined, `fieldSelector=${enc(sel)}`));
    expect(res.status).toBe(400);
    expect(res.json).toEqual(failure(400, 'BadRequest', message));
  });

  it.each([
    ['app in (web', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['app in web', "unable to parse requirement: found 'web' expected: '('"],
    ['=web', "found '=', expected: !, identifier, or 'end of string'"],
    ['app=web=x', "found '=', expected: ',' or 'end of string'"],
    [
      'ver>a',
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    ['Bad Key=1', "unable to parse requirement: found 'Key', expected: in, notin, =, ==, !=, gt, lt"],
    [
      `${'k'.repeat(64)}=1`,
      `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`,
    ],
  ])('labelSelector %j: 400', async (sel, message) => {
    const res = await server.request('GET', evPath(ns, undefined, `labelSelector=${enc(sel)}`));
    expect(res.status).toBe(400);
    expect(res.json).toEqual(failure(400, 'BadRequest', message));
  });

  it('selectors apply to lists across all namespaces too', async () => {
    const all = await select(
      `/apis/events.k8s.io/v1/events?fieldSelector=${enc(`regarding.namespace=${ns},reason=Scaled`)}`,
    );
    expect(all).toEqual(['deploy']);
  });
});
