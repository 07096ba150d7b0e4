import { readFileSync } from 'node:fs';
import { buildAdmissionChain } from '@keel/admission';
import { keelVersion } from '@keel/apimachinery';
import {
  buildAuthenticator,
  buildAuthorizer,
  ConfigError,
  NodeGraph,
  type BuiltAuthenticator,
  type BuiltAuthorizer,
} from '@keel/auth';
import { runDaemon, type Completion, type DaemonDefinition } from '@keel/lifecycle';
import type { Logger } from '@keel/log';
import { apiServerCommand } from './command.js';
import { ApiServerOptions, type ApiServerConfig } from './options/options.js';
import { installClusterResources } from './resources/cluster.js';
import { installEvents } from './resources/events.js';
import { installNamespaces } from './resources/namespaces.js';
import { authenticationInfo } from './server/authentication-info.js';
import { ServerInformers } from './server/informers.js';
import { feedNodeGraphFromInformers } from './server/node-graph-informers.js';
import { openStorage } from './server/storage-factory.js';
import { runServer } from './server/server.js';

/** The configuration plus what completing it built: the authenticator and authorizer chains. */
export interface CompletedApiServer {
  readonly config: ApiServerConfig;
  readonly logging: ApiServerConfig['logging'];
  readonly authn: BuiltAuthenticator;
  readonly authz: BuiltAuthorizer;
  /** What the Node authorization mode decides from; fed once the store is open. */
  readonly nodeGraph: NodeGraph | undefined;
}

function readPem(path: string | undefined): string {
  return path ? readFileSync(path, 'utf8') : '';
}

/** Applies the options and builds what reads files (token file, CAs, policies): problems become one line each. */
function complete(options: ApiServerOptions): Completion<CompletedApiServer> {
  const config = options.complete();
  try {
    const authn = buildAuthenticator(config.authentication);
    const nodeGraph = config.authorization.modes.includes('Node') ? new NodeGraph() : undefined;
    const authz = buildAuthorizer(config.authorization, nodeGraph ? { nodeGraph } : {});
    return {
      config: { config, logging: config.logging, authn, authz, nodeGraph },
      warnings: [...options.warnings(), ...authn.warnings, ...authz.warnings],
    };
  } catch (err) {
    if (err instanceof ConfigError) return { errors: [err.message] };
    throw err;
  }
}

async function run(done: CompletedApiServer, logger: Logger, signal: AbortSignal): Promise<number> {
  const { config } = done;
  logger.info('Starting Keel API server', {
    version: keelVersion,
    store: config.store.backend.kind,
    address: `${config.secureServing.bindAddress}:${config.secureServing.port}`,
  });
  const storage = await openStorage(config.store, logger);
  const informers = new ServerInformers(storage, logger);
  if (done.nodeGraph) feedNodeGraphFromInformers(done.nodeGraph, informers);
  const admission = buildAdmissionChain(config.admission.plugins, {
    pods: () => informers.lookup('/pods'),
    nodes: () => informers.lookup('/nodes'),
  });
  return runServer(config, logger, signal, {
    storage,
    authenticator: done.authn.authenticator,
    authorizer: done.authz.authorizer,
    clientCA: done.authn.clientCA ?? '',
    admission,
    startInformers: (signal) => informers.start(signal),
    authenticationInfo: authenticationInfo(
      readPem(config.authentication.clientCAFile || undefined),
      config.authentication.requestHeader,
      readPem(config.authentication.requestHeader?.clientCAFile),
    ),
    installResources: (dispatcher, defaults) => [
      ...installNamespaces(dispatcher, storage, defaults),
      ...installEvents(dispatcher, storage, defaults, config.registry.eventTTL.seconds),
      ...installClusterResources(dispatcher, storage, defaults, {
        authenticator: done.authn.authenticator,
        authorizer: done.authz.authorizer,
        apiAudiences: config.authentication.apiAudiences,
        admissionPlugins: config.admission.plugins,
      }),
    ],
  });
}

/** keel-apiserver: flags, configuration, then the server until SIGTERM/SIGINT. */
export function main(argv: readonly string[]): Promise<number> {
  const options = new ApiServerOptions();
  const daemon: DaemonDefinition<CompletedApiServer> = {
    command: apiServerCommand(options),
    complete: () => Promise.resolve(complete(options)),
    run,
  };
  return runDaemon(daemon, argv);
}
