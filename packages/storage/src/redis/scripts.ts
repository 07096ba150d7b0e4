import { createHash } from 'node:crypto';

/**
 * The Lua scripts behind every Redis write and snapshot read. Each runs atomically, so the
 * resourceVersion counter, the objects, the index, the expiry set and the event log always
 * agree. Key layout and algorithms: docs/storage-and-watch.md. Numbers that become Redis
 * arguments go through string.format('%d') because Lua's tostring switches to exponent
 * notation above 1e14.
 */
export class LuaScript {
  readonly sha: string;
  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }
}

const now = `
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * The versions hash's upkeep (keyspace.ts, page-script.ts), for a script about to bump the
 * counter from `cur`: the hash is right for every key it holds only if no write went by it since
 * `versions-at` (a server of an older build bumps `rv` without it). When one did, the hash is
 * emptied, which makes it right again: a key without an entry is read from its object hash.
 */
const versions = `
local function versionsFrom(vkey, atkey, cur, nextRV)
  local at
  -- SET ... GET (Redis 6.2, as XTRIM MINID): the new mark and the old one in one command.
  if nextRV then at = redis.call('SET', atkey, nextRV, 'GET') else at = redis.call('GET', atkey) end
  if at ~= string.format('%d', cur) then redis.call('UNLINK', vkey) end
end
`;

/**
 * KEYS: rv, index, expiry, log, object, versions, versions-at. ARGV: kind, key, value, expectRV,
 * ttlMs|'', safetyMarginMs.
 */
export const writeScript = new LuaScript(`${now}${versions}
local kind, key, value, expect, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local cur = redis.call('HMGET', KEYS[5], 'v', 'rv')
local exists = cur[1] ~= false
if kind == 'create' then
  if exists then return {'exists'} end
elseif expect == '0' then
  if exists then return {'conflict'} end
elseif not exists then
  return {'notfound'}
elseif cur[2] ~= expect then
  return {'conflict'}
end
local rv = redis.call('INCR', KEYS[1])
local id, rvs = string.format('%d-0', rv), string.format('%d', rv)
versionsFrom(KEYS[6], KEYS[7], rv - 1, rvs)
if kind == 'delete' then
  redis.call('DEL', KEYS[5])
  redis.call('HDEL', KEYS[6], key)
  redis.call('ZREM', KEYS[2], key)
  redis.call('ZREM', KEYS[3], key)
  redis.call('XADD', KEYS[4], id, 't', 'DELETED', 'k', key, 'p', cur[1], 'r', cur[2])
  return {'ok', rv}
end
redis.call('HSET', KEYS[5], 'v', value, 'rv', rvs)
redis.call('HSET', KEYS[6], key, rvs)
if ttl ~= '' then
  local at = nowMs() + tonumber(ttl)
  redis.call('ZADD', KEYS[3], string.format('%d', at), key)
  redis.call('PEXPIREAT', KEYS[5], string.format('%d', at + tonumber(ARGV[6])))
else
  redis.call('ZREM', KEYS[3], key)
  redis.call('PERSIST', KEYS[5])
end
if exists then
  redis.call('XADD', KEYS[4], id, 't', 'MODIFIED', 'k', key, 'v', value, 'p', cur[1], 'r', cur[2])
else
  redis.call('ZADD', KEYS[2], 0, key)
  redis.call('XADD', KEYS[4], id, 't', 'ADDED', 'k', key, 'v', value)
end
return {'ok', rv}
`);

/**
 * KEYS: rv, index, expiry, log, versions, versions-at. ARGV: object key prefix, batch size. Deletes due objects with a
 * DELETED entry each; running it from several servers at once is harmless (scripts serialise,
 * the second finds nothing due). Object keys are built here, which Redis Cluster accepts because
 * they share the store's hash tag.
 */
export const reapScript = new LuaScript(`${now}${versions}
local due = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', string.format('%d', nowMs()), 'LIMIT', 0, tonumber(ARGV[2]))
if #due == 0 then return 0 end
versionsFrom(KEYS[5], KEYS[6], tonumber(redis.call('GET', KEYS[1]) or '0'))
for _, key in ipairs(due) do
  local okey = ARGV[1] .. key
  local cur = redis.call('HMGET', okey, 'v', 'rv')
  redis.call('ZREM', KEYS[3], key)
  redis.call('HDEL', KEYS[5], key)
  if cur[1] then
    redis.call('DEL', okey)
    redis.call('ZREM', KEYS[2], key)
    local rv = redis.call('INCR', KEYS[1])
    redis.call('XADD', KEYS[4], string.format('%d-0', rv), 't', 'DELETED', 'k', key, 'p', cur[1], 'r', cur[2])
  else
    -- The PEXPIREAT safety net fired first (nobody reaped for a long time): no state left to report.
    redis.call('ZREM', KEYS[2], key)
  end
end
redis.call('SET', KEYS[6], redis.call('GET', KEYS[1]) or '0')
return #due
`);

/** KEYS: compacted, log, rv. ARGV: target. Only moves forward; returns the compacted version. */
export const compactScript = new LuaScript(`
local target = tonumber(ARGV[1])
local cur = tonumber(redis.call('GET', KEYS[3]) or '0')
if target > cur then target = cur end
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if target <= c then return c end
redis.call('SET', KEYS[1], string.format('%d', target))
redis.call('XTRIM', KEYS[2], 'MINID', string.format('%d-0', target + 1))
return target
`);

/** KEYS: compacted, log, rv. ARGV: afterRV, count. */
export const readLogScript = new LuaScript(`
local after = tonumber(ARGV[1])
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if after < c then return {'expired', c} end
local cur = tonumber(redis.call('GET', KEYS[3]) or '0')
return {'ok', cur, redis.call('XRANGE', KEYS[2], string.format('%d-0', after + 1), '+', 'COUNT', tonumber(ARGV[2]))}
`);
