// Moved to @keel/testing so the API server's end-to-end tests sign with the same helper.
export { signJwt } from '@keel/testing';
