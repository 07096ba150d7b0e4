#!/usr/bin/env node
import { main } from './app.js';

// Exit as soon as the daemon is done, as a Go daemon does: after a failure (a port in use, say)
// timers and connections opened during start-up would otherwise keep the process alive. Standard
// output and error are synchronous for files and pipes on Linux, so no log line is lost.
process.exit(await main(process.argv.slice(2)));
