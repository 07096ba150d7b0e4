import { readFileSync } from 'node:fs';
import { noAdmission } from '@keel/admission';
import { keelVersion } from '@keel/apimachinery';
import { AuditConfigError, PolicyError, type Auditor } from '@keel/audit';
import {
  buildAuthenticator,
  buildAuthorizer,
  ConfigError,
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
import { buildAuditor } from './server/audit.js';
import { authenticationInfo } from './server/authentication-info.js';
import { openStorage } from './server/storage-factory.js';
import { runServer } from './server/server.js';

/** The configuration plus what completing it built: the authenticator and authorizer chains. */
export interface CompletedApiServer {
  readonly config: ApiServerConfig;
  readonly logging: ApiServerConfig['logging'];
  readonly authn: BuiltAuthenticator;
  readonly authz: BuiltAuthorizer;
  /** undefined when nothing is audited. */
  readonly auditor: Auditor | undefined;
  /** Where the audit sinks report failures; pointed at the logger once there is one. */
  readonly auditLog: DeferredErrorLog;
}

/** The audit sinks are built before the logger exists (their files fail start-up); they log later. */
class DeferredErrorLog {
  target: Logger | undefined;
  error(msg: string, kv?: Readonly<Record<string, unknown>>): void {
    this.target?.error(msg, kv);
  }
}

function readPem(path: string | undefined): string {
  return path ? readFileSync(path, 'utf8') : '';
}

/** Applies the options and builds what reads files (token file, CAs, policies): problems become one line each. */
function complete(options: ApiServerOptions): Completion<CompletedApiServer> {
  const config = options.complete();
  try {
    const authn = buildAuthenticator(config.authentication);
    const authz = buildAuthorizer(config.authorization);
    const auditLog = new DeferredErrorLog();
    const auditor = buildAuditor(config.audit, auditLog);
    return {
      config: { config, logging: config.logging, authn, authz, auditor, auditLog },
      warnings: [...options.warnings(), ...authn.warnings, ...authz.warnings],
    };
  } catch (err) {
    if (err instanceof ConfigError || err instanceof PolicyError || err instanceof AuditConfigError)
      return { errors: [err.message] };
    throw err;
  }
}

async function run(done: CompletedApiServer, logger: Logger, signal: AbortSignal): Promise<number> {
  const { config } = done;
  done.auditLog.target = logger;
  logger.info('Starting Keel API server', {
    version: keelVersion,
    store: config.store.backend.kind,
    address: `${config.secureServing.bindAddress}:${config.secureServing.port}`,
  });
  const storage = await openStorage(config.store, logger);
  return runServer(config, logger, signal, {
    storage,
    authenticator: done.authn.authenticator,
    authorizer: done.authz.authorizer,
    auditor: done.auditor,
    clientCA: done.authn.clientCA ?? '',
    // The configured plugins are built from the admission options once they have a chain to join.
    admission: noAdmission,
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
