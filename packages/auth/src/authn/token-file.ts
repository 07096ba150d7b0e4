import { readFileSync } from 'node:fs';
import { ConfigError, fileErrorText } from '../config-error.js';
import { CsvParseError, parseCsv } from './csv.js';
import type { AuthenticationResult, TokenAuthenticator, UserInfo } from './types.js';

const FLAG = '--token-auth-file';

export interface StaticTokens {
  readonly tokens: ReadonlyMap<string, UserInfo>;
  /** Empty and duplicate tokens, in kube's words. */
  readonly warnings: readonly string[];
}

/**
 * Reads a --token-auth-file: CSV rows `token,user,uid[,"group1,group2"]`. Extra columns are
 * ignored; the 4th is split on `,` (so it must be quoted to hold several groups, and an empty one
 * gives the single group ''). Rows with an empty token are skipped and, for a repeated token, the
 * last row wins; both give a warning. Throws a ConfigError for an unreadable file, a CSV syntax
 * error or a row with fewer than 3 columns.
 */
export function loadTokenFile(path: string): StaticTokens {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`${FLAG}: ${fileErrorText(err, path)}`);
  }
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvParseError) throw new ConfigError(`${FLAG}: ${path}: ${err.message}`);
    throw err;
  }
  const tokens = new Map<string, UserInfo>();
  const warnings: string[] = [];
  let recordNum = 0;
  for (const record of records) {
    if (record.length < 3) {
      throw new ConfigError(
        `${FLAG}: token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`,
      );
    }
    recordNum++;
    const [token = '', name = '', uid = '', groups] = record;
    if (token === '') {
      warnings.push(`empty token has been found in token file '${path}', record number '${recordNum}'`);
      continue;
    }
    if (tokens.has(token)) {
      warnings.push(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
    }
    tokens.set(token, { name, uid, groups: groups === undefined ? [] : groups.split(','), extra: {} });
  }
  return { tokens, warnings };
}

/** Static bearer tokens: a token not in the file is "not mine" (the bearer layer makes it a 401). */
export class TokenFileAuthenticator implements TokenAuthenticator {
  constructor(private readonly tokens: ReadonlyMap<string, UserInfo>) {}

  authenticateToken(token: string): Promise<AuthenticationResult> {
    const user = this.tokens.get(token);
    return Promise.resolve(user === undefined ? undefined : { user });
  }
}
