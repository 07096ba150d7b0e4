import { isIP } from 'node:net';
import { Duration } from './duration.js';
import type { FlagType } from './flag-type.js';
import { parseGoBool, parseGoFloat, parseGoInt, readCsvLine, writeCsvLine } from './go-strconv.js';

/** The flag value types of the real daemons, by their pflag type names. */

export const bool: FlagType<boolean> = {
  typeName: '',
  noOptDefault: 'true',
  parse: (raw) => parseGoBool(raw),
  format: (v) => String(v),
  isZero: (v) => !v,
};

/** A boolean whose default is "not set", for options the spec gives no default ("-"). */
export const optionalBool: FlagType<boolean | undefined> = {
  typeName: '',
  noOptDefault: 'true',
  parse: (raw) => parseGoBool(raw),
  format: (v) => String(v ?? false),
  isZero: (v) => !v,
};

export const int: FlagType<number> = {
  typeName: 'int',
  parse: (raw) => parseGoInt(raw, 64),
  format: (v) => String(v),
  isZero: (v) => v === 0,
};

export const int32: FlagType<number> = {
  typeName: 'int32',
  parse: (raw) => parseGoInt(raw, 32),
  format: (v) => String(v),
  isZero: (v) => v === 0,
};

export const float: FlagType<number> = {
  typeName: 'float',
  parse: (raw) => parseGoFloat(raw),
  format: (v) => String(v),
  isZero: (v) => v === 0,
};

export const string: FlagType<string> = {
  typeName: 'string',
  parse: (raw) => raw,
  format: (v) => v,
  isZero: (v) => v === '',
  quoteDefault: true,
};

export const duration: FlagType<Duration> = {
  typeName: 'duration',
  parse: (raw) => Duration.parse(raw),
  format: (v) => v.toString(),
  isZero: (v) => v.isZero(),
};

/** pflag StringSlice: comma-separated (CSV), repeatable; the first occurrence replaces the default. */
export const strings: FlagType<readonly string[]> = {
  typeName: 'strings',
  parse: (raw, current, first) => {
    const items = raw === '' ? [] : readCsvLine(raw);
    return first ? items : [...current, ...items];
  },
  format: (v) => `[${writeCsvLine(v)}]`,
  isZero: (v) => v.length === 0,
};

/** pflag StringArray: repeatable, each occurrence one value (no comma splitting). */
export const stringArray: FlagType<readonly string[]> = {
  typeName: 'stringArray',
  parse: (raw, current, first) => (first ? [raw] : [...current, raw]),
  format: (v) => `[${v.join(',')}]`,
  isZero: (v) => v.length === 0,
};

