/**
 * The Redis the tests use (`AUTHLIB_TEST_REDIS_URL`, else redis://127.0.0.1:6379) and whether it answers:
 * a test file that needs it skips, with one line saying why, when it does not.
 */
import { createClient } from "redis";

/** The URL of the tests' Redis. */
export const redisURL = process.env.AUTHLIB_TEST_REDIS_URL || "redis://127.0.0.1:6379";

/** True when a Redis answers a PING at `url`; otherwise warns that `what` is skipped. */
export async function redisAnswers(what: string, url = redisURL): Promise<boolean> {
  const probe = createClient({ url, socket: { connectTimeout: 3000, reconnectStrategy: false } });
  probe.on("error", () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG";
  } catch {
    console.warn(`Skipping ${what}: no Redis answered at ${new URL(url).host}.`);
    return false;
  } finally {
    if (probe.isOpen) probe.destroy();
  }
}
