/**
 * The password and account operations on `auth.api`, in process: the same routes as over HTTP, with
 * typed errors instead of pages, and the cross-site refusal an operation has instead of a form token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import { closeSharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { linkIn, mailTo, ORIGIN, passwordApp, type Smtp } from "./helpers.js";

let smtp: Smtp;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});

/** A browser's request headers for an operation: its cookies, and where it says it came from. */
function requestWith(cookies: Map<string, string>, site = "same-origin") {
  return { url: ORIGIN, headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "), "sec-fetch-site": site } };
}

/** Keeps the cookies an operation answered, as a browser would. */
function keep(jar: Map<string, string>, cookies: Array<{ name: string; value: string; options?: { maxAge?: number } }>) {
  for (const cookie of cookies) {
    if (cookie.options?.maxAge === 0 || cookie.value === "") jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.value);
  }
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { type: string; rule?: string };
  }
  throw new Error("expected a rejection");
}

describe("auth.api password operations", () => {
  it("sign up, verify, change, reset and delete in process, with typed errors", async () => {
    const app = await passwordApp(smtp);
    const auth = createAuth(app.config);
    const jar = new Map<string, string>();

    expect(await rejection(auth.api.signUp(requestWith(jar), { email: "api@example.com", password: "short" }))).toMatchObject({
      type: "InvalidPassword",
      rule: "too-short",
    });
    expect(
      await rejection(auth.api.signUp(requestWith(jar, "cross-site"), { email: "api@example.com", password: "long enough pw" })),
    ).toMatchObject({
      type: "MissingCSRF",
    });

    let since = smtp.mails.length;
    const signedUp = await auth.api.signUp(requestWith(jar), {
      email: "api@example.com",
      password: "long enough pw",
      name: "Api",
      redirectTo: "/in",
    });
    expect(signedUp.redirect).toBe(`${ORIGIN}/auth/verify-request?provider=password&type=password-sign-up`);
    keep(jar, signedUp.cookies);
    const token = linkIn(mailTo(smtp, "api@example.com", since), "/auth/password/verify").searchParams.get("token") as string;
    const verified = await auth.api.verifyEmail(requestWith(jar), { token });
    expect(verified.redirect).toBe(`${ORIGIN}/in`);
    keep(jar, verified.cookies);
    expect((await auth.api.getSession(requestWith(jar))).session?.user?.email).toBe("api@example.com");
    expect(await rejection(auth.api.verifyEmail(requestWith(jar), { token }))).toMatchObject({ type: "Verification" });

    expect(
      await rejection(auth.api.changePassword(requestWith(jar), { currentPassword: "wrong pw 123", password: "another pw 123" })),
    ).toMatchObject({
      type: "IncorrectPassword",
    });
    expect(
      await rejection(auth.api.changePassword(requestWith(new Map()), { currentPassword: "x", password: "another pw 123" })),
    ).toMatchObject({
      type: "SessionRequired",
    });
    const changed = await auth.api.changePassword(requestWith(jar), { currentPassword: "long enough pw", password: "another pw 123" });
    keep(jar, changed.cookies);
    expect((await auth.api.getSession(requestWith(jar))).session).not.toBeNull();

    since = smtp.mails.length;
    await auth.api.requestPasswordReset(requestWith(jar), { email: "api@example.com" });
    const reset = linkIn(mailTo(smtp, "api@example.com", since), "/auth/password/reset").searchParams.get("token") as string;
    expect(await rejection(auth.api.resetPassword(requestWith(new Map()), { token: reset, password: "third pw 123" }))).toMatchObject({
      type: "Verification",
    });
    const done = await auth.api.resetPassword(requestWith(jar), { token: reset, password: "third pw 123" });
    keep(jar, done.cookies);

    expect(await rejection(auth.api.deleteAccount(requestWith(jar), { currentPassword: "another pw 123" }))).toMatchObject({
      type: "IncorrectPassword",
    });
    const deleted = await auth.api.deleteAccount(requestWith(jar), { currentPassword: "third pw 123" });
    keep(jar, deleted.cookies);
    expect((await auth.api.getSession(requestWith(jar))).session).toBeNull();
    expect(await app.adapter.getUserByEmail("api@example.com")).toBeNull();
  });

  it("changeEmail / addEmail / confirmEmail in process", async () => {
    const app = await passwordApp(smtp);
    const auth = createAuth(app.config);
    const jar = new Map<string, string>();
    let since = smtp.mails.length;
    keep(jar, (await auth.api.signUp(requestWith(jar), { email: "one@example.com", password: "long enough pw" })).cookies);
    const token = linkIn(mailTo(smtp, "one@example.com", since), "/auth/password/verify").searchParams.get("token") as string;
    keep(jar, (await auth.api.verifyEmail(requestWith(jar), { token })).cookies);

    expect(await rejection(auth.api.addEmail(requestWith(jar), { email: "not an address" }))).toMatchObject({ type: "EmailSignInError" });
    since = smtp.mails.length;
    expect((await auth.api.changeEmail(requestWith(jar), { email: "two@example.com" })).redirect).toBe(
      `${ORIGIN}/auth/account?done=email-sent`,
    );
    const change = linkIn(mailTo(smtp, "two@example.com", since), "/auth/account/confirm-email").searchParams.get("token") as string;
    expect(await rejection(auth.api.confirmEmail(requestWith(new Map()), { token: change }))).toMatchObject({ type: "SessionRequired" });
    await auth.api.confirmEmail(requestWith(jar), { token: change });
    expect((await app.adapter.getUserByEmail("two@example.com"))?.email).toBe("two@example.com");
  });
});
