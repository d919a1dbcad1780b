/**
 * A SAML connection given its identity provider's metadata by URL (`saml.metadataUrl`, issue 49): fetched
 * from a real local HTTPS server (a self-signed certificate made with openssl at test time, trusted through
 * `sso.metadataUrls.ca`) serving the npm `samlp` IdP's own metadata; the connection then signs in through
 * that IdP. And every refusal of the shared public fetch, as the connection's named error: an http URL, a
 * private address without `allowPrivateAddresses`, a redirect, a body past 256 KiB, a server past the
 * timeout, a JSON answer, and a URL given together with pasted metadata.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { InvalidIdpMetadata, InvalidSsoConfig, InvalidSsoConnection } from "../../src/errors.js";
import { samlEndpoints } from "../../src/features/sso/saml-flow.js";
import { createAuth } from "../../src/kernel/instance.js";
import type { SsoMetadataUrlsConfig } from "../../src/types/sso.js";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { signInOverHttp } from "../helpers/saml-browser.js";
import { certificateBody, type TestSamlIdp } from "../helpers/saml-fixture.js";
import { startSamlpIdp } from "../helpers/samlp-idp.js";
import { ORIGIN, post, ssoApp, ssoJson } from "./helpers.js";

const HOST = "idp-metadata.test";
const MAX_BYTES = 262_144;
const TIMEOUT = 1000;
const USER = {
  username: "ada",
  password: "ada-password",
  attributes: { email: ["ada@acme.test"], name: ["Ada"], groups: ["Engineering"] },
};

let dns: TxtServer;
let cert = "";
let server: Server;
let port = 0;
/** The metadata document `/metadata` serves now (an IdP's, swapped when the IdP rotates). */
let served = "";
/** What the server saw: each request's path, Host and Accept. */
let requests: Array<{ path: string; host: string | undefined; accept: string | undefined }> = [];
const idps: TestSamlIdp[] = [];

const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  "/metadata": (_, response) => {
    response.writeHead(200, { "content-type": "application/samlmetadata+xml" }).end(served);
  },
  "/metadata-text": (_, response) => {
    response.writeHead(200, { "content-type": "text/xml; charset=utf-8" }).end(served);
  },
  "/redirect": (_, response) => {
    response.writeHead(302, { location: `https://127.0.0.1:${port}/metadata` }).end();
  },
  "/large": (_, response) => {
    // No length declared: the cap must cut the stream itself.
    response.writeHead(200, { "content-type": "application/xml" });
    const chunk = `<!-- ${"x".repeat(16_000)} -->`;
    for (let sent = 0; sent <= MAX_BYTES; sent += chunk.length) response.write(chunk);
    response.end();
  },
  "/declared-large": (_, response) => {
    response.writeHead(200, { "content-type": "application/xml", "content-length": String(MAX_BYTES + 1) });
    response.write("<md:EntityDescriptor");
  },
  "/slow": () => {
    // Never answers.
  },
  "/json": (_, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ metadata: served }));
  },
  "/not-metadata": (_, response) => {
    response.writeHead(200, { "content-type": "application/xml" }).end("<html><body>Sign in</body></html>");
  },
};

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "authlib-idp-metadata-"));
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"].concat([
        "-subj",
        `/CN=${HOST}`,
        "-addext",
        `subjectAltName=DNS:${HOST},IP:127.0.0.1`,
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ]),
      { stdio: "ignore" },
    );
    cert = readFileSync(join(dir, "cert.pem"), "utf8");
    const key = readFileSync(join(dir, "key.pem"), "utf8");
    server = createServer({ key, cert }, (request, response) => {
      const path = new URL(request.url ?? "/", "https://x").pathname;
      requests.push({ path, host: request.headers.host, accept: request.headers.accept });
      (routes[path] ?? ((_, answer) => answer.writeHead(404).end()))(request, response);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  dns = await startTxtServer();
}, 30_000);

afterAll(async () => {
  server?.closeAllConnections();
  await Promise.all([
    new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    dns?.close(),
    ...idps.map((idp) => idp.stop()),
  ]);
});

beforeEach(() => {
  requests = [];
});

const at = (path: string) => `https://127.0.0.1:${port}${path}`;

/** An app whose metadata URLs are fetched under `metadataUrls` (default: local addresses allowed), its owner and organization. */
async function appWith(metadataUrls: SsoMetadataUrlsConfig = { allowPrivateAddresses: true, ca: cert, timeout: TIMEOUT }) {
  const app = ssoApp(dns, { sso: { metadataUrls } });
  const owner = await app.signedUp("owner@acme.test");
  const organizationId = await app.organizationWithDomain(owner, "acme", "acme.test");
  /** Creates a SAML connection with `saml` as given (the API's input, any shape). */
  const create = (saml: Record<string, unknown>) =>
    app.auth.api.createSsoConnection(app.as(owner), { organizationId, protocol: "saml", name: "Acme IdP", saml } as never);
  return { app, owner, organizationId, create };
}

