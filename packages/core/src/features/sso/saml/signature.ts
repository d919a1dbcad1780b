/**
 * The signature step of a SAML response, done by node-saml: which element must be signed follows the
 * connection's `signatureOn`; what comes out is the XML each verified signature covers, and nothing else.
 * node-saml's own semantic checks (clock, audience, InResponseTo) are turned off here because
 * `assertion-checks.ts` makes them on the same verified element with an injectable clock and a typed
 * reason for each.
 *
 * @module features/sso/saml/signature
 */
import { SamlResponseRejected } from "../../../errors.js";
import { isElement, parseStrictXml, SAML_NS, SAMLP_NS, XmlRefused } from "./dom.js";
import type { ResponseEnvelope } from "./envelope.js";
import { loadNodeSaml, type NodeSamlLibrary } from "./library.js";
import type { SamlConnectionSettings } from "./types.js";

/** The elements a response's signatures cover, parsed from the verified XML. */
export interface VerifiedElements {
  /** The assertion, read from the XML a verified signature covers (its own, or the Response's). */
  assertion: Element;
  /** The Response, when its own signature verified and the connection requires it; `undefined` otherwise. */
  response: Element | undefined;
}

/** node-saml configured for one connection, with every check it would make against the wall clock off. */
function serviceProvider(library: NodeSamlLibrary, settings: SamlConnectionSettings) {
  return new library.SAML({
    callbackUrl: settings.sp.acsUrl,
    issuer: settings.sp.entityId,
    entryPoint: settings.idp.ssoUrl,
    idpCert: settings.idp.certificates,
    wantAssertionsSigned: settings.signatureOn !== "response",
    wantAuthnResponseSigned: settings.signatureOn !== "assertion",
    audience: false,
    acceptedClockSkewMs: -1,
    validateInResponseTo: library.ValidateInResponseTo.never,
  });
}

/**
 * Verifies the signatures the connection requires, with any of the IdP's certificates, and returns the
 * verified elements. Any failure (no signature where one is required, a signature by another key, a
 * wrapped or duplicated ID, a signature that covers another element) is reason `signature`.
 */
export async function verifySignatures(settings: SamlConnectionSettings, envelope: ResponseEnvelope): Promise<VerifiedElements> {
  if (settings.idp.certificates.length === 0) {
    throw new SamlResponseRejected("signature", "The SAML connection has no IdP certificate: add the IdP's metadata again.");
  }
  const library = await loadNodeSaml();
  let assertionXml: string | undefined;
  try {
    const base64 = Buffer.from(envelope.xml, "utf8").toString("base64");
    const { profile } = await serviceProvider(library, settings).validatePostResponseAsync({ SAMLResponse: base64 });
    assertionXml = profile?.getAssertionXml?.();
  } catch (error) {
    throw new SamlResponseRejected("signature", "The SAML response's signature is not valid for this connection.", {
      cause: error as Error,
    });
  }
  if (!assertionXml) throw new SamlResponseRejected("signature", "The SAML response carries no signed assertion.");
  const assertion = verifiedRoot(assertionXml, SAML_NS, "Assertion");
  const response = settings.signatureOn === "assertion" ? undefined : verifiedResponse(library, settings, envelope);
  return { assertion, response };
}

/**
 * The Response as its signature covers it. node-saml verified it already but hands back only the assertion;
 * its own `getVerifiedXml` gives the covered XML of the root, from which Destination, Status and
 * InResponseTo are then read. (Exported for its tests: its refusals guard what node-saml already checked.)
 */
export function verifiedResponse(library: NodeSamlLibrary, settings: SamlConnectionSettings, envelope: ResponseEnvelope): Element {
  let xml: string | null;
  try {
    xml = library.getVerifiedXml(envelope.xml, envelope.response, settings.idp.certificates);
  } catch (error) {
    throw new SamlResponseRejected("signature", "The SAML response's signature is not valid for this connection.", {
      cause: error as Error,
    });
  }
  if (!xml) throw new SamlResponseRejected("signature", "The SAML response is not signed by this connection's IdP.");
  return verifiedRoot(xml, SAMLP_NS, "Response");
}

/**
 * Parses verified XML and checks it is the element expected (anything else is a signature over the wrong
 * element). Exported for its tests.
 */
export function verifiedRoot(xml: string, namespace: string, localName: string): Element {
  let root: Element;
  try {
    root = parseStrictXml(xml).documentElement;
  } catch (error) {
    if (!(error instanceof XmlRefused)) throw error;
    throw new SamlResponseRejected("signature", "The SAML signature covers XML that cannot be read.", { cause: error as Error });
  }
  if (!isElement(root, namespace, localName)) {
    throw new SamlResponseRejected("signature", `The SAML signature does not cover a ${localName}.`);
  }
  return root;
}
