/**
 * Where a provider's endpoints are: the explicit `authorization` / `token` / `userinfo` URLs, else the
 * issuer's discovery document (OpenID Connect Discovery, through oauth4webapi), cached per issuer.
 *
 * @module oauth/discovery
 */
import * as oauth from "oauth4webapi";
import { InvalidEndpoints } from "../errors.js";
import { inSpan, providerAttributes } from "../telemetry/index.js";
import type { OAuthConfig } from "../types/providers.js";
import { type ReadResponse, responseLimitOf } from "./bounded-fetch.js";
import { endpointUrl, hasUserinfoRequest } from "./endpoints.js";
import { allowsInsecureRequests, requestOptions } from "./http.js";

/** The authorization server as oauth4webapi sees it, plus how to talk to it. */
export interface ResolvedServer {
  /**
   * Metadata for oauth4webapi. The same object is returned while cached, so whatever oauth4webapi
   * caches per server object (JWKS for signed userinfo responses) survives between requests.
   */
  as: oauth.AuthorizationServer;
  /** True when the endpoints are plain http on a loopback host (tests, local development). */
  allowInsecure: boolean;
  /**
   * Set for multi-tenant issuers whose discovery document names a `{tenantid}` template issuer
   * (Microsoft Entra ID `common` / `organizations` / `consumers`): ID tokens are validated against the
   * issuer of the tenant that signed them in (see `oauth/tenant.ts`).
   */
  tenantIssuerTemplate?: string;
  /** The provider's `maxResponseBytes`: every request to this server reads at most this many bytes. */
  maxResponseBytes: number;
}

/** How long discovery results and the servers built on them are reused. */
const CACHE_TTL_MS = 60 * 60 * 1000;
/** At most this many entries per cache; the least recently used one goes first. */
const CACHE_MAX_ENTRIES = 100;

interface CacheEntry<T> {
  expires: number;
  value: Promise<T>;
}

/** A small LRU cache with a TTL that stores promises, so concurrent requests share one fetch. */
class PromiseCache<T> {
  readonly #entries = new Map<string, CacheEntry<T>>();

  get(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.#entries.get(key);
    if (hit && hit.expires > now) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.value;
    }
    const value = load();
    const entry = { expires: now + CACHE_TTL_MS, value };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    // A failed fetch is not cached: the next request tries again.
    value.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    while (this.#entries.size > CACHE_MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}

const discoveries = new PromiseCache<ResolvedServer>();
const servers = new PromiseCache<ResolvedServer>();

/** Forgets every cached discovery document and server (for tests, or after rotating a provider's setup). */
export function clearDiscoveryCache(): void {
  discoveries.clear();
  servers.clear();
}

/**
 * Fetches and validates the discovery document of `issuer` (cached), reading at most `maxResponseBytes`.
 * The document's `issuer` must equal the configured one, except for a Microsoft-style `{tenantid}`
 * template whose other parts match.
 */
export function discover(issuer: string, maxResponseBytes: number): Promise<ResolvedServer> {
  return discoveries.get(`${maxResponseBytes} ${issuer}`, () => fetchDiscovery(issuer, maxResponseBytes));
}

async function fetchDiscovery(issuer: string, maxResponseBytes: number): Promise<ResolvedServer> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw new InvalidEndpoints(`The issuer "${issuer}" is not a valid URL.`);
  }
  const options = requestOptions(allowsInsecureRequests([issuer]), maxResponseBytes);
  let response = (await oauth.discoveryRequest(issuerUrl, options)) as ReadResponse;
  const template = await tenantTemplateOf(response, issuerUrl);
  if (template !== undefined) {
    // Validate the rest of the document against the configured (tenant-independent) issuer.
    const body = (await response.json()) as Record<string, unknown>;
    response = response.withJson({ ...body, issuer });
  }
  const as = await oauth.processDiscoveryResponse(issuerUrl, response);
  const allowInsecure = allowsInsecureRequests([
    as.issuer,
    as.authorization_endpoint,
    as.token_endpoint,
    as.userinfo_endpoint,
    as.jwks_uri,
  ]);
  return template === undefined
    ? { as, allowInsecure, maxResponseBytes }
    : { as, allowInsecure, tenantIssuerTemplate: template, maxResponseBytes };
}

/**
 * The `{tenantid}` template issuer of a discovery response, when the configured issuer is that template
 * with one path segment in place of `{tenantid}` (`https://login.microsoftonline.com/common/v2.0`).
 */
