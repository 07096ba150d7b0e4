/**
 * A start-up problem the user can fix (a missing file, a bad flag combination). Its message is one
 * line naming the flag and the file, meant to be printed as is, without a stack trace.
 */
export class ServingError extends Error {
  override readonly name = 'ServingError';
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
};

/** A file-system error in Go's words (`open /x: no such file or directory`), which the real daemons print. */
export function fsErrorText(err: unknown, path: string): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const reason = code !== undefined ? FS_REASONS[code] : undefined;
  if (reason === undefined) return `open ${path}: ${err instanceof Error ? err.message : String(err)}`;
  return `${code === 'EISDIR' ? 'read' : 'open'} ${path}: ${reason}`;
}
