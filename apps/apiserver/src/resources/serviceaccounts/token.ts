import { badRequest, conflict, invalid, invalidValue, notFound, path } from '@keel/apimachinery';
import { boundTokenClaims, type ServiceAccountTokenIssuer } from '@keel/auth';
import {
  decodeTokenRequest,
  tokenRequestGroupKind,
  tokenRequestResponse,
  validateTokenRequest,
  type Node,
  type Pod,
  type Secret,
  type ServiceAccount,
  type TokenRequest,
} from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import { namespaceForCreate, readCreateOnlyBody } from '../../endpoints/handlers/create-only.js';
import { addWarnings } from '../../endpoints/handlers/decode.js';
import type { Handler } from '../../endpoints/handlers/scope.js';
import { writeResourceObject } from '../../endpoints/respond.js';
import { keyRoots } from '../../server/token-getter.js';

/** The lifetime kubelets ask for; with extension on, such pod-bound tokens live a year. */
const WARN_ONLY_EXPIRATION_SECONDS = 3607;
const EXTENDED_EXPIRATION_SECONDS = 365 * 24 * 60 * 60;

export interface TokenRequestSettings {
  readonly issuer: ServiceAccountTokenIssuer;
  /** --api-audiences (defaulting to the issuers): the audiences of a request that names none. */
  readonly apiAudiences: readonly string[];
  /** --service-account-max-token-expiration in seconds; undefined: no cap. */
  readonly maxExpirationSeconds: number | undefined;
  /** --service-account-extend-token-expiration. */
  readonly extendExpiration: boolean;
  readonly now?: () => Date;
}

const rfc3339 = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

async function mustGet<T extends object>(
  storage: Storage,
  key: string,
  resource: string,
  name: string,
): Promise<T> {
  const obj = await storage.get<T>(key, { ignoreNotFound: true });
  if (!obj) throw notFound({ group: '', resource }, name);
  return obj;
}

interface Bound {
  pod?: Pod;
  secret?: Secret;
  node?: Node;
}

/** The object a token is bound to (TokenREST's switch on the reference's kind). */
async function boundObjects(storage: Storage, req: TokenRequest, saName: string, ns: string): Promise<Bound> {
  const ref = req.spec.boundObjectRef;
  if (!ref) return {};
  const name = ref.name ?? '';
  const apiVersion = ref.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
  const kind = ref.kind ?? '';
  const out: Bound = {};
  let uid = '';
  if (group === '' && kind === 'Pod') {
    const pod = await mustGet<Pod>(storage, `${keyRoots.pods}/${ns}/${name}`, 'pods', name);
    if ((pod.spec?.serviceAccountName ?? '') !== saName) {
      throw badRequest(
        `cannot bind token for serviceaccount ${JSON.stringify(saName)} to pod running with different serviceaccount name.`,
      );
    }
    out.pod = pod;
    uid = pod.metadata.uid ?? '';
    // The pod's node goes into the claims when it still exists; a missing one is no error.
    const nodeName = pod.spec?.nodeName ?? '';
    if (nodeName !== '') {
      const node = await storage.get<Node>(`${keyRoots.nodes}/${nodeName}`, { ignoreNotFound: true });
      if (node) out.node = node;
    }
  } else if (group === '' && kind === 'Node') {
    out.node = await mustGet<Node>(storage, `${keyRoots.nodes}/${name}`, 'nodes', name);
    uid = out.node.metadata.uid ?? '';
  } else if (group === '' && kind === 'Secret') {
    out.secret = await mustGet<Secret>(storage, `${keyRoots.secrets}/${ns}/${name}`, 'secrets', name);
    uid = out.secret.metadata.uid ?? '';
  } else {
    throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  if ((ref.uid ?? '') !== '' && ref.uid !== uid) {
    throw conflict(
      { group, resource: kind },
      name,
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return out;
}

const refOf = (o: { metadata: { name?: string; uid?: string } } | undefined) =>
  o ? { name: o.metadata.name ?? '', uid: o.metadata.uid ?? '' } : undefined;

/**
 * POST `serviceaccounts/<name>/token` (TokenREST.Create): checks the body against the URL, the
 * account and the bound object, caps and extends the lifetime as configured, signs, and answers
 * the request with the token in its status (201). Nothing is stored.
 */
export function tokenRequestHandler(storage: Storage, settings: TokenRequestSettings): Handler {
  return async (scope, r) => {
    const { object: req } = await readCreateOnlyBody(
      r,
      scope.maxRequestBodyBytes,
      'TokenRequest',
      decodeTokenRequest,
    );
    const ns = r.info.namespace;
    const name = r.info.name;
    const meta = req.metadata;
    if ((meta.name ?? '') !== '' && meta.name !== name) {
      throw invalid(tokenRequestGroupKind, name, [
        invalidValue(path('metadata', 'name'), meta.name, 'must match the service account name if specified'),
      ]);
    }
    if ((meta.namespace ?? '') !== '' && meta.namespace !== ns) {
      throw invalid(tokenRequestGroupKind, name, [
        invalidValue(
          path('metadata', 'namespace'),
          meta.namespace,
          'must match the service account namespace if specified',
        ),
      ]);
    }
    const sa = (await scope.store.get(ns, name)) as ServiceAccount;
    if (!req.spec.audiences || req.spec.audiences.length === 0)
      req.spec.audiences = [...settings.apiAudiences];
    meta.name = sa.metadata.name ?? name;
    meta.namespace = namespaceForCreate(meta.namespace, ns);
    const now = settings.now?.() ?? new Date();
    meta.creationTimestamp = rfc3339(now);
    validateTokenRequest(req);
    const bound = await boundObjects(storage, req, name, ns);

    let exp = req.spec.expirationSeconds ?? 0;
    const max = settings.maxExpirationSeconds;
    if (max !== undefined && exp > max) {
      addWarnings(r.res, [`requested expiration of ${exp} seconds shortened to ${max} seconds`]);
      exp = max;
      req.spec.expirationSeconds = max;
    }
    // Kubelets ask for 3607 s; such pod-bound tokens for the API server itself get a year and
    // a `warnafter` claim, so a kubelet that never refreshes is noticed, not broken.
    let warnAfter = 0;
    const forApiServer = req.spec.audiences.every((a) => settings.apiAudiences.includes(a));
    if (settings.extendExpiration && bound.pod && exp === WARN_ONLY_EXPIRATION_SECONDS && forApiServer) {
      warnAfter = exp;
      exp = EXTENDED_EXPIRATION_SECONDS;
    }
    const claims = boundTokenClaims({
      namespace: ns,
      serviceAccount: { name: sa.metadata.name ?? name, uid: sa.metadata.uid ?? '' },
      ...(bound.pod ? { pod: refOf(bound.pod) } : {}),
      ...(bound.secret ? { secret: refOf(bound.secret) } : {}),
      ...(bound.node ? { node: refOf(bound.node) } : {}),
      audiences: req.spec.audiences,
      expirationSeconds: exp,
      warnAfterSeconds: warnAfter,
      now,
    });
    req.status = {
      token: settings.issuer.generateToken(claims),
      expirationTimestamp: rfc3339(new Date(now.getTime() + (req.spec.expirationSeconds ?? 0) * 1000)),
    };
    writeResourceObject(r.req, r.res, r.url, 201, tokenRequestResponse(req));
  };
}
