/**
 * Loads a connection-config file (the kubeconfig format, YAML or JSON) into one resolved
 * Connection: the server URL plus the TLS material and credentials of the chosen context, with
 * every referenced file read and every `*-data` field decoded. Problems surface as one line
 * naming the file, because the daemon prints them as its exit message.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import {
  ConnectionConfigError,
  entryIn,
  optBool,
  optString,
  type Fields,
} from './connection-config-fields.js';

export { ConnectionConfigError } from './connection-config-fields.js';

/** Where the API server is and how to authenticate to it; fully resolved (no file references). */
export interface Connection {
  readonly server: URL;
  /** PEM bundle of authorities trusted for the server's certificate (system roots when absent). */
  readonly ca?: string;
  /** PEM client certificate and key (both or neither). */
  readonly cert?: string;
  readonly key?: string;
  readonly token?: string;
  /** When set, the token is re-read from this file from time to time (rotated tokens). */
  readonly tokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  readonly insecureSkipTLSVerify: boolean;
  /** The name checked against the server's certificate (and sent as SNI) instead of the host. */
  readonly serverName?: string;
  /** The context's default namespace, if it names one. */
  readonly namespace?: string;
}

export interface LoadConnectionOptions {
  /** `--master`: replaces the cluster's server address. */
  readonly master?: string;
  /** Uses this context instead of `current-context`. */
  readonly context?: string;
}

/** A Connection for `--master` alone: no credentials, system trust roots. */
export function connectionFromUrl(master: string): Connection {
  return {
    server: parseServer(master, false, (m) => new ConnectionConfigError(`--master: ${m}`)),
    insecureSkipTLSVerify: false,
  };
}

/** Reads `path` and resolves the selected context; throws ConnectionConfigError (one line). */
export function loadConnectionConfig(path: string, opts: LoadConnectionOptions = {}): Connection {
  const file = resolve(path);
  const fail = (problem: string) => new ConnectionConfigError(`connection-config ${file}: ${problem}`);
  const doc = parseDocument(readText(file, fail), fail);
  // Empty strings are what unset string flags hold, so they mean "not given".
  const contextName = opts.context || optString(doc, 'current-context', 'the file', fail);
  if (!contextName) {
    // client-go's behaviour: with --master and no context, connect there without credentials.
    if (opts.master) return connectionFromUrl(opts.master);
    throw fail('no current-context is set');
  }
  const context = entryIn(doc, 'contexts', 'context', contextName, fail);
  if (!context) throw fail(`context ${JSON.stringify(contextName)} not found`);
  const where = `context ${JSON.stringify(contextName)}`;
  const clusterName = optString(context, 'cluster', where, fail);
  const cluster = clusterName ? entryIn(doc, 'clusters', 'cluster', clusterName, fail) : undefined;
  if (clusterName && !cluster && !opts.master) {
    throw fail(`cluster ${JSON.stringify(clusterName)} of ${where} not found`);
  }
  const userName = optString(context, 'user', where, fail);
  const user = userName ? entryIn(doc, 'users', 'user', userName, fail) : undefined;
  if (userName && !user) throw fail(`user ${JSON.stringify(userName)} of ${where} not found`);
  const files = { dir: dirname(file), fail };
  const tls = clusterTls(cluster ?? {}, `cluster ${JSON.stringify(clusterName)}`, files);
  const creds = userCredentials(user ?? {}, `user ${JSON.stringify(userName)}`, files);
  const hasTls = tls.ca !== undefined || tls.insecureSkipTLSVerify || creds.cert !== undefined;
  const rawServer = opts.master || optString(cluster ?? {}, 'server', 'cluster', fail);
  if (!rawServer) throw fail(`cluster ${JSON.stringify(clusterName)} has no server`);
  const server = opts.master
    ? parseServer(opts.master, hasTls, (m) => new ConnectionConfigError(`--master: ${m}`))
    : parseServer(rawServer, hasTls, (m) => fail(`cluster ${JSON.stringify(clusterName)}: ${m}`));
  const namespace = optString(context, 'namespace', where, fail);
  return { server, ...tls, ...creds, ...(namespace ? { namespace } : {}) };
}

function readText(file: string, fail: (p: string) => Error): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw fail(fileProblem(err));
  }
}

