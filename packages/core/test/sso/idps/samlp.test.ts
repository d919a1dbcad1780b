// npm `samlp` as an IdP fixture, proven end to end with node-saml as the SP: sign-ins in Chromium (with
// the IdP session reused) and over plain HTTP, the response checked with the IdP's certificate, the SP's
// audience and the request's ID, the metadata read, and a response refused under another IdP's certificate.
import { ValidateInResponseTo } from "@node-saml/node-saml";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchChromium } from "../../helpers/chromium.js";
import { nodeSamlServiceProvider } from "../../helpers/node-saml-sp.js";
import { IdpSignInError, readIdpMetadata, signInOverHttp, signInWithChromium } from "../../helpers/saml-browser.js";
import { certificateBody, PERSISTENT_NAMEID, type SamlTestUser, type TestSamlIdp } from "../../helpers/saml-fixture.js";
import { startSamlpIdp } from "../../helpers/samlp-idp.js";

const SP_ENTITY_ID = "https://app.example.test/auth/saml/globex/metadata";
// Never contacted: the drivers answer the IdP's POST to it themselves.
const ACS_URL = "http://localhost:3000/auth/saml/globex/acs";
const SP = { entityId: SP_ENTITY_ID, acsUrl: ACS_URL };

const ADA: SamlTestUser = {
  username: "ada",
  password: "correct horse battery staple",
  nameId: "00u1ada7x",
  attributes: { email: ["ada@globex.example"], name: ["Ada Lovelace"], groups: ["engineering", "admins", "everyone"] },
};

/** Signs the response and the assertion. */
let signing: TestSamlIdp;
/** samlp's defaults: the assertion signed, the response not. */
let assertionOnly: TestSamlIdp;
let browser: Browser;

beforeAll(async () => {
  // Each is kept as soon as it runs, and all are waited for, so afterAll stops whichever started even when
  // another failed.
  const started = await Promise.allSettled([
    startSamlpIdp({ sp: SP, user: ADA, signResponse: true }).then((running) => {
      signing = running;
    }),
    startSamlpIdp({ sp: SP, user: ADA }).then((running) => {
      assertionOnly = running;
    }),
    launchChromium().then((launched) => {
      browser = launched;
    }),
  ]);
  for (const result of started) if (result.status === "rejected") throw result.reason;
});

afterAll(async () => {
  await Promise.allSettled([signing?.stop(), assertionOnly?.stop(), browser?.close()]);
});

