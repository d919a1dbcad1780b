/**
 * Email (magic link) sign-in. POST /signin/:provider sends a single-use link and a one-time code; the link
 * comes back to GET /callback/:provider, the code (typed on the verify-request page) to POST
 * /callback/:provider. Only a hash of the token (HMAC with the secret) is stored, so a database leak gives
 * no usable link; the adapter consumes it atomically, so a mail signs in exactly once, by link or code.
 *
 * Mail scanners open every link before the person does. A link `GET` signs in only in the browser that
 * asked for the mail (it holds the flow cookie, `email/flow-cookie.ts`); any other `GET` gets a page whose
 * button POSTs (CSRF-checked), and only that spends the token (`confirm`, see `EmailConfig`). `HEAD` and
 * `OPTIONS` are not routed to the callback at all.
 */

import { type EmailStore, requireCapability } from "../adapter/capabilities.js";
import { InvalidEmailAddress, normalizeEmail } from "../address/normalize.js";
import { hmacHex, randomHex } from "../crypto/digest.js";
import { clearEmailFlow, type EmailFlow, openEmailFlow, sealEmailFlow } from "../email/flow-cookie.js";
import { mailFailureCause } from "../email/mail-failure.js";
import { codeLengthOf, confirmModeOf } from "../email/settings.js";
import { codeOf, isCodeOf, MAX_WRONG_CODES, typedCode } from "../email/sign-in-code.js";
import { EmailSignInError, IncorrectCode, Verification } from "../errors.js";
import { CHECK_COOKIE_MAX_AGE } from "../http/cookies.js";
import { assertCsrf } from "../http/csrf.js";
import { html } from "../pages/html.js";
import { loadPages } from "../pages/lazy.js";
import { countCodeTry, countVerificationMail } from "../rate-limit/email.js";
import { askSignInCallback, completeSignIn } from "../sign-in/flow.js";
import { claimProvenAddress, provenHolder } from "../sign-in/proven-address.js";
import type { AdapterUser } from "../types/adapters.js";
import type { Account } from "../types/config.js";
import type { AuthErrorShape } from "../types/errors.js";
import type { InternalOptions, InternalProvider, RequestInternal, ResponseInternal } from "../types/internal.js";
import type { EmailConfig } from "../types/providers.js";

type EmailProvider = InternalProvider & EmailConfig;

const HASH_LABEL = "authlib.verification-token:";

async function hashToken(secret: string, token: string): Promise<string> {
  return hmacHex(secret, HASH_LABEL + token);
}

/** The secrets a stored token hash may have been made with, newest first. */
function secretsOf(options: InternalOptions, provider: EmailConfig): readonly string[] {
  return provider.secret ? [provider.secret] : options.secret;
}

/** The lifetime of `provider`'s links and codes, in seconds. */
function lifetimeOf(provider: EmailConfig): number {
  return provider.maxAge ?? 24 * 60 * 60;
}

function normalise(provider: EmailConfig, input: unknown): string {
  if (provider.normalizeIdentifier) {
    if (typeof input !== "string") throw new InvalidEmailAddress("Missing email address.");
    return provider.normalizeIdentifier(input);
  }
  return normalizeEmail(input);
}

/** POST /signin/:provider for an email provider. */
export async function emailSignIn(
  options: InternalOptions,
  request: RequestInternal,
  provider: EmailProvider,
  email: string | undefined,
): Promise<ResponseInternal> {
  const store = requireCapability(options.capabilities, "email");
  const identifier = normalise(provider, email);
  // Counted first: a refused request (RateLimited) costs no lookup and sends nothing.
  await countVerificationMail(
    options,
    request,
    identifier,
    provider.rateLimit,
    options.hooks?.mailboxRecovery?.(options, request, identifier),
  );
  // An address a feature refuses this way in (an SSO-only domain) gets no mail.
  const refusal = await options.hooks?.addressRefusal?.(options, identifier, "email");
  if (refusal) throw refusal;
  // A holder that never proved the address is not who this mail is for (see unproven-email.ts).
  const existing = await provenHolder(store, identifier);
  const user = existing ?? { id: crypto.randomUUID(), email: identifier, emailVerified: null };
  const account: Account = { providerAccountId: identifier, userId: user.id, type: "email", provider: provider.id };
  const redirect = await askSignInCallback(options, { user, account, email: { verificationRequest: true } });
  if (redirect) return { redirect };

  const token = (await provider.generateVerificationToken?.()) ?? randomHex(32);
  const lifetime = lifetimeOf(provider);
  const expires = new Date(Date.now() + lifetime * 1000);
  const secret = secretsOf(options, provider)[0] as string;
  const hashed = await hashToken(secret, token);
  const url = `${provider.callbackUrl}?${new URLSearchParams({ callbackUrl: options.callbackUrl, token, email: identifier })}`;
  const length = codeLengthOf(provider);
  const code = length === undefined ? undefined : await codeOf(secret, hashed, length);

  await store.createVerificationToken({ identifier, token: hashed, expires });
  // The mail is in the language of the request that asked for it.
  const text = await (await import("../i18n/request.js")).requestTranslator(options.config, request.request, options.featureMessages);
  try {
    const params = { identifier, token, code, expires, url, provider, theme: options.theme, request: request.request, text };
    await provider.sendVerificationRequest(params);
  } catch (error) {
    // The mail never left: make sure the stored token cannot be redeemed later.
    await Promise.resolve(store.useVerificationToken({ identifier, token: hashed })).catch(() => null);
    // The failure's name and codes, not its text: a server's refusal quotes the address (email/mail-failure.ts).
    throw new EmailSignInError("The sign-in email could not be sent.", { cause: mailFailureCause(error) });
  }
  // Without a CSRF token (none was minted) the cookie could never be opened again: none is set. It lives
  // as long as the link, and at least as long as a check cookie (the token's own expiry is what counts).
  const flow = { provider: provider.id, identifier, hashed };
  const cookies = options.csrfToken ? [await sealEmailFlow(options, flow, Math.max(lifetime, CHECK_COOKIE_MAX_AGE))] : [];
  return { redirect: verifyRequestUrl(options, provider), cookies };
}

