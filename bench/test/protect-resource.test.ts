/**
 * The resource-server bench (bench/protect-resource.mjs) on a tiny run: 3 users, 4 fresh tokens, 2 rounds
 * of short slices. Its setup must verify real tokens (each side answers the user it rotates to) and fetch
 * the JWKS once; the rows and the table come out in the shape the bench prints. No timing is asserted.
 */
import { describe, expect, it } from "vitest";
import { interleave } from "../harness.mjs";
import { formatProtectResourceTable, protectResourceOperations } from "../protect-resource.mjs";

describe("the resource-server bench", () => {
  it("checks access tokens against JWT sessions, interleaved, fetching the JWKS once", async () => {
    const { operations, stats, close } = await protectResourceOperations({ users: 3, freshTokens: 4 });
    try {
      expect(operations).toHaveLength(2);
      const [kept, fresh] = operations;
      expect((await kept.ours()).userId).toBe("user-0");
      expect((await kept.ours()).userId).toBe("user-1");
      expect((await fresh.ours()).userId).toBe("user-3");
      expect((await kept.theirs()).data.user.email).toBe("user-0@example.com");
      const rows = await interleave(operations, { rounds: 2, sliceMs: 5, warmupMs: 1 });
      expect(rows).toHaveLength(2);
      expect(stats().jwksFetches).toBe(1);
      const table = formatProtectResourceTable(rows);
      expect(table).toMatch(/^\| check \| protectResource \(ops\/s\) \| getSession \(ops\/s\) \| token \/ session \|/);
      expect(table).toContain("CPU per check");
    } finally {
      await close();
    }
  });
});
