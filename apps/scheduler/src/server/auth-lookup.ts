import { StatusError } from '@keel/apimachinery';
import { REVIEW_TIMEOUT_MS, type RequestHeaderConfig } from '@keel/auth';
import type { RestClient } from '@keel/client';

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where the API server publishes its client CAs and front-proxy settings (kube-system in kube). */
export const AUTHENTICATION_CONFIGMAP_NAMESPACE = 'platform-system';
export const AUTHENTICATION_CONFIGMAP_NAME = 'extension-apiserver-authentication';
export const AUTHENTICATION_CONFIGMAP = `configmap/${AUTHENTICATION_CONFIGMAP_NAME} in ${AUTHENTICATION_CONFIGMAP_NAMESPACE}`;

/** The front-proxy settings as published: the CA as PEM text rather than a file. */
export type LookedUpRequestHeader = Omit<RequestHeaderConfig, 'clientCAFile'> & { readonly caPem: string };

/** What the ConfigMap holds; undefined fields were absent or empty. */
export interface AuthenticationLookup {
  readonly clientCA?: string;
  readonly requestHeader?: LookedUpRequestHeader;
}

/** The answer of one GET: the settings, or why they could not be had (NotFound is not a failure). */
export type LookupOutcome =
  | { readonly found: AuthenticationLookup; readonly failure?: undefined }
  | { readonly found?: undefined; readonly failure: string };

/** kube's deserializeStrings: a JSON array of strings, or nothing for an empty value. */
function jsonStrings(data: Record<string, unknown>, key: string): string[] {
  const raw = data[key];
  if (typeof raw !== 'string' || raw === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new Error(`${key}: ${errorText(err)}`, { cause: err });
  }
  if (!Array.isArray(parsed) || parsed.some((s) => typeof s !== 'string')) {
    throw new Error(`${key}: not a JSON array of strings`);
  }
  return parsed as string[];
}

/** Reads the published settings out of the ConfigMap's data; throws for malformed header lists. */
export function parseAuthenticationConfigMap(configMap: unknown): AuthenticationLookup {
  const data = isRecord(configMap) && isRecord(configMap['data']) ? configMap['data'] : {};
  const text = (key: string) => (typeof data[key] === 'string' ? data[key] : '');
  const clientCA = text('client-ca-file');
  const caPem = text('requestheader-client-ca-file');
  const requestHeader: LookedUpRequestHeader | undefined =
    caPem === ''
      ? undefined
      : {
          caPem,
          allowedNames: jsonStrings(data, 'requestheader-allowed-names'),
          usernameHeaders: jsonStrings(data, 'requestheader-username-headers'),
          groupHeaders: jsonStrings(data, 'requestheader-group-headers'),
          extraHeaderPrefixes: jsonStrings(data, 'requestheader-extra-headers-prefix'),
        };
  return { ...(clientCA !== '' ? { clientCA } : {}), ...(requestHeader ? { requestHeader } : {}) };
}

/**
 * GETs the authentication ConfigMap once. A missing ConfigMap is an empty result, as in kube's
 * RequestHeaderAuthRequestController; any other failure (unreachable server, 403, bad content)
 * is reported for --authentication-tolerate-lookup-failure to judge.
 */
export async function lookupAuthentication(client: RestClient): Promise<LookupOutcome> {
  const path = `/api/v1/namespaces/${AUTHENTICATION_CONFIGMAP_NAMESPACE}/configmaps/${AUTHENTICATION_CONFIGMAP_NAME}`;
  try {
    const configMap = await client.get<unknown>(path, { timeoutMs: REVIEW_TIMEOUT_MS });
    return { found: parseAuthenticationConfigMap(configMap) };
  } catch (err) {
    if (err instanceof StatusError && err.reason === 'NotFound') return { found: {} };
    return { failure: errorText(err) };
  }
}
