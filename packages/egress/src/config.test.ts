import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEgressConfig, parseEgressConfig } from './config.js';

const doc = (egressSelections: unknown[]) => ({
  apiVersion: 'apiserver.k8s.io/v1beta1',
  kind: 'EgressSelectorConfiguration',
  egressSelections,
});
const parse = (selections: unknown[]) =>
  parseEgressConfig(doc(selections), 'egress selector config file f.yaml');

describe('EgressSelectorConfiguration', () => {
  it('reads Direct, HTTP CONNECT over TCP and over a Unix socket, and takes master for controlplane', () => {
    const config = parse([
      {
        name: 'cluster',
        connection: { proxyProtocol: 'HTTPConnect', transport: { tcp: { url: 'http://proxy:8131' } } },
      },
      {
        name: 'Master',
        connection: { proxyProtocol: 'HTTPConnect', transport: { uds: { udsName: '/run/k.sock' } } },
      },
      { name: 'etcd', connection: { proxyProtocol: 'Direct' } },
    ]);
    expect(config.get('cluster')).toEqual({
      protocol: 'HTTPConnect',
      proxy: { kind: 'http', host: 'proxy', port: 8131 },
    });
    expect(config.get('controlplane')).toEqual({
      protocol: 'HTTPConnect',
      proxy: { kind: 'uds', path: '/run/k.sock' },
    });
    expect(config.get('etcd')).toEqual({ protocol: 'Direct' });
  });

  it('reads the TLS files of an https proxy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'egress-'));
    const f = (n: string) => {
      writeFileSync(join(dir, n), n);
      return join(dir, n);
    };
    const config = parse([
      {
        name: 'controlplane',
        connection: {
          proxyProtocol: 'HTTPConnect',
          transport: {
            tcp: {
              url: 'https://[::1]:8131',
              tlsConfig: { caBundle: f('ca'), clientCert: f('crt'), clientKey: f('key') },
            },
          },
        },
      },
    ]);
    expect(config.get('controlplane')).toEqual({
      protocol: 'HTTPConnect',
      proxy: { kind: 'https', host: '::1', port: 8131, ca: 'ca', cert: 'crt', key: 'key' },
    });
  });

  it.each([
    [
      [{ name: 'nodes', connection: { proxyProtocol: 'Direct' } }],
      'egressSelections[0].name: Unsupported value: "nodes": supported values: "cluster", "controlplane", "etcd"',
    ],
    [
      [
        { name: 'etcd', connection: { proxyProtocol: 'Direct' } },
        { name: 'ETCD', connection: { proxyProtocol: 'Direct' } },
      ],
      'egressSelections[1].name: Duplicate value: "etcd"',
    ],
    [
      [{ name: 'etcd', connection: { proxyProtocol: 'HTTPConnect' } }],
      'egressSelections[0].connection.transport: Required value: transport must be set for HTTPConnect',
    ],
    [
      [{ name: 'etcd', connection: { proxyProtocol: 'Direct', transport: { uds: { udsName: '/x' } } } }],
      'egressSelections[0].connection.transport: Invalid value: "direct": config must be absent for direct connect',
    ],
    [
      [
        {
          name: 'etcd',
          connection: {
            proxyProtocol: 'HTTPConnect',
            transport: { tcp: { url: 'http://p:1' }, uds: { udsName: '/x' } },
          },
        },
      ],
      'egressSelections[0].connection.transport.tcp: Invalid value: TCP and UDS cannot both be set',
    ],
    [
      [
        {
          name: 'etcd',
          connection: { proxyProtocol: 'HTTPConnect', transport: { tcp: { url: 'ftp://p:1' } } },
        },
      ],
      'egressSelections[0].connection.transport.tcp.url: Invalid value: "ftp://p:1": supported connection protocols are http:// and https://',
    ],
    [
      [
        {
          name: 'etcd',
          connection: { proxyProtocol: 'HTTPConnect', transport: { tcp: { url: 'https://p:1' } } },
        },
      ],
      'egressSelections[0].connection.transport.tcp.tlsConfig: Required value: TLSConfig must be present when using HTTPS',
    ],
    [
      [
        {
          name: 'etcd',
          connection: {
            proxyProtocol: 'HTTPConnect',
            transport: { tcp: { url: 'https://p:1', tlsConfig: { clientKey: '/nope' } } },
          },
        },
      ],
      'egressSelections[0].connection.transport.tcp.tlsConfig.clientCert: Invalid value: "nil": Using TLS requires clientCert; egressSelections[0].connection.transport.tcp.tlsConfig.clientKey: Invalid value: "/nope": TLS client key does not exist',
    ],
    [
      [{ name: 'cluster', connection: { proxyProtocol: 'GRPC', transport: { uds: { udsName: '/x' } } } }],
      'egressSelections[0].connection.proxyProtocol: Unsupported value: "GRPC": Keel supports "Direct" and "HTTPConnect" (run the konnectivity server with --mode=http-connect)',
    ],
    [
      [{ name: 'cluster', connection: { proxyProtocol: 'SOCKS' } }],
      'egressSelections[0].connection.proxyProtocol: Unsupported value: "SOCKS": supported values: "Direct", "HTTPConnect", "GRPC"',
    ],
  ])('refuses %j in one line naming the file and the field', (selections, message) => {
    expect(() => parse(selections)).toThrow(`egress selector config file f.yaml: ${message}`);
  });

  it('names the file and the field for a wrong shape', () => {
    const dir = mkdtempSync(join(tmpdir(), 'egress-'));
    const file = join(dir, 'egress.yaml');
    writeFileSync(
      file,
      'apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections: {}\n',
    );
    expect(() => loadEgressConfig(file)).toThrow(`egress selector config file ${file}: egressSelections:`);
    writeFileSync(file, 'apiVersion: v1\nkind: EgressSelectorConfiguration\n');
    expect(() => loadEgressConfig(file)).toThrow(`egress selector config file ${file}: apiVersion:`);
  });
});
