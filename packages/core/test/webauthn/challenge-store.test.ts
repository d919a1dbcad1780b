/**
 * Single-use WebAuthn challenges (webauthn/challenge-store.ts), driven directly: the key a challenge is
 * recorded under, the record written through an adapter's verification tokens (identifier, key, expiry
 * with its margin, a refused second claim), and the instance's own memory, which every claim goes through
 * first (one per instance, a second claim refused; without adapter token methods a full memory answered
 * with `RateLimited` and its `Retry-After`). Fast: a verification-token store on a Map, no database (the mutation group's statement;
 * passkey-bounded-state.test.ts states the same with PGlite and two processes on PostgreSQL).
 */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidCheck, RateLimited } from "../../src/errors.js";
import type { Adapter, VerificationToken } from "../../src/types/adapters.js";
import type { InstanceState, InternalOptions } from "../../src/types/internal.js";
import { claimChallenge, USED_CHALLENGE_IDENTIFIER, usedChallengeKey, usedChallengeMemory } from "../../src/webauthn/challenge-store.js";
import { UsedChallengeMemory } from "../../src/webauthn/used-challenges.js";

const USED = "This WebAuthn challenge was answered already. Start again.";

/** Verification tokens on a Map, refusing (null) a second live token with the same identifier and token, like the hosted-db adapter. */
function tokenAdapter() {
  const created: VerificationToken[] = [];
  const live = new Map<string, VerificationToken>();
  const adapter: Adapter = {
    async createVerificationToken(token) {
      const id = `${token.identifier}\u0000${token.token}`;
      if (live.has(id)) return null;
      live.set(id, token);
      created.push(token);
      return token;
    },
    async useVerificationToken({ identifier, token }) {
      const id = `${identifier}\u0000${token}`;
      const found = live.get(id) ?? null;
      live.delete(id);
      return found;
    },
  };
  return { adapter, created };
}

function optionsWith(adapter?: Adapter, instanceState: InstanceState = {}): InternalOptions {
  return { adapter, instanceState } as unknown as InternalOptions;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the used-challenge key", () => {
  it("is the SHA-256 (hex) of a fixed label and the challenge", async () => {
    const expected = createHash("sha256").update("authlib.webauthn-used-challenge:abc").digest("hex");
    expect(await usedChallengeKey("abc")).toBe(expected);
    expect(await usedChallengeKey("abd")).not.toBe(expected);
  });
});

describe("the fixed names of a record", () => {
  it("the identifier and the key's label stay the same in a module loaded afresh (stored records outlive a deploy)", async () => {
    // Loaded inside the test, so its constants are evaluated under the test's conditions (a mutation run
    // only sees a module-level constant change when the module loads within the test that checks it).
    vi.resetModules();
    const fresh = await import("../../src/webauthn/challenge-store.js");
    expect(fresh.USED_CHALLENGE_IDENTIFIER).toBe("authlib:webauthn-used-challenge");
    expect(await fresh.usedChallengeKey("abc")).toBe(createHash("sha256").update("authlib.webauthn-used-challenge:abc").digest("hex"));
    const { adapter, created } = tokenAdapter();
    await fresh.claimChallenge(optionsWith(adapter), "abc", Date.UTC(2030, 0, 1));
    expect(created.map(({ identifier, token }) => ({ identifier, token }))).toEqual([
      {
        identifier: "authlib:webauthn-used-challenge",
        token: createHash("sha256").update("authlib.webauthn-used-challenge:abc").digest("hex"),
      },
    ]);
  });
});

describe("usedChallengeMemory", () => {
  it("is made on first use and kept in the instance's state: one per instance", () => {
    const state: InstanceState = {};
    const first = usedChallengeMemory({ instanceState: state });
    expect(first).toBeInstanceOf(UsedChallengeMemory);
    expect(state.usedChallenges).toBe(first);
    expect(usedChallengeMemory({ instanceState: state })).toBe(first);
    expect(usedChallengeMemory({ instanceState: {} })).not.toBe(first);
  });
});

