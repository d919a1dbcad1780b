/**
 * Two authlib instances in two real processes (`email-code-instance.ts`) on one PostgreSQL branch and one
 * rate-limit store, and a browser whose requests go to either: the set-up of the tests across instances
 * (`email/email-code-processes.test.ts`, `two-factor/two-factor-processes.test.ts`).
 */
import { randomUUID } from "node:crypto";
import { HostedDbClient } from "../../../hosted-db-adapter/src/index.js";
import { dropBranch, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import type { InstanceAnswer, InstanceRequest } from "./email-code-instance.js";
import { type ForkedInstance, forkInstance } from "./forked-instance.js";
import { redisURL } from "./redis.js";

/** One instance of the pair. */
export type Instance = ForkedInstance<InstanceRequest, InstanceAnswer>;

/** One browser whose requests go to whichever instance is named: its cookies follow it. */
export function pairBrowser() {
  const cookies = new Map<string, string>();
  const header = () => [...cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  return {
    async send(instance: Instance, request: Omit<InstanceRequest, "cookie">): Promise<InstanceAnswer> {
      const answer = await instance.ask({ ...request, cookie: header() });
      for (const { name, value } of answer.setCookies) {
        if (value === "") cookies.delete(name);
        else cookies.set(name, value);
      }
      return answer;
    },
    csrf: () => cookies.get("authlib.csrf-token")?.split("|")[0] ?? "",
    has: (name: string) => cookies.has(name),
  };
}

/** The two instances on a fresh branch, sending mail to the SMTP server on `smtpPort`; `close` drops the branch. */
export async function startInstancePair(settings: {
  secret: string;
  smtpPort: number;
  store: "redis" | "postgres";
  name: string;
  /** With the Password() provider too. */
  password?: boolean;
}) {
  const branch = randomBranch(settings.name);
  const database = new HostedDbClient({ databaseURL: testDatabaseURL(), branch });
  await database.migrate();
  const env = {
    AUTH_SECRET: settings.secret,
    SMTP_PORT: String(settings.smtpPort),
    DATABASE_URL: testDatabaseURL(),
    BRANCH: branch,
    STORE: settings.store,
    REDIS_URL: redisURL,
    REDIS_PREFIX: `authlib-${settings.name}-${randomUUID()}:`,
    PASSWORD: settings.password ? "1" : "",
  };
  const script = new URL("./email-code-instance.ts", import.meta.url);
  const fork = () => forkInstance<InstanceRequest, InstanceAnswer>(script, env);
  const [first, second] = await Promise.all([fork(), fork()]);
  return {
    first,
    second,
    async close() {
      await Promise.all([first.close(), second.close()]);
      await dropBranch(database, branch);
      await database.close();
    },
  };
}
