/**
 * Test fixture: a SAML 2.0 identity provider made of npm `samlp` (Auth0's SAMLP middleware) behind a tiny
 * node:http server on 127.0.0.1 (a free port), with one user and one SP.
 *
 * ```ts
 * const idp = await startSamlpIdp({
 *   sp: { entityId: "https://app.example/sp", acsUrl: "http://localhost:3000/auth/saml/acs" },
 *   user: { username: "ada", password: "pw", attributes: { email: ["ada@example.com"] } },
 * });
 * // idp.ssoUrl takes AuthnRequests (HTTP-Redirect or HTTP-POST); idp.metadataXml, idp.certificatePem
 * await idp.stop();
 * ```
 *
 * Routes
 * - `GET|POST /sso` (the SingleSignOnService): a browser without an IdP session gets a login form (fields
 *   `username`, `password`, the request carried along in hidden fields); one with a session gets the
 *   auto-posting form to the SP's ACS URL at once, as a real IdP's single sign-on does.
 * - `POST /login`: checks the user's name and password (a wrong pair shows the form again with 401), starts
 *   the IdP session (a cookie) and answers the AuthnRequest.
 * - `GET /idp-initiated`: an unsolicited response to the SP (no AuthnRequest, so no `InResponseTo`), after
 *   the same login; `RelayState` in the query is sent along.
 * - `GET /metadata`: `samlp.metadata`; the entity id is this URL.
 *
 * `samlp` is Express middleware; the server hands it the few request and response members it uses
 * (`query`, `body`, `headers`, `protocol`, `originalUrl`; `set`, `send`). The response answers the request
 * (`InResponseTo` its ID), names the SP as audience (read from the request's `Issuer`, which must be the
 * configured SP: another SP gets 401), and the ACS URL as `Recipient` and `Destination`. The assertion is
 * signed (`samlp`'s default); `signResponse: true` signs the response too.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { createSigningIdentity, PERSISTENT_NAMEID, type SamlServiceProvider, type SamlTestUser, type TestSamlIdp } from "./saml-fixture.js";

/** Options of {@link startSamlpIdp}. */
export interface SamlpIdpOptions {
  /** The one SP this IdP answers (its `certificatePem` is not used: request signatures are not checked). */
  sp: SamlServiceProvider;
  /** The one user who can sign in. */
  user: SamlTestUser;
  /** Sign the response as well as the assertion. Default false (`samlp`'s default). */
  signResponse?: boolean;
  /** Sign the assertion. Default true. */
  signAssertion?: boolean;
  /** The NameID format. Default persistent. */
  nameIdFormat?: string;
}

/** The members of an Express request that `samlp` reads. */
interface ExpressLikeRequest {
  method: string;
  query: Record<string, string>;
  body: Record<string, string>;
  headers: IncomingMessage["headers"];
  protocol: "http";
  originalUrl: string;
  user?: SamlTestUser;
}

/** The members of an Express response that `samlp` calls. */
interface ExpressLikeResponse {
  set(name: string, value: string): void;
  send(statusOrBody: number | string, body?: unknown): void;
}

type Middleware = (req: ExpressLikeRequest, res: ExpressLikeResponse, next: (error?: unknown) => void) => void;

/** `samlp`'s profile mapper: the claims (attributes) and NameID of a user. */
interface ProfileMap {
  getClaims(): Record<string, string[]>;
  getNameIdentifier(): { nameIdentifier: string; nameIdentifierFormat: string };
}

/** The part of `samlp`'s documented API the fixture uses (the package ships no types). */
interface Samlp {
  auth(options: {
    issuer: string;
    cert: string;
    key: string;
    getPostURL(
      audience: string | undefined,
      request: unknown,
      req: ExpressLikeRequest,
      callback: (error: Error | null, url?: string | null) => void,
    ): void;
    getUserFromRequest(req: ExpressLikeRequest): SamlTestUser | undefined;
    profileMapper(user: SamlTestUser): ProfileMap;
    signResponse: boolean;
    signAssertion: boolean;
    recipient: string;
    destination: string;
    lifetimeInSeconds: number;
    /** Default: the AuthnRequest's Issuer. */
    audience?: string;
  }): Middleware;
  metadata(options: {
    issuer: string;
    cert: string;
    redirectEndpointPath: string;
    postEndpointPath: string;
    logoutEndpointPaths: Record<string, never>;
    profileMapper: unknown;
  }): (req: ExpressLikeRequest, res: ExpressLikeResponse) => void;
}

const samlp = createRequire(import.meta.url)("samlp") as Samlp;

