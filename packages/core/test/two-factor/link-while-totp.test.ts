/**
 * Linking is not a sign-in (issue 44). A user with TOTP on, signed in at level 2, links the account of a
 * real OpenID Provider from the account page (POST /signin/op with `link=true`): the link is saved and the
 * browser goes back to the account page with "linked" — not to "Confirm it is you" — and the session is
 * the one it was: same `authTime`, `amr` and `aal` (a link neither raises nor resets them), no signIn
 * event. A user without a second factor, at level 1, stays at level 1 after linking. JWT and database
 * sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Nodemailer from "../../src/providers/nodemailer.js";
import Password from "../../src/providers/password.js";
import { closeSharedPglite, sharedPglite } from "../helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { ORIGIN, type Browser as PasswordBrowser, post, signUpAndVerify } from "../password/helpers.js";
import { codeOf, firstFactor, PASSWORD, requestOf, secondStep, twoFactorApp, userWithTotp } from "./helpers.js";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let op: TestOP;
beforeAll(async () => {
  [smtp, op] = await Promise.all([
    startSmtpServer(),
    startTestOP({ clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/op`] }] }),
    sharedPglite().waitReady,
  ]);
});
afterAll(async () => {
  await op?.close();
  await smtp?.close();
  await closeSharedPglite();
});

/** The two-factor app with the OP as a provider too. */
function appWithOp(strategy: "jwt" | "database") {
  return twoFactorApp(smtp, {
    strategy,
    config: { providers: [Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" }), Password(), opProvider(op)] },
  });
}

/** The account page's Link button, in `browser`, through the OP's login page (as `opUser`): the answer of the callback. */
async function linkFromAccountPage(browser: PasswordBrowser, opUser: string) {
  const page = await (await browser.send("/auth/account")).text();
  // The form the page renders: its hidden callback URL is what comes back.
  const callbackUrl = /name="link" value="true"/.test(page) ? /name="callbackUrl" value="([^"]*done=linked)"/.exec(page)?.[1] : undefined;
  expect(callbackUrl).toBe(`${ORIGIN}/auth/account?done=linked`);
  const start = await post(browser, "/auth/signin/op", { link: "true", callbackUrl: callbackUrl as string });
  expect(start.status).toBe(302);
  const callback = await op.authorize(start.headers.get("location") as string, { user: opUser });
  return browser.send(`${callback.pathname}${callback.search}`);
}

/** The fields of the session that say how and when the user signed in. */
async function assuranceOf(browser: PasswordBrowser) {
  const session = await browser.session();
  return { user: session?.user?.email, aal: session?.aal, amr: session?.amr, authTime: session?.authTime };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  it("TOTP on, signed in at level 2: the link is saved, back to the account page with 'linked', the session unchanged", async () => {
    const app = await appWithOp(strategy);
    const email = `link-totp-${strategy}@example.com`;
    const { secret } = await userWithTotp(smtp, app, email);
    const { browser } = await firstFactor(app, email);
    await secondStep(browser, codeOf(secret, 1));
    const before = await assuranceOf(browser);
    expect(before).toMatchObject({ user: email, aal: 2, amr: ["pwd", "otp"] });
    const signIns = app.events.filter((e) => e.startsWith("signIn")).length;
    // A new authTime would differ by at least a second.
    await wait(1100);

    const done = await linkFromAccountPage(browser, "alice");
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/account?done=linked`);
    // No pending second step: the signed-in user is not asked to confirm it is them.
    expect(browser.jar.get("authlib.two-factor")).toBeUndefined();
    expect(await assuranceOf(browser)).toEqual(before);
    expect(app.events.filter((e) => e.startsWith("signIn"))).toHaveLength(signIns);

    const accounts = await app.auth.api.listAccounts(requestOf(browser));
    expect(accounts.map((account) => account.provider).sort()).toEqual(["op", "password"]);
    const page = await (await browser.send("/auth/account?done=linked")).text();
    expect(page).toContain("The account was linked. You can now sign in with it too.");
    // Still a level-2 session of the same age: what the owner-present checks read.
    await expect(app.auth.api.requireRecentAuth(requestOf(browser), { maxAge: 300, aal: 2 })).resolves.toMatchObject({ aal: 2 });
  });

  it("no second factor, level 1: linking does not raise the session (still level 1, amr [pwd], same authTime)", async () => {
    const app = await appWithOp(strategy);
    const email = `link-plain-${strategy}@example.com`;
    const browser = app.browser();
    await signUpAndVerify(smtp, browser, email, PASSWORD);
    const before = await assuranceOf(browser);
    expect(before).toMatchObject({ user: email, aal: 1, amr: ["pwd"] });
    await wait(1100);

    const done = await linkFromAccountPage(browser, "alice");
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/account?done=linked`);
    expect(await assuranceOf(browser)).toEqual(before);
  });

  it("the linked account then signs in (a sign-in, not a link): TOTP on, it takes the second step", async () => {
    const app = await appWithOp(strategy);
    const email = `link-then-${strategy}@example.com`;
    const { secret, browser } = await userWithTotp(smtp, app, email);
    const linked = await linkFromAccountPage(browser, "alice");
    expect(linked.headers.get("location")).toBe(`${ORIGIN}/auth/account?done=linked`);

    const other = app.browser();
    const start = await post(other, "/auth/signin/op", { callbackUrl: "/home" });
    const callback = await op.authorize(start.headers.get("location") as string, { user: "alice" });
    const held = await other.send(`${callback.pathname}${callback.search}`);
    expect(held.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`);
    expect(await other.session()).toBeNull();
    await secondStep(other, codeOf(secret, 1));
    expect(await assuranceOf(other)).toMatchObject({ user: email, aal: 2, amr: ["fed", "otp"] });
  });
});
