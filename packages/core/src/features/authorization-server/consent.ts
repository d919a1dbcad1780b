/**
 * `POST <basePath>/oauth2/consent`: the consent page's decision. The form proves its CSRF token, the
 * owner is present (`authorizeApplication`, declared on the operation), and the sealed request it carries
 * was shown to this user. Allowed: the consent is remembered (the scopes join any earlier ones), the owner
 * is mailed, and the client gets its code (or the device its approval). Denied: the client hears
 * `access_denied`.
 *
 * @module features/authorization-server/consent
 */
import { RecentSignInRequired, SessionRequired } from "../../errors.js";
import { html } from "../../pages/html.js";
import { loadPages } from "../../pages/lazy.js";
import { signInAgain } from "../../sign-in/owner-present.js";
import { tellOwner } from "../../sign-in/tell-owner.js";
import type { AuthErrorShape } from "../../types/errors.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { errorRedirect, RedirectedError } from "./authorization-request.js";
import { findClient } from "./clients.js";
import { issueCode, type SignedIn } from "./codes.js";
import { renderDeviceDoneHtml } from "./consent-view.js";
import { OAuthError } from "./oauth-error.js";
import { openPending, type Pending } from "./pending.js";
import { issuerOf, settingsOf } from "./settings.js";
import { storeOf } from "./store.js";

/** The handler of `POST oauth2/consent`. */
export async function decideConsent(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const pending = await openPending(options, request.body.request);
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current?.assurance) throw new SessionRequired("Sign in first: the request has no session.");
  if (current.userId !== pending.userId) throw new OAuthError("invalid_request", "This consent form was shown to another user.");
  request.auditUserId = current.userId;
  const caller: SignedIn = { userId: current.userId, assurance: current.assurance };
  const client = await findClient(options, pending.kind === "code" ? pending.authorization.clientId : pending.clientId);
  if (!client) throw new OAuthError("invalid_client", "This client is not known here any more.");
  const scopes = pending.kind === "code" ? pending.authorization.scopes : pending.scopes;
  const allowed = request.body.decision === "allow";
  if (allowed && scopes.some((scope) => settingsOf(options).scopes[scope]?.sensitive) && caller.assurance.aal < 2)
    throw new OAuthError("invalid_request", "A sensitive scope needs a sign-in with a second factor.");
  if (allowed) await remember(options, request, caller.userId, client.clientId, scopes);
  if (pending.kind === "device") return deviceDecided(options, request, pending, caller, allowed);
  const { authorization } = pending;
  if (!allowed) {
    const denied = new RedirectedError(
      authorization.redirectUri,
      authorization.state,
      new OAuthError("access_denied", "The user denied the request."),
    );
    return { redirect: errorRedirect(issuerOf(options), denied) };
  }
  return { redirect: await issueCode(options, request, authorization, caller, client) };
}

/** Remembers the consent (joined with the earlier one); a consent that gives more than before is mailed to the owner. */
async function remember(
  options: InternalOptions,
  request: RequestInternal,
  userId: string,
  clientId: string,
  scopes: readonly string[],
): Promise<void> {
  const store = storeOf(options);
  const earlier = await store.getOAuthConsent(userId, clientId);
  const joined = [...new Set([...(earlier?.scopes ?? []), ...scopes])];
  if (earlier && joined.length === earlier.scopes.length) return;
  await store.saveOAuthConsent({ userId, clientId, scopes: joined, updatedAt: new Date() });
  await tellOwner(options, request, { id: userId }, "applicationAuthorized");
}

async function deviceDecided(
  options: InternalOptions,
  request: RequestInternal,
  pending: Extract<Pending, { kind: "device" }>,
  caller: SignedIn,
  allowed: boolean,
): Promise<ResponseInternal> {
  const { authTime, aal, amr } = caller.assurance;
  const change = allowed
    ? { status: "approved" as const, userId: caller.userId, authTime, aal, amr }
    : { status: "denied" as const, userId: caller.userId };
  const done = await storeOf(options).updateOAuthDeviceCode(pending.deviceCodeHash, "pending", change);
  const { text } = await loadPages(options.config, request.request, options.featureMessages);
  const outcome = !done ? "invalid" : allowed ? "approved" : "denied";
  return html({ status: done ? 200 : 400, html: renderDeviceDoneHtml({ text, theme: options.theme, outcome }) });
}

/** How a refused decision is presented: the owner not present signs in again and comes back to the request; anything else is the error page. */
export async function consentRefusal(
  options: InternalOptions,
  request: RequestInternal,
  error: AuthErrorShape,
): Promise<ResponseInternal | undefined> {
  if (!(error instanceof RecentSignInRequired)) return undefined;
  const pending = await openPending(options, request.body.request).catch(() => undefined);
  return pending ? signInAgain(options, pending.returnTo, error) : undefined;
}
