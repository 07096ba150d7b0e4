/**
 * Parsing of store server URLs. Keel's store is Redis, so the spec's `scheme://ip:port` becomes
 * `redis://host:port` (plain) or `rediss://host:port` (TLS), optionally with credentials and a
 * database number: `redis://user:pass@host:6379/2`.
 */

export const STORE_SCHEMES = ['redis:', 'rediss:'] as const;

/** Problems with one URL, each naming the flag. */
export function checkStoreUrl(flag: string, text: string): string[] {
  const quoted = JSON.stringify(text);
  const notUrl = [`--${flag} ${quoted} is not a URL; expected redis://host:port or rediss://host:port`];
  // `host:6379` parses as a URL with scheme `host:`; a missing `//` is the tell.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return notUrl;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return notUrl;
  }
  if (!(STORE_SCHEMES as readonly string[]).includes(url.protocol)) {
    return [`--${flag} ${quoted} has scheme ${url.protocol}//; expected redis:// or rediss://`];
  }
  const errors: string[] = [];
  if (url.hostname === '') errors.push(`--${flag} ${quoted} has no host`);
  if (!/^(\/\d*)?$/.test(url.pathname)) {
    errors.push(
      `--${flag} ${quoted} has path ${JSON.stringify(url.pathname)}; only a database number may follow the host`,
    );
  }
  return errors;
}

export function isTlsUrl(text: string): boolean {
  return text.startsWith('rediss://');
}

function database(text: string): number {
  const path = new URL(text).pathname.slice(1);
  return path === '' ? 0 : Number(path);
}

/**
 * Rules for a list of URLs that form one backend: one scheme for all, and no database other
 * than 0 when several URLs make a Redis Cluster (a cluster has only database 0).
 * Call only with URLs that passed checkStoreUrl.
 */
export function checkStoreUrlSet(flag: string, urls: readonly string[]): string[] {
  const errors: string[] = [];
  const tls = urls.filter(isTlsUrl).length;
  if (tls !== 0 && tls !== urls.length) {
    errors.push(`--${flag} mixes redis:// and rediss:// servers; use one scheme for all of them`);
  }
  if (urls.length > 1) {
    for (const u of urls) {
      if (database(u) !== 0)
        errors.push(
          `--${flag} ${JSON.stringify(u)} selects a database, but a Redis Cluster has only database 0`,
        );
    }
  }
  return errors;
}

export interface ServersOverride {
  readonly group: string;
  readonly resource: string;
  readonly urls: readonly string[];
}

/** `group/resource#url;url` (the core group is empty: `/events#...`); undefined when malformed. */
export function parseServersOverride(text: string): ServersOverride | undefined {
  const tokens = text.split('#');
  if (tokens.length !== 2) return undefined;
  const [groupResource = '', servers = ''] = tokens;
  const parts = groupResource.split('/');
  if (parts.length !== 2) return undefined;
  const [group = '', resource = ''] = parts;
  const urls = servers.split(';').filter((s) => s !== '');
  if (resource === '' || urls.length === 0) return undefined;
  return { group, resource, urls };
}