const SESSION_COOKIE = "samlp_fixture_session";

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The login form; the AuthnRequest and RelayState ride along in hidden fields. */
function loginPage(carried: Record<string, string>, error?: string): string {
  const hidden = Object.entries(carried)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>samlp test IdP: sign in</title></head><body>
<h1>Sign in to the samlp test IdP</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/login">${hidden}
<label>Username <input name="username" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form></body></html>`;
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
}

/** The Express-shaped pair around node's request and response. */
function expressLike(req: IncomingMessage, res: ServerResponse, query: Record<string, string>, body: Record<string, string>) {
  const request: ExpressLikeRequest = {
    method: req.method ?? "GET",
    query,
    body,
    headers: req.headers,
    protocol: "http",
    originalUrl: req.url ?? "/",
  };
  const response: ExpressLikeResponse = {
    set: (name, value) => res.setHeader(name, value),
    send(statusOrBody, body) {
      if (typeof statusOrBody === "number") {
        res.statusCode = statusOrBody;
        res.setHeader("content-type", "text/plain; charset=utf-8");
        // samlp sends a bare 401 when getPostURL finds no ACS URL (an SP this IdP does not know) or no user.
        const reason = statusOrBody === 401 ? "no user, or an SP (AuthnRequest Issuer) this IdP does not know" : "";
        res.end(`samlp answered ${statusOrBody}: ${body instanceof Error ? body.message : String(body ?? reason)}`);
      } else res.end(statusOrBody);
    },
  };
  const next = (error?: unknown) => {
    res.statusCode = 400;
    res.setHeader("content-type", "text/plain; charset=utf-8");
    res.end(`samlp refused the request: ${error instanceof Error ? error.message : String(error)}`);
  };
  return { request, response, next };
}

/** Starts the samlp IdP for `options.sp`. See the module comment. */
export async function startSamlpIdp(options: SamlpIdpOptions): Promise<TestSamlIdp> {
  const identity = await createSigningIdentity("samlp test IdP");
  const sessions = new Map<string, SamlTestUser>();
  const format = options.nameIdFormat ?? PERSISTENT_NAMEID;
  const user = options.user;
  // samlp calls the mapper as a plain function, and reads `prototype.metadata` (claims listed in the
  // metadata: none, the attributes are named by the user record) when it renders metadata.
  function profileMapper(mapped: SamlTestUser): ProfileMap {
    return {
      getClaims: () => mapped.attributes,
      getNameIdentifier: () => ({ nameIdentifier: mapped.nameId ?? mapped.username, nameIdentifierFormat: format }),
    };
  }
  profileMapper.prototype.metadata = [];

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${url}/metadata`;

  const common = {
    issuer: entityId,
    cert: identity.certificatePem,
    key: identity.privateKeyPem,
    getUserFromRequest: (req) => req.user,
    profileMapper,
    signResponse: options.signResponse ?? false,
    signAssertion: options.signAssertion ?? true,
    recipient: options.sp.acsUrl,
    destination: options.sp.acsUrl,
    lifetimeInSeconds: 300,
  };
  const answer = samlp.auth({
    ...common,
    // Only the configured SP is answered, at its registered ACS URL (an AssertionConsumerServiceURL in the
    // request is not trusted).
    getPostURL: (audience, _request, _req, callback) => callback(null, audience === options.sp.entityId ? options.sp.acsUrl : null),
  });
  // With no AuthnRequest there is no Issuer to read the audience from: it is the configured SP.
  const answerUnsolicited = samlp.auth({
    ...common,
    audience: options.sp.entityId,
    getPostURL: (_audience, _request, _req, callback) => callback(null, options.sp.acsUrl),
  });
  const metadata = samlp.metadata({
    issuer: entityId,
    cert: identity.certificatePem,
    redirectEndpointPath: "/sso",
    postEndpointPath: "/sso",
    logoutEndpointPaths: {},
    profileMapper,
  });

  function sessionUser(req: IncomingMessage): SamlTestUser | undefined {
    const cookie = (req.headers.cookie ?? "").split(/;\s*/).find((part) => part.startsWith(`${SESSION_COOKIE}=`));
    return cookie ? sessions.get(cookie.slice(SESSION_COOKIE.length + 1)) : undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestUrl = new URL(req.url ?? "/", url);
    const query = Object.fromEntries(requestUrl.searchParams);
    if (req.method === "GET" && requestUrl.pathname === "/metadata") {
      const { request, response } = expressLike(req, res, query, {});
      metadata(request, response);
      return;
    }
    if (requestUrl.pathname === "/sso" && (req.method === "GET" || req.method === "POST")) {
      const body = req.method === "POST" ? await readForm(req) : {};
      const params = { ...query, ...body };
      const signedIn = sessionUser(req);
      if (!signedIn) {
        const carried: Record<string, string> = {};
        for (const name of ["SAMLRequest", "RelayState"]) if (params[name] !== undefined) carried[name] = params[name];
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
        res.end(loginPage(carried));
        return;
      }
      const { request, response, next } = expressLike(req, res, query, body);
      request.user = signedIn;
      answer(request, response, next);
      return;
    }
    if (requestUrl.pathname === "/idp-initiated" && req.method === "GET") {
      const signedIn = sessionUser(req);
      const carried: Record<string, string> = { unsolicited: "1" };
      if (query.RelayState !== undefined) carried.RelayState = query.RelayState;
      if (!signedIn) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
        res.end(loginPage(carried));
        return;
      }
      const { request, response, next } = expressLike(req, res, {}, { RelayState: query.RelayState ?? "" });
      request.user = signedIn;
      answerUnsolicited(request, response, next);
      return;
    }
    if (requestUrl.pathname === "/login" && req.method === "POST") {
      const form = await readForm(req);
      const { username = "", password = "", unsolicited, ...carried } = form;
      if (username !== user.username || password !== user.password) {
        res.writeHead(401, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
        res.end(loginPage(unsolicited ? { ...carried, unsolicited } : carried, "Wrong username or password."));
        return;
      }
      const sessionId = crypto.randomUUID();
      sessions.set(sessionId, user);
      res.setHeader("set-cookie", `${SESSION_COOKIE}=${sessionId}; Path=/; HttpOnly; SameSite=Lax`);
      const { request, response, next } = expressLike(req, res, {}, carried);
      request.user = user;
      (unsolicited === "1" ? answerUnsolicited : answer)(request, response, next);
      return;
    }
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    res.end("not found");
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end(`samlp test IdP failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });

  const metadataXml = await (await fetch(entityId)).text();
  let stopped: Promise<void> | undefined;
  return {
    url,
    entityId,
    ssoUrl: `${url}/sso`,
    idpInitiatedUrl: `${url}/idp-initiated`,
    metadataXml,
    certificatePem: identity.certificatePem,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
