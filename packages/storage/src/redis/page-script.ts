import { LuaScript } from './scripts.js';

/**
 * One list page at snapshot S, MVCC-style (the same algorithm as memory/snapshot-page.ts):
 * walk the lexicographic index from `start` (ZRANGEBYLEX, O(log N + page)), then correct each
 * key with the log entries newer than S — the first entry of a key after S holds its state at
 * S, so creates after S are skipped, updates show the old value and deletes are merged back in.
 * The cost is O(log N + page + writes since S), never O(N).
 *
 * KEYS: rv, index, log, compacted, expiry, versions, versions-at. ARGV: object key prefix, key
 * prefix, start (inclusive), count, S ('' = current), mode ('', 'keys' or 'keyslen'). Returns
 * {'ok', S, more, remaining, {key, value, rv, ...}}, {'expired', compacted} or {'toolarge',
 * current}. In the keys modes the items are not read, only their versions: from the versions
 * hash (a thousand per HMGET) while it saw every write, else HGET rv of each object hash
 * instead of HMGET v rv (see "versions" below). 'keys' answers the
 * fifth element as {versions, keys}: the versions space-separated, the keys newline-separated,
 * two strings for the whole page; a key that holds a newline shows as more keys than versions,
 * and the page is then read again as 'keyslen', one string of `<rv> <key byte length> <key>`
 * records. See readValues for the values.
 */
export const pageScript = new LuaScript(`
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local compacted = tonumber(redis.call('GET', KEYS[4]) or '0')
local S = cur
if ARGV[5] ~= '' then S = tonumber(ARGV[5]) end
if S > cur then return {'toolarge', cur} end
if S < compacted then return {'expired', compacted} end
local objPrefix, prefix, start, count = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local plen = #prefix
local function inPrefix(k) return string.sub(k, 1, plen) == prefix end
-- Byte order like ZRANGEBYLEX; Lua's < on strings follows the server's locale.
local function lt(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

local undo, undoKeys = {}, {}
if S < cur then
  for _, e in ipairs(redis.call('XRANGE', KEYS[3], string.format('%d-0', S + 1), '+')) do
    local f, k, p, r = e[2], nil, false, false
    for i = 1, #f, 2 do
      if f[i] == 'k' then k = f[i + 1] elseif f[i] == 'p' then p = f[i + 1] elseif f[i] == 'r' then r = f[i + 1] end
    end
    if k and undo[k] == nil and inPrefix(k) and not lt(k, start) then
      undo[k] = {p, r}
      undoKeys[#undoKeys + 1] = k
    end
  end
end
local revived = {}
for _, k in ipairs(undoKeys) do
  if undo[k][1] and not redis.call('ZSCORE', KEYS[2], k) then revived[#revived + 1] = k end
end
table.sort(revived, lt)

-- The first key after every key under the prefix (exclusive), so the walk stays inside it.
local upper = '+'
do
  local i = plen
  while i > 0 and string.byte(prefix, i) == 255 do i = i - 1 end
  if i > 0 then upper = '(' .. string.sub(prefix, 1, i - 1) .. string.char(string.byte(prefix, i) + 1) end
end
local keysOnly = ARGV[6] == 'keys' or ARGV[6] == 'keyslen'
-- The versions hash is right for every key it holds while versions-at is the counter (no write
-- by an older build since; scripts.ts). It is not enough for a key past its logical expiry: the
-- PEXPIREAT safety net may have dropped that object hash without a script. Such keys, and keys
-- written before the hash existed, are read from their object hash; the latter are then added,
-- which only spares later lists those reads (pcall: a store out of memory still lists).
local versions = keysOnly and redis.call('GET', KEYS[7]) == string.format('%d', cur)
local overdue = {}
if versions then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local due = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', string.format('%d', now), 'LIMIT', 0, 1000)
  -- Reaping is far behind: read every version from its object hash, as before the hash.
  if #due >= 1000 then versions = false end
  for _, k in ipairs(due) do overdue[k] = true end
end
local function versionsOf(keys)
  if not versions then return nil end
  local out, m = {}, 0
  for i = 1, #keys, 1000 do
    local got = redis.call('HMGET', KEYS[6], unpack(keys, i, math.min(i + 999, #keys)))
    for j = 1, #got do out[m + j] = got[j] end
    m = m + #got
  end
  return out
end
local function versionOf(vers, i, k)
  local rv = vers and not overdue[k] and vers[i]
  if rv then return rv end
  rv = redis.call('HGET', objPrefix .. k, 'rv')
  if rv and vers and not overdue[k] then redis.pcall('HSET', KEYS[6], k, rv) end
  return rv
end
local want = count + 1
-- A 'keys' page's common case: nothing under the page's range written since S, no key past its
-- logical expiry, every key in the versions hash. Every key of the index then has its object
-- hash, so the page is the index's keys as they are and the versions as HMGET answers them,
-- joined without a Lua value or call per item.
if versions and ARGV[6] == 'keys' and #undoKeys == 0 and next(overdue) == nil then
  local keys = redis.call('ZRANGEBYLEX', KEYS[2], '[' .. start, upper, 'LIMIT', 0, want)
  local more = #keys > count
  local m = more and count or #keys
  local parts, whole = {}, true
  for i = 1, m, 1000 do
    local got = redis.call('HMGET', KEYS[6], unpack(keys, i, math.min(i + 999, m)))
    for j = 1, #got do
      if not got[j] then whole = false; break end
    end
    if not whole then break end
    parts[#parts + 1] = table.concat(got, ' ')
  end
  if whole then
    local remaining = 0
    if more then
      keys[want] = nil
      remaining = redis.call('ZLEXCOUNT', KEYS[2], '(' .. keys[count], upper)
    end
    return {'ok', S, more and 1 or 0, remaining, {table.concat(parts, ' '), table.concat(keys, '\\n')}}
  end
end
local ks, vs, rs, n, r = {}, {}, {}, 0, 1
local function push(k, v, rv)
  n = n + 1
  ks[n] = k; vs[n] = v; rs[n] = rv
end
local function pushRevivedBefore(k)
  while r <= #revived and n < want and (k == nil or lt(revived[r], k)) do
    local rk = revived[r]
    push(rk, undo[rk][1], undo[rk][2])
    r = r + 1
  end
end
local cursor, done = '[' .. start, false
while n < want and not done do
  local keys = redis.call('ZRANGEBYLEX', KEYS[2], cursor, upper, 'LIMIT', 0, want)
  if #keys < want then done = true end
  local vers = keysOnly and versionsOf(keys)
  for i, k in ipairs(keys) do
    if r <= #revived then pushRevivedBefore(k) end
    if n >= want then break end
    local u = undo[k]
    if u then
      if u[1] then push(k, u[1], u[2]) end
    elseif keysOnly then
      local rv = versionOf(vers, i, k)
      if rv then push(k, false, rv) end
    else
      local h = redis.call('HMGET', objPrefix .. k, 'v', 'rv')
      if h[1] then push(k, h[1], h[2]) end
    end
    if n >= want then break end
  end
  if #keys > 0 then cursor = '(' .. keys[#keys] end
end
pushRevivedBefore(nil)

local more, remaining = n > count, 0
if more then
  n = n - 1
  local last = ks[n]
  remaining = redis.call('ZLEXCOUNT', KEYS[2], '(' .. last, upper)
  for _, k in ipairs(undoKeys) do
    if lt(last, k) then
      if undo[k][1] then remaining = remaining + 1 end
      if redis.call('ZSCORE', KEYS[2], k) then remaining = remaining - 1 end
    end
  end
end
local out = {}
if ARGV[6] == 'keys' then
  -- Two strings, no string built per item here (a per-item concatenation cost Redis about as
  -- much as the walk itself): the versions, and the keys joined by newlines.
  if more then ks[n + 1] = nil; rs[n + 1] = nil end
  out = {table.concat(rs, ' '), table.concat(ks, '\\n')}
elseif keysOnly then
  for i = 1, n do out[i] = rs[i] .. ' ' .. #ks[i] .. ' ' .. ks[i] end
  out = table.concat(out)
else
  for i = 1, n do
    out[#out + 1] = ks[i]; out[#out + 1] = vs[i]; out[#out + 1] = rs[i]
  end
end
return {'ok', S, more and 1 or 0, remaining, out}
`);

