/**
 * The audit trail of a user's account changes (docs/observability.md, "Events"): a password changed while
 * signed in, a password reset through the emailed link, and the account deleted, each a row naming the user,
 * through the Password() provider's real routes, a real SMTP server and PGlite. No row holds the password.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { closeSharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { linkIn, mailTo, ORIGIN, passwordApp, post, type Smtp, signUpAndVerify } from "./helpers.js";

let smtp: Smtp;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});

/** A Password() app whose audit rows are kept, and a browser signed in as a new user of `email`. */
async function signedUpWithAudit(email: string, password: string) {
  const rows: AuditEvent[] = [];
  const app = await passwordApp(smtp, { config: { audit: { store: { write: (event) => void rows.push(event) } } } });
  const browser = app.browser();
  await signUpAndVerify(smtp, browser, email, password);
  const userId = (await app.adapter.getUserByEmail?.(email))?.id;
  expect(userId).toBeTruthy();
  return { rows, browser, userId };
}

it("change, reset and deletion are rows of the user: passwordChanged (change, reset), userDeleted", async () => {
  const { rows, browser, userId } = await signedUpWithAudit("audited@example.com", "first password 1");

  const changed = await post(browser, "/auth/password/change", { currentPassword: "first password 1", password: "second password 2" });
  expect(changed.status).toBe(302);
  expect(changed.headers.get("location")).not.toContain("error=");

  const since = smtp.mails.length;
  await post(browser, "/auth/password/forgot", { email: "audited@example.com" });
  const token = linkIn(mailTo(smtp, "audited@example.com", since), "/auth/password/reset").searchParams.get("token") as string;
  const reset = await post(browser, "/auth/password/reset", { token, password: "third password 3" });
  expect(reset.headers.get("location")).not.toContain("error=");

  const deleted = await post(browser, "/auth/account/delete", { currentPassword: "third password 3", callbackUrl: "/gone" });
  expect(deleted.headers.get("location")).toBe(`${ORIGIN}/gone`);

  const changes = ["passwordChanged", "userDeleted"];
  await expect.poll(() => rows.filter((row) => changes.includes(row.type)).length).toBe(3);
  expect(
    rows.filter((row) => changes.includes(row.type)).map((row) => [row.type, row.outcome, row.userId, row.provider, row.detail]),
  ).toEqual([
    ["passwordChanged", "success", userId, null, "change"],
    ["passwordChanged", "success", userId, null, "reset"],
    ["userDeleted", "success", userId, null, null],
  ]);
  const text = JSON.stringify(rows);
  for (const secret of ["audited@example.com", "first password 1", "second password 2", "third password 3", token])
    expect(text).not.toContain(secret);
});

it("a wrong current password, changing the password or deleting the account, is a reauthenticationFailed row of the signed-in user", async () => {
  const { rows, browser, userId } = await signedUpWithAudit("guessed@example.com", "the real password 1");

  const change = await post(browser, "/auth/password/change", { currentPassword: "a guess 1", password: "new password 22" });
  expect(change.headers.get("location")).toContain("error=IncorrectPassword");
  const deletion = await post(browser, "/auth/account/delete", { currentPassword: "a guess 2" });
  expect(deletion.headers.get("location")).toContain("error=IncorrectPassword");
  expect(await browser.session()).not.toBeNull();

  await expect.poll(() => rows.filter((row) => row.type === "reauthenticationFailed").length).toBe(2);
  expect(
    rows.filter((row) => row.type === "reauthenticationFailed").map((row) => [row.outcome, row.userId, row.provider, row.detail]),
  ).toEqual([
    ["failure", userId, null, "IncorrectPassword"],
    ["failure", userId, null, "IncorrectPassword"],
  ]);
  const text = JSON.stringify(rows);
  for (const secret of ["guessed@example.com", "the real password 1", "a guess 1", "a guess 2", "new password 22"])
    expect(text).not.toContain(secret);
});
