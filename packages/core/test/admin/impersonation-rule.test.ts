/**
 * The limits of an impersonated session, decided in process (fast enough per mutant: mutation group
 * `admin-impersonation`): the owner-present rule refuses it for every operation of the REAL table (every
 * feature's declarations, the on-demand ones loaded, so a new owner-present operation cannot be missed),
 * the actor is kept whatever a callback or the client returns, the session ends at `act.exp`, and the
 * impersonation's settings and refusals. Over HTTP: impersonation.test.ts.
 */
import { describe, expect, test } from "vitest";
import { coreOperations } from "../../src/actions/operations.js";
import { ImpersonationForbidden } from "../../src/errors.js";
import { impersonationConfigOf } from "../../src/features/admin/impersonation.js";
import { everyBuiltInFeature } from "../../src/kernel/features.js";
import { assuranceIn, impersonationOver, sessionEnd, withAssurance } from "../../src/session/assurance.js";
import { impersonatedRecordProvider, impersonatorOfRecord } from "../../src/session/impersonation.js";
import { refuseImpersonated, requireOwnerPresent } from "../../src/sign-in/owner-present.js";
import type { SessionAssurance } from "../../src/types/base.js";
import type { OwnerOperation } from "../../src/types/operation.js";

const NOW = Math.floor(Date.now() / 1000);
const ACT = { sub: "admin-1", exp: NOW + 3600 };
const IMPERSONATED: SessionAssurance = { authTime: NOW, amr: ["impersonation"], aal: 1, act: ACT };
const OWN: SessionAssurance = { authTime: NOW, amr: ["pwd"], aal: 1 };

/** Every owner-present operation of the real table: each declaration's, each a rule can name, each a feature runs itself. */
async function ownerPresentTable(): Promise<string[]> {
  const features = await everyBuiltInFeature();
  const operations = [...coreOperations, ...features.flatMap((feature) => feature.operations)];
  const declared = operations.map((operation) => operation.needs?.ownerPresent);
  const named = declared.filter((need): need is OwnerOperation => typeof need === "string");
  // A rule that decides per request names one of these two (a sign-in that links, a passkey registration).
  const decided = declared.some((need) => typeof need === "function") ? ["linkAccount", "addPasskey"] : [];
  const own = features.flatMap((feature) => Object.keys(feature.ownerOperations ?? {}));
  return [...new Set([...named, ...decided, ...own])].sort();
}

/** Options whose session has `assurance` (and, for a revoke, the session id `current`). */
function optionsWith(assurance: SessionAssurance | undefined, current = "this-session") {
  return {
    csrfTokenVerified: true,
    config: {},
    providers: [],
    ownerOperations: {},
    hooks: {},
    sessionStrategy: {
      currentAssurance: async () => ({ userId: "u1", assurance }),
      currentSession: async () => ({ userId: "u1", sessionId: current }),
    },
  } as never;
}
const post = (body: Record<string, unknown> = {}) => ({ method: "POST", body, cookies: {}, headers: new Headers() }) as never;

describe("the owner-present rule and an impersonated session", () => {
  test("the table holds every owner-present operation of every feature", async () => {
    const table = await ownerPresentTable();
    // The shared ones, the second factor's, the authorization server's: all there (a new one joins by itself).
    for (const name of [
      "addPasskey",
      "removePasskey",
      "changeEmail",
      "changePassword",
      "linkAccount",
      "unlinkAccount",
      "revokeSessions",
      "deleteAccount",
      "enrollTotp",
      "confirmTotp",
      "disableTotp",
      "regenerateRecoveryCodes",
      "authorizeApplication",
      "revokeApplication",
    ])
      expect(table).toContain(name);
  });

  test("refuses every operation of the table, however recent the impersonation, with the operation named", async () => {
    for (const operation of await ownerPresentTable()) {
      const refusal = await requireOwnerPresent(
        optionsWith(IMPERSONATED),
        post({ currentPassword: "known" }),
        operation as OwnerOperation,
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal, operation).toBeInstanceOf(ImpersonationForbidden);
      expect(refusal, operation).toMatchObject({ type: "ImpersonationForbidden", reason: "ownerPresent", operation, status: 403 });
      // The same recent session without an actor is the owner present.
      await expect(requireOwnerPresent(optionsWith(OWN), post(), operation as OwnerOperation), operation).resolves.toBeUndefined();
    }
  });

  test("signing out of this device is no owner-present change: an impersonated session may end itself", async () => {
    await expect(
      requireOwnerPresent(optionsWith(IMPERSONATED), post({ sessionId: "this-session" }), "revokeSessions"),
    ).resolves.toBeUndefined();
    await expect(requireOwnerPresent(optionsWith(IMPERSONATED), post({ sessionId: "another" }), "revokeSessions")).rejects.toMatchObject({
      type: "ImpersonationForbidden",
    });
    await expect(
      requireOwnerPresent(optionsWith(IMPERSONATED), post({ sessionId: "this-session", all: "others" }), "revokeSessions"),
    ).rejects.toMatchObject({ type: "ImpersonationForbidden" });
  });

  test("refuseImpersonated: only a session with an actor", () => {
    expect(() => refuseImpersonated(undefined, "changeEmail")).not.toThrow();
    expect(() => refuseImpersonated(OWN, "changeEmail")).not.toThrow();
    expect(() => refuseImpersonated(IMPERSONATED, "changeEmail")).toThrow(ImpersonationForbidden);
  });
});

