/**
 * A problem with the authentication or authorization setup that only shows when the files are
 * loaded (an unreadable token file, a bad key, a malformed policy line) or a configured feature
 * Keel does not have yet. The message is one line that names the flag, so the daemon can print it
 * and exit.
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
};

/**
 * A file-system error in Go's words (`open /x: no such file or directory`), which is what the
 * real daemon prints for the same mistake; Node's own text (`ENOENT: ..., open '/x'`) is noisier.
 */
export function fileErrorText(err: unknown, path: string): string {
  const e = err as NodeJS.ErrnoException;
  const text = e.code !== undefined ? ERRNO_TEXT[e.code] : undefined;
  if (text === undefined) return e instanceof Error ? e.message : String(err);
  const op = e.code === 'EISDIR' ? 'read' : 'open';
  return `${op} ${path}: ${text}`;
}
