import { existsSync, readFileSync } from 'node:fs';
import { ConfigFileError, describeZodIssues, readConfigDocument } from '@keel/config-file';
import { z } from 'zod';

/** The networks an API server dials into, as upstream names them (lower case). */
export const EGRESS_SELECTION_NAMES = ['cluster', 'controlplane', 'etcd'] as const;
export type EgressSelectionName = (typeof EGRESS_SELECTION_NAMES)[number];

/** Where the HTTP CONNECT proxy listens, with the files already read. */
export type ProxyEndpoint =
  | { readonly kind: 'uds'; readonly path: string }
  | { readonly kind: 'http'; readonly host: string; readonly port: number }
  | {
      readonly kind: 'https';
      readonly host: string;
      readonly port: number;
      /** undefined: the system's roots. */
      readonly ca?: string | undefined;
      readonly cert: string;
      readonly key: string;
    };

export type EgressConnection =
  { readonly protocol: 'Direct' } | { readonly protocol: 'HTTPConnect'; readonly proxy: ProxyEndpoint };

export type EgressConfig = ReadonlyMap<EgressSelectionName, EgressConnection>;

const tlsConfig = z.strictObject({
  caBundle: z.string().nullish(),
  clientKey: z.string().nullish(),
  clientCert: z.string().nullish(),
});

const schema = z.strictObject({
  apiVersion: z.enum(['apiserver.k8s.io/v1', 'apiserver.k8s.io/v1beta1', 'apiserver.k8s.io/v1alpha1']),
  kind: z.literal('EgressSelectorConfiguration'),
  egressSelections: z
    .array(
      z.strictObject({
        name: z.string(),
        connection: z.strictObject({
          proxyProtocol: z.string(),
          transport: z
            .strictObject({
              tcp: z.strictObject({ url: z.string(), tlsConfig: tlsConfig.nullish() }).nullish(),
              uds: z.strictObject({ udsName: z.string() }).nullish(),
            })
            .nullish(),
        }),
      }),
    )
    .nullish(),
});

type Selection = NonNullable<z.infer<typeof schema>['egressSelections']>[number];
type Transport = Selection['connection']['transport'];

/**
 * Upstream's validation (k8s.io/apiserver egressselector ValidateEgressSelectorConfiguration), with
 * its field paths and words. `master` is the name 1.20 used for `controlplane`.
 */
function validate(selections: readonly Selection[], problems: string[]): EgressConfig {
  const out = new Map<EgressSelectionName, EgressConnection>();
  selections.forEach((s, i) => {
    const at = `egressSelections[${i}]`;
    const name = s.name.toLowerCase() === 'master' ? 'controlplane' : s.name.toLowerCase();
    if (!(EGRESS_SELECTION_NAMES as readonly string[]).includes(name)) {
      problems.push(
        `${at}.name: Unsupported value: "${s.name}": supported values: ${EGRESS_SELECTION_NAMES.map((n) => `"${n}"`).join(', ')}`,
      );
      return;
    }
    if (out.has(name as EgressSelectionName)) {
      problems.push(`${at}.name: Duplicate value: "${name}"`);
      return;
    }
    const connection = connectionOf(
      s.connection.proxyProtocol,
      s.connection.transport,
      `${at}.connection`,
      problems,
    );
    if (connection) out.set(name as EgressSelectionName, connection);
  });
  return out;
}

function connectionOf(
  protocol: string,
  transport: Transport,
  at: string,
  problems: string[],
): EgressConnection | undefined {
  switch (protocol) {
    case 'Direct':
      if (transport)
        problems.push(`${at}.transport: Invalid value: "direct": config must be absent for direct connect`);
      return { protocol: 'Direct' };
    case 'HTTPConnect': {
      const proxy = proxyOf(transport, at, problems);
      return proxy ? { protocol: 'HTTPConnect', proxy } : undefined;
    }
    case 'GRPC':
      // The konnectivity server also speaks HTTP CONNECT (--mode=http-connect); its gRPC tunnel
      // protocol is not implemented, and accepting it would leave traffic going nowhere.
      problems.push(
        `${at}.proxyProtocol: Unsupported value: "GRPC": Keel supports "Direct" and "HTTPConnect" (run the konnectivity server with --mode=http-connect)`,
      );
      return undefined;
    default:
      problems.push(
        `${at}.proxyProtocol: Unsupported value: "${protocol}": supported values: "Direct", "HTTPConnect", "GRPC"`,
      );
      return undefined;
  }
}

