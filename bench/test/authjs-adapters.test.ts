/**
 * The Auth.js adapter bench (bench/authjs-adapters.mjs) on a tiny run: one operation per adapter, each side
 * answering the same session through the same adapter, interleaved by the harness, printed as the table
 * `npm run bench` prints. No timing is asserted: only which rows there are, what each side answers, and shape.
 */
import { describe, expect, it } from "vitest";
import { postgresAnswers, testDatabaseURL } from "../../packages/hosted-db-adapter/test/helpers.js";
import { adapterOperations } from "../authjs-adapters.mjs";
import { formatTable, interleave } from "../harness.mjs";

type Operation = { name: string; ours: () => Promise<Response>; theirs: () => Promise<Response> };

describe("the Auth.js adapter bench", () => {
  it("checks one database session per adapter on both sides, interleaved, and prints one row each", async () => {
    const postgres = await postgresAnswers(testDatabaseURL(), "the Auth.js adapter bench's PostgreSQL rows");
    const { operations, notes, close } = (await adapterOperations({ postgresURL: testDatabaseURL() })) as {
      operations: Operation[];
      notes: string[];
      close: () => Promise<void>;
    };
    try {
      const names = [
        ...(postgres ? ["@auth/pg-adapter (PostgreSQL)"] : []),
        "@auth/drizzle-adapter (PGlite)",
        ...(postgres ? ["@auth/drizzle-adapter (PostgreSQL)", "@auth/kysely-adapter (PostgreSQL)"] : []),
        "@auth/unstorage-adapter (memory)",
      ].map((name) => `Auth() GET /session (database), ${name}`);
      expect(operations.map((o) => o.name)).toEqual(names);
      expect(notes).toHaveLength(postgres ? 0 : 1);
      for (const operation of operations) {
        for (const side of [operation.ours, operation.theirs]) {
          expect(((await (await side()).json()) as { user: { email: string } }).user.email).toBe("ada@example.com");
        }
      }
      const rows = await interleave(operations, { rounds: 2, sliceMs: 5, warmupMs: 1 });
      const lines = formatTable(rows).split("\n");
      expect(lines.slice(0, 2)).toEqual(["| operation | ours (ops/s) | theirs (ops/s) | ratio |", "| --- | ---: | ---: | ---: |"]);
      expect(lines.slice(2)).toHaveLength(names.length);
      for (const [i, line] of lines.slice(2).entries()) {
        expect(line.startsWith(`| ${names[i]} | `)).toBe(true);
        expect(line).toMatch(/\| [\d,]+ \| [\d,]+ \| \d+\.\d\dx \|$/);
      }
    } finally {
      await close();
    }
  });
});