function parseDocument(text: string, fail: (p: string) => Error): Fields {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    // The parser appends a multi-line excerpt of the source after the position; keep the first line.
    const first = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
    throw fail(`not valid YAML or JSON: ${first.replace(/:$/, '')}`);
  }
  if (doc === null || doc === undefined) throw fail('the file is empty');
  if (typeof doc !== 'object' || Array.isArray(doc)) throw fail('the top level must be a mapping');
  return doc as Fields;
}

interface FileContext {
  readonly dir: string;
  readonly fail: (p: string) => Error;
}

/** The content of a `<name>-data` field (base64) or of the `<name>` file; never both. */
function material(fields: Fields, name: string, where: string, files: FileContext): string | undefined {
  const path = optString(fields, name, where, files.fail);
  const data = optString(fields, `${name}-data`, where, files.fail);
  if (path && data) throw files.fail(`${where}: both ${name} and ${name}-data are set; use only one`);
  if (data) {
    const compact = data.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) {
      throw files.fail(`${where}: ${name}-data is not valid base64`);
    }
    return Buffer.from(compact, 'base64').toString('utf8');
  }
  return path ? readReferenced(path, name, where, files) : undefined;
}

function readReferenced(path: string, field: string, where: string, files: FileContext): string {
  const full = isAbsolute(path) ? path : resolve(files.dir, path);
  try {
    return readFileSync(full, 'utf8');
  } catch (err) {
    throw files.fail(`${where}: ${field} ${full}: ${fileProblem(err)}`);
  }
}

function clusterTls(
  cluster: Fields,
  where: string,
  files: FileContext,
): Pick<Connection, 'ca' | 'insecureSkipTLSVerify' | 'serverName'> {
  const ca = material(cluster, 'certificate-authority', where, files);
  const insecure = optBool(cluster, 'insecure-skip-tls-verify', where, files.fail) ?? false;
  if (insecure && ca !== undefined) {
    throw files.fail(`${where}: a certificate authority cannot be combined with insecure-skip-tls-verify`);
  }
  const serverName = optString(cluster, 'tls-server-name', where, files.fail);
  return { insecureSkipTLSVerify: insecure, ...(ca ? { ca } : {}), ...(serverName ? { serverName } : {}) };
}

type Credentials = Pick<Connection, 'cert' | 'key' | 'token' | 'tokenFile' | 'username' | 'password'>;

function userCredentials(user: Fields, where: string, files: FileContext): Credentials {
  for (const plugin of ['exec', 'auth-provider']) {
    if (user[plugin] !== undefined && user[plugin] !== null) {
      throw files.fail(`${where}: ${plugin} credential plugins are not supported`);
    }
  }
  const cert = material(user, 'client-certificate', where, files);
  const key = material(user, 'client-key', where, files);
  if ((cert === undefined) !== (key === undefined)) {
    throw files.fail(`${where}: client-certificate and client-key must be given together`);
  }
  const out: { -readonly [K in keyof Credentials]: Credentials[K] } = {};
  if (cert !== undefined && key !== undefined) Object.assign(out, { cert, key });
  const token = optString(user, 'token', where, files.fail);
  const tokenPath = optString(user, 'tokenFile', where, files.fail);
  if (token) out.token = token;
  else if (tokenPath) {
    const full = isAbsolute(tokenPath) ? tokenPath : resolve(files.dir, tokenPath);
    const read = readReferenced(full, 'tokenFile', where, files).trim();
    if (!read) throw files.fail(`${where}: tokenFile ${full} is empty`);
    Object.assign(out, { token: read, tokenFile: full });
  }
  const username = optString(user, 'username', where, files.fail);
  const password = optString(user, 'password', where, files.fail);
  if (username || password) {
    if (out.token) throw files.fail(`${where}: both a token and basic auth are set; use only one`);
    Object.assign(out, { username: username ?? '', password: password ?? '' });
  }
  return out;
}

/** A server address as a URL; without a scheme, https when TLS settings exist (as client-go does). */
function parseServer(raw: string, tls: boolean, fail: (m: string) => Error): URL {
  const text = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `${tls ? 'https' : 'http'}://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw fail(`server ${JSON.stringify(raw)} is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw fail(`server ${JSON.stringify(raw)} must be an http or https URL`);
  }
  if (url.search || url.hash) throw fail(`server ${JSON.stringify(raw)} must not have a query or fragment`);
  return url;
}

function fileProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return err instanceof Error ? err.message : String(err);
}
