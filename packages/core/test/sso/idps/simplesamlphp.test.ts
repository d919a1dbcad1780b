// SimpleSAMLphp (Debian's package under `php -S`) as an IdP fixture, proven end to end with node-saml as the
// SP: a sign-in in Chromium and over plain HTTP, the response checked with the IdP's certificate, the SP's
// audience and the request's ID, the metadata read, and a response refused under another IdP's certificate.
import { ValidateInResponseTo } from "@node-saml/node-saml";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchChromium } from "../../helpers/chromium.js";
import { nodeSamlServiceProvider } from "../../helpers/node-saml-sp.js";
import { IdpSignInError, readIdpMetadata, signInOverHttp, signInWithChromium } from "../../helpers/saml-browser.js";
import {
  certificateBody,
  createSigningIdentity,
  PERSISTENT_NAMEID,
  type SamlTestUser,
  type SigningIdentity,
  type TestSamlIdp,
} from "../../helpers/saml-fixture.js";
import { startSimpleSamlPhp } from "../../helpers/simplesamlphp.js";

const SP_ENTITY_ID = "https://app.example.test/auth/saml/acme/metadata";
// Never contacted: the drivers answer the IdP's POST to it themselves.
const ACS_URL = "http://localhost:3000/auth/saml/acme/acs";

const ADA: SamlTestUser = {
  username: "ada",
  password: "correct horse battery staple",
  attributes: { email: ["ada@acme.example"], name: ["Ada Lovelace"], groups: ["engineering", "admins", "everyone"] },
};
const GRACE: SamlTestUser = {
  username: "grace",
  password: "pa:ss w0rd with a colon",
  nameId: "employee-0042",
  attributes: { email: ["grace@acme.example"], name: ["Grace Hopper"], groups: ["navy", "compilers"] },
};

let idp: TestSamlIdp;
let browser: Browser;
let spKey: SigningIdentity;
const sp = () => nodeSamlServiceProvider(idp, { entityId: SP_ENTITY_ID, acsUrl: ACS_URL, privateKeyPem: spKey.privateKeyPem });

beforeAll(async () => {
  spKey = await createSigningIdentity("authlib test SP");
  // Each is kept as soon as it runs, and both are waited for, so afterAll stops whichever started even when
  // the other failed.
  const started = await Promise.allSettled([
    startSimpleSamlPhp({ sp: { entityId: SP_ENTITY_ID, acsUrl: ACS_URL, certificatePem: spKey.certificatePem }, users: [ADA, GRACE] }).then(
      (running) => {
        idp = running;
      },
    ),
    launchChromium().then((launched) => {
      browser = launched;
    }),
  ]);
  for (const result of started) if (result.status === "rejected") throw result.reason;
});

afterAll(async () => {
  await Promise.allSettled([idp?.stop(), browser?.close()]);
});