/** A samlp IdP answering the SP of connection `connectionId` of the app at ORIGIN. */
async function samlpFor(connectionId: string): Promise<TestSamlIdp> {
  const idp = await startSamlpIdp({ sp: samlEndpoints({ authUrl: `${ORIGIN}/auth` }, connectionId), user: USER });
  idps.push(idp);
  return idp;
}

/** The error `promise` rejects with. */
async function refusal(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe("saml.metadataUrl: a connection from its IdP's metadata URL", () => {
  it("reads samlp's metadata from the URL (one request, to the URL's host, asking for SAML metadata) and keeps the URL", async () => {
    const { app, owner, organizationId, create } = await appWith();
    const idp = await samlpFor("not-yet-known");
    served = idp.metadataXml;
    const created = await create({ metadataUrl: at("/metadata") });
    expect(created.saml).toMatchObject({ idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl, metadataUrl: at("/metadata") });
    expect(created.saml?.idpCertificates.map(certificateBody)).toEqual([certificateBody(idp.certificatePem)]);
    expect(requests).toEqual([
      { path: "/metadata", host: `127.0.0.1:${port}`, accept: "application/samlmetadata+xml, application/xml, text/xml" },
    ]);
    const [listed] = await app.auth.api.listSsoConnections(app.as(owner), { organizationId });
    expect(listed?.saml?.metadataUrl).toBe(at("/metadata"));
    // text/xml with a charset is metadata too.
    expect((await create({ metadataUrl: at("/metadata-text") })).saml?.idpEntityId).toBe(idp.entityId);
  }, 60_000);

  it("updated with the same URL, fetches it again (the IdP rotated), keeps the URL through other changes, and signs in through the IdP", async () => {
    const { app, organizationId, owner, create } = await appWith();
    served = (await samlpFor("placeholder")).metadataXml;
    const created = await create({ metadataUrl: at("/metadata") });
    // The IdP the connection's admin sets up for this connection now serves other metadata at the same URL.
    const idp = await samlpFor(created.id);
    served = idp.metadataXml;
    expect(app.sso.connections.get(created.id)?.saml?.idpEntityId).not.toBe(idp.entityId);
    const refreshed = await app.auth.api.updateSsoConnection(app.as(owner), {
      connectionId: created.id,
      saml: { metadataUrl: at("/metadata") },
    });
    expect(refreshed.saml).toMatchObject({ idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl, metadataUrl: at("/metadata") });
    expect(refreshed.saml?.idpCertificates.map(certificateBody)).toEqual([certificateBody(idp.certificatePem)]);
    const changed = await app.auth.api.updateSsoConnection(app.as(owner), { connectionId: created.id, saml: { signatureOn: "assertion" } });
    expect(changed.saml?.metadataUrl).toBe(at("/metadata"));
    expect(requests.map((request) => request.path)).toEqual(["/metadata", "/metadata"]);

    const browser = app.browser();
    const start = await post(browser, `/auth/sso-signin/${created.id}`, { callbackUrl: `${ORIGIN}/dashboard` });
    const startUrl = start.headers.get("location") as string;
    expect(startUrl.startsWith(idp.ssoUrl)).toBe(true);
    const { acsUrl } = samlEndpoints({ authUrl: `${ORIGIN}/auth` }, created.id);
    const posted = await signInOverHttp({ startUrl, acsUrl, username: USER.username, password: USER.password });
    const done = await browser.send(`/auth/sso-acs-continue/${created.id}`, {
      form: { SAMLResponse: posted.samlResponse, RelayState: posted.relayState ?? "" },
    });
    expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(await browser.session()).toMatchObject({
      user: { email: "ada@acme.test" },
      sso: { organizationId, connectionId: created.id },
      activeOrganizationId: organizationId,
    });
  }, 60_000);

  it("given the three fields or pasted metadata instead, the connection no longer keeps the URL", async () => {
    const { app, owner, create } = await appWith();
    const idp = await samlpFor("placeholder");
    served = idp.metadataXml;
    const created = await create({ metadataUrl: at("/metadata") });
    const pasted = await app.auth.api.updateSsoConnection(app.as(owner), {
      connectionId: created.id,
      saml: { metadataXml: idp.metadataXml },
    });
    expect(pasted.saml?.metadataUrl).toBeUndefined();
    expect(app.sso.connections.get(created.id)?.saml).not.toHaveProperty("metadataUrl");
    await app.auth.api.updateSsoConnection(app.as(owner), { connectionId: created.id, saml: { metadataUrl: at("/metadata") } });
    const fields = await app.auth.api.updateSsoConnection(app.as(owner), {
      connectionId: created.id,
      saml: { idpSsoUrl: "https://idp.acme.test/sso" },
    });
    expect(fields.saml).toMatchObject({ idpSsoUrl: "https://idp.acme.test/sso", idpEntityId: idp.entityId });
    expect(fields.saml?.metadataUrl).toBeUndefined();
  }, 60_000);
});

describe("saml.metadataUrl: refusals, each named, nothing stored", () => {
  it("an http URL (before any request)", async () => {
    const { app, create } = await appWith();
    const error = await refusal(create({ metadataUrl: `http://127.0.0.1:${port}/metadata` }));
    expect(error).toBeInstanceOf(InvalidSsoConnection);
    expect(error.message).toBe("`saml.metadataUrl` is not an https: URL.");
    for (const url of ["https://user:pw@127.0.0.1/metadata", "https://127.0.0.1/metadata#x", "not a url"]) {
      expect(await refusal(create({ metadataUrl: url }))).toBeInstanceOf(InvalidSsoConnection);
    }
    expect(requests).toEqual([]);
    expect(app.sso.connections.size).toBe(0);
  }, 60_000);

  it("a private address, unless sso.metadataUrls.allowPrivateAddresses (before any connection)", async () => {
    const { app, owner, organizationId, create } = await appWith({ ca: cert });
    const error = await refusal(create({ metadataUrl: at("/metadata") }));
    expect(error).toBeInstanceOf(InvalidIdpMetadata);
    expect(error.message).toContain("non-public address (127.0.0.1)");
    expect(requests).toEqual([]);
    // Over HTTP it is the connection's 400, not a crash.
    const answered = await ssoJson(owner, "create", {
      organizationId,
      protocol: "saml",
      name: "Acme IdP",
      saml: { metadataUrl: at("/metadata") },
    });
    expect(answered).toMatchObject({ status: 400, body: { error: "InvalidIdpMetadata" } });
    expect(app.sso.connections.size).toBe(0);
  }, 60_000);

  it.each([
    ["/redirect", "answered a redirect (302), which is not followed"],
    ["/large", `answered a document larger than ${MAX_BYTES} bytes`],
    ["/declared-large", `answered a document larger than ${MAX_BYTES} bytes`],
    ["/slow", `took longer than ${TIMEOUT} ms to answer`],
    ["/json", 'answered "application/json", not XML'],
    ["/missing", "answered 404, not 200"],
  ])(
    "%s: %s",
    async (path, why) => {
      const { app, create } = await appWith();
      const error = await refusal(create({ metadataUrl: at(path) }));
      expect(error).toBeInstanceOf(InvalidIdpMetadata);
      expect(error.message).toBe(`The IdP's metadata URL ${JSON.stringify(at(path))} ${why}.`);
      expect(requests.map((request) => request.path)).toEqual([path]);
      expect(app.sso.connections.size).toBe(0);
    },
    60_000,
  );

  it("XML that is no IdP metadata", async () => {
    const { create } = await appWith();
    expect(await refusal(create({ metadataUrl: at("/not-metadata") }))).toBeInstanceOf(InvalidIdpMetadata);
  }, 60_000);

  it("a URL together with pasted metadata or the three fields", async () => {
    const { app, create } = await appWith();
    for (const saml of [
      { metadataUrl: at("/metadata"), metadataXml: served },
      { metadataUrl: at("/metadata"), idpEntityId: "urn:x" },
    ]) {
      const error = await refusal(create(saml));
      expect(error).toBeInstanceOf(InvalidSsoConnection);
      expect(error.message).toContain("one of them");
    }
    expect(requests).toEqual([]);
    expect(app.sso.connections.size).toBe(0);
  }, 60_000);

  it("sso.metadataUrls out of range is refused at createAuth", () => {
    const base = ssoApp(dns).config;
    for (const metadataUrls of [{ timeout: 0 }, { timeout: 60_000 }, { allowPrivateAddresses: "yes" }, { ca: "not a certificate" }]) {
      expect(() => createAuth({ ...base, sso: { metadataUrls: metadataUrls as SsoMetadataUrlsConfig } })).toThrow(InvalidSsoConfig);
    }
  });
});

describe("the organization page's SAML form takes the metadata URL", () => {
  it("creates the connection from the URL; neither given, or both, is said on the page", async () => {
    const { app, owner, organizationId } = await appWith();
    const idp = await samlpFor("page-form");
    served = idp.metadataXml;
    const page = await (await owner.send(`/auth/organization?organizationId=${organizationId}`)).text();
    expect(page).toContain('<input id="org-sso-saml-metadata-url" name="metadataUrl" type="url"');
    const action = `/auth/sso/form-create-saml?organizationId=${organizationId}`;
    const created = await post(owner, action, { name: "Acme IdP", metadataUrl: at("/metadata"), metadataXml: "", defaultRole: "member" });
    expect(created.headers.get("location")).toBe(`${ORIGIN}/auth/organization?organizationId=${organizationId}&done=ssoConnectionCreated`);
    const [connection] = [...app.sso.connections.values()];
    expect(connection?.saml).toMatchObject({ idpEntityId: idp.entityId, metadataUrl: at("/metadata") });

    for (const form of [
      { metadataUrl: "", metadataXml: "  " },
      { metadataUrl: at("/metadata"), metadataXml: idp.metadataXml },
    ]) {
      const refused = await post(owner, action, { name: "Again", defaultRole: "member", ...form });
      const back = `${ORIGIN}/auth/organization?organizationId=${organizationId}&error=InvalidSsoConnection&section=sso`;
      expect(refused.headers.get("location")).toBe(back);
      expect(await (await owner.send(back)).text()).toContain("<code>InvalidSsoConnection</code>");
    }
    expect(app.sso.connections.size).toBe(1);
  }, 60_000);
});
