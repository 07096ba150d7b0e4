import { checkPaired, flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';

/**
 * The client certificate the API server presents when it calls out during a request: to extension
 * API servers and to admission webhooks.
 */
export interface ProxyClientConfig {
  /** Both files, or undefined to call out without a client certificate. */
  readonly certificate: { readonly certFile: string; readonly keyFile: string } | undefined;
}

export class ProxyClientOptions implements OptionsGroup<{ proxyClient?: ProxyClientConfig }> {
  proxyClientCertFile = '';
  proxyClientKeyFile = '';

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Misc');
    s.var(this, 'proxyClientCertFile', {
      name: 'proxy-client-cert-file',
      type: t.string,
      usage:
        'Client certificate used to prove the identity of the aggregator or apiserver when it must call out during a ' +
        'request. This includes proxying requests to a user api-server and calling out to webhook admission plugins. ' +
        'It is expected that this cert includes a signature from the CA in the --requestheader-client-ca-file flag.',
    });
    s.var(this, 'proxyClientKeyFile', {
      name: 'proxy-client-key-file',
      type: t.string,
      usage:
        'Private key for the client certificate used to prove the identity of the aggregator or apiserver when it ' +
        'must call out during a request.',
    });
  }

  validate(): string[] {
    return checkPaired(
      ['proxy-client-cert-file', this.proxyClientCertFile],
      ['proxy-client-key-file', this.proxyClientKeyFile],
    );
  }

  applyTo(config: { proxyClient?: ProxyClientConfig }): void {
    const certFile = this.proxyClientCertFile;
    const keyFile = this.proxyClientKeyFile;
    config.proxyClient = {
      certificate: certFile !== '' && keyFile !== '' ? { certFile, keyFile } : undefined,
    };
  }
}
