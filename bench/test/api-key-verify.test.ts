/**
 * The API-key bench (bench/api-key-verify.mjs) on a tiny run: 3 users, 2 rounds of short slices. Its setup
 * makes real keys through `auth.api.createApiKey`; each verification answers the user it rotates to, each
 * altered key is refused with `InvalidApiKey`; the rows and tables come out in the shape the bench prints.
 * No timing is asserted.
 */
import { describe, expect, it } from "vitest";
import { apiKeyOperations, formatApiKeyTable, formatRefusalTable } from "../api-key-verify.mjs";
import { interleave } from "../harness.mjs";

describe("the API-key bench", () => {
  it("verifies real keys against JWT sessions, and times the two refusals, interleaved", async () => {
    const { speed, timing } = await apiKeyOperations({ users: 3 });
    const [cached, strict] = speed;
    expect((await cached.ours()).userId).toBe("user-0");
    expect((await cached.ours()).userId).toBe("user-1");
    expect((await strict.ours()).userId).toBe("user-0");
    expect((await cached.theirs()).data.user.email).toBe("user-0@example.com");
    for (const row of timing) {
      expect(await row.ours()).toBe("InvalidApiKey");
      expect(await row.theirs()).toBe("InvalidApiKey");
    }
    const speedRows = await interleave(speed, { rounds: 2, sliceMs: 5, warmupMs: 1 });
    const timingRows = await interleave(timing, { rounds: 2, sliceMs: 5, warmupMs: 1 });
    expect(formatApiKeyTable(speedRows)).toMatch(/^\| check \| verifyApiKey \(ops\/s\) \| getSession \(ops\/s\) \| key \/ session \|/);
    expect(formatRefusalTable(timingRows)).toMatch(
      /^\| refusal \| unknown id \(ops\/s\) \| wrong secret \(ops\/s\) \| unknown \/ wrong \|/,
    );
  }, 120_000);
});
