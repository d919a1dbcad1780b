/**
 * Organizations on the hosted-db adapter on PGlite, through core: `createAuth` with `organizations: {}`
 * starts (the adapter has every method the feature needs), and a user who signed up with `Password()` makes
 * an organization through `auth.api` and over HTTP; deleting the organization, then the user, leaves no row.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { getJson, organizationsApp, postJson } from "./helpers.js";

afterAll(closeSharedPglite);

/** Rows left in the organization tables of the client's branch. */
async function rowCounts(client: Awaited<ReturnType<typeof freshDatabase>>["client"]) {
  const counts: Record<string, number> = {};
  for (const table of ["authlib_organizations", "authlib_members", "authlib_invitations", "authlib_domains"] as const)
    counts[table] = (await client.db[table].filter()).length;
  return counts;
}

describe("organizations on the hosted-db adapter (PGlite)", () => {
  it("start, and a signed-in user creates an organization through auth.api and over HTTP", async () => {
    const { client, adapter } = await freshDatabase();
    const app = organizationsApp({}, adapter);
    // The start-up check passes: every organization method is there.
    const auth = createAuth(app.config);
    const ada = await app.signedUp("ada@example.com");

    const request = { headers: { cookie: ada.jar.header() }, url: "http://localhost:3000" };
    const made = await auth.api.createOrganization(request, { name: "Acme", slug: "acme" });
    expect(made).toMatchObject({ role: "owner", organization: { name: "Acme", slug: "acme", domainJoin: "off", policy: {} } });
    expect(made.organization.createdAt).toBeInstanceOf(Date);
    expect(await adapter.getMember(made.organization.id, ada.userId)).toMatchObject({ role: "owner" });
    // The slug is the database's to keep: a second one is SlugTaken, whichever way it comes.
    await expect(auth.api.createOrganization(request, { name: "Other", slug: "acme" })).rejects.toMatchObject({ type: "SlugTaken" });
    expect(await postJson(ada, "create", { name: "Other", slug: "acme" })).toEqual({ status: 409, body: { error: "SlugTaken" } });

    const created = await postJson(ada, "create", { name: "Globex", slug: "globex" });
    expect(created.status).toBe(200);
    const listed = (await getJson(ada, "list")).body.organizations as { organization: { slug: string }; role: string }[];
    expect(listed.map((entry) => [entry.organization.slug, entry.role]).sort()).toEqual([
      ["acme", "owner"],
      ["globex", "owner"],
    ]);
    expect(
      await postJson(ada, "update", {
        organizationId: made.organization.id,
        policy: '{"sessionMaxAge":3600,"allowedSignInMethods":["password"]}',
      }),
    ).toMatchObject({
      status: 200,
      body: { organization: { policy: { sessionMaxAge: 3600, allowedSignInMethods: ["password"] } } },
    });
    // Stored as JSON and read back as it was; the fresh password session still meets it.
    expect((await adapter.getOrganization(made.organization.id))?.policy).toEqual({
      sessionMaxAge: 3600,
      allowedSignInMethods: ["password"],
    });

    expect(await postJson(ada, "delete", { organizationId: made.organization.id })).toEqual({ status: 200, body: { deleted: true } });
    expect(await rowCounts(client)).toMatchObject({ authlib_organizations: 1, authlib_members: 1 });
    // Deleting the user takes their memberships with them (foreign key); their organization stays, ownerless.
    await adapter.deleteUser(ada.userId);
    expect(await rowCounts(client)).toMatchObject({ authlib_organizations: 1, authlib_members: 0 });
  }, 60_000);
});
