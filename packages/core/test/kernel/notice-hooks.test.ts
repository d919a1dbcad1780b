/**
 * The hooks that tell of something done (a user's sessions all ended, a user suspended) reach every
 * feature that takes them, in the list's order; a hook that answers a question is one feature's, and a
 * second taker is refused at start-up. `suspendUser` ends the sessions first, then tells the features.
 */
import { describe, expect, it } from "vitest";
import { defineFeature } from "../../src/features/define.js";
import { hooksOf } from "../../src/kernel/features.js";
import { suspendUser } from "../../src/session/suspend-user.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { InternalOptions, SignInHooks } from "../../src/types/internal.js";

const listening = (name: string, heard: string[]) =>
  defineFeature({
    name,
    operations: [],
    hooks: {
      everySessionEnded: async (_options, userId) => void heard.push(`${name} sessions ${userId}`),
      userSuspended: async (_options, userId, reason) => void heard.push(`${name} suspended ${userId} ${reason}`),
    },
  });

const configOf = (features: AuthConfig["features"]) => ({ providers: [], features }) as unknown as AuthConfig;

describe("notice hooks", () => {
  it("every feature that takes one hears it, in order", async () => {
    const heard: string[] = [];
    const hooks = hooksOf(configOf([listening("first", heard), listening("second", heard)]));
    await hooks.everySessionEnded?.({} as never, "u1");
    await hooks.userSuspended?.({} as never, "u1", "banned");
    expect(heard).toEqual(["first sessions u1", "second sessions u1", "first suspended u1 banned", "second suspended u1 banned"]);
  });

  it("a question hook taken by two features is refused", () => {
    const asking = (name: string) =>
      defineFeature({ name, operations: [], hooks: { needsSecondLevel: async () => false } satisfies SignInHooks });
    expect(() => hooksOf(configOf([asking("a"), asking("b")]))).toThrow('Two features take the sign-in hook "needsSecondLevel".');
  });

  it("suspendUser ends the sessions, then tells the features why", async () => {
    const heard: string[] = [];
    const hooks = hooksOf(configOf([listening("keys", heard)]));
    const options = { hooks, logger: { warn: (code: string) => heard.push(`warn ${code}`) } } as unknown as InternalOptions;
    const store = { deleteSessionsByUserId: async (userId: string) => (heard.push(`deleted ${userId}`), 0) };
    await suspendUser(options, store, "u2", "deprovisioned");
    expect(heard).toEqual(["keys sessions u2", "deleted u2", "keys suspended u2 deprovisioned"]);
  });
});
