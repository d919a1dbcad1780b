/**
 * SAML metadata: the SP's own (what the customer's IT admin gives their IdP) and the IdP's (what they give
 * us): its entity id, its HTTP-Redirect single sign-on URL and every signing certificate (several during a
 * rotation).
 *
 * @module features/sso/saml/metadata
 */
import { InvalidIdpMetadata } from "../../../errors.js";
import { attributeOf, childElements, DS_NS, isElement, MD_NS, parseStrictXml, plainText, XmlRefused } from "./dom.js";
import type { SamlIdentityProvider, SamlServiceProvider } from "./types.js";

const HTTP_REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const HTTP_POST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";
const SAML2_PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";

/** Escapes a value for an XML attribute or text. */
function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The base64 body of a PEM certificate (what `ds:X509Certificate` holds). */
function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
}

/**
 * A `ds:X509Certificate` body as PEM, after node:crypto has read it as a certificate (reached through
 * `process.getBuiltinModule`, as the XML parser is: SAML metadata is read on Node only).
 */
function pemOf(base64Body: string): string {
  const { X509Certificate } = process.getBuiltinModule("node:crypto");
  return new X509Certificate(Buffer.from(base64Body, "base64")).toString();
}

/**
 * The SP's metadata for one connection: its entity id, its ACS URL (HTTP-POST binding), and its signing
 * certificate when it has one (then `AuthnRequestsSigned="true"`). It asks for signed assertions.
 */
export function spMetadataXml(sp: SamlServiceProvider): string {
  const key = sp.signingKey
    ? `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="${DS_NS}"><ds:X509Data><ds:X509Certificate>${certificateBody(sp.signingKey.certificatePem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`
    : "";
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<md:EntityDescriptor xmlns:md="${MD_NS}" entityID="${escapeXml(sp.entityId)}">`,
    `<md:SPSSODescriptor AuthnRequestsSigned="${sp.signingKey ? "true" : "false"}" WantAssertionsSigned="true" protocolSupportEnumeration="${SAML2_PROTOCOL}">`,
    key,
    `<md:AssertionConsumerService Binding="${HTTP_POST}" Location="${escapeXml(sp.acsUrl)}" index="0" isDefault="true"/>`,
    "</md:SPSSODescriptor>",
    "</md:EntityDescriptor>",
  ]
    .filter((line) => line !== "")
    .join("\n");
}

/** The one IdP entity of a metadata document (an EntityDescriptor, or an EntitiesDescriptor holding one IdP). */
function idpEntity(root: Element): { entity: Element; descriptor: Element } {
  const entities = isElement(root, MD_NS, "EntitiesDescriptor") ? childElements(root, MD_NS, "EntityDescriptor") : [root];
  const found = entities
    .filter((entity) => isElement(entity, MD_NS, "EntityDescriptor"))
    .flatMap((entity) => childElements(entity, MD_NS, "IDPSSODescriptor").map((descriptor) => ({ entity, descriptor })))
    .filter(({ descriptor }) => (attributeOf(descriptor, "protocolSupportEnumeration") ?? "").split(/\s+/).includes(SAML2_PROTOCOL));
  if (found.length !== 1) {
    throw new InvalidIdpMetadata("The metadata must describe exactly one SAML 2.0 identity provider (an IDPSSODescriptor).");
  }
  return found[0] as { entity: Element; descriptor: Element };
}

/** The signing certificates of an IDPSSODescriptor (KeyDescriptors with `use="signing"` or no `use`), as PEM. */
function signingCertificates(descriptor: Element): string[] {
  const pems = new Set<string>();
  for (const key of childElements(descriptor, MD_NS, "KeyDescriptor")) {
    const use = attributeOf(key, "use");
    if (use !== undefined && use !== "signing") continue;
    for (const info of childElements(key, DS_NS, "KeyInfo")) {
      for (const data of childElements(info, DS_NS, "X509Data")) {
        for (const cert of childElements(data, DS_NS, "X509Certificate")) {
          const body = (plainText(cert) ?? "").replace(/\s+/g, "");
          try {
            pems.add(pemOf(body));
          } catch (error) {
            throw new InvalidIdpMetadata("A certificate in the IdP metadata cannot be read.", { cause: error as Error });
          }
        }
      }
    }
  }
  return [...pems];
}

/**
 * Reads an IdP's metadata (pasted XML or fetched by the feature). Throws `InvalidIdpMetadata` for a document
 * that is not XML, has a DTD, describes no single SAML 2.0 IdP, or lacks an entity id, an HTTP-Redirect SSO
 * URL or a signing certificate. The metadata's own signature, if any, is not checked: the admin who pastes
 * it is the trust anchor.
 */
export function parseIdpMetadata(xml: string): SamlIdentityProvider {
  let document: Document;
  try {
    document = parseStrictXml(xml);
  } catch (error) {
    if (!(error instanceof XmlRefused)) throw error;
    throw new InvalidIdpMetadata("The IdP metadata is not well-formed XML without a DTD.", { cause: error as Error });
  }
  const { entity, descriptor } = idpEntity(document.documentElement);
  const entityId = attributeOf(entity, "entityID")?.trim();
  if (!entityId) throw new InvalidIdpMetadata("The IdP metadata has no entityID.");
  const redirect = childElements(descriptor, MD_NS, "SingleSignOnService").find((sso) => attributeOf(sso, "Binding") === HTTP_REDIRECT);
  const ssoUrl = redirect ? attributeOf(redirect, "Location")?.trim() : undefined;
  if (!ssoUrl || !URL.canParse(ssoUrl) || !/^https?:$/.test(new URL(ssoUrl).protocol)) {
    throw new InvalidIdpMetadata("The IdP metadata has no single sign-on URL for the HTTP-Redirect binding.");
  }
  const certificates = signingCertificates(descriptor);
  if (certificates.length === 0) throw new InvalidIdpMetadata("The IdP metadata has no signing certificate.");
  return { entityId, ssoUrl, certificates };
}