describe("claimChallenge with the adapter's verification tokens", () => {
  it("records the key under the used-challenge identifier, a minute past the challenge's last moment", async () => {
    const { adapter, created } = tokenAdapter();
    const state: InstanceState = {};
    const expiresAt = Date.UTC(2030, 0, 1);
    await claimChallenge(optionsWith(adapter, state), "chal-1", expiresAt);
    expect(USED_CHALLENGE_IDENTIFIER).toBe("authlib:webauthn-used-challenge");
    expect(created).toEqual([
      { identifier: USED_CHALLENGE_IDENTIFIER, token: await usedChallengeKey("chal-1"), expires: new Date(expiresAt + 60_000) },
    ]);
    // The instance remembers it too (it refuses a replay here before asking the adapter).
    expect(state.usedChallenges?.size).toBe(1);
  });

  it("an adapter that overwrites a live token instead of refusing it (@auth/unstorage-adapter): the instance's memory refuses the replay", async () => {
    const written: VerificationToken[] = [];
    const overwriting: Adapter = {
      createVerificationToken: async (token) => {
        written.push(token);
        return token;
      },
      useVerificationToken: async () => null,
    };
    const options = optionsWith(overwriting);
    const expiresAt = Date.now() + 60_000;
    await claimChallenge(options, "chal-1", expiresAt);
    const error = await failure(claimChallenge(options, "chal-1", expiresAt));
    expect(error).toBeInstanceOf(InvalidCheck);
    expect(error.message).toBe(USED);
    expect(written.map((t) => t.token)).toEqual([await usedChallengeKey("chal-1")]);
  });

  it("a second instance (its own memory) is refused by the adapter's record", async () => {
    const { adapter } = tokenAdapter();
    const expiresAt = Date.now() + 60_000;
    await claimChallenge(optionsWith(adapter), "chal-1", expiresAt);
    const error = await failure(claimChallenge(optionsWith(adapter), "chal-1", expiresAt));
    expect(error).toBeInstanceOf(InvalidCheck);
    expect(error.message).toBe(USED);
  });

  it("a full memory refuses nothing when the adapter keeps the records: the adapter decides", async () => {
    const { adapter, created } = tokenAdapter();
    const state: InstanceState = { usedChallenges: new UsedChallengeMemory(1) };
    const options = optionsWith(adapter, state);
    const expiresAt = Date.now() + 60_000;
    await claimChallenge(options, "first", expiresAt);
    await claimChallenge(options, "second", expiresAt);
    expect(created.map((t) => t.token)).toEqual([await usedChallengeKey("first"), await usedChallengeKey("second")]);
    expect((await failure(claimChallenge(options, "second", expiresAt))).message).toBe(USED);
  });

  it("refuses a second claim of the same challenge (the adapter returned null)", async () => {
    const { adapter, created } = tokenAdapter();
    const options = optionsWith(adapter);
    const expiresAt = Date.now() + 60_000;
    await claimChallenge(options, "chal-1", expiresAt);
    const error = await failure(claimChallenge(options, "chal-1", expiresAt));
    expect(error).toBeInstanceOf(InvalidCheck);
    expect(error.message).toBe(USED);
    await claimChallenge(options, "chal-2", expiresAt);
    expect(created.map((t) => t.token)).toEqual([await usedChallengeKey("chal-1"), await usedChallengeKey("chal-2")]);
  });

  it("an adapter with only one of the two token methods is not a token store: the instance's memory is used", async () => {
    const { adapter, created } = tokenAdapter();
    const onlyCreate: Adapter = { createVerificationToken: adapter.createVerificationToken };
    const onlyUse: Adapter = { useVerificationToken: adapter.useVerificationToken };
    for (const partial of [onlyCreate, onlyUse, undefined]) {
      const state: InstanceState = {};
      const options = optionsWith(partial, state);
      await claimChallenge(options, "chal-1", Date.now() + 60_000);
      expect(state.usedChallenges?.size).toBe(1);
      expect((await failure(claimChallenge(options, "chal-1", Date.now() + 60_000))).message).toBe(USED);
    }
    expect(created).toEqual([]);
  });
});

describe("claimChallenge with the instance's memory", () => {
  it("remembers the key until the challenge's last moment, and refuses a second claim", async () => {
    const state: InstanceState = {};
    const options = optionsWith(undefined, state);
    const expiresAt = Date.now() + 60_000;
    await claimChallenge(options, "chal-1", expiresAt);
    const memory = state.usedChallenges as UsedChallengeMemory;
    expect(memory.claim(await usedChallengeKey("chal-1"), expiresAt, expiresAt - 1)).toEqual({ claimed: false, reason: "used" });
    expect(memory.claim(await usedChallengeKey("chal-1"), expiresAt + 1, expiresAt)).toEqual({ claimed: true });
    const error = await failure(claimChallenge(optionsWith(undefined, state), "chal-1", Date.now() + 120_000));
    expect(error).toBeInstanceOf(InvalidCheck);
    expect(error.message).toBe(USED);
  });

  it("when full of live challenges, refuses with RateLimited and the seconds until the earliest one expires", async () => {
    const state: InstanceState = { usedChallenges: new UsedChallengeMemory(2) };
    const options = optionsWith(undefined, state);
    const now = Date.now();
    await claimChallenge(options, "first", now + 4_200);
    await claimChallenge(options, "second", now + 90_000);
    const error = (await failure(claimChallenge(options, "third", now + 90_000))) as RateLimited;
    expect(error).toBeInstanceOf(RateLimited);
    expect(error.message).toBe("Too many passkey sign-ins are in progress on this server. Try again in a few minutes.");
    // ceil((now + 4200 - a later now) / 1000): 5 unless the test ran for over 200 ms.
    expect(error.retryAfter).toBeGreaterThanOrEqual(4);
    expect(error.retryAfter).toBeLessThanOrEqual(5);
    expect(error.cause).toEqual({ retryAfter: error.retryAfter });
    expect(state.usedChallenges?.size).toBe(2);
  });

  it("asks for at least one second, even when the earliest expiry passes while the refusal is made", async () => {
    const state: InstanceState = { usedChallenges: new UsedChallengeMemory(1) };
    const options = optionsWith(undefined, state);
    const start = Date.now();
    await claimChallenge(options, "first", start + 500);
    // The claim sees the memory full at `start`; by the time the wait is worked out, 3 s have passed.
    vi.spyOn(Date, "now")
      .mockReturnValueOnce(start)
      .mockReturnValue(start + 3_000);
    const error = (await failure(claimChallenge(options, "second", start + 90_000))) as RateLimited;
    expect(error).toBeInstanceOf(RateLimited);
    expect(error.retryAfter).toBe(1);
    expect(error.cause).toEqual({ retryAfter: 1 });
  });
});
