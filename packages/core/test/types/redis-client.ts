/**
 * Type test: the clients of `redis` (node-redis) fit the structural client types of `redisRateLimitStore`
 * and `redisSessionStore`, so users pass theirs as is and core never imports the package.
 */
import { createClient, createClientPool, createCluster } from "redis";
import { type RedisRateLimitClient, redisRateLimitStore } from "../../src/rate-limit/redis.js";
import type { RateLimitStore } from "../../src/rate-limit/store.js";
import { redisSessionStore } from "../../src/session/redis.js";
import type { SessionRegistry } from "../../src/types/session-registry.js";

export const fromClient: RateLimitStore = redisRateLimitStore({ client: createClient() });
export const fromResp2Client: RateLimitStore = redisRateLimitStore({ client: createClient({ RESP: 2 }), prefix: "app:" });
export const fromPool: RedisRateLimitClient = createClientPool();
export const fromCluster: RedisRateLimitClient = createCluster({ rootNodes: [{ url: "redis://127.0.0.1:7000" }] });

// @ts-expect-error: something that is not a client is refused
redisRateLimitStore({ client: { del: async () => 0 } });

export const sessionsFromClient: SessionRegistry = redisSessionStore({ client: createClient() });
export const sessionsFromResp2Client: SessionRegistry = redisSessionStore({ client: createClient({ RESP: 2 }), prefix: "app:" });
export const sessionsFromPool: SessionRegistry = redisSessionStore({ client: createClientPool() });
export const sessionsFromCluster: SessionRegistry = redisSessionStore({
  client: createCluster({ rootNodes: [{ url: "redis://127.0.0.1:7000" }] }),
});

// @ts-expect-error: something that is not a client is refused
redisSessionStore({ client: { del: async () => 0 } });
