import type { RequestHeaderConfig } from '@keel/auth';

/**
 * The data of platform-system/extension-apiserver-authentication, as the real server's
 * ClusterAuthenticationInfo publishes it: the client CA, and the front proxy's CA with the header
 * names and allowed names (JSON arrays) that delegating servers (the scheduler among them) need
 * to trust the same front proxy. Keys are written only for what is configured.
 */
export function authenticationInfo(
  clientCA: string,
  requestHeader: RequestHeaderConfig | undefined,
  requestHeaderCA: string,
): Record<string, string> {
  const data: Record<string, string> = {};
  if (clientCA !== '') data['client-ca-file'] = clientCA;
  if (requestHeader && requestHeaderCA !== '') {
    data['requestheader-client-ca-file'] = requestHeaderCA;
    data['requestheader-username-headers'] = JSON.stringify(requestHeader.usernameHeaders);
    data['requestheader-group-headers'] = JSON.stringify(requestHeader.groupHeaders);
    data['requestheader-extra-headers-prefix'] = JSON.stringify(requestHeader.extraHeaderPrefixes);
    data['requestheader-allowed-names'] = JSON.stringify(requestHeader.allowedNames);
  }
  return data;
}
