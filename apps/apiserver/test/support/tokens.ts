/**
 * Service account keys and token helpers for the token suites: keys written as PEM files, the
 * payload of a JWT, and TokenReview (which names the user a token authenticates as).
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { TestApiServer, TestPKI } from '@keel/testing';
import { expectStatus, type Json } from './core.js';

export interface KeyFiles {
  readonly privateKey: KeyObject;
  readonly keyFile: string;
  readonly pubFile: string;
}

export function writeKeys(pki: TestPKI, name: string, type: 'rsa' | 'ec'): KeyFiles {
  const { privateKey, publicKey } =
    type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKey,
    keyFile: pki.file(`${name}.key`, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    pubFile: pki.file(`${name}.pub`, publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

export function jwtPart(token: string, part: 0 | 1): Json {
  return JSON.parse(Buffer.from(token.split('.')[part] ?? '', 'base64url').toString('utf8')) as Json;
}

export const saPath = (ns: string, name?: string, sub?: string) =>
  `/api/v1/namespaces/${ns}/serviceaccounts${name ? `/${name}` : ''}${sub ? `/${sub}` : ''}`;

export const secretPath = (ns: string, name?: string) =>
  `/api/v1/namespaces/${ns}/secrets${name ? `/${name}` : ''}`;

/** Creates a ServiceAccount as admin; resolves its uid. */
export async function createServiceAccount(server: TestApiServer, ns: string, name: string): Promise<string> {
  const sa = await expectStatus(
    server.request('POST', saPath(ns), {
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
    }),
    201,
  );
  return (sa['metadata'] as Json)['uid'] as string;
}

/** POSTs a TokenRequest as admin; resolves the response. */
export function requestToken(server: TestApiServer, ns: string, name: string, spec: Json = {}) {
  return server.request('POST', saPath(ns, name, 'token'), {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec },
  });
}

/** A token from a successful TokenRequest. */
export async function issueToken(
  server: TestApiServer,
  ns: string,
  name: string,
  spec: Json = {},
): Promise<string> {
  const tr = await expectStatus(requestToken(server, ns, name, spec), 201);
  return (tr['status'] as Json)['token'] as string;
}

/** The TokenReview status of a token, as the server's own authenticator sees it. */
export async function review(server: TestApiServer, token: string): Promise<Json> {
  const r = await expectStatus(
    server.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
    }),
    201,
  );
  return r['status'] as Json;
}
