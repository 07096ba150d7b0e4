import { describe, expect, it } from 'vitest';
import { requestInfo } from './request-info.js';

const info = (method: string, path: string) => requestInfo(method, new URL(path, 'https://keel.test'));

describe('requestInfo', () => {
  it.each([
    ['GET', '/api/v1/namespaces/ns/pods', 'list', ''],
    ['GET', '/api/v1/namespaces/ns/pods?watch=true', 'watch', ''],
    ['GET', '/api/v1/namespaces/ns/pods?watch=1', 'watch', ''],
    ['GET', '/api/v1/namespaces/ns/pods?watch=false', 'list', ''],
    ['GET', '/api/v1/namespaces/ns/pods/p', 'get', 'p'],
    // upstream's get handler ignores `watch`: a GET of one object stays a get
    ['GET', '/api/v1/namespaces/ns/pods/p?watch=true', 'get', 'p'],
    ['GET', '/api/v1/watch/namespaces/ns/pods/p', 'watch', 'p'],
    ['GET', '/api/v1/watch/namespaces/ns/pods', 'watch', ''],
    ['DELETE', '/api/v1/namespaces/ns/pods', 'deletecollection', ''],
    ['DELETE', '/api/v1/namespaces/ns/pods/p', 'delete', 'p'],
    ['POST', '/apis/events.k8s.io/v1/namespaces/ns/events', 'create', ''],
  ])('%s %s is verb %s on name %j', (method, path, verb, name) => {
    const r = info(method, path);
    expect(r.isResourceRequest).toBe(true);
    expect(r.verb).toBe(verb);
    if (r.isResourceRequest) expect(r.name).toBe(name);
  });
});
