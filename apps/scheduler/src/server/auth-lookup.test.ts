import { afterEach, describe, expect, it } from 'vitest';
import { lookupAuthentication, parseAuthenticationConfigMap } from './auth-lookup.js';
import { ReviewStub } from './testing/review-stub.js';

const PEM = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';

describe('parseAuthenticationConfigMap', () => {
  it('reads the CAs and the JSON header lists the API server publishes', () => {
    expect(
      parseAuthenticationConfigMap({
        data: {
          'client-ca-file': PEM,
          'requestheader-client-ca-file': PEM,
          'requestheader-allowed-names': '["front-proxy-client"]',
          'requestheader-username-headers': '["X-Remote-User"]',
          'requestheader-group-headers': '["X-Remote-Group"]',
          'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
        },
      }),
    ).toEqual({
      clientCA: PEM,
      requestHeader: {
        caPem: PEM,
        allowedNames: ['front-proxy-client'],
        usernameHeaders: ['X-Remote-User'],
        groupHeaders: ['X-Remote-Group'],
        extraHeaderPrefixes: ['X-Remote-Extra-'],
      },
    });
  });

  it('leaves out what is empty or absent', () => {
    expect(
      parseAuthenticationConfigMap({ data: { 'client-ca-file': '', 'requestheader-client-ca-file': '' } }),
    ).toEqual({});
    expect(parseAuthenticationConfigMap({})).toEqual({});
  });

  it('refuses a header list that is not a JSON array of strings', () => {
    const data = { 'requestheader-client-ca-file': PEM, 'requestheader-username-headers': 'X-Remote-User' };
    expect(() => parseAuthenticationConfigMap({ data })).toThrow(/requestheader-username-headers/);
  });
});

describe('lookupAuthentication (over HTTP)', () => {
  let stub: ReviewStub | undefined;
  afterEach(async () => {
    await stub?.stop();
    stub = undefined;
  });

  it('GETs the ConfigMap in platform-system', async () => {
    stub = await ReviewStub.start(() => ({ status: 200, body: { data: { 'client-ca-file': PEM } } }));
    expect(await lookupAuthentication(stub.client())).toEqual({ found: { clientCA: PEM } });
    expect(stub.received[0]?.path).toBe(
      '/api/v1/namespaces/platform-system/configmaps/extension-apiserver-authentication',
    );
  });

  it('takes a missing ConfigMap as nothing published, and anything else as a failure', async () => {
    stub = await ReviewStub.start(() => ({ status: 404, body: '' }));
    expect(await lookupAuthentication(stub.client())).toEqual({ found: {} });
    stub.respond(() => ({ status: 403, body: '' }));
    expect(await lookupAuthentication(stub.client())).toEqual({
      failure: 'the server does not allow access to the requested resource',
    });
  });
});
