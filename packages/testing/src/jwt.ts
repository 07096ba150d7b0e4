import { constants, createHmac, sign as cryptoSign, type KeyObject } from 'node:crypto';

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * A compact JWS made with node:crypto alone, so tests control every claim (undefined ones are
 * left out, wrong types go through) and do not depend on the library under test.
 */
export function signJwt(payload: object, key: KeyObject | string, alg: string, header: object = {}): string {
  const input = `${b64({ alg, typ: 'JWT', ...header })}.${b64(payload)}`;
  if (alg === 'none') return `${input}.`;
  const bits = alg.slice(2);
  const hash = `sha${bits}`;
  let sig: Buffer;
  if (alg.startsWith('HS')) sig = createHmac(hash, key).update(input).digest();
  else if (alg.startsWith('RS')) sig = cryptoSign(hash, Buffer.from(input), key);
  else if (alg.startsWith('PS')) {
    sig = cryptoSign(hash, Buffer.from(input), {
      key: key as KeyObject,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: Number(bits) / 8,
    });
  } else sig = cryptoSign(hash, Buffer.from(input), { key: key as KeyObject, dsaEncoding: 'ieee-p1363' });
  return `${input}.${sig.toString('base64url')}`;
}