describe("SimpleSAMLphp IdP fixture", () => {
  test("a Chromium sign-in yields a response the SP accepts, answering its request, with the user's NameID and attributes", async () => {
    const { saml, start } = sp();
    const { startUrl, requestId, requestXml } = await start("return-to-dashboard");
    expect(requestXml).toContain(`ID="${requestId}"`);

    const posted = await signInWithChromium(browser, { startUrl, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });
    expect(posted.relayState).toBe("return-to-dashboard");

    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse, RelayState: posted.relayState ?? "" });
    expect(profile?.issuer).toBe(idp.entityId);
    expect(profile?.inResponseTo).toBe(requestId);
    expect(profile?.nameID).toBe("ada");
    expect(profile?.nameIDFormat).toBe(PERSISTENT_NAMEID);
    expect(profile?.email).toBe("ada@acme.example");
    expect(profile?.name).toBe("Ada Lovelace");
    expect(profile?.groups).toEqual(["engineering", "admins", "everyone"]);
    // Only the user's attributes: the fixture's NameID carrier is not released.
    expect(Object.keys(profile?.attributes as object).sort()).toEqual(["email", "groups", "name"]);
  });

  test("both the response and its assertion are signed, and the assertion names the SP as audience and the ACS as recipient", async () => {
    const { saml, start } = sp();
    const { startUrl } = await start();
    const posted = await signInOverHttp({ startUrl, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });
    const xml = Buffer.from(posted.samlResponse, "base64").toString("utf8");
    expect(xml.match(/<ds:Signature\b/g)).toHaveLength(2);
    expect(xml).toContain(`<saml:Audience>${SP_ENTITY_ID}</saml:Audience>`);
    expect(xml).toContain(`Recipient="${ACS_URL}"`);
    expect(xml).toContain(`Destination="${ACS_URL}"`);
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse });
    expect(profile?.nameID).toBe("ada");
  });

  test("an HTTP-only sign-in carries the user's own NameID, a password with a colon, and several group values", async () => {
    const { saml, start } = sp();
    const { startUrl, requestId } = await start("relay-grace");
    const posted = await signInOverHttp({ startUrl, acsUrl: ACS_URL, username: GRACE.username, password: GRACE.password });
    expect(posted.relayState).toBe("relay-grace");
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse, RelayState: "relay-grace" });
    expect(profile?.inResponseTo).toBe(requestId);
    expect(profile?.nameID).toBe("employee-0042");
    expect(profile?.email).toBe("grace@acme.example");
    expect(profile?.groups).toEqual(["navy", "compilers"]);
  });

  test("the metadata names the entity id, the HTTP-Redirect SSO URL and the signing certificate", async () => {
    const page = await browser.newPage();
    try {
      const metadata = await readIdpMetadata(page, idp.metadataXml);
      expect(metadata.entityId).toBe(idp.entityId);
      expect(metadata.singleSignOnServices["urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"]).toBe(idp.ssoUrl);
      expect(metadata.signingCertificates).toContain(certificateBody(idp.certificatePem));
    } finally {
      await page.close();
    }
  });

  test("a response checked against another IdP's certificate is refused; the same response passes with this IdP's", async () => {
    const other = await createSigningIdentity("another IdP");
    const { saml, start } = sp();
    const { startUrl } = await start();
    const posted = await signInOverHttp({ startUrl, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });

    const misconfigured = nodeSamlServiceProvider(
      idp,
      { entityId: SP_ENTITY_ID, acsUrl: ACS_URL },
      { idpCert: other.certificatePem, validateInResponseTo: ValidateInResponseTo.never },
    );
    await expect(misconfigured.saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse })).rejects.toThrow(/signature/i);

    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse });
    expect(profile?.nameID).toBe("ada");
  });

  test("a wrong password gets no response: the driver stops at the IdP's login page with a named error", async () => {
    const { start } = sp();
    const { startUrl } = await start();
    const attempt = signInOverHttp({ startUrl, acsUrl: ACS_URL, username: ADA.username, password: "wrong" });
    await expect(attempt).rejects.toBeInstanceOf(IdpSignInError);
    await expect(attempt).rejects.toThrow(/Incorrect username or password/);
  });

  test("while the SP's certificate is registered, an unsigned AuthnRequest is refused by the IdP", async () => {
    const unsigned = nodeSamlServiceProvider(idp, { entityId: SP_ENTITY_ID, acsUrl: ACS_URL });
    const { startUrl } = await unsigned.start();
    expect(new URL(startUrl).searchParams.has("Signature")).toBe(false);
    const attempt = signInOverHttp({ startUrl, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });
    await expect(attempt).rejects.toBeInstanceOf(IdpSignInError);
    await expect(attempt).rejects.toThrow(/no signature found on message/);
  });

  test("an AuthnRequest from an SP the IdP does not know is refused", async () => {
    const stranger = nodeSamlServiceProvider(idp, {
      entityId: "https://stranger.example.test/sp",
      acsUrl: ACS_URL,
      privateKeyPem: spKey.privateKeyPem,
    });
    const { startUrl } = await stranger.start();
    const attempt = signInOverHttp({ startUrl, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });
    await expect(attempt).rejects.toBeInstanceOf(IdpSignInError);
    await expect(attempt).rejects.toThrow(/Unable to locate metadata for .{0,8}https:\/\/stranger\.example\.test\/sp/);
  });
  test("stop() ends the PHP server: its URL refuses connections afterwards", async () => {
    const spare = await startSimpleSamlPhp({ sp: { entityId: SP_ENTITY_ID, acsUrl: ACS_URL }, users: [ADA] });
    expect((await fetch(`${spare.url}/saml2/idp/metadata.php`)).status).toBe(200);
    await spare.stop();
    await expect(fetch(`${spare.url}/saml2/idp/metadata.php`)).rejects.toThrow(TypeError);
  });

  test("an IdP-initiated sign-in posts a response with no InResponseTo: an SP that always checks it refuses it, one that allows unsolicited responses accepts it", async () => {
    const start = new URL(idp.idpInitiatedUrl);
    start.searchParams.set("RelayState", "unsolicited-relay");
    const posted = await signInOverHttp({ startUrl: start.href, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });
    expect(posted.relayState).toBe("unsolicited-relay");
    const xml = Buffer.from(posted.samlResponse, "base64").toString("utf8");
    expect(xml).not.toContain("InResponseTo=");

    await expect(sp().saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse })).rejects.toThrow(/InResponseTo/);
    const allowsUnsolicited = nodeSamlServiceProvider(
      idp,
      { entityId: SP_ENTITY_ID, acsUrl: ACS_URL },
      { validateInResponseTo: ValidateInResponseTo.ifPresent },
    );
    const { profile } = await allowsUnsolicited.saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse });
    expect(profile?.inResponseTo).toBeUndefined();
    expect(profile?.nameID).toBe("ada");
  });
});

describe("SimpleSAMLphp IdP fixture with signResponse: false", () => {
  let assertionOnly: TestSamlIdp;
  beforeAll(async () => {
    assertionOnly = await startSimpleSamlPhp({ sp: { entityId: SP_ENTITY_ID, acsUrl: ACS_URL }, users: [ADA], signResponse: false });
  });
  afterAll(async () => {
    await assertionOnly?.stop();
  });

  test("only the assertion is signed: an SP that requires a signed response refuses it, one that requires a signed assertion accepts it", async () => {
    const strict = nodeSamlServiceProvider(assertionOnly, { entityId: SP_ENTITY_ID, acsUrl: ACS_URL });
    const { startUrl, requestId } = await strict.start();
    const posted = await signInOverHttp({ startUrl, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });
    const xml = Buffer.from(posted.samlResponse, "base64").toString("utf8");
    expect(xml.match(/<ds:Signature\b/g)).toHaveLength(1);
    await expect(strict.saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse })).rejects.toThrow(/signature/i);

    const lenient = nodeSamlServiceProvider(
      assertionOnly,
      { entityId: SP_ENTITY_ID, acsUrl: ACS_URL },
      { wantAuthnResponseSigned: false, validateInResponseTo: ValidateInResponseTo.never },
    );
    const { profile } = await lenient.saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse });
    expect(profile?.inResponseTo).toBe(requestId);
    expect(profile?.nameID).toBe("ada");
  });
});
