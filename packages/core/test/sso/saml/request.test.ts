/**
 * The SP-initiated sign-in request (issue 49): an AuthnRequest on the IdP's SSO URL with the HTTP-Redirect
 * binding (deflated, base64, `SAMLRequest` and `RelayState`), its ID returned for the browser binding; when
 * the SP has a signing key (made by `newSpSigningKey`), the query signature verifies with the SP's
 * certificate, checked with node:crypto over the octets the binding specifies.
 */
import { createVerify, X509Certificate } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseStrictXml, SAML_NS, SAMLP_NS } from "../../../src/features/sso/saml/dom.js";
import { samlSignInRequest } from "../../../src/features/sso/saml/request.js";
import { newSpSigningKey } from "../../../src/features/sso/saml/sp-key.js";
import type { SamlConnectionSettings } from "../../../src/features/sso/saml/types.js";

const settings: SamlConnectionSettings = {
  connectionId: "conn_1",
  sp: { entityId: "https://app.example/sso/saml/conn_1/metadata", acsUrl: "https://app.example/sso/saml/conn_1/acs" },
  idp: { entityId: "https://idp.corp.example", ssoUrl: "https://idp.corp.example/sso?tenant=corp", certificates: [] },
  signatureOn: "assertion",
  allowIdpInitiated: false,
  clockSkewSeconds: 60,
};

/** The AuthnRequest element carried by a redirect URL. */
function authnRequestOf(redirectUrl: string): Element {
  const deflated = Buffer.from(new URL(redirectUrl).searchParams.get("SAMLRequest") as string, "base64");
  return parseStrictXml(inflateRawSync(deflated).toString("utf8")).documentElement;
}

describe("the SAML sign-in request", () => {
  it("is an AuthnRequest on the IdP's SSO URL with SAMLRequest and RelayState, its ID returned", async () => {
    const { redirectUrl, requestId } = await samlSignInRequest(settings, { relayState: "rs_0123abcd" });
    const url = new URL(redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe("https://idp.corp.example/sso");
    expect(url.searchParams.get("tenant")).toBe("corp");
    expect(url.searchParams.get("RelayState")).toBe("rs_0123abcd");
    expect(url.searchParams.has("Signature")).toBe(false);
    const request = authnRequestOf(redirectUrl);
    expect([request.namespaceURI, request.localName]).toEqual([SAMLP_NS, "AuthnRequest"]);
    expect(request.getAttribute("ID")).toBe(requestId);
    expect(request.getAttribute("Destination")).toBe(settings.idp.ssoUrl);
    expect(request.getAttribute("AssertionConsumerServiceURL")).toBe(settings.sp.acsUrl);
    expect(request.getAttribute("ProtocolBinding")).toBe("urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST");
    expect(request.getElementsByTagNameNS(SAML_NS, "Issuer")[0]?.textContent).toBe(settings.sp.entityId);
  });

  it("has a new unguessable ID each time, valid as an XML ID", async () => {
    const first = await samlSignInRequest(settings, { relayState: "a" });
    const second = await samlSignInRequest(settings, { relayState: "a" });
    expect(first.requestId).not.toBe(second.requestId);
    expect(first.requestId).toMatch(/^_[0-9a-f]{40}$/);
  });

  it("is signed with the SP key when it has one, and the signature verifies with its certificate", async () => {
    const signingKey = await newSpSigningKey("app.example SAML conn_1");
    const signed = { ...settings, sp: { ...settings.sp, signingKey } };
    const { redirectUrl } = await samlSignInRequest(signed, { relayState: "rs_0123abcd" });
    const url = new URL(redirectUrl);
    expect(url.searchParams.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    // The binding signs the query's own octets: SAMLRequest, RelayState and SigAlg as they appear in the URL.
    const raw = new Map(
      url.search
        .slice(1)
        .split("&")
        .map((pair) => pair.split("=") as [string, string]),
    );
    const octets = ["SAMLRequest", "RelayState", "SigAlg"].map((name) => `${name}=${raw.get(name)}`).join("&");
    const verifier = createVerify("RSA-SHA256").update(octets);
    const publicKey = new X509Certificate(signingKey.certificatePem).publicKey;
    expect(verifier.verify(publicKey, url.searchParams.get("Signature") as string, "base64")).toBe(true);
    const otherKey = new X509Certificate((await newSpSigningKey("other")).certificatePem).publicKey;
    expect(
      createVerify("RSA-SHA256")
        .update(octets)
        .verify(otherKey, url.searchParams.get("Signature") as string, "base64"),
    ).toBe(false);
  });
});

describe("the RelayState of a request", () => {
  it("is refused when node-saml would sign other octets than the URL carries (or past the binding's 80 bytes)", async () => {
    for (const relayState of ["a b", "x!", "t~", "", "r".repeat(81)]) {
      await expect(samlSignInRequest(settings, { relayState }), relayState).rejects.toBeInstanceOf(RangeError);
    }
    expect((await samlSignInRequest(settings, { relayState: "r".repeat(80) })).requestId).toMatch(/^_/);
  });
});

describe("the SP signing key", () => {
  it("is an RSA-2048 key with a self-signed certificate for the common name, valid ten years", async () => {
    const { privateKeyPem, certificatePem } = await newSpSigningKey("app.example, SAML");
    const certificate = new X509Certificate(certificatePem);
    expect(certificate.subject).toBe("CN=app.example\\, SAML");
    expect(certificate.issuer).toBe(certificate.subject);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(certificate.checkPrivateKey(await import("node:crypto").then((c) => c.createPrivateKey(privateKeyPem)))).toBe(true);
    expect(new Date(certificate.validTo).getTime()).toBeGreaterThan(Date.now() + 9 * 365 * 86_400_000);
  });
});
