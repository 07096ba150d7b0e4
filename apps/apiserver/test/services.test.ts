/**
 * Services on one API server: defaulting, validation with upstream's messages, cluster IPs from
 * --service-cluster-ip-range and node ports from --service-node-port-range (released on delete
 * and type change), the `platform` Service (--platform-service-node-port), and kubectl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectlOk } from './support/clients/kubectl.js';
import { create, expectStatus, MERGE, unique, type Json } from './support/core.js';

const svcs = (ns: string, name = '') => `/api/v1/namespaces/${ns}/services${name ? `/${name}` : ''}`;
const body = (name: string, spec: Json): Json => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec,
});
const specOf = (o: Json): Json => o['spec'] as Json;

describe('services', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  let port: number;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        '--service-cluster-ip-range=10.0.0.0/28',
        '--service-node-port-range=30000-30004',
        '--platform-service-node-port=30004',
      ],
    });
    await server.ready();
    port = Number(new URL(server.url).port);
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('publishes the platform Service in default: first IP of the range, 443 to --secure-port, NodePort on --platform-service-node-port', async () => {
    const svc = await expectStatus(server.request('GET', svcs('default', 'platform')), 200);
    expect((svc['metadata'] as Json)['labels']).toEqual({ component: 'apiserver', provider: 'platform' });
    expect(specOf(svc)).toMatchObject({
      clusterIP: '10.0.0.1',
      clusterIPs: ['10.0.0.1'],
      type: 'NodePort',
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: port, nodePort: 30004 }],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    });
    // The node port is taken: asking for it again is refused.
    const r = await server.request('POST', svcs('default'), {
      body: body('steal', { type: 'NodePort', ports: [{ port: 80, nodePort: 30004 }] }),
    });
    expect(r.status).toBe(422);
    expect((r.json as Json)['message']).toBe(
      'Service "steal" is invalid: spec.ports[0].nodePort: Invalid value: 30004: provided port is already allocated',
    );
  });

  it('defaults a Service and allocates a cluster IP; the IP is immutable', async () => {
    const ns = unique('svc');
    const svc = await create(
      server,
      svcs(ns),
      body('web', { ports: [{ port: 80 }], selector: { app: 'web' } }),
    );
    const spec = specOf(svc);
    expect(spec).toMatchObject({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    });
    expect(spec['clusterIP']).toMatch(/^10\.0\.0\.([2-9]|1[0-4])$/);
    expect(spec['clusterIPs']).toEqual([spec['clusterIP']]);
    expect(svc['status']).toEqual({ loadBalancer: {} });
    // A PUT without the cluster IP keeps it (kubectl apply); changing it is refused.
    const put = { ...svc, spec: { ...spec, clusterIP: undefined, clusterIPs: undefined } };
    const kept = await expectStatus(server.request('PUT', svcs(ns, 'web'), { body: put }), 200);
    expect(specOf(kept)['clusterIP']).toBe(spec['clusterIP']);
    // Allocation picks at random: move it to an address it did not get.
    const other = spec['clusterIP'] === '10.0.0.6' ? '10.0.0.7' : '10.0.0.6';
    const moved = await server.request('PATCH', svcs(ns, 'web'), {
      body: { spec: { clusterIP: other, clusterIPs: [other] } },
      contentType: MERGE,
    });
    expect(moved.status).toBe(422);
    expect((moved.json as Json)['message']).toBe(
      `Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["${other}"]: may not change once set`,
    );
    await expectStatus(server.request('DELETE', svcs(ns, 'web')), 200);
  });

  it('answers bad cluster IPs with upstream messages', async () => {
    const ns = unique('bad');
    const post = (name: string, spec: Json) => server.request('POST', svcs(ns), { body: body(name, spec) });
    const msg = async (name: string, spec: Json) => {
      const r = await post(name, spec);
      expect(r.status).toBe(422);
      return (r.json as Json)['message'];
    };
    expect(await msg('a', { clusterIP: '10.0.0.300', ports: [{ port: 80 }] })).toBe(
      'Service "a" is invalid: spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
    expect(await msg('b', { clusterIP: '10.9.0.3', ports: [{ port: 80 }] })).toBe(
      'Service "b" is invalid: spec.clusterIPs: Invalid value: ["10.9.0.3"]: failed to allocate IP 10.9.0.3: the provided IP (10.9.0.3) is not in the valid range. The range of valid IPs is 10.0.0.0/28',
    );
    expect(await msg('c', { clusterIP: '10.0.0.1', ports: [{ port: 80 }] })).toBe(
      'Service "c" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.1"]: failed to allocate IP 10.0.0.1: provided IP is already allocated',
    );
    expect(await msg('d', { type: 'ExternalName', externalName: 'example.com', clusterIP: '10.0.0.3' })).toBe(
      'Service "d" is invalid: spec.clusterIPs: Forbidden: may not be set for ExternalName services',
    );
    expect(await msg('e', { type: 'NodePort', clusterIP: 'None', ports: [{ port: 80 }] })).toBe(
      `Service "e" is invalid: spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`,
    );
    expect(await msg('f', { ports: [{ port: 80, nodePort: 30001 }] })).toBe(
      'Service "f" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is \'ClusterIP\'',
    );
    // Headless and ExternalName Services take no IP.
    const headless = await create(
      server,
      svcs(ns),
      body('h', { clusterIP: 'None', selector: { a: 'b' }, ports: [{ port: 80 }] }),
    );
    expect(specOf(headless)).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'] });
    const ext = await create(
      server,
      svcs(ns),
      body('x', { type: 'ExternalName', externalName: 'example.com' }),
    );
    expect(specOf(ext)['clusterIP']).toBeUndefined();
  });

  it('allocates node ports for NodePort and LoadBalancer, frees them on type change and delete; a full range is a 500', async () => {
    const ns = unique('np');
    const lb = await create(server, svcs(ns), body('lb', { type: 'LoadBalancer', ports: [{ port: 80 }] }));
    expect(specOf(lb)).toMatchObject({
      externalTrafficPolicy: 'Cluster',
      allocateLoadBalancerNodePorts: true,
    });
    const lbPort = ((specOf(lb)['ports'] as Json[])[0] ?? {})['nodePort'] as number;
    expect(lbPort).toBeGreaterThanOrEqual(30000);
    const made: number[] = [lbPort];
    for (let i = 0; made.length < 4; i++) {
      const s = await create(server, svcs(ns), body(`n${i}`, { type: 'NodePort', ports: [{ port: 80 }] }));
      made.push(((specOf(s)['ports'] as Json[])[0] ?? {})['nodePort'] as number);
    }
    // 30000-30004 minus the platform Service's 30004: all four distinct, the range is full.
    expect(new Set(made).size).toBe(4);
    const full = await server.request('POST', svcs(ns), {
      body: body('full', { type: 'NodePort', ports: [{ port: 80 }] }),
    });
    expect(full.status).toBe(500);
    expect((full.json as Json)['message']).toBe(
      'Internal error occurred: failed to allocate a nodePort: range is full',
    );
    // LoadBalancer → ClusterIP gives the port back, so the next NodePort gets it.
    await expectStatus(
      server.request('PATCH', svcs(ns, 'lb'), {
        body: {
          spec: {
            type: 'ClusterIP',
            externalTrafficPolicy: null,
            allocateLoadBalancerNodePorts: null,
            ports: [{ port: 80, nodePort: null }],
          },
        },
        contentType: MERGE,
      }),
      200,
    );
    const again = await create(server, svcs(ns), body('again', { type: 'NodePort', ports: [{ port: 80 }] }));
    expect(((specOf(again)['ports'] as Json[])[0] ?? {})['nodePort']).toBe(lbPort);
    await expectStatus(server.request('DELETE', svcs(ns, 'again')), 200);
    const reuse = await create(
      server,
      svcs(ns),
      body('reuse', { type: 'NodePort', ports: [{ port: 80, nodePort: lbPort }] }),
    );
    expect(((specOf(reuse)['ports'] as Json[])[0] ?? {})['nodePort']).toBe(lbPort);
    await expectStatus(server.request('DELETE', svcs(ns, 'reuse')), 200);
    // A create that fails validation after allocating gives its IP back: the IP can be named again.
    const list = await expectStatus(server.request('GET', '/api/v1/services'), 200);
    const used = new Set((list['items'] as Json[]).map((i) => specOf(i)['clusterIP']));
    const free = [...Array(13).keys()].map((i) => `10.0.0.${i + 2}`).find((ip) => !used.has(ip)) ?? '';
    const bad = await server.request('POST', svcs(ns), {
      body: body('Bad_Name', { clusterIP: free, ports: [{ port: 80 }] }),
    });
    expect(bad.status).toBe(422);
    await create(server, svcs(ns), body('named', { clusterIP: free, ports: [{ port: 80 }] }));
  });

  it('services/status changes only the status and checks load balancer ingress', async () => {
    const ns = unique('st');
    const svc = await create(server, svcs(ns), body('lb', { type: 'LoadBalancer', ports: [{ port: 80 }] }));
    const sent = {
      ...svc,
      spec: { ...specOf(svc), type: 'ClusterIP' },
      status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } },
    };
    const updated = await expectStatus(
      server.request('PUT', `${svcs(ns, 'lb')}/status`, { body: sent }),
      200,
    );
    expect(specOf(updated)['type']).toBe('LoadBalancer');
    expect(updated['status']).toEqual({ loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } });
    const bad = await server.request('PATCH', `${svcs(ns, 'lb')}/status`, {
      body: { status: { loadBalancer: { ingress: [{ ip: 'nope' }] } } },
      contentType: MERGE,
    });
    expect(bad.status).toBe(422);
    expect((bad.json as Json)['message']).toBe(
      'Service "lb" is invalid: status.loadBalancer.ingress[0].ip: Invalid value: "nope": must be a valid IP address',
    );
    await expectStatus(server.request('DELETE', svcs(ns, 'lb')), 200);
  });

  it('kubectl creates, lists and describes Services', async () => {
    const ns = unique('kc');
    await create(server, '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
    expect(await kubectlOk(cfg, ['create', 'service', 'nodeport', 'edge', '-n', ns, '--tcp=8080:80'])).toBe(
      'service/edge created\n',
    );
    const edge = await expectStatus(server.request('GET', svcs(ns, 'edge')), 200);
    expect(specOf(edge)).toMatchObject({
      type: 'NodePort',
      ports: [{ name: '8080-80', port: 8080, targetPort: 80 }],
    });
    await kubectlOk(cfg, ['-n', ns, 'delete', 'service', 'edge']);
    await kubectlOk(cfg, ['create', 'service', 'clusterip', 'db', '-n', ns, '--tcp=5432:5432']);
    const out = await kubectlOk(cfg, ['get', 'svc', '-n', ns]);
    expect(out).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\n/);
    expect(out).toMatch(/db\s+ClusterIP\s+10\.0\.0\.\d+\s+<none>\s+5432\/TCP/);
    const described = await kubectlOk(cfg, ['describe', 'svc', 'db', '-n', ns]);
    expect(described).toMatch(/Type:\s+ClusterIP/);
    expect(described).toMatch(/IP:\s+10\.0\.0\.\d+/);
    expect(described).toMatch(/Port:\s+5432-5432\s+5432\/TCP/);
  });
});
