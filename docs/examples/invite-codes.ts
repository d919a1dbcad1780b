/**
 * An app's own feature, written outside authlib with the same interface as authlib's built-in ones
 * (docs/architecture.md, "Where to add a feature"): invite codes that a signed-in user redeems.
 *
 *   GET  <basePath>/invites/check?code=   { valid }            (anyone)
 *   POST <basePath>/invites/redeem        { redeemed: true }   (signed in, CSRF-checked; `auth.api.run(request, "redeemInvite", { code })`)
 *
 * Turned on with `createAuth({ …, features: [inviteCodes({ codes })] })`. Its routes get the same checks as
 * authlib's own: the CSRF proof of a POST, the origin rule, audit and telemetry, errors by class.
 */
import { AuthError, defineFeature, SessionRequired } from "@authlib/core";

/** A code that does not exist or was used: a 400 with `{ error: "InvalidInvite" }`. */
export class InvalidInvite extends AuthError {
  static override status = 400;
}

/** What an invite-codes store needs: the codes still open, and who redeemed which. */
export interface InviteCodesOptions {
  codes: Iterable<string>;
}

/** The invite-codes feature over an in-memory list (an app would keep them in its database). */
export function inviteCodes({ codes }: InviteCodesOptions) {
  const open = new Set(codes);
  const redeemed = new Map<string, string>();
  return defineFeature({
    name: "invite-codes",
    operations: [
      {
        name: "checkInvite",
        method: "GET",
        path: "invites/check",
        presentation: "json",
        handler: (_options, request) => ({ body: { valid: open.has(request.query.code ?? "") } }),
      },
      {
        name: "redeemInvite",
        method: "POST",
        path: "invites/redeem",
        needs: { csrf: "prove" },
        presentation: "json",
        handler: async (options, request) => {
          const user = await options.sessionStrategy.currentUser(options, request);
          if (!user?.id) throw new SessionRequired("Sign in first.");
          const code = typeof request.body.code === "string" ? request.body.code : "";
          if (!open.delete(code)) throw new InvalidInvite("This invite code does not exist or was used.");
          redeemed.set(code, user.id);
          return { body: { redeemed: true } };
        },
      },
    ],
  });
}