/** The verify-request page after a sign-in mail (with `?error=` after a refused code). */
function verifyRequestUrl(options: InternalOptions, provider: EmailConfig, error?: string): string {
  const query = new URLSearchParams({ provider: provider.id, type: "email" });
  if (error) query.set("error", error);
  return `${options.authUrl}/verify-request?${query}`;
}

/** The stored hash of `token` under each secret, newest first: links sent just before a secret rotation still work. */
function hashesOf(options: InternalOptions, provider: EmailConfig, token: string): Promise<string[]> {
  return Promise.all(secretsOf(options, provider).map((secret) => hashToken(secret, token)));
}

/** Spends the stored token whose hash is one of `hashes`; the token, or `null`. */
async function redeem(store: EmailStore, identifier: string, hashes: readonly string[]) {
  for (const token of hashes) {
    const invite = await store.useVerificationToken({ identifier, token });
    if (invite) return invite;
  }
  return null;
}

/** What an email callback reads of its input: a link's address and token, or a mailed code (POST). */
export interface EmailCallbackFields {
  email?: string | undefined;
  token?: string | undefined;
  code?: unknown;
}

/** The address and token of a sign-in link: its query (GET), or the confirmation page's form (POST). */
function linkOf(provider: EmailConfig, fields: EmailCallbackFields): { identifier: string; token: string } {
  let identifier: string;
  try {
    identifier = normalise(provider, fields.email);
  } catch (error) {
    throw new Verification("The sign-in link has no valid email address.", { cause: error as Error });
  }
  if (!fields.token) throw new Verification("The sign-in link has no token.");
  return { identifier, token: fields.token };
}

/** True when this browser's flow cookie is the one of the mail to `identifier` whose token hashes to one of `hashes`. */
function isFlowOf(flow: EmailFlow | undefined, identifier: string, hashes: readonly string[]): boolean {
  return flow !== undefined && flow.identifier === identifier && hashes.includes(flow.hashed);
}

/**
 * GET|POST /callback/:provider for an email provider: a link opened (GET), a link confirmed on its page
 * (POST with `token`), or a code typed in the browser that asked (POST with `code`).
 */
export async function emailCallback(
  options: InternalOptions,
  request: RequestInternal,
  provider: EmailProvider,
  input: EmailCallbackFields,
): Promise<ResponseInternal> {
  const store = requireCapability(options.capabilities, "email");
  if (request.method === "POST" && input.code !== undefined) return redeemCode(options, request, { provider, store, code: input.code });
  const link = linkOf(provider, input);
  const hashes = await hashesOf(options, provider, link.token);
  const fromAskingBrowser = isFlowOf(await openEmailFlow(options, request, provider.id), link.identifier, hashes);
  if (request.method === "GET") {
    const confirm = confirmModeOf(provider);
    if (confirm === "always" || (confirm === "other-browser" && !fromAskingBrowser))
      return confirmationPage(options, request, provider, link);
  } else {
    assertCsrf("email sign-in", options.csrfTokenVerified);
  }

  const invite = await redeem(store, link.identifier, hashes);
  const expired = invite ? invite.expires.valueOf() < Date.now() : false;
  if (!invite || expired || invite.identifier !== link.identifier) {
    throw new Verification("The sign-in link is unknown, used already, or expired.", { cause: { hasInvite: !!invite, expired } });
  }
  return signInAddress(options, request, provider, store, { identifier: link.identifier, endsFlow: fromAskingBrowser });
}

