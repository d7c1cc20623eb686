// The store's Lua scripts: each runs in one step on the Redis server (Redis ≥ 5).

/** GET then DEL (GETDEL needs Redis 6.2). */
export const TAKE = "local v = redis.call('GET', KEYS[1]) if v then redis.call('DEL', KEYS[1]) end return v";

/** INCR and restart the key's time to live. */
export const INCREMENT =
  "local n = redis.call('INCR', KEYS[1]) redis.call('PEXPIRE', KEYS[1], ARGV[1]) return n";

/**
 * Compare-and-set. ARGV: [1] "1" when a value is expected (then [2] is it), [3] "1" when a value is
 * to be set (then [4] is it, [5] its time to live in ms); otherwise the key is expected absent, or
 * deleted. Returns 1 when it changed the key.
 */
export const COMPARE_AND_SET = `local current = redis.call('GET', KEYS[1])
if ARGV[1] == '1' then
  if current ~= ARGV[2] then return 0 end
elseif current then
  return 0
end
if ARGV[3] == '1' then redis.call('SET', KEYS[1], ARGV[4], 'PX', ARGV[5]) else redis.call('DEL', KEYS[1]) end
return 1`;

/** A key prefix as a SCAN pattern that matches it literally, then anything. */
export const prefixPattern = (prefix: string): string => `${prefix.replace(/[*?[\]\\]/g, "\\$&")}*`;

/** A time to live in whole milliseconds, at least one, as Redis takes it. */
export const ms = (n: number): string => String(Math.max(1, Math.ceil(n)));
