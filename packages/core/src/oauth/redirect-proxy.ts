/**
 * Which `redirect_uri` a flow uses, and the redirect proxy (`redirectProxyUrl`): one stable deployment
 * (the proxy) is registered at the provider and forwards callbacks to the deployment that started the
 * sign-in (a preview deployment, whose URL changes).
 *
 * Security model. The preview puts its own callback URL into the `state` parameter, sealed (encrypted and
 * authenticated JWE, 15 minutes) with the secret both deployments share. The proxy forwards a callback
 * only when that state opens with its secret: the seal is the proof that one of our deployments chose
 * the destination, so the proxy is no open redirector. It also only forwards to a `…/callback/<provider
 * id>` URL over https (or http on a loopback host), on an origin its allow-list names
 * (`redirectProxyAllowedOrigins`, default: its own origin family, see the config's TSDoc): the seal only
 * proves that a deployment sharing the secret chose the destination, and a deployment that believed a
 * forged Host header could have sealed an attacker's origin. The proxy checks nothing else; the preview runs every
 * check (state cookie, PKCE, nonce) when the forwarded callback arrives. Both deployments must therefore
 * share `AUTH_SECRET`.
 *
 * The state uses Auth.js's salt and payload (`encodedState`, `{ origin, random }`), so an Auth.js proxy
 * and authlib previews (or the other way round) work together.
 *
 * @module oauth/redirect-proxy
 */
import * as oauth from "oauth4webapi";
import { InvalidCheck, InvalidEndpoints, UntrustedRedirectTarget } from "../errors.js";
import { CHECK_COOKIE_MAX_AGE } from "../http/cookies.js";
import { isAllowedOrigin } from "../http/origin.js";
import { decode, encode } from "../jwt.js";
import type { OAuthConfig } from "../types/providers.js";
import type { OAuthContext } from "./context.js";
import { endpointParams, endpointUrl } from "./endpoints.js";
import { isLoopbackHost } from "./http.js";

/** Salt of the sealed state; the value Auth.js uses. */
const ENCODED_STATE_SALT = "encodedState";

/** How one flow reaches its callback. */
export interface RedirectFlow {
  /** The `redirect_uri` sent to the provider (and again to its token endpoint). */
  redirectUri: string;
  /** A redirect proxy is configured for this flow (which turns the state check on). */
  usesProxy: boolean;
  /** This request is handled by the proxy deployment itself. */
  onProxy: boolean;
  /** This deployment's callback URL, carried in the state when the proxy must forward to it. */
  stateOrigin?: string;
}

interface EncodedState {
  origin?: string;
  random?: string;
}

/**
 * True when the provider's configured authorization parameters ask for `response_mode=form_post`. Such
 * flows never use the redirect proxy (it forwards with a GET, which would drop the posted body).
 */
export function usesFormPost(provider: OAuthConfig): boolean {
  if (endpointParams(provider.authorization).response_mode === "form_post") return true;
  const url = endpointUrl(provider.authorization);
  if (!url) return false;
  try {
    return new URL(url).searchParams.get("response_mode") === "form_post";
  } catch {
    return false;
  }
}

/** The redirect flow of the current request; throws `InvalidEndpoints` for a malformed `redirectProxyUrl`. */
export function redirectFlow(ctx: OAuthContext): RedirectFlow {
  const base = ctx.redirectProxyUrl;
  if (!base || usesFormPost(ctx.provider)) return { redirectUri: ctx.redirectUri, usesProxy: false, onProxy: false };
  let proxyCallback: URL;
  try {
    proxyCallback = new URL(`${base.replace(/\/+$/, "")}/callback/${encodeURIComponent(ctx.provider.id)}`);
  } catch {
    throw new InvalidEndpoints(`redirectProxyUrl must be a valid URL up to the base path (https://auth.example.com/auth); got "${base}".`);
  }
  if (proxyCallback.origin === ctx.requestOrigin) return { redirectUri: ctx.redirectUri, usesProxy: true, onProxy: true };
  return { redirectUri: proxyCallback.href, usesProxy: true, onProxy: false, stateOrigin: ctx.redirectUri };
}

/** The `state` value of a flow: random, or sealed with this deployment's callback URL when a proxy must forward. */
export async function createStateValue(ctx: OAuthContext, flow: RedirectFlow): Promise<string> {
  const random = oauth.generateRandomState();
  if (flow.stateOrigin === undefined) return random;
  const token: EncodedState = { origin: flow.stateOrigin, random };
  return encode<EncodedState>({ token, secret: ctx.secret, salt: ENCODED_STATE_SALT, maxAge: CHECK_COOKIE_MAX_AGE });
}

/**
 * On the proxy: the URL to forward this callback to, or `undefined` when the callback belongs to a flow
 * this deployment started itself (its state is not a sealed state naming another origin). Throws
 * `InvalidCheck` when a sealed state names something other than an https (or loopback http) callback URL
 * of this provider, and `UntrustedRedirectTarget` when it names an origin off the allow-list.
 */
export async function proxyForwardUrl(ctx: OAuthContext, params: URLSearchParams): Promise<string | undefined> {
  const state = params.get("state");
  if (!state) return undefined;
  let payload: EncodedState | null;
  try {
    payload = await decode<EncodedState>({ token: state, secret: ctx.secret, salt: ENCODED_STATE_SALT });
  } catch {
    // Not sealed by us: a plain state of a flow that started here. The regular checks judge it.
    return undefined;
  }
  if (typeof payload?.origin !== "string") return undefined;
  let target: URL;
  try {
    target = new URL(payload.origin);
  } catch {
    throw new InvalidCheck("The redirect proxy state names an invalid URL.");
  }
  if (target.origin === ctx.requestOrigin) return undefined;
  const secureTransport = target.protocol === "https:" || (target.protocol === "http:" && isLoopbackHost(target.hostname));
  const isCallback = target.pathname.endsWith(`/callback/${encodeURIComponent(ctx.provider.id)}`);
  if (!secureTransport || !isCallback || target.username !== "" || target.password !== "") {
    throw new InvalidCheck("The redirect proxy state names a destination the proxy does not forward to.");
  }
  if (!isAllowedOrigin(target, ctx.redirectProxyAllowedOrigins ?? [])) {
    throw new UntrustedRedirectTarget(
      `The redirect proxy refused to forward to ${target.origin}: it is not in redirectProxyAllowedOrigins (AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS).`,
    );
  }
  target.search = params.toString();
  target.hash = "";
  return target.href;
}
