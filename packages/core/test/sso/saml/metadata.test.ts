/**
 * SAML metadata (issue 49): the SP's own document (entity id, ACS URL with the HTTP-POST binding, the
 * signing certificate) read back by node-saml's XML parser, and the IdP's read from the formats customers
 * paste: SimpleSAMLphp's (two signing keys during a rotation, one encryption key) and Okta's (one line,
 * HTTP-POST and HTTP-Redirect SSO services). A document without a signing certificate or an
 * HTTP-Redirect SSO URL, or with a DTD, is refused by name.
 */
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidIdpMetadata } from "../../../src/errors.js";
import { DS_NS, MD_NS, parseStrictXml } from "../../../src/features/sso/saml/dom.js";
import { parseIdpMetadata, spMetadataXml } from "../../../src/features/sso/saml/metadata.js";
import { newSpSigningKey } from "../../../src/features/sso/saml/sp-key.js";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");
const sameCertificate = (a: string, b: string) => new X509Certificate(a).fingerprint256 === new X509Certificate(b).fingerprint256;

describe("the SP metadata", () => {
  it("names the entity id, the ACS URL (HTTP-POST) and the signing certificate", async () => {
    const signingKey = await newSpSigningKey("app.example");
    const sp = { entityId: "https://app.example/sso/saml/c1/metadata?x=1&y=2", acsUrl: "https://app.example/sso/saml/c1/acs", signingKey };
    const root = parseStrictXml(spMetadataXml(sp)).documentElement;
    expect([root.namespaceURI, root.localName, root.getAttribute("entityID")]).toEqual([MD_NS, "EntityDescriptor", sp.entityId]);
    const descriptor = root.getElementsByTagNameNS(MD_NS, "SPSSODescriptor")[0] as Element;
    expect(descriptor.getAttribute("AuthnRequestsSigned")).toBe("true");
    expect(descriptor.getAttribute("WantAssertionsSigned")).toBe("true");
    const acs = descriptor.getElementsByTagNameNS(MD_NS, "AssertionConsumerService")[0] as Element;
    expect(acs.getAttribute("Binding")).toBe("urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST");
    expect(acs.getAttribute("Location")).toBe(sp.acsUrl);
    const certificate = descriptor.getElementsByTagNameNS(DS_NS, "X509Certificate")[0]?.textContent as string;
    expect(new X509Certificate(Buffer.from(certificate, "base64")).fingerprint256).toBe(
      new X509Certificate(signingKey.certificatePem).fingerprint256,
    );
  });

  it("has no key and says requests are unsigned when the SP has no signing key", () => {
    const root = parseStrictXml(spMetadataXml({ entityId: "urn:app", acsUrl: "https://app.example/acs" })).documentElement;
    expect(root.getElementsByTagNameNS(MD_NS, "SPSSODescriptor")[0]?.getAttribute("AuthnRequestsSigned")).toBe("false");
    expect(root.getElementsByTagNameNS(MD_NS, "KeyDescriptor").length).toBe(0);
  });

  it("escapes what it puts in attributes", () => {
    const xml = spMetadataXml({ entityId: 'urn:a"b<c>&d', acsUrl: "https://app.example/acs?a=1&b=2" });
    const root = parseStrictXml(xml).documentElement;
    expect(root.getAttribute("entityID")).toBe('urn:a"b<c>&d');
  });
});

describe("the IdP metadata", () => {
  it("of SimpleSAMLphp: entity id, the HTTP-Redirect SSO URL, both signing certificates (not the encryption one)", () => {
    const idp = parseIdpMetadata(fixture("simplesamlphp-idp-metadata.xml"));
    expect(idp.entityId).toBe("http://127.0.0.1:8088/simplesaml/saml2/idp/metadata.php");
    expect(idp.ssoUrl).toBe("http://127.0.0.1:8088/simplesaml/saml2/idp/SSOService.php");
    expect(idp.certificates).toHaveLength(2);
    expect(sameCertificate(idp.certificates[0] as string, fixture("ssp-signing.cert.pem"))).toBe(true);
    expect(sameCertificate(idp.certificates[1] as string, fixture("ssp-next.cert.pem"))).toBe(true);
  });

  it("of Okta: the HTTP-Redirect service chosen among the bindings, its line-wrapped certificate read", () => {
    const idp = parseIdpMetadata(fixture("okta-idp-metadata.xml"));
    expect(idp.entityId).toBe("http://www.okta.com/exk1fcia6d6EMsf331d8");
    expect(idp.ssoUrl).toBe("https://corp.okta.example/app/corp_authlib_1/exk1fcia6d6EMsf331d8/sso/saml");
    expect(idp.certificates).toHaveLength(1);
    expect(sameCertificate(idp.certificates[0] as string, fixture("okta.cert.pem"))).toBe(true);
  });

  it("inside an EntitiesDescriptor holding one IdP", () => {
    const inner = fixture("okta-idp-metadata.xml").replace(/^<\?xml[^>]*\?>/, "");
    const wrapped = `<md:EntitiesDescriptor xmlns:md="${MD_NS}">${inner}</md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(wrapped).entityId).toBe("http://www.okta.com/exk1fcia6d6EMsf331d8");
  });

  const refused = (xml: string) => {
    try {
      parseIdpMetadata(xml);
    } catch (error) {
      return error instanceof InvalidIdpMetadata ? error.type : error;
    }
    return "accepted";
  };

  it("is refused without a signing certificate", () => {
    const noKey = fixture("okta-idp-metadata.xml").replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, "");
    expect(refused(noKey)).toBe("InvalidIdpMetadata");
    const encryptionOnly = fixture("okta-idp-metadata.xml").replace('use="signing"', 'use="encryption"');
    expect(refused(encryptionOnly)).toBe("InvalidIdpMetadata");
  });

  it("is refused with a certificate that is not one", () => {
    const broken = fixture("okta-idp-metadata.xml").replace(/<ds:X509Certificate>[^<]*</, "<ds:X509Certificate>bm90IGEgY2VydGlmaWNhdGU=<");
    expect(refused(broken)).toBe("InvalidIdpMetadata");
  });

  it("is refused without an HTTP-Redirect SSO URL (only HTTP-POST)", () => {
    const postOnly = fixture("okta-idp-metadata.xml").replace(/<md:SingleSignOnService Binding="[^"]*HTTP-Redirect"[^>]*\/>/, "");
    expect(refused(postOnly)).toBe("InvalidIdpMetadata");
    const notHttp = fixture("okta-idp-metadata.xml").replace(/(HTTP-Redirect" Location=")[^"]*/, "$1javascript:alert(1)");
    expect(refused(notHttp)).toBe("InvalidIdpMetadata");
  });

  it("is refused when it is an SP's metadata, not XML, has a DTD, or lacks the entity id", () => {
    expect(refused(spMetadataXml({ entityId: "urn:app", acsUrl: "https://app.example/acs" }))).toBe("InvalidIdpMetadata");
    expect(refused("not xml <")).toBe("InvalidIdpMetadata");
    expect(refused(`<!DOCTYPE x [<!ENTITY e "e">]>${fixture("okta-idp-metadata.xml").replace(/^<\?xml[^>]*\?>/, "")}`)).toBe(
      "InvalidIdpMetadata",
    );
    expect(refused(fixture("okta-idp-metadata.xml").replace(/entityID="[^"]*"/, ""))).toBe("InvalidIdpMetadata");
  });
});
