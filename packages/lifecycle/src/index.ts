export { setupSignalHandler, whenAborted, type ShutdownSignal, type SignalSource } from './signals.js';
export { runDaemon, processIO, type Completion, type DaemonDefinition, type DaemonIO } from './run-daemon.js';
export { exitWhenDone, EXIT_GRACE_MS } from './exit.js';
export { watchParent, EXIT_WITH_PARENT_ENV, type ParentWatchOptions } from './parent-watch.js';
