/**
 * The organizations' built-in pages over HTTP on the in-memory adapter: the invitation page a mail's link
 * opens (it never accepts by itself; its button does, for the invited address only; signed out it offers
 * sign-in and sign-up for the address, back to the page; a spent or made-up link is a page that says so,
 * never a 500), and the organization page with its forms (create, invite, role, remove, policy, the
 * switcher), each refusal back on the page with its localized message.
 */
import { describe, expect, it } from "vitest";
import { formOf } from "../helpers/auth-client.js";
import { type Browser, getJson, ORIGIN, organizationsApp, post, postJson } from "./helpers.js";

type App = ReturnType<typeof organizationsApp>;

/** Ada's organization and an invitation of `email` to it, with the mail's link. */
async function invited(app: App, email = "bob@example.com", role = "admin") {
  const ada = await app.signedUp("ada@example.com");
  const organizationId = (await postJson(ada, "create", { name: "Acme", slug: "acme" })).body.organization.id as string;
  expect((await postJson(ada, "invite", { organizationId, email, role })).status).toBe(200);
  const link = app.linkTo(email, "/auth/organization/invitation");
  return { ada, organizationId, link: `${link.pathname}${link.search}` };
}

async function page(browser: Browser, path: string) {
  const response = await browser.send(path);
  return { status: response.status, html: await response.text(), location: response.headers.get("location"), headers: response.headers };
}

