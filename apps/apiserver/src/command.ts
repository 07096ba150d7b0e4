import { buildInfo } from '@keel/apimachinery';
import type { CommandDefinition } from '@keel/flags';
import { apiServerFlagEffects } from './flag-effects.js';
import { ApiServerOptions } from './options/options.js';

export const apiServerDescription = `The Keel API server validates and configures data for the API objects of the cluster and
serves REST operations over HTTPS. It is the front end to the cluster's shared state through which
all other components interact. It keeps that state in an embedded in-memory store, or in Redis when
--store-servers names one.`;

export function apiServerCommand(options = new ApiServerOptions()): CommandDefinition {
  return {
    name: 'keel-apiserver',
    description: apiServerDescription,
    build: buildInfo(),
    reportedBuild: (gitVersion) => buildInfo(gitVersion),
    addFlags: (fss) => options.addFlags(fss),
    validate: () => options.validate(),
    effects: apiServerFlagEffects,
  };
}