/**
 * The values of a keys-only page's items at snapshot S, each at the version the page gave it:
 * the current hash while its `rv` is still that version, else the key's first log entry after S
 * (its `p`/`r` are the state at S, as in the page script), so an object updated or deleted
 * between the page and this read still answers with its state at S. An item whose hash is gone
 * without a log entry (the safety-net PEXPIREAT) answers false.
 *
 * KEYS: log, compacted. ARGV: object key prefix, S, then key and version of each item.
 * Returns {'ok', {value or false, ...}} or {'expired', compacted}.
 */
export const valuesScript = new LuaScript(`
local objPrefix, S = ARGV[1], tonumber(ARGV[2])
local out, moved, nmoved = {}, {}, 0
for i = 1, (#ARGV - 2) / 2 do
  local k, rv = ARGV[2 * i + 1], ARGV[2 * i + 2]
  local h = redis.call('HMGET', objPrefix .. k, 'v', 'rv')
  if h[1] and h[2] == rv then
    out[i] = h[1]
  else
    out[i] = false
    moved[k] = i
    nmoved = nmoved + 1
  end
end
if nmoved > 0 then
  local compacted = tonumber(redis.call('GET', KEYS[2]) or '0')
  if S < compacted then return {'expired', compacted} end
  for _, e in ipairs(redis.call('XRANGE', KEYS[1], string.format('%d-0', S + 1), '+')) do
    local f, k, p, r = e[2], nil, false, false
    for j = 1, #f, 2 do
      if f[j] == 'k' then k = f[j + 1] elseif f[j] == 'p' then p = f[j + 1] elseif f[j] == 'r' then r = f[j + 1] end
    end
    local i = k and moved[k]
    if i then
      moved[k] = nil
      nmoved = nmoved - 1
      if p and r == ARGV[2 * i + 2] then out[i] = p end
      if nmoved == 0 then break end
    end
  end
end
return {'ok', out}
`);