/** The headers every built-in page is sent with: its CSP, never framed, cached or referred (the invitation URL carries a token). */
function expectPageHeaders(headers: Headers) {
  expect(headers.get("content-security-policy")).toContain("default-src 'none'");
  expect(headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(headers.get("referrer-policy")).toBe("same-origin");
  expect(headers.get("x-frame-options")).toBe("DENY");
  expect(headers.get("cache-control")).toBe("no-store");
}

/** Posts the first form of `html` (its hidden fields, and `fields`) as the page's button would. */
async function submit(browser: Browser, html: string, fields: Record<string, string> = {}) {
  const form = formOf(html);
  if (!form) throw new Error("no form on the page");
  return browser.send(form.action, { form: { ...form.fields, ...fields } });
}

describe("the invitation page", () => {
  it("shows the organization and the role, accepts nothing on GET, and accepts by its button", async () => {
    const app = organizationsApp();
    const { organizationId, link } = await invited(app);
    const bob = await app.signedUp("bob@example.com");
    for (let i = 0; i < 2; i++) {
      const shown = await page(bob, link);
      expect(shown.status).toBe(200);
      expect(shown.html).toContain("<strong>Acme</strong>");
      expect(shown.html).toContain("<strong>Administrator</strong>");
      expect(shown.html).toContain('action="http://localhost:3000/auth/organization/invitation"');
      expectPageHeaders(shown.headers);
    }
    expect((await getJson(bob, "list")).body.organizations).toEqual([]);
    expect(app.events.map((event) => event.change)).not.toContain("invitationAccepted");
    const accepted = await submit(bob, (await page(bob, link)).html);
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe(`${ORIGIN}/auth/organization?organizationId=${organizationId}&done=joined`);
    expect((await getJson(bob, "list")).body.organizations).toEqual([expect.objectContaining({ role: "admin" })]);
    // Spent: the link is a page that says so, and its button (posted again) joins nobody twice.
    const spent = await page(bob, link);
    expect(spent.status).toBe(400);
    expect(spent.html).toContain("This invitation cannot be used");
    expectPageHeaders(spent.headers);
  });

  it("signed out: offers sign-in and sign-up for the invited address, back to the page", async () => {
    const app = organizationsApp();
    const { link } = await invited(app, "carol@example.com", "member");
    const shown = await page(app.browser(), link);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("carol@example.com");
    const back = encodeURIComponent(`${ORIGIN}${link}`);
    expect(shown.html).toContain(`href="${ORIGIN}/auth/signin?callbackUrl=${back}"`);
    const signUp = shown.html.match(/href="([^"]*password\/sign-up[^"]*)"/)?.[1]?.replaceAll("&amp;", "&") ?? "";
    const url = new URL(signUp);
    expect(url.searchParams.get("email")).toBe("carol@example.com");
    expect(url.searchParams.get("callbackUrl")).toBe(`${ORIGIN}${link}`);
    // The sign-up page takes the address and the way back.
    const form = await page(app.browser(), `${url.pathname}${url.search}`);
    expect(form.html).toContain('value="carol@example.com"');
    expect(form.html).toContain(`value="${ORIGIN}${link.replaceAll("&", "&amp;")}"`);
  });

  it("refuses another account without saying whose the invitation is, on the page and on its button", async () => {
    const app = organizationsApp();
    const { link } = await invited(app);
    const eve = await app.signedUp("eve@example.com");
    const shown = await page(eve, link);
    expect(shown.status).toBe(403);
    expect(shown.html).toContain("not for the account you are signed in with");
    expect(shown.html).not.toContain("bob@example.com");
    expect(shown.html).not.toContain("<form");
    const url = new URL(link, ORIGIN);
    const forced = await post(eve, "/auth/organization/invitation", {
      invitationId: url.searchParams.get("id") as string,
      token: url.searchParams.get("token") as string,
    });
    expect(forced.status).toBe(302);
    expect(forced.headers.get("location")).toContain("/auth/organization/invitation?id=");
    expect((await getJson(eve, "list")).body.organizations).toEqual([]);
  });

  it("answers a made-up, truncated or missing link with a page, never a 500", async () => {
    const app = organizationsApp();
    const { link } = await invited(app);
    const bob = await app.signedUp("bob@example.com");
    for (const path of [
      "/auth/organization/invitation",
      "/auth/organization/invitation?id=nope&token=nope",
      link.slice(0, -4),
      `/auth/organization/invitation?id=${"x".repeat(5000)}&token=${"y".repeat(5000)}`,
    ]) {
      const shown = await page(bob, path);
      expect(shown.status, path).toBe(400);
      expect(shown.html).toContain("This invitation cannot be used");
    }
  });
});

describe("the organization page", () => {
  it("signed out, sends the browser to sign in and back", async () => {
    const app = organizationsApp();
    const shown = await page(app.browser(), "/auth/organization");
    expect(shown.status).toBe(302);
    expect(shown.location).toBe(`${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/auth/organization`)}`);
  });

  it("creates an organization, invites, changes a role and removes a member through its forms", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    const created = await post(ada, "/auth/organization/form-create", { name: "Acme", slug: "acme" });
    const location = created.headers.get("location") ?? "";
    expect(location).toMatch(/\/auth\/organization\?organizationId=.+&done=created$/);
    const organizationId = new URL(location).searchParams.get("organizationId") as string;
    const shown = await page(ada, `/auth/organization?organizationId=${organizationId}&done=created`);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("The organization was created.");
    expect(shown.html).toContain("Your role: Owner");
    expectPageHeaders(shown.headers);
    const invite = await post(ada, "/auth/organization/form-invite", { organizationId, email: "bob@example.com", role: "member" });
    expect(invite.headers.get("location")).toContain("done=invited");
    const link = app.linkTo("bob@example.com", "/auth/organization/invitation");
    expect((await page(ada, `/auth/organization?organizationId=${organizationId}`)).html).toContain("bob@example.com as Member");
    const bob = await app.signedUp("bob@example.com");
    await submit(bob, (await page(bob, `${link.pathname}${link.search}`)).html);
    const role = await post(ada, "/auth/organization/form-member-role", { organizationId, userId: bob.userId, role: "admin" });
    expect(role.headers.get("location")).toContain("done=roleChanged");
    expect((await getJson(bob, "get", { organizationId })).body.role).toBe("admin");
    // Bob, an admin, cannot remove the owner: back on the page with the refusal's message.
    const refused = await post(bob, "/auth/organization/form-member-remove", { organizationId, userId: ada.userId });
    expect(refused.headers.get("location")).toBe(
      `${ORIGIN}/auth/organization?organizationId=${organizationId}&error=OrganizationForbidden`,
    );
    expect((await page(bob, `/auth/organization?organizationId=${organizationId}&error=OrganizationForbidden`)).html).toContain(
      "Your role does not allow this.",
    );
    const removed = await post(ada, "/auth/organization/form-member-remove", { organizationId, userId: bob.userId });
    expect(removed.headers.get("location")).toContain("done=removed");
    // Bob's next look at the page: not his organization any more.
    const gone = await page(bob, `/auth/organization?organizationId=${organizationId}`);
    expect(gone.status).toBe(404);
    expect(gone.html).toContain("you are no longer one of its members");
  });

  it("switches the active organization, saves a policy and offers the step-up link of a refusal", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    const first = (await postJson(ada, "create", { name: "Acme", slug: "acme" })).body.organization.id as string;
    const second = (await postJson(ada, "create", { name: "Globex", slug: "globex" })).body.organization.id as string;
    const switched = await post(ada, "/auth/organization/form-active", { organizationId: second });
    expect(switched.headers.get("location")).toContain("done=active");
    expect((await ada.session())?.activeOrganizationId).toBe(second);
    const shown = await page(ada, "/auth/organization");
    expect(shown.html).toContain("<h1>Globex</h1>");
    const saved = await post(ada, "/auth/organization/form-policy", {
      organizationId: first,
      requireSecondFactor: "on",
      sessionMaxAgeMinutes: "30",
    });
    expect(saved.headers.get("location")).toContain("done=policySaved");
    // Ada's password session has no second factor: Acme's page refuses it, with the way to sign in again.
    const refused = await page(ada, `/auth/organization?organizationId=${first}`);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain("asks for a stronger or more recent sign-in");
    expect(refused.html).toMatch(/href="http:\/\/localhost:3000\/auth\/signin\?callbackUrl=[^"]+"[^>]*>Sign in again</);
    expect(app.orgs.organizations.get(first)?.policy).toEqual({ requireSecondFactor: true, sessionMaxAge: 1800 });
  });

  it("shows the switcher on the account page", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    await postJson(ada, "create", { name: "Acme", slug: "acme" });
    const account = await page(ada, "/auth/account");
    expect(account.status).toBe(200);
    expect(account.html).toContain("Your organizations");
    expect(account.html).toMatch(/>Acme<\/a><span class="muted">Owner</);
    expect(account.html).toContain("/auth/organization/form-active");
  });

  it("says the page in the request's language", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    await postJson(ada, "create", { name: "Acme", slug: "acme" });
    const response = await ada.send("/auth/organization", { headers: { "accept-language": "de" } });
    const html = await response.text();
    expect(html).toContain('<html lang="de"');
    expect(html).toContain("Ihre Rolle: Inhaber");
    expect(html).toContain("Mitglieder");
  });
});
