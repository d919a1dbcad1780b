/**
 * The SP side of the IdP fixture tests, played by `@node-saml/node-saml` directly (the SSO feature's own
 * routes are not what these tests check): a strict SP for one IdP fixture, and the AuthnRequest it starts.
 *
 * ```ts
 * const sp = nodeSamlServiceProvider(idp, { entityId, acsUrl });
 * const { startUrl, requestId } = await sp.start("relay-1");   // send the browser to startUrl
 * const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse, RelayState });
 * ```
 */
import { inflateRawSync } from "node:zlib";
import { SAML, type SamlConfig, ValidateInResponseTo } from "@node-saml/node-saml";
import { PERSISTENT_NAMEID, type TestSamlIdp } from "./saml-fixture.js";

/** The SP as the IdP fixture knows it, and its signing key when it signs its AuthnRequests. */
export interface NodeSamlSpIdentity {
  entityId: string;
  acsUrl: string;
  /** Signs AuthnRequests (HTTP-Redirect: `SigAlg` and `Signature` in the query) with RSA-SHA256. */
  privateKeyPem?: string;
}

/** A node-saml SP and a way to start a sign-in whose request id is known. */
export interface NodeSamlSp {
  saml: SAML;
  /** Builds an AuthnRequest URL at the IdP's SSO URL; answers it, the request's ID and its XML. */
  start(relayState?: string): Promise<{ startUrl: string; requestId: string; requestXml: string }>;
}

/**
 * A strict node-saml SP for `idp`: the IdP's certificate, issuer and SSO URL; the SP's entity id as audience;
 * signed assertions and responses required; `InResponseTo` always checked against the requests it made;
 * persistent NameIDs asked for. `overrides` change any of it (e.g. `idpCert` of another IdP).
 */
export function nodeSamlServiceProvider(idp: TestSamlIdp, sp: NodeSamlSpIdentity, overrides: Partial<SamlConfig> = {}): NodeSamlSp {
  const issuedIds: string[] = [];
  const saml = new SAML({
    entryPoint: idp.ssoUrl,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    audience: sp.entityId,
    idpIssuer: idp.entityId,
    idpCert: idp.certificatePem,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    validateInResponseTo: ValidateInResponseTo.always,
    identifierFormat: PERSISTENT_NAMEID,
    signatureAlgorithm: "sha256",
    ...(sp.privateKeyPem ? { privateKey: sp.privateKeyPem } : {}),
    // An xs:ID starts with a letter or "_"; recorded so a test knows which ID the request carried.
    generateUniqueId: () => {
      const id = `_${crypto.randomUUID()}`;
      issuedIds.push(id);
      return id;
    },
    ...overrides,
  });
  return {
    saml,
    async start(relayState = "") {
      const startUrl = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
      const encoded = new URL(startUrl).searchParams.get("SAMLRequest") ?? "";
      const requestXml = inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8");
      const requestId = issuedIds.at(-1) ?? "";
      return { startUrl, requestId, requestXml };
    },
  };
}
