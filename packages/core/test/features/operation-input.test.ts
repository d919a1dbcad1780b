/**
 * An operation's typed input (issue 45): one schema per declaration, parsed once by the pipeline, the
 * same for a form post, a JSON body and `auth.api`. A field over its limit is refused with a named error
 * (never cut), a missing required field is refused, a field the schema does not declare is ignored. Shown
 * for one JSON operation (`unlinkAccount`) and one form (`signUp`), each three ways; the schema itself
 * first.
 */
import { createAuth, field, InvalidAccount, InvalidName, inputSchema, UnknownAction } from "@authlib/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeSharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { ORIGIN, passwordApp, post, type Smtp, signUpAndVerify } from "../password/helpers.js";

describe("inputSchema", () => {
  const schema = inputSchema({
    name: field.string({ max: 5 }),
    note: field.optional(field.string({ max: 3, refuse: InvalidName })),
    remember: field.flag(),
    mode: field.optional(field.oneOf(["a", "b"])),
    age: field.optional(field.number({ min: 0, max: 150 })),
  });

  it("parses into the typed input; an undeclared field is not in it", () => {
    const input = schema.parse({ name: "Ada", remember: "on", mode: "b", age: "36", extra: "ignored" });
    expect(input).toEqual({ name: "Ada", note: undefined, remember: true, mode: "b", age: 36 });
    expect(Object.hasOwn(input, "extra")).toBe(false);
    // JSON values as they are: a boolean, a number, null for an optional field.
    expect(schema.parse({ name: "Ada", remember: false, age: 7, note: null })).toEqual({
      name: "Ada",
      note: undefined,
      remember: false,
      mode: undefined,
      age: 7,
    });
  });

  it("refuses a value over its limit (never cuts it), a missing required field, a value of the wrong kind", () => {
    expect(() => schema.parse({ name: "Adelaide" })).toThrow(UnknownAction);
    expect(() => schema.parse({ name: "Adelaide" })).toThrow("`name` is longer than 5 characters.");
    expect(() => schema.parse({ name: "Ada", note: "long" })).toThrow(InvalidName);
    expect(() => schema.parse({})).toThrow("`name` is missing.");
    expect(() => schema.parse({ name: 5 })).toThrow("`name` must be a string.");
    expect(() => schema.parse({ name: "Ada", remember: "maybe" })).toThrow(UnknownAction);
    expect(() => schema.parse({ name: "Ada", mode: "c" })).toThrow(UnknownAction);
    expect(() => schema.parse({ name: "Ada", age: "-1" })).toThrow(UnknownAction);
    expect(() => schema.parse({ name: "Ada", age: "" })).toThrow(UnknownAction);
  });

  it("reads only the object's own fields", () => {
    const inherited = Object.create({ name: "Ada" }) as object;
    expect(() => schema.parse(inherited)).toThrow("`name` is missing.");
    expect(() => schema.parse(JSON.parse('{"__proto__": {"name": "Ada"}}') as object)).toThrow("`name` is missing.");
  });
});

let smtp: Smtp;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});

/** A signed-in password user of a fresh app, and a `Request` of their browser for `auth.api`. */
async function signedIn() {
  const app = await passwordApp(smtp);
  const browser = app.browser();
  await signUpAndVerify(smtp, browser, "input@example.com", "a password 1");
  const request = () => new Request(`${ORIGIN}/app`, { headers: { cookie: browser.jar.header() } });
  return { app, browser, request };
}

