import type { X509Certificate } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import { peerChain, verifyClientChain } from './cert-chain.js';
import { headerNamesWithPrefix, headerValue, headerValues } from './headers.js';
import type {
  AuthenticationContext,
  AuthenticationRequest,
  AuthenticationResult,
  Authenticator,
} from './types.js';

export interface RequestHeaderSettings {
  /** The --requestheader-client-ca-file certificates. */
  readonly roots: readonly X509Certificate[];
  /** Empty: any certificate the CA verifies may assert an identity. */
  readonly allowedNames: readonly string[];
  readonly usernameHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeaderPrefixes: readonly string[];
}

/**
 * Front-proxy authentication (--requestheader-*): the identity headers are believed only from a
 * client whose certificate chains to the request-header CA and whose CommonName is allowed. A
 * certificate that fails either check is an error (the union may still find another method that
 * accepts the request); without a certificate the method does not apply.
 *
 * The user is the first non-empty user header, the groups every non-empty value of every group
 * header, the extras every header starting with a prefix (key lower-cased and percent-decoded).
 * On success the headers used are recorded as consumed so the filter removes them.
 */
export class RequestHeaderAuthenticator implements Authenticator {
  constructor(
    private readonly settings: RequestHeaderSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  authenticate(req: AuthenticationRequest, ctx?: AuthenticationContext): Promise<AuthenticationResult> {
    return Promise.resolve(this.check(req, ctx));
  }

  private check(req: AuthenticationRequest, ctx?: AuthenticationContext): AuthenticationResult {
    const socket = req.socket;
    const chain = peerChain(socket);
    if (!chain || !(socket instanceof TLSSocket)) return undefined;
    const failure = verifyClientChain(chain, this.settings.roots, this.now());
    if (failure !== undefined) return { error: failure };
    // Our own check passed, but the handshake's may have failed for a reason it does not look at.
    if (!socket.authorized) return { error: `x509: ${String(socket.authorizationError)}` };
    const cn = commonName(socket);
    if (this.settings.allowedNames.length > 0 && !this.settings.allowedNames.includes(cn)) {
      return { error: `x509: subject with cn=${cn} is not in the allowed list` };
    }

    const name = this.settings.usernameHeaders.map((h) => headerValue(req, h)).find((v) => v !== '') ?? '';
    if (name === '') return undefined;
    const groups = this.settings.groupHeaders.flatMap((h) => headerValues(req, h).filter((v) => v !== ''));
    const extra: Record<string, string[]> = {};
    const extraHeaders: string[] = [];
    for (const prefix of this.settings.extraHeaderPrefixes) {
      for (const header of headerNamesWithPrefix(req, prefix)) {
        const key = unescapeExtraKey(header.slice(prefix.length));
        (extra[key] ??= []).push(...headerValues(req, header));
        extraHeaders.push(header);
      }
    }
    ctx?.consumedHeaders.push(
      ...this.settings.usernameHeaders.map((h) => h.toLowerCase()),
      ...this.settings.groupHeaders.map((h) => h.toLowerCase()),
      ...extraHeaders,
    );
    return { user: { name, uid: '', groups, extra } };
  }
}

/** The subject CommonName; Go keeps the last CN attribute when there are several. */
function commonName(socket: TLSSocket): string {
  const cn: string | string[] | undefined = socket.getPeerCertificate().subject?.CN;
  if (Array.isArray(cn)) return cn[cn.length - 1] ?? '';
  return cn ?? '';
}

/**
 * Go's url.PathUnescape on an already lower-cased key: a malformed escape keeps the key as it is,
 * since extras are always recorded.
 */
export function unescapeExtraKey(encoded: string): string {
  if (!/^(?:[^%]|%[0-9a-fA-F]{2})*$/.test(encoded)) return encoded;
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length;) {
    if (encoded[i] === '%') {
      bytes.push(parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const cp = encoded.codePointAt(i) ?? 0;
      const ch = String.fromCodePoint(cp);
      bytes.push(...Buffer.from(ch, 'utf8'));
      i += ch.length;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