function proxyOf(transport: Transport, at: string, problems: string[]): ProxyEndpoint | undefined {
  if (!transport) {
    problems.push(`${at}.transport: Required value: transport must be set for HTTPConnect`);
    return undefined;
  }
  const { tcp, uds } = transport;
  if (tcp && uds) {
    problems.push(`${at}.transport.tcp: Invalid value: TCP and UDS cannot both be set`);
    return undefined;
  }
  if (uds) {
    if (uds.udsName === '') {
      problems.push(`${at}.transport.uds.udsName: Invalid value: "nil": must be present for UDS connections`);
      return undefined;
    }
    return { kind: 'uds', path: uds.udsName };
  }
  if (!tcp) {
    problems.push(`${at}.transport.tcp: Required value: One of TCP or UDS must be set`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(tcp.url);
  } catch {
    url = new URL('invalid:');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'http:') {
    if (tcp.tlsConfig)
      problems.push(
        `${at}.transport.tcp.tlsConfig: Invalid value: "nil": config must not be present when using HTTP`,
      );
    return { kind: 'http', host, port: Number(url.port || 80) };
  }
  if (url.protocol !== 'https:') {
    problems.push(
      `${at}.transport.tcp.url: Invalid value: "${tcp.url}": supported connection protocols are http:// and https://`,
    );
    return undefined;
  }
  const tls = tcp.tlsConfig;
  const tlsAt = `${at}.transport.tcp.tlsConfig`;
  if (!tls) {
    problems.push(`${tlsAt}: Required value: TLSConfig must be present when using HTTPS`);
    return undefined;
  }
  const file = (path: string | null | undefined, field: string, what: string, required: string) => {
    if (!path) {
      if (required) problems.push(`${tlsAt}.${field}: Invalid value: "nil": ${required}`);
      return undefined;
    }
    if (!existsSync(path)) {
      problems.push(`${tlsAt}.${field}: Invalid value: "${path}": ${what} does not exist`);
      return undefined;
    }
    return readFileSync(path, 'utf8');
  };
  const ca = file(tls.caBundle, 'caBundle', 'TLS config ca bundle', '');
  const cert = file(tls.clientCert, 'clientCert', 'TLS client cert', 'Using TLS requires clientCert');
  const key = file(tls.clientKey, 'clientKey', 'TLS client key', 'Using TLS requires clientKey');
  if (cert === undefined || key === undefined) return undefined;
  return { kind: 'https', host, port: Number(url.port || 443), ca, cert, key };
}

/** Validates a decoded EgressSelectorConfiguration; `where` starts the one-line error. */
export function parseEgressConfig(doc: unknown, where: string): EgressConfig {
  const parsed = schema.safeParse(doc, { reportInput: true });
  if (!parsed.success)
    throw new ConfigFileError(`${where}: ${describeZodIssues(parsed.error.issues).join('; ')}`);
  const problems: string[] = [];
  const config = validate(parsed.data.egressSelections ?? [], problems);
  if (problems.length > 0) throw new ConfigFileError(`${where}: ${problems.join('; ')}`);
  return config;
}

/** Reads --egress-selector-config-file; a problem is one ConfigFileError line naming the file and field. */
export function loadEgressConfig(path: string): EgressConfig {
  const { file, doc } = readConfigDocument(path, 'egress selector config file');
  return parseEgressConfig(doc, `egress selector config file ${file}`);
}
