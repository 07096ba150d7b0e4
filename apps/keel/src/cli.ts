#!/usr/bin/env node
import { resolve } from 'node:path';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { startControlPlane } from './control-plane.js';
import type { DaemonName } from './daemon.js';

const PREFIX: Record<DaemonName, string> = { apiserver: 'apiserver | ', scheduler: 'scheduler | ' };

interface UpArgs {
  readonly dir: string;
  readonly port: number;
  readonly nodes: number;
  readonly 'store-servers'?: string | undefined;
  readonly scheduler: boolean;
}

/** `keel up`: runs until SIGINT or SIGTERM, then stops both daemons and exits 0. */
async function up(args: UpArgs): Promise<number> {
  const dir = resolve(args.dir);
  const out = (line: string) => process.stdout.write(line + '\n');
  const cp = await startControlPlane({
    dir,
    port: args.port,
    nodes: args.nodes,
    scheduler: args.scheduler,
    ...(args['store-servers'] ? { storeServers: args['store-servers'] } : {}),
    log: (daemon, line) => out(PREFIX[daemon] + line),
  });
  out(`keel | control plane ready at ${cp.url}${cp.nodes.length ? ` with ${cp.nodes.length} nodes` : ''}`);
  out(`keel | use it:  kubectl --kubeconfig=${cp.connectionConfig} get pods -A`);
  await new Promise<void>((done) => {
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
  });
  out('keel | stopping');
  await cp.stop();
  return 0;
}

async function main(): Promise<void> {
  let code = 0;
  await yargs(hideBin(process.argv))
    .scriptName('keel')
    .command(
      'up',
      'Start an API server and a scheduler on 127.0.0.1, write an admin connection-config, and run until Ctrl-C',
      (y) =>
        y
          .option('dir', {
            type: 'string',
            default: '.keel',
            describe: 'Where certificates, tokens and connection-config are written',
          })
          .option('port', { type: 'number', default: 6443, describe: "The API server's secure port" })
          .option('nodes', { type: 'number', default: 0, describe: 'Ready fake nodes to register' })
          .option('store-servers', { type: 'string', describe: 'Redis URL(s); default the embedded store' })
          .option('scheduler', {
            type: 'boolean',
            default: true,
            describe: 'Start the scheduler (--no-scheduler: not)',
          })
          .check((a) => {
            if (!Number.isInteger(a.nodes) || a.nodes < 0)
              throw new Error('--nodes must be a whole number, 0 or more');
            if (!Number.isInteger(a.port) || a.port < 1 || a.port > 65535)
              throw new Error('--port must be between 1 and 65535');
            return true;
          }),
      async (a) => {
        code = await up(a);
      },
    )
    .completion('completion', 'Print a shell completion script')
    .demandCommand(1, 'Name a command: keel up')
    .strict()
    .help()
    .version(false)
    .fail((msg, err) => {
      process.stderr.write(`Error: ${err?.message ?? msg}\n`);
      process.exit(1);
    })
    .parseAsync();
  process.exit(code);
}

main().catch((err: unknown) => {
  process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
