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
import { AuthError, defineFeature, defineOperation, field, type InputOf, inputSchema, SessionRequired } from "@authlib/core";

/** A code that does not exist or was used: a 400 with `{ error: "InvalidInvite" }`. */
export class InvalidInvite extends AuthError {
  static override status = 400;
}

/**
 * The input of both operations: one `code`, at most 64 characters. A missing or longer one is refused as
 * `InvalidInvite` before the handler runs, the same for the query, a form, JSON and `auth.api.run`.
 */
const inviteInput = inputSchema({ code: field.string({ max: 64, refuse: InvalidInvite }) });

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
      defineOperation({
        name: "checkInvite",
        method: "GET",
        path: "invites/check",
        presentation: "json",
        input: inviteInput,
        handler: (_options, _request, { code }) => ({ body: { valid: open.has(code) } }),
      }),
      defineOperation({
        name: "redeemInvite",
        method: "POST",
        path: "invites/redeem",
        needs: { csrf: "prove" },
        presentation: "json",
        input: inviteInput,
        handler: async (options, request, { code }: InputOf<typeof inviteInput>) => {
          const user = await options.sessionStrategy.currentUser(options, request);
          if (!user?.id) throw new SessionRequired("Sign in first.");
          if (!open.delete(code)) throw new InvalidInvite("This invite code does not exist or was used.");
          redeemed.set(code, user.id);
          return { body: { redeemed: true } };
        },
      }),
    ],
  });
}
