/** A JSON client for either API server: TLS against the test CA, as a client certificate or a token. */
import { Agent, request } from 'undici';
import type { TestCert } from '@keel/testing';

export { eventually } from '@keel/testing';

export type Json = Record<string, unknown>;

export interface Reply {
  readonly status: number;
  readonly json: Json;
  readonly text: string;
}

export class ApiClient {
  private readonly agent: Agent;

  constructor(
    readonly url: string,
    ca: TestCert,
    private readonly credential?: TestCert | { token: string },
  ) {
    const cert =
      credential && 'certPem' in credential ? { cert: credential.certPem, key: credential.keyPem } : {};
    this.agent = new Agent({ connect: { ca: ca.certPem, ...cert }, connections: 32 });
  }

  async call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = contentType;
    if (this.credential && 'token' in this.credential)
      headers['authorization'] = `Bearer ${this.credential.token}`;
    const res = await request(this.url + path, {
      method: method as 'GET',
      dispatcher: this.agent,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.body.text();
    let json: Json = {};
    try {
      json = JSON.parse(text) as Json;
    } catch {
      // Not JSON (/readyz, /metrics): the text is what the test reads.
    }
    return { status: res.statusCode, json, text };
  }

  get(path: string): Promise<Reply> {
    return this.call('GET', path);
  }

  /** POSTs an object; anything but 201 fails the test. */
  async create(path: string, body: Json): Promise<Json> {
    const r = await this.call('POST', path, body);
    if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
    return r.json;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** A schedulable node with room for `pods` pods and a Ready condition. */
export function nodeBody(name: string, pods = 110): Json {
  const capacity = { cpu: '32', memory: '128Gi', pods: String(pods) };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: {
      capacity,
      allocatable: capacity,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'interop test node',
          lastHeartbeatTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        },
      ],
    },
  };
}

/**
 * Creates a node and clears the `node.kubernetes.io/not-ready` taint the TaintNodesByCondition
 * admission plugin puts on every new node: on the reference server only the controller manager's
 * node lifecycle controller (not run here) lifts it; Keel's node taint controller does it itself.
 */
export async function createReadyNode(client: ApiClient, name: string): Promise<void> {
  await client.create('/api/v1/nodes', nodeBody(name));
  const r = await client.call(
    'PATCH',
    `/api/v1/nodes/${name}`,
    { spec: { taints: null } },
    'application/merge-patch+json',
  );
  if (r.status !== 200) throw new Error(`PATCH node ${name}: ${r.status} ${r.text}`);
}

export function podBody(name: string): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'interop' } },
    spec: {
      // No token controller runs beside the reference server to make a token for it to mount.
      automountServiceAccountToken: false,
      containers: [
        {
          name: 'app',
          image: 'registry.example/app:1',
          resources: { requests: { cpu: '10m', memory: '16Mi' } },
        },
      ],
    },
  };
}

/** Runs `fn` over `items`, at most `width` at a time. */
export async function inBatches<T>(
  items: readonly T[],
  width: number,
  fn: (item: T) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

/** Every pod of a namespace and the node each is bound to ('' while unbound). */
export async function bindings(client: ApiClient, ns: string): Promise<Map<string, string>> {
  const r = await client.get(`/api/v1/namespaces/${ns}/pods?limit=5000`);
  if (r.status !== 200) throw new Error(`listing pods: ${r.status} ${r.text}`);
  const items = (r.json['items'] ?? []) as { metadata: { name: string }; spec: { nodeName?: string } }[];
  return new Map(items.map((p) => [p.metadata.name, p.spec.nodeName ?? '']));
}

/** Runs `fn`; a failure carries the tail of what `proc` printed (the daemon's own account of it). */
export async function explained<T>(
  proc: { stderr: string } | undefined,
  name: string,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const tail = proc?.stderr.slice(-6000) ?? '';
    throw new Error(
      `${err instanceof Error ? err.message : String(err)}\n--- ${name} stderr (tail) ---\n${tail}`,
    );
  }
}

/** Fails, quoting them, when a daemon's log has lines that report an authorization denial not in `known`. */
export function expectNoDenials(log: string, known: (line: string) => boolean = () => false): void {
  const denied = log.split('\n').filter((l) => /forbidden/i.test(l) && !known(l));
  if (denied.length > 0)
    throw new Error(`${denied.length} denied request(s):\n${denied.slice(0, 20).join('\n')}`);
}

/** Runs `fn`, failing at once (with its exit status) if `proc` exits before `fn` is done. */
export async function whileRunning<T>(
  proc: { wait(): Promise<{ code: number | null; signal: string | null }> },
  name: string,
  fn: () => Promise<T>,
): Promise<T> {
  let done = false;
  const exited = proc.wait().then((r) => {
    if (!done) throw new Error(`${name} exited (code ${r.code}, signal ${r.signal}) during the test`);
    return undefined as never;
  });
  try {
    return await Promise.race([fn(), exited]);
  } finally {
    done = true;
  }
}