async function tenantTemplateOf(response: ReadResponse, configured: URL): Promise<string | undefined> {
  if (response.status !== 200 || !response.parsed) return undefined;
  let issuer: unknown;
  try {
    issuer = ((await response.json()) as { issuer?: unknown } | null)?.issuer;
  } catch {
    return undefined;
  }
  if (typeof issuer !== "string" || !issuer.includes("{tenantid}")) return undefined;
  const [before, after, ...rest] = issuer.split("{tenantid}");
  if (rest.length > 0 || before === undefined || after === undefined) return undefined;
  const href = configured.href.replace(/\/$/, "");
  const suffix = after.replace(/\/$/, "");
  if (href.length <= before.length + suffix.length || !href.startsWith(before) || !href.endsWith(suffix)) return undefined;
  const segment = href.slice(before.length, href.length - suffix.length);
  return /^[\w.-]+$/.test(segment) ? issuer : undefined;
}

/**
 * The authorization server of a provider: discovery from `issuer` when an endpoint is missing, and
 * always for `oidc` (ID tokens are checked against the discovered issuer and signing algorithms); the
 * explicit endpoints take precedence. Without an `issuer`, the token endpoint URL stands in for it: it
 * is the audience of `private_key_jwt` assertions, and an authorization response carrying an `iss`
 * parameter is rejected (configure `issuer` for such providers).
 *
 * Throws `InvalidEndpoints` when neither an issuer nor the endpoint `purpose` needs is configured.
 */
export async function resolveServer(provider: OAuthConfig, purpose: "authorization" | "token"): Promise<ResolvedServer> {
  const authorization = endpointUrl(provider.authorization);
  const token = endpointUrl(provider.token);
  const userinfo = endpointUrl(provider.userinfo);
  const limit = responseLimitOf(provider);
  const key = JSON.stringify([provider.type, provider.issuer, authorization, token, userinfo, hasUserinfoRequest(provider), limit]);
  const server = await servers.get(key, () => buildServer(provider, authorization, token, userinfo, limit));
  const needed = purpose === "authorization" ? server.as.authorization_endpoint : server.as.token_endpoint;
  if (!needed) {
    const option = purpose === "authorization" ? "authorization" : "token";
    throw new InvalidEndpoints(
      `Provider "${provider.id}" has no ${option} endpoint: set \`issuer\` (discovery) or \`${option}\` (its URL) on the provider.`,
    );
  }
  return server;
}

async function buildServer(
  provider: OAuthConfig,
  authorization: string | undefined,
  token: string | undefined,
  userinfo: string | undefined,
  maxResponseBytes: number,
): Promise<ResolvedServer> {
  const needsUserinfo = provider.type === "oauth" && userinfo === undefined && !hasUserinfoRequest(provider);
  const needsDiscovery = provider.type === "oidc" || !authorization || !token || needsUserinfo;
  if (needsDiscovery && provider.issuer) {
    const issuer = provider.issuer;
    const discovered = await inSpan("authlib.oauth.discovery", providerAttributes(provider), () => discover(issuer, maxResponseBytes));
    if (!authorization && !token && !userinfo) return discovered;
    const as: oauth.AuthorizationServer = {
      ...discovered.as,
      authorization_endpoint: authorization ?? discovered.as.authorization_endpoint,
      token_endpoint: token ?? discovered.as.token_endpoint,
      userinfo_endpoint: userinfo ?? discovered.as.userinfo_endpoint,
    };
    return { ...discovered, as, allowInsecure: allowsInsecureRequests([as.issuer, authorization, token, userinfo, as.jwks_uri]) };
  }
  if (provider.type === "oidc") {
    throw new InvalidEndpoints(`Provider "${provider.id}" is an OpenID Connect provider without an \`issuer\`: set its issuer.`);
  }
  const issuer = provider.issuer ?? token ?? authorization;
  if (!issuer) {
    throw new InvalidEndpoints(`Provider "${provider.id}" has neither an \`issuer\` nor \`authorization\` and \`token\` URLs.`);
  }
  const as: oauth.AuthorizationServer = {
    issuer,
    authorization_endpoint: authorization,
    token_endpoint: token,
    userinfo_endpoint: userinfo,
  };
  return { as, allowInsecure: allowsInsecureRequests([provider.issuer, authorization, token, userinfo]), maxResponseBytes };
}
