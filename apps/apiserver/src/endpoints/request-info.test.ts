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
    // upstream authorizes a list/watch pinned to one name as a request on that object
    ['GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dcm', 'list', 'cm'],
    ['GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3D%3Dcm&watch=1', 'watch', 'cm'],
    ['GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%21%3Dcm', 'list', ''],
    // as Go's andTerm: the first term that pins the name decides
    [
      'GET',
      '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dcm,metadata.name%3Dother',
      'list',
      'cm',
    ],
    ['GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.namespace%3Dns', 'list', ''],
    ['GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3D..', 'list', ''],
  ])('%s %s is verb %s on name %j', (method, path, verb, name) => {
    const r = info(method, path);
    expect(r.isResourceRequest).toBe(true);
    expect(r.verb).toBe(verb);
    if (r.isResourceRequest) expect(r.name).toBe(name);
  });
});
