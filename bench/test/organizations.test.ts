/**
 * The organizations bench (bench/organizations.mjs) on a tiny run: 3 users per side, 2 rounds of short
 * slices. Its setup must sign users in for real and make every "on" session show its active organization
 * with the member's role (checked before measuring); the row and the table come out in the shape
 * `npm run bench` prints. No timing is asserted.
 */
import { describe, expect, it } from "vitest";
import { interleave } from "../harness.mjs";
import { formatOrganizationsTable, organizationOperations } from "../organizations.mjs";

describe("the organizations bench", () => {
  it("checks the session with an active organization against organizations off, interleaved", async () => {
    const [operation] = await organizationOperations({ users: 3 });
    const on = await (await operation.ours()).json();
    expect(on).toMatchObject({ user: { email: "user-0@example.com" }, activeOrganizationRole: "owner" });
    const next = await (await operation.ours()).json();
    expect(next).toMatchObject({
      user: { email: "user-1@example.com" },
      activeOrganizationId: on.activeOrganizationId,
      activeOrganizationRole: "member",
    });
    const off = await (await operation.theirs()).json();
    expect(off.user.email).toBe("user-0@example.com");
    expect(off).not.toHaveProperty("activeOrganizationId");

    const rows = await interleave([operation], { rounds: 2, sliceMs: 5, warmupMs: 1 });
    expect(rows).toHaveLength(1);
    const table = formatOrganizationsTable(rows);
    expect(table).toMatch(
      /^\| session check \| organizations on, active organization \(ops\/s\) \| organizations off \(ops\/s\) \| on \/ off \|/,
    );
    expect(table).toContain("time per check with organizations; CPU per check");
  });
});