describe("samlp IdP fixture", () => {
  test("a Chromium sign-in yields a signed response the SP accepts, answering its request, with the user's NameID and attributes", async () => {
    const { saml, start } = nodeSamlServiceProvider(signing, SP);
    const { startUrl, requestId, requestXml } = await start("return-to-dashboard");
    expect(requestXml).toContain(`ID="${requestId}"`);

    const posted = await signInWithChromium(browser, { startUrl, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });
    expect(posted.relayState).toBe("return-to-dashboard");

    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse, RelayState: posted.relayState ?? "" });
    expect(profile?.issuer).toBe(signing.entityId);
    expect(profile?.inResponseTo).toBe(requestId);
    expect(profile?.nameID).toBe("00u1ada7x");
    expect(profile?.nameIDFormat).toBe(PERSISTENT_NAMEID);
    expect(profile?.email).toBe("ada@globex.example");
    expect(profile?.name).toBe("Ada Lovelace");
    expect(profile?.groups).toEqual(["engineering", "admins", "everyone"]);
    expect(Object.keys(profile?.attributes as object).sort()).toEqual(["email", "groups", "name"]);
  });

  test("in a browser that signed in once, the next request is answered from the IdP session without the login form", async () => {
    const context: BrowserContext = await browser.newContext();
    try {
      const first = nodeSamlServiceProvider(signing, SP);
      const firstStart = await first.start();
      await signInWithChromium(browser, {
        context,
        startUrl: firstStart.startUrl,
        acsUrl: ACS_URL,
        username: ADA.username,
        password: ADA.password,
      });

      const second = nodeSamlServiceProvider(signing, SP);
      const { startUrl, requestId } = await second.start();
      // No password: a login form would be filled with a wrong one and fail the sign-in.
      const posted = await signInWithChromium(browser, {
        context,
        startUrl,
        acsUrl: ACS_URL,
        username: ADA.username,
        password: "not asked for",
      });
      const { profile } = await second.saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse });
      expect(profile?.inResponseTo).toBe(requestId);
      expect(profile?.nameID).toBe("00u1ada7x");
    } finally {
      await context.close();
    }
  });

  test("by default only the assertion is signed: an SP that requires a signed response refuses it, one that requires a signed assertion accepts it", async () => {
    const strict = nodeSamlServiceProvider(assertionOnly, SP);
    const { startUrl, requestId } = await strict.start();
    const posted = await signInOverHttp({ startUrl, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });
    const xml = Buffer.from(posted.samlResponse, "base64").toString("utf8");
    expect(xml.match(/<Signature\b/g)).toHaveLength(1);
    expect(xml).toContain(`<saml:Audience>${SP_ENTITY_ID}</saml:Audience>`);
    expect(xml).toContain(`Recipient="${ACS_URL}"`);
    expect(xml).toContain(`Destination="${ACS_URL}"`);

    await expect(strict.saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse })).rejects.toThrow(/signature/i);

    // The same response, to an SP that asks only for the signed assertion (its own request cache never saw
    // the request, so it does not check InResponseTo; the strict SP did, above, before the signature).
    const lenient = nodeSamlServiceProvider(assertionOnly, SP, {
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.never,
    });
    const { profile } = await lenient.saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse });
    expect(profile?.inResponseTo).toBe(requestId);
    expect(profile?.groups).toEqual(["engineering", "admins", "everyone"]);
  });

  test("the metadata names the entity id, the HTTP-Redirect SSO URL and the signing certificate", async () => {
    const page = await browser.newPage();
    try {
      const metadata = await readIdpMetadata(page, signing.metadataXml);
      expect(metadata.entityId).toBe(signing.entityId);
      expect(metadata.singleSignOnServices["urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"]).toBe(signing.ssoUrl);
      expect(metadata.signingCertificates).toEqual([certificateBody(signing.certificatePem)]);
    } finally {
      await page.close();
    }
  });

  test("a response checked against another IdP's certificate is refused; the same response passes with this IdP's", async () => {
    const { saml, start } = nodeSamlServiceProvider(signing, SP);
    const { startUrl } = await start();
    const posted = await signInOverHttp({ startUrl, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });

    const misconfigured = nodeSamlServiceProvider(signing, SP, {
      idpCert: assertionOnly.certificatePem,
      validateInResponseTo: ValidateInResponseTo.never,
    });
    await expect(misconfigured.saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse })).rejects.toThrow(/signature/i);

    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse });
    expect(profile?.nameID).toBe("00u1ada7x");
  });

  test("a wrong password gets no response: the driver stops at the IdP's login page with a named error", async () => {
    const { start } = nodeSamlServiceProvider(signing, SP);
    const { startUrl } = await start();
    const attempt = signInOverHttp({ startUrl, acsUrl: ACS_URL, username: ADA.username, password: "wrong" });
    await expect(attempt).rejects.toBeInstanceOf(IdpSignInError);
    await expect(attempt).rejects.toThrow(/HTTP 401 .*Wrong username or password/);
  });

  test("an AuthnRequest from an SP the IdP does not know is refused", async () => {
    const stranger = nodeSamlServiceProvider(signing, { entityId: "https://stranger.example.test/sp", acsUrl: ACS_URL });
    const { startUrl } = await stranger.start();
    const attempt = signInOverHttp({ startUrl, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });
    await expect(attempt).rejects.toBeInstanceOf(IdpSignInError);
    await expect(attempt).rejects.toThrow(/samlp answered 401/);
  });
  test("an IdP-initiated sign-in posts a response with no InResponseTo: an SP that always checks it refuses it, one that allows unsolicited responses accepts it", async () => {
    const start = new URL(signing.idpInitiatedUrl);
    start.searchParams.set("RelayState", "unsolicited-relay");
    const posted = await signInOverHttp({ startUrl: start.href, acsUrl: ACS_URL, username: ADA.username, password: ADA.password });
    expect(posted.relayState).toBe("unsolicited-relay");
    const xml = Buffer.from(posted.samlResponse, "base64").toString("utf8");
    expect(xml).not.toContain("InResponseTo=");

    await expect(
      nodeSamlServiceProvider(signing, SP).saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse }),
    ).rejects.toThrow(/InResponseTo/);
    const allowsUnsolicited = nodeSamlServiceProvider(signing, SP, { validateInResponseTo: ValidateInResponseTo.ifPresent });
    const { profile } = await allowsUnsolicited.saml.validatePostResponseAsync({ SAMLResponse: posted.samlResponse });
    expect(profile?.inResponseTo).toBeUndefined();
    expect(profile?.nameID).toBe("00u1ada7x");
  });
});
