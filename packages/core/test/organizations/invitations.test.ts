/**
 * Invitations: mailed, accepted only by the invited address, single use, expiring, revocable; a token for
 * another address, a used, revoked or expired one, and one replayed in another browser, refused alike.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Browser, getJson, organizationsApp, postJson } from "./helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

type App = ReturnType<typeof organizationsApp>;

/** Ada's organization, and an invitation of `email` as `role`: its id and the token its mail carries. */
async function invited(app: App, ada: Browser, email: string, role = "member") {
  const organizationId = (await postJson(ada, "create", { name: "Acme", slug: "acme" })).body.organization.id as string;
  const answer = await postJson(ada, "invite", { organizationId, email, role });
  expect(answer.status).toBe(200);
  const link = app.linkTo(email.toLowerCase(), "/auth/organization/invitation");
  return { organizationId, invitationId: link.searchParams.get("id") as string, token: link.searchParams.get("token") as string, answer };
}

describe("an invitation", () => {
  it("is mailed, listed without its token, and accepted once by the invited address with the role it gives", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    const { organizationId, invitationId, token, answer } = await invited(app, ada, "Bob@Example.com", "admin");
    expect(answer.body.invitation).toMatchObject({ id: invitationId, email: "bob@example.com", role: "admin", status: "pending" });
    expect(answer.body.invitation).not.toHaveProperty("tokenHash");
    const mail = app.mails.at(-1);
    expect(mail?.subject).toBe("You are invited to join Acme on localhost:3000");
    // The store keeps the token's hash only.
    expect(JSON.stringify([...app.orgs.invitations.values()])).not.toContain(token);
    expect((await getJson(ada, "invitations", { organizationId })).body.invitations).toEqual([
      expect.objectContaining({ id: invitationId }),
    ]);

    const bob = await app.signedUp("bob@example.com");
    expect(await postJson(bob, "accept", { invitationId, token })).toEqual({ status: 200, body: { organizationId, role: "admin" } });
    expect((await getJson(bob, "get", { organizationId })).body.role).toBe("admin");
    expect((await getJson(ada, "invitations", { organizationId })).body.invitations).toEqual([]);
    // Used: refused, even to the same user.
    expect(await postJson(bob, "accept", { invitationId, token })).toEqual({ status: 400, body: { error: "InvitationInvalid" } });
  });

  it("refuses another address without saying whose it is, a wrong token, and a replay in another browser", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    const { organizationId, invitationId, token } = await invited(app, ada, "bob@example.com");
    const eve = await app.signedUp("eve@example.com");
    const refused = await postJson(eve, "accept", { invitationId, token });
    expect(refused).toEqual({ status: 400, body: { error: "InvitationInvalid" } });
    expect(JSON.stringify(refused.body)).not.toContain("bob");
    expect(await postJson(eve, "accept", { invitationId, token: `${token.slice(0, -1)}0` })).toEqual({
      status: 400,
      body: { error: "InvitationInvalid" },
    });
    expect(await postJson(eve, "accept", { invitationId: "no-such-id", token })).toEqual({
      status: 400,
      body: { error: "InvitationInvalid" },
    });
    expect((await getJson(eve, "get", { organizationId })).status).toBe(404);
    // Bob accepts in one browser; the same link replayed in a second browser of his is refused.
    const bob = await app.signedUp("bob@example.com");
    expect((await postJson(bob, "accept", { invitationId, token })).status).toBe(200);
    const bobElsewhere = app.browser();
    const { post } = await import("./helpers.js");
    await post(bobElsewhere, "/auth/callback/password", { email: "bob@example.com", password: "a long password 1234", callbackUrl: "/" });
    expect(await postJson(bobElsewhere, "accept", { invitationId, token })).toEqual({ status: 400, body: { error: "InvitationInvalid" } });
    // Signed out: a session first.
    expect(await postJson(app.browser(), "accept", { invitationId, token })).toEqual({ status: 401, body: { error: "SessionRequired" } });
  });

  it("expires, and a revoked one is refused; inviting an address again replaces its earlier invitation", async () => {
    const app = organizationsApp({ organizations: { invitationMaxAge: 3600 } });
    const ada = await app.signedUp("ada@example.com");
    const { organizationId, invitationId, token } = await invited(app, ada, "bob@example.com");
    const bob = await app.signedUp("bob@example.com");
    vi.useFakeTimers({ now: Date.now() + 3601 * 1000, toFake: ["Date"] });
    expect(await postJson(bob, "accept", { invitationId, token })).toEqual({ status: 400, body: { error: "InvitationInvalid" } });
    vi.useRealTimers();

    // Invited again: the earlier link stops working, the new one works until it is revoked.
    await postJson(ada, "invite", { organizationId, email: "bob@example.com", role: "member" });
    const second = app.linkTo("bob@example.com", "/auth/organization/invitation");
    expect(second.searchParams.get("id")).not.toBe(invitationId);
    expect(app.orgs.invitations.get(invitationId)?.status).toBe("revoked");
    const secondId = second.searchParams.get("id") as string;
    expect(await postJson(ada, "invitation-revoke", { organizationId, invitationId: secondId })).toEqual({
      status: 200,
      body: { revoked: true },
    });
    expect(await postJson(bob, "accept", { invitationId: secondId, token: second.searchParams.get("token") as string })).toEqual({
      status: 400,
      body: { error: "InvitationInvalid" },
    });
    expect(await postJson(ada, "invitation-revoke", { organizationId, invitationId: secondId })).toEqual({
      status: 400,
      body: { error: "InvitationInvalid" },
    });
  });

  it("cannot be made for a role above the inviter's, a role that does not exist, a member, or a bad address", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    const { organizationId, invitationId, token } = await invited(app, ada, "bob@example.com", "admin");
    const bob = await app.signedUp("bob@example.com");
    await postJson(bob, "accept", { invitationId, token });
    expect(await postJson(bob, "invite", { organizationId, email: "carol@example.com", role: "owner" })).toEqual({
      status: 403,
      body: { error: "OrganizationForbidden" },
    });
    expect((await postJson(bob, "invite", { organizationId, email: "carol@example.com", role: "admin" })).status).toBe(200);
    expect(await postJson(ada, "invite", { organizationId, email: "carol@example.com", role: "wizard" })).toEqual({
      status: 400,
      body: { error: "InvalidOrganization" },
    });
    expect(await postJson(ada, "invite", { organizationId, email: "bob@example.com", role: "member" })).toEqual({
      status: 400,
      body: { error: "InvalidOrganization" },
    });
    expect(await postJson(ada, "invite", { organizationId, email: "not an address", role: "member" })).toEqual({
      status: 400,
      body: { error: "InvalidOrganization" },
    });
  });

  it("is revoked and refused when its mail cannot be sent", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    const organizationId = (await postJson(ada, "create", { name: "Acme", slug: "acme" })).body.organization.id as string;
    const sent = app.mails.length;
    app.config.providers = [
      (await import("../../src/providers/password.js")).default({
        sendMail: () => {
          throw new Error("mail server down");
        },
      }),
    ];
    const refused = await postJson(ada, "invite", { organizationId, email: "bob@example.com", role: "member" });
    expect(refused).toEqual({ status: 503, body: { error: "EmailSignInError" } });
    expect(app.mails.length).toBe(sent);
    expect([...app.orgs.invitations.values()].map((invitation) => invitation.status)).toEqual(["revoked"]);
  });
});
