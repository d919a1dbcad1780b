/**
 * The device authorization grant (RFC 8628), for CLIs and devices without a browser:
 * - `POST oauth2/device_authorization`: a client asks; it gets a device code (256 bits, stored by hash) to
 *   poll the token endpoint with, and a user code (8 letters from an alphabet without look-alikes) for the
 *   user to type at `verification_uri`;
 * - `GET oauth2/device`: the page where a signed-in user types the code (`?user_code=` fills it in);
 * - `POST oauth2/device`: the code found, the same consent page as the code flow shows (a device approval
 *   is a new grant of access: owner-present, CSRF-checked); its decision is `POST oauth2/consent`'s.
 * A user code is one of 19^8 (1.7e10), lives 10 minutes, and is only entered by a signed-in user, whose
 * approval still takes the consent page; device requests and typed codes are counted per client address
 * (`rateLimit.authorizationServer.deviceMax`).
 *
 * @module features/authorization-server/device
 */
import { randomHex, sha256Hex } from "../../crypto/digest.js";
import { html } from "../../pages/html.js";
import { loadPages } from "../../pages/lazy.js";
import { withCallbackUrl } from "../../sign-in/flow.js";
import { signInUrl } from "../../sign-in/urls.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { checkedResources, checkedScopes } from "./authorization-request.js";
import { consentPage, presenceRefusal } from "./authorize.js";
import { authenticateClient, findClient } from "./clients.js";
import { renderDeviceHtml } from "./consent-view.js";
import { OAuthError } from "./oauth-error.js";
import { sealPending } from "./pending.js";
import { countAnonymousRequest } from "./rate-limit.js";
import { oauthJson, resourcesOf, single } from "./respond.js";
import { endpointUrl, settingsOf } from "./settings.js";
import { storeOf } from "./store.js";

/** Letters a person reads and types without confusing them (no vowels: no words; no 0/O, 1/I/L). */
const ALPHABET = "BCDFGHJKMNPQRSTVWXZ";
const USER_CODE_LENGTH = 8;

/** A new user code, `XXXX-XXXX`. */
function newUserCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(USER_CODE_LENGTH * 2));
  let code = "";
  // Rejection sampling keeps every letter equally likely.
  for (const byte of bytes) {
    if (code.length === USER_CODE_LENGTH) break;
    if (byte < 256 - (256 % ALPHABET.length)) code += ALPHABET[byte % ALPHABET.length];
  }
  if (code.length < USER_CODE_LENGTH) return newUserCode();
  return code;
}

/** A typed user code as stored: upper case, without the dash and spaces; `undefined` when it cannot be one. */
export function normalizedUserCode(typed: unknown): string | undefined {
  if (typeof typed !== "string" || typed.length > 32) return undefined;
  const code = typed.toUpperCase().replace(/[\s-]/g, "");
  return code.length === USER_CODE_LENGTH && [...code].every((letter) => ALPHABET.includes(letter)) ? code : undefined;
}

/** The handler of `POST oauth2/device_authorization`. */
export async function deviceAuthorization(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const client = await authenticateClient(options, request);
  await countAnonymousRequest(options, request, "device");
  if (!client.grantTypes.includes("urn:ietf:params:oauth:grant-type:device_code"))
    throw new OAuthError("unauthorized_client", "This client may not use the device code grant.");
  const refuse = (code: string, description: string) => new OAuthError(code, description);
  const scopes = checkedScopes(options, client, single(request.body, "scope") ?? null, refuse);
  const resources = checkedResources(options, resourcesOf(request.body), refuse);
  const { deviceCodeMaxAge, deviceCodeInterval } = settingsOf(options);
  const deviceCode = randomHex(32);
  const userCode = newUserCode();
  const now = Date.now();
  await storeOf(options).createOAuthDeviceCode({
    deviceCodeHash: await sha256Hex(deviceCode),
    userCode,
    clientId: client.clientId,
    scopes,
    resources,
    status: "pending",
    userId: null,
    authTime: null,
    aal: null,
    amr: null,
    interval: deviceCodeInterval,
    lastPolledAt: null,
    expiresAt: new Date(now + deviceCodeMaxAge * 1000),
    createdAt: new Date(now),
  });
  const verificationUri = endpointUrl(options, "device");
  const shown = `${userCode.slice(0, 4)}-${userCode.slice(4)}`;
  return oauthJson({
    device_code: deviceCode,
    user_code: shown,
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?${new URLSearchParams({ user_code: shown })}`,
    expires_in: deviceCodeMaxAge,
    interval: deviceCodeInterval,
  });
}

/** The handler of `GET oauth2/device`: the code form (signed out: the sign-in page first, coming back here). */
export async function devicePage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) return { redirect: withCallbackUrl(signInUrl(options), request.url.href) };
  return showDeviceForm(options, request, request.query.user_code, false);
}

async function showDeviceForm(options: InternalOptions, request: RequestInternal, userCode: string | undefined, invalid: boolean) {
  const { text } = await loadPages(options.config, request.request, options.featureMessages);
  const shown = typeof userCode === "string" ? userCode.slice(0, 16) : undefined;
  return html({
    status: invalid ? 400 : 200,
    html: renderDeviceHtml({
      text,
      theme: options.theme,
      csrfToken: options.csrfToken,
      action: endpointUrl(options, "device"),
      userCode: shown,
      invalid,
    }),
  });
}

/** The handler of `POST oauth2/device`: the typed code's consent page, or the form again saying the code is not valid. */
export async function deviceCodeEntered(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current?.assurance) return { redirect: withCallbackUrl(signInUrl(options), endpointUrl(options, "device")) };
  request.auditUserId = current.userId;
  // A user code is guessed only by typing many: each try counts against the client's address.
  await countAnonymousRequest(options, request, "device");
  const typed = request.body.user_code;
  const userCode = normalizedUserCode(typed);
  const stored = userCode === undefined ? null : await storeOf(options).getOAuthDeviceCodeByUserCode(userCode);
  const client = stored && stored.status === "pending" ? await findClient(options, stored.clientId) : undefined;
  if (!stored || !client || stored.status !== "pending")
    return showDeviceForm(options, request, typeof typed === "string" ? typed : undefined, true);
  const back = `${endpointUrl(options, "device")}?${new URLSearchParams({ user_code: `${stored.userCode.slice(0, 4)}-${stored.userCode.slice(4)}` })}`;
  const stepUp = await presenceRefusal(options, request, back);
  if (stepUp) return stepUp;
  const sealed = await sealPending(options, {
    kind: "device",
    userId: current.userId,
    returnTo: back,
    deviceCodeHash: stored.deviceCodeHash,
    clientId: stored.clientId,
    scopes: stored.scopes,
  });
  const caller = { userId: current.userId, assurance: current.assurance };
  return consentPage(options, request, caller, client, stored.scopes, {
    sealed,
    userCode: `${stored.userCode.slice(0, 4)}-${stored.userCode.slice(4)}`,
  });
}