/** The page a link opens outside the browser that asked: one button that POSTs the sign-in (a scanner's GET spends nothing). */
async function confirmationPage(
  options: InternalOptions,
  request: RequestInternal,
  provider: EmailProvider,
  link: { identifier: string; token: string },
) {
  const { renderEmailConfirmPage, text } = await loadPages(options.config, request.request, options.featureMessages);
  return html(
    renderEmailConfirmPage({
      text,
      actionUrl: provider.callbackUrl,
      csrfToken: options.csrfToken,
      callbackUrl: options.callbackUrl,
      email: link.identifier,
      token: link.token,
      host: new URL(options.origin).host,
      theme: options.theme,
    }),
  );
}

/** The refusals of a typed code that a browser's form shows on the verify-request page (the rest go to the error page). */
const shownOnPage = new Set(["IncorrectCode", "RateLimited", "MissingCSRF"]);

/**
 * A browser's refused code (POST /callback/:provider with `code`): back to the verify-request page with
 * `?error=` for a refusal it can fix there (`failure` has the pipeline log, trace and audit it as a failed
 * sign-in); `undefined` for any other request or refusal (the general policy). Declared as the callback's
 * presentation (`actions/operations.ts`): `auth.api` callers get the typed error.
 */
export function emailCodeRefusal(options: InternalOptions, request: RequestInternal, error: AuthErrorShape): ResponseInternal | undefined {
  const provider = options.provider;
  if (provider?.type !== "email" || request.body.code === undefined || !shownOnPage.has(error.type)) return undefined;
  return { redirect: verifyRequestUrl(options, provider as EmailConfig, error.type), failure: error };
}

async function redeemCode(
  options: InternalOptions,
  request: RequestInternal,
  typed: { provider: EmailProvider; store: EmailStore; code: unknown },
) {
  const { provider, store } = typed;
  assertCsrf("email code sign-in", options.csrfTokenVerified);
  const length = codeLengthOf(provider);
  if (length === undefined) throw new Verification(`The provider "${provider.id}" sends no codes: use the link in the email.`);
  const flow = await openEmailFlow(options, request, provider.id);
  if (!flow) throw new Verification("Type the code in the browser where you asked for the email, or use the link in the email.");
  const attempt = { identifier: flow.identifier, hashed: flow.hashed, lifetimeSeconds: lifetimeOf(provider) };
  const tries = await countCodeTry(options, request, attempt, provider.rateLimit);
  if (tries > MAX_WRONG_CODES)
    throw new Verification("Too many wrong codes: this email's code and link no longer work. Ask for a new email.");
  const code = typedCode(typed.code, length);
  if (code === undefined || !(await isCodeOf(secretsOf(options, provider), flow.hashed, code))) {
    // The last wrong try spends the token: the mail's link dies with its code.
    if (tries === MAX_WRONG_CODES) await store.useVerificationToken({ identifier: flow.identifier, token: flow.hashed });
    throw new IncorrectCode(`That is not the code in the email (${MAX_WRONG_CODES - tries} tries left).`);
  }
  const invite = await store.useVerificationToken({ identifier: flow.identifier, token: flow.hashed });
  if (!invite || invite.expires.valueOf() < Date.now()) {
    throw new Verification("The email's code or link was used already, or it expired. Ask for a new email.");
  }
  return signInAddress(options, request, provider, store, { identifier: flow.identifier, endsFlow: true });
}

/**
 * Signs in the holder of the address just proven (or a new user for it). `endsFlow`: the proof came from
 * this browser's own flow, whose cookie is then deleted.
 */
async function signInAddress(
  options: InternalOptions,
  request: RequestInternal,
  provider: EmailProvider,
  store: EmailStore,
  proof: { identifier: string; endsFlow: boolean },
): Promise<ResponseInternal> {
  const { identifier } = proof;
  // Proof wins: a holder that never proved this address loses it to the person who just did.
  const existing = await claimProvenAddress(options, store, identifier);
  const candidate: AdapterUser = existing ?? { id: crypto.randomUUID(), email: identifier, emailVerified: null };
  const account: Account = { providerAccountId: identifier, userId: candidate.id, type: "email", provider: provider.id };
  const redirect = await askSignInCallback(options, { user: candidate, account });
  if (redirect) return { redirect };

  let user: AdapterUser;
  const isNewUser = !existing;
  if (existing) {
    user = await store.updateUser({ id: existing.id, emailVerified: new Date() });
    await options.events.updateUser({ user });
  } else {
    user = await store.createUser({ ...candidate, emailVerified: new Date() });
    await options.events.createUser({ user });
  }
  const response = await completeSignIn(options, request, { user, account: { ...account, userId: user.id }, isNewUser });
  if (!proof.endsFlow) return response;
  return { ...response, cookies: [...(response.cookies ?? []), clearEmailFlow(options)] };
}
