/**
 * Where the scheduler's API server is, as kube-scheduler's createKubeConfig finds it: the
 * connection-config file (`--connection-config` or the config file's clientConnection.kubeconfig)
 * with `--master` overriding its server; `--master` alone; or, with neither, the in-cluster
 * settings a pod gets. Without any of them start-up fails with client-go's message.
 */
import { readFileSync } from 'node:fs';
import {
  ConnectionConfigError,
  connectionFromUrl,
  loadConnectionConfig,
  type Connection,
  type RestClientOptions,
} from '@keel/client';
import type { ClientConnection } from '../options/index.js';

/** client-go's in-cluster locations (rest.InClusterConfig), which a real cluster mounts into pods. */
export const IN_CLUSTER = {
  hostEnv: 'KUBERNETES_SERVICE_HOST',
  portEnv: 'KUBERNETES_SERVICE_PORT',
  tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token',
  caFile: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
} as const;

export interface ResolvedConnection {
  readonly connection: Connection;
  /** Printed as start-up warnings (client-go logs them as klog warnings). */
  readonly warnings: readonly string[];
}

export interface InClusterSource {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly tokenFile: string;
  readonly caFile: string;
}

const defaultInCluster = (): InClusterSource => ({
  env: process.env,
  tokenFile: IN_CLUSTER.tokenFile,
  caFile: IN_CLUSTER.caFile,
});

/** client-go's rest.InClusterConfig; throws ConnectionConfigError naming what is missing. */
export function inClusterConnection(source: InClusterSource = defaultInCluster()): Connection {
  const host = source.env[IN_CLUSTER.hostEnv] ?? '';
  const port = source.env[IN_CLUSTER.portEnv] ?? '';
  if (host === '' || port === '') {
    throw new ConnectionConfigError(
      `unable to load in-cluster configuration, ${IN_CLUSTER.hostEnv} and ${IN_CLUSTER.portEnv} must be defined`,
    );
  }
  let token: string;
  try {
    token = readFileSync(source.tokenFile, 'utf8').trim();
  } catch (err) {
    // Go's wording for the common cases; otherwise the system's reason without Node's prefixes.
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'ENOENT'
        ? 'no such file or directory'
        : e.code === 'EACCES'
          ? 'permission denied'
          : (e.message.split(',')[0] ?? e.message);
    throw new ConnectionConfigError(`unable to load in-cluster configuration: ${source.tokenFile}: ${why}`);
  }
  let ca: string | undefined;
  try {
    ca = readFileSync(source.caFile, 'utf8');
  } catch {
    // client-go logs this and goes on with the system roots; so does Keel.
    ca = undefined;
  }
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  let server: URL;
  try {
    server = new URL(`https://${hostPart}:${port}`);
  } catch {
    throw new ConnectionConfigError(
      `unable to load in-cluster configuration: ${JSON.stringify(`${host}:${port}`)} is not a valid address`,
    );
  }
  return {
    server,
    token,
    tokenFile: source.tokenFile,
    insecureSkipTLSVerify: false,
    ...(ca !== undefined ? { ca } : {}),
  };
}

/**
 * clientcmd.BuildConfigFromFlags(master, kubeconfig). Throws ConnectionConfigError with one line;
 * the daemon prints it as `Error: ...` and exits 1 before doing anything else.
 */
export function resolveConnection(
  kubeconfig: string,
  master: string,
  inCluster: () => Connection = () => inClusterConnection(),
): ResolvedConnection {
  if (kubeconfig !== '') return { connection: loadConnectionConfig(kubeconfig, { master }), warnings: [] };
  if (master !== '') return { connection: connectionFromUrl(master), warnings: [] };
  const warning =
    'Neither --connection-config nor --master was specified. Using the inClusterConfig. This might not work.';
  try {
    return { connection: inCluster(), warnings: [warning] };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ConnectionConfigError(
      `invalid configuration: no configuration has been provided: give --connection-config or --master (${why})`,
    );
  }
}

/**
 * The REST client settings of clientConnection, as client-go applies them: QPS 0 means its
 * default of 5 and a negative QPS turns throttling off; burst 0 means 10. The content type is not
 * applied: the client speaks JSON only (see @keel/client), which every server accepts.
 */
export function clientOptions(
  cc: Pick<ClientConnection, 'qps' | 'burst'>,
  userAgent: string,
  timeoutMs = 0,
): RestClientOptions {
  return {
    userAgent,
    qps: cc.qps === 0 ? 5 : cc.qps,
    burst: cc.burst === 0 ? 10 : cc.burst,
    timeoutMs,
  };
}
