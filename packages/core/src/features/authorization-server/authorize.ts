/**
 * `GET <basePath>/oauth2/authorize`: the authorization code flow's front door. A checked request (see
 * `authorization-request.ts`) from a signed-in user whose sign-in meets `prompt` and `max_age` gets its
 * code at once when the user already consented to these scopes for this client; otherwise the consent
 * page. A new consent gives a client lasting access to the account, so it is an owner-present operation
 * (`authorizeApplication`): a session signed in to longer ago signs in again first, and a sensitive scope
 * needs a level-2 sign-in. Without a session: the sign-in page, coming back here (`prompt=none`: the
 * client is told `login_required`).
 *
 * @module features/authorization-server/authorize
 */
import { RecentSignInRequired } from "../../errors.js";
import { html } from "../../pages/html.js";
import { loadPages } from "../../pages/lazy.js";
import { nowInSeconds } from "../../session/assurance.js";
import { withCallbackUrl } from "../../sign-in/flow.js";
import { requireOwnerPresent, signInAgain } from "../../sign-in/owner-present.js";
import { signInUrl } from "../../sign-in/urls.js";
import type { OAuthClient } from "../../types/authorization-server.js";
import type { SessionAssurance } from "../../types/base.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { type AuthorizationRequest, checkedAuthorizationRequest, errorRedirect, RedirectedError } from "./authorization-request.js";
import { issueCode, type SignedIn } from "./codes.js";
import { renderConsentHtml } from "./consent-view.js";
import { OAuthError } from "./oauth-error.js";
import { sealPending } from "./pending.js";
import { issuerOf, settingsOf } from "./settings.js";
import { storeOf } from "./store.js";

/** The handler of `GET oauth2/authorize`. */
export async function authorize(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const issuer = issuerOf(options);
  try {
    const { authorization, client } = await checkedAuthorizationRequest(options, request);
    return await decide(options, request, authorization, client);
  } catch (error) {
    if (error instanceof RedirectedError) return { redirect: errorRedirect(issuer, error), failure: error.error };
    throw error;
  }
}

async function decide(
  options: InternalOptions,
  request: RequestInternal,
  authorization: AuthorizationRequest,
  client: OAuthClient,
): Promise<ResponseInternal> {
  const refuse = (code: string, description: string) =>
    new RedirectedError(authorization.redirectUri, authorization.state, new OAuthError(code, description));
  const current = await options.sessionStrategy.currentAssurance(options, request);
  const here = request.url;
  if (!current?.assurance || !signInMeets(current.assurance, authorization, here)) {
    if (authorization.prompt === "none") throw refuse("login_required", "The user must sign in.");
    return { redirect: withCallbackUrl(signInUrl(options), callbackAfterSignIn(here, authorization)) };
  }
  const caller: SignedIn = { userId: current.userId, assurance: current.assurance };
  request.auditUserId = caller.userId;
  const consent = await storeOf(options).getOAuthConsent(caller.userId, client.clientId);
  const covered = consent !== null && authorization.scopes.every((scope) => consent.scopes.includes(scope));
  if (covered && authorization.prompt !== "consent") return { redirect: await issueCode(options, request, authorization, caller, client) };
  if (authorization.prompt === "none") throw refuse("consent_required", "The user has not consented to these scopes for this client.");
  const back = withoutPrompt(here);
  const stepUp = await presenceRefusal(options, request, back);
  if (stepUp) return stepUp;
  const sealed = await sealPending(options, { kind: "code", userId: caller.userId, returnTo: back, authorization });
  return consentPage(options, request, caller, client, authorization.scopes, { sealed, redirectHost: hostOf(authorization.redirectUri) });
}

/** True when the session's sign-in is recent enough for `max_age`, and (with `prompt=login`) newer than the request. */
function signInMeets(assurance: SessionAssurance, authorization: AuthorizationRequest, here: URL): boolean {
  const now = nowInSeconds();
  if (authorization.maxAge !== null && now - assurance.authTime > authorization.maxAge) return false;
  const after = here.searchParams.get("login_after");
  if (after !== null && /^[0-9]{1,12}$/.test(after) && assurance.authTime < Number(after)) return false;
  return authorization.prompt !== "login" || after !== null;
}

/** Where the sign-in comes back to: this request, with `prompt=login` turned into "a sign-in after now". */
function callbackAfterSignIn(here: URL, authorization: AuthorizationRequest): string {
  if (authorization.prompt !== "login" && authorization.maxAge !== 0) return here.href;
  const back = withoutPrompt(here);
  const url = new URL(back);
  url.searchParams.set("login_after", String(nowInSeconds()));
  url.searchParams.delete("max_age");
  return url.href;
}

function withoutPrompt(here: URL): string {
  const url = new URL(here.href);
  url.searchParams.delete("prompt");
  return url.href;
}

/** The sign-in again when the owner is not present for a new consent (a redirect), else `undefined`. */
export async function presenceRefusal(
  options: InternalOptions,
  request: RequestInternal,
  back: string,
): Promise<ResponseInternal | undefined> {
  try {
    await requireOwnerPresent(options, request, "authorizeApplication", {});
    return undefined;
  } catch (error) {
    if (error instanceof RecentSignInRequired) return signInAgain(options, back, error);
    throw error;
  }
}

/** The consent page for `scopes` (a sensitive one needs a level-2 sign-in: without it, the page says so and offers no approval). */
export async function consentPage(
  options: InternalOptions,
  request: RequestInternal,
  caller: SignedIn,
  client: OAuthClient,
  scopes: readonly string[],
  shown: { sealed: string; redirectHost?: string; userCode?: string },
): Promise<ResponseInternal> {
  const { text } = await loadPages(options.config, request.request, options.featureMessages);
  const declared = settingsOf(options).scopes;
  const needsSecondFactor = scopes.some((scope) => declared[scope]?.sensitive) && caller.assurance.aal < 2;
  const user = await storeOf(options).getUser(caller.userId);
  return html({
    status: 200,
    html: renderConsentHtml({
      text,
      theme: options.theme,
      csrfToken: options.csrfToken,
      action: `${options.authUrl}/oauth2/consent`,
      clientName: client.name,
      clientUri: client.clientUri,
      scopes: scopes.map((scope) => ({ scope, description: declared[scope]?.description ?? scope })),
      account: user?.email ?? user?.name ?? null,
      needsSecondFactor,
      stepUpUrl: needsSecondFactor ? withCallbackUrl(signInUrl(options), request.url.href) : undefined,
      ...shown,
    }),
  });
}

function hostOf(uri: string): string {
  const url = new URL(uri);
  return url.host || url.protocol.replace(/:$/, "");
}