function sortedPairs(m: ReadonlyMap<string, unknown>): string {
  return [...m.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(',');
}

/** cliflag.MapStringBool (--feature-gates): `A=true,B=false`, repeatable, merged. */
export const mapStringBool: FlagType<ReadonlyMap<string, boolean>> = {
  typeName: 'mapStringBool',
  parse: (raw, current, first) => {
    const out = new Map(first ? [] : current);
    for (const item of raw.split(',')) {
      if (item.trim() === '') continue;
      const eq = item.indexOf('=');
      if (eq === -1) throw new Error(`malformed pair, expect string=bool`);
      const key = item.slice(0, eq).trim();
      const value = item.slice(eq + 1).trim();
      try {
        out.set(key, parseGoBool(value));
      } catch (err) {
        throw new Error(`invalid value of ${key}: ${value}, err: ${(err as Error).message}`);
      }
    }
    return out;
  },
  format: (v) => sortedPairs(v),
  isZero: (v) => v.size === 0,
};

/** cliflag.ConfigurationMap (--runtime-config): `key=value` pairs, a bare key means an empty value. */
export const mapStringString: FlagType<ReadonlyMap<string, string>> = {
  typeName: 'mapStringString',
  parse: (raw, current) => {
    const out = new Map(current);
    for (const item of raw.split(',')) {
      const s = item.trim();
      if (s === '') continue;
      const eq = s.indexOf('=');
      if (eq === -1) out.set(s, '');
      else out.set(s.slice(0, eq).trim(), s.slice(eq + 1).trim());
    }
    return out;
  },
  format: (v) => sortedPairs(v),
  isZero: (v) => v.size === 0,
};

/** pflag StringToString (--allow-metric-labels): one `=` means the whole value is one pair. */
export const stringToString: FlagType<ReadonlyMap<string, string>> = {
  typeName: 'stringToString',
  parse: (raw, current, first) => {
    const out = new Map(first ? [] : current);
    const n = raw.split('=').length - 1;
    let items: string[];
    if (n === 0) throw new Error(`${raw} must be formatted as key=value`);
    else if (n === 1) items = [raw.replace(/^"+|"+$/g, '')];
    else items = readCsvLine(raw);
    for (const item of items) {
      const eq = item.indexOf('=');
      if (eq === -1) throw new Error(`${item} must be formatted as key=value`);
      out.set(item.slice(0, eq), item.slice(eq + 1));
    }
    return out;
  },
  format: (v) => `[${sortedPairs(v)}]`,
  isZero: (v) => v.size === 0,
};

/** pflag IP: an IPv4 or IPv6 address; the empty string is allowed where the spec says "blank". */
export const ip: FlagType<string> = {
  typeName: 'ip',
  parse: (raw) => {
    const s = raw.trim();
    if (s === '') return '';
    if (isIP(s) === 0) throw new Error(`failed to parse IP: ${JSON.stringify(raw)}`);
    return s;
  },
  format: (v) => v,
  isZero: (v) => v === '',
};

/** Parses `a.b.c.d/n` or an IPv6 CIDR; returns the canonical text or throws. */
export function parseCidr(raw: string): string {
  const m = /^(.+)\/(\d{1,3})$/.exec(raw.trim());
  const family = m ? isIP(m[1] ?? '') : 0;
  const bits = m ? Number(m[2]) : NaN;
  if (!m || family === 0 || bits > (family === 4 ? 32 : 128)) {
    throw new Error(`invalid CIDR address: ${raw}`);
  }
  return `${m[1]}/${bits}`;
}

/** A comma-separated list of CIDRs (--cloud-provider-vendor-l7lb-src-cidrs). */
export const cidrs: FlagType<readonly string[]> = {
  typeName: 'cidrs',
  parse: (raw) =>
    raw
      .split(',')
      .filter((s) => s.trim() !== '')
      .map(parseCidr),
  format: (v) => v.join(','),
  isZero: (v) => v.length === 0,
};

export interface PortRange {
  readonly base: number;
  readonly size: number;
}

/** utilnet.PortRange: `N1-N2`, `N+offset` or a single port, inclusive. */
export const portRange: FlagType<PortRange> = {
  typeName: 'portRange',
  parse: (raw) => {
    const s = raw.trim();
    const fail = (why: string) => new Error(`unable to parse port range: ${s}: ${why}`);
    const m = /^(\d+)(?:([-+])(\d+))?$/.exec(s);
    if (!m) throw fail('invalid syntax');
    const low = Number(m[1]);
    let high = low;
    if (m[2] === '-') high = Number(m[3]);
    else if (m[2] === '+') high = low + Number(m[3]);
    if (low > 65535 || high > 65535) throw fail('port out of range 0-65535');
    if (high < low) throw fail('end port is lower than start port');
    return { base: low, size: high - low + 1 };
  },
  format: (v) => (v.size === 0 ? '' : `${v.base}-${v.base + v.size - 1}`),
  isZero: (v) => v.size === 0,
};

export interface NamedCertKey {
  readonly certFile: string;
  readonly keyFile: string;
  readonly names: readonly string[];
}

/** cliflag.NamedCertKeyArray (--tls-sni-cert-key): `cert,key[:name1,name2]`, repeatable. */
export const namedCertKey: FlagType<readonly NamedCertKey[]> = {
  typeName: 'namedCertKey',
  parse: (raw, current, first) => {
    const colon = raw.indexOf(':');
    let keycert = raw;
    let names: string[] = [];
    if (colon !== -1) {
      keycert = raw.slice(0, colon).trim();
      const list = raw.slice(colon + 1).trim();
      if (list === '') throw new Error('empty names list is not allowed');
      names = list.split(',').map((n) => n.trim());
    }
    const parts = keycert.split(',');
    if (parts.length !== 2) throw new Error('expected comma separated certificate and key file paths');
    const entry = { certFile: (parts[0] ?? '').trim(), keyFile: (parts[1] ?? '').trim(), names };
    return first ? [entry] : [...current, entry];
  },
  format: (v) =>
    `[${v.map((e) => `${e.certFile},${e.keyFile}${e.names.length ? ':' + e.names.join(',') : ''}`).join(';')}]`,
  isZero: (v) => v.length === 0,
};

/** klog's Level (-v). */
export const level: FlagType<number> = {
  typeName: 'Level',
  parse: (raw) => {
    const v = parseGoInt(raw, 32);
    if (v < 0) throw new Error(`strconv.ParseUint: parsing ${JSON.stringify(raw)}: invalid syntax`);
    return v;
  },
  format: (v) => String(v),
  isZero: (v) => v === 0,
};

export interface ModuleLevel {
  readonly pattern: string;
  readonly level: number;
}

/** klog's --vmodule: `pattern=N,...`, where pattern is a file-name glob without extension. */
export const moduleSpec: FlagType<readonly ModuleLevel[]> = {
  typeName: 'pattern=N,...',
  parse: (raw) => {
    const out: ModuleLevel[] = [];
    for (const item of raw.split(',')) {
      if (item === '') continue;
      const parts = item.split('=');
      const pattern = parts[0] ?? '';
      if (parts.length !== 2 || pattern === '') throw new Error('expect comma-separated list of filename=N');
      let v: number;
      try {
        v = parseGoInt(parts[1] ?? '', 32);
      } catch {
        throw new Error('expect comma-separated list of filename=N');
      }
      if (v < 0) throw new Error('negative value for vmodule level');
      out.push({ pattern, level: v });
    }
    return out;
  },
  format: (v) => v.map((m) => `${m.pattern}=${m.level}`).join(','),
  isZero: (v) => v.length === 0,
};

/** A string restricted to a closed set; the error lists the accepted values. */
export function enumOf<const V extends string>(values: readonly V[], typeName = 'string'): FlagType<V> {
  return {
    typeName,
    parse: (raw) => {
      if (!(values as readonly string[]).includes(raw)) {
        throw new Error(`must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);
      }
      return raw as V;
    },
    format: (v) => v,
    isZero: (v) => v === '',
    quoteDefault: true,
  };
}