describe("a JSON operation (unlinkAccount): form post, JSON body and auth.api alike", () => {
  const tooLong = "p".repeat(513);

  it("refuses a field over its limit with its named error", async () => {
    const { app, browser, request } = await signedIn();
    const csrfToken = await browser.csrf();
    const asForm = await browser.send("/auth/accounts/unlink", { form: { csrfToken, provider: tooLong, providerAccountId: "1" } });
    expect([asForm.status, await asForm.json()]).toEqual([400, { error: "InvalidAccount" }]);
    const asJson = await browser.send("/auth/accounts/unlink", { json: { csrfToken, provider: tooLong, providerAccountId: "1" } });
    expect([asJson.status, await asJson.json()]).toEqual([400, { error: "InvalidAccount" }]);
    await expect(createAuth(app.config).api.unlinkAccount(request(), { provider: tooLong, providerAccountId: "1" })).rejects.toBeInstanceOf(
      InvalidAccount,
    );
  });

  it("refuses a missing required field", async () => {
    const { app, browser, request } = await signedIn();
    const csrfToken = await browser.csrf();
    const asForm = await browser.send("/auth/accounts/unlink", { form: { csrfToken, provider: "github" } });
    expect([asForm.status, await asForm.json()]).toEqual([400, { error: "InvalidAccount" }]);
    const asJson = await browser.send("/auth/accounts/unlink", { json: { csrfToken, provider: "github" } });
    expect([asJson.status, await asJson.json()]).toEqual([400, { error: "InvalidAccount" }]);
    const missing = { provider: "github" } as { provider: string; providerAccountId: string };
    await expect(createAuth(app.config).api.unlinkAccount(request(), missing)).rejects.toMatchObject({ type: "InvalidAccount" });
  });

  it("ignores a field it does not declare: the operation runs (no such account of theirs)", async () => {
    const { app, browser, request } = await signedIn();
    const csrfToken = await browser.csrf();
    const fields = { provider: "github", providerAccountId: "1", extra: "x".repeat(10_000) };
    const asForm = await browser.send("/auth/accounts/unlink", { form: { csrfToken, ...fields } });
    expect([asForm.status, await asForm.json()]).toEqual([404, { error: "AccountNotFound" }]);
    const asJson = await browser.send("/auth/accounts/unlink", { json: { csrfToken, ...fields } });
    expect([asJson.status, await asJson.json()]).toEqual([404, { error: "AccountNotFound" }]);
    await expect(createAuth(app.config).api.unlinkAccount(request(), fields)).rejects.toMatchObject({ type: "AccountNotFound" });
  });
});

describe("a form (signUp): form post, JSON body and auth.api alike", () => {
  const signUpPage = `${ORIGIN}/auth/password/sign-up`;

  it("refuses a field over its limit with its named error, back on the form; nothing is mailed", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    const sent = smtp.mails.length;
    const fields = { email: "long@example.com", password: "a password 1", name: "n".repeat(1025) };
    const asForm = await post(browser, "/auth/password/sign-up", fields);
    expect(asForm.headers.get("location")).toMatch(new RegExp(`^${signUpPage}\\?error=InvalidName`));
    const asJson = await browser.send("/auth/password/sign-up", { json: { csrfToken: await browser.csrf(), ...fields } });
    expect(asJson.headers.get("location")).toMatch(new RegExp(`^${signUpPage}\\?error=InvalidName`));
    const request = new Request(`${ORIGIN}/app`, { headers: { cookie: browser.jar.header() } });
    await expect(createAuth(app.config).api.signUp(request, fields)).rejects.toBeInstanceOf(InvalidName);
    // An address over the schema's limit: refused as a bad address, never cut to one that would be mailed.
    const longAddress = `${"a".repeat(1020)}@example.com`;
    await expect(createAuth(app.config).api.signUp(request, { ...fields, name: "Ada", email: longAddress })).rejects.toMatchObject({
      type: "EmailSignInError",
    });
    expect(smtp.mails.length).toBe(sent);
  });

  it("refuses a missing required field (the address)", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    const asForm = await post(browser, "/auth/password/sign-up", { password: "a password 1" });
    expect(asForm.headers.get("location")).toMatch(new RegExp(`^${signUpPage}\\?error=EmailSignInError`));
    const asJson = await browser.send("/auth/password/sign-up", { json: { csrfToken: await browser.csrf(), password: "a password 1" } });
    expect(asJson.headers.get("location")).toMatch(new RegExp(`^${signUpPage}\\?error=EmailSignInError`));
    const request = new Request(`${ORIGIN}/app`, { headers: { cookie: browser.jar.header() } });
    const missing = { password: "a password 1" } as { email: string; password: string };
    await expect(createAuth(app.config).api.signUp(request, missing)).rejects.toMatchObject({ type: "EmailSignInError" });
  });

  it("ignores a field it does not declare: the sign-up goes on", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    const fields = { email: "extra@example.com", password: "a password 1", role: "admin" };
    const asForm = await post(browser, "/auth/password/sign-up", fields);
    expect(asForm.headers.get("location")).toContain("/auth/verify-request?");
    const asJson = await browser.send("/auth/password/sign-up", { json: { csrfToken: await browser.csrf(), ...fields } });
    expect(asJson.headers.get("location")).toContain("/auth/verify-request?");
    const request = new Request(`${ORIGIN}/app`, { headers: { cookie: browser.jar.header() } });
    expect((await createAuth(app.config).api.signUp(request, fields)).redirect).toContain("/auth/verify-request?");
  });
});