describe("the actor of a session", () => {
  test("is read only when well formed", () => {
    expect(assuranceIn({ ...OWN, act: ACT })?.act).toBe(ACT);
    for (const act of [
      null,
      "admin-1",
      { sub: "admin-1" },
      { sub: "", exp: NOW },
      { sub: 1, exp: NOW },
      { sub: "a", exp: Number.NaN },
      { exp: NOW },
    ])
      expect(assuranceIn({ ...OWN, act })?.act, JSON.stringify(act)).toBeUndefined();
    expect(assuranceIn({ ...OWN, act: { sub: "a", exp: "1" } })).toEqual(OWN);
  });

  test("is kept whatever the claims say: one removed comes back, one added is dropped", () => {
    const token = { sub: "u1", ...IMPERSONATED };
    // Unchanged: the very same object.
    expect(withAssurance(token, IMPERSONATED)).toBe(token);
    // A callback that dropped it, or replaced it.
    expect(withAssurance({ sub: "u1", ...OWN, amr: IMPERSONATED.amr, authTime: NOW }, IMPERSONATED).act).toBe(ACT);
    expect(withAssurance({ ...token, act: { sub: "someone-else", exp: NOW + 99999 } }, IMPERSONATED).act).toBe(ACT);
    // Client data merged into an own session's token never makes it an impersonation (nor names anyone).
    expect(withAssurance({ sub: "u1", ...OWN, act: { sub: "victim", exp: NOW + 99 } }, OWN)).not.toHaveProperty("act");
    expect(withAssurance({ sub: "u1", act: ACT }, undefined)).toEqual({ sub: "u1" });
    const own = { sub: "u1", ...OWN };
    expect(withAssurance(own, OWN)).toBe(own);
  });

  test("ends the session at its exp, and caps its end", () => {
    expect(impersonationOver(IMPERSONATED, ACT.exp - 1)).toBe(false);
    expect(impersonationOver(IMPERSONATED, ACT.exp)).toBe(true);
    expect(impersonationOver(OWN, ACT.exp + 10)).toBe(false);
    expect(impersonationOver(undefined)).toBe(false);
    const later = new Date((ACT.exp + 60) * 1000);
    const sooner = new Date((ACT.exp - 60) * 1000);
    expect(sessionEnd(later, IMPERSONATED).valueOf()).toBe(ACT.exp * 1000);
    expect(sessionEnd(sooner, IMPERSONATED)).toBe(sooner);
    expect(sessionEnd(later, OWN)).toBe(later);
    expect(sessionEnd(later, undefined)).toBe(later);
  });

  test("names the admin in its record, and nothing else does", () => {
    expect(impersonatorOfRecord(impersonatedRecordProvider("admin-1"))).toBe("admin-1");
    for (const provider of [null, "github", "authlib:impersonated-by:", "authlib:revoked-before", "xauthlib:impersonated-by:a"])
      expect(impersonatorOfRecord(provider), String(provider)).toBeUndefined();
  });
});

describe("the impersonation settings", () => {
  const options = (admin: unknown) => ({ config: { admin } }) as never;

  test("defaults: one hour, no admins, shown to the user; false turns it off", () => {
    expect(impersonationConfigOf(options({}))).toEqual({ maxAge: 3600, allowAdmins: false, showToUser: true });
    expect(impersonationConfigOf(options({ impersonation: {} }))).toEqual({ maxAge: 3600, allowAdmins: false, showToUser: true });
    expect(impersonationConfigOf(options({ impersonation: { maxAge: 60, allowAdmins: true, showToUser: false } }))).toEqual({
      maxAge: 60,
      allowAdmins: true,
      showToUser: false,
    });
    // Only `true` allows admins; only `false` hides it.
    expect(impersonationConfigOf(options({ impersonation: { allowAdmins: "yes", showToUser: 0 } }))).toEqual({
      maxAge: 3600,
      allowAdmins: false,
      showToUser: true,
    });
    expect(impersonationConfigOf(options({ impersonation: false }))).toBe(false);
  });
});
