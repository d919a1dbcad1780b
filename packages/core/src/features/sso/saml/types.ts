/**
 * The shapes of the SAML 2.0 service-provider core (issue 49): what a SAML connection holds and what a
 * valid response proves. Types only; the functions are in `request.ts`, `response.ts`, `metadata.ts` and
 * `sp-key.ts`.
 *
 * @module features/sso/saml/types
 */

/** This application as a SAML service provider, for one connection. */
export interface SamlServiceProvider {
  /** The SP's entity id: the audience every assertion must name. */
  entityId: string;
  /** The Assertion Consumer Service URL (HTTP-POST binding): the Recipient and Destination every response must name. */
  acsUrl: string;
  /** The key that signs the SP's authentication requests (and whose certificate the SP metadata publishes). */
  signingKey?: { privateKeyPem: string; certificatePem: string };
}

/** The customer's identity provider, as its metadata describes it. */
export interface SamlIdentityProvider {
  /** The IdP's entity id: the Issuer of every response and assertion. */
  entityId: string;
  /** The IdP's single sign-on URL for the HTTP-Redirect binding. */
  ssoUrl: string;
  /** The IdP's signing certificates (PEM); several during a key rotation, each one accepted. */
  certificates: string[];
}

/** What the SAML core needs to know about one connection. */
export interface SamlConnectionSettings {
  /** The connection's id (for the feature's records; the core does not read it). */
  connectionId: string;
  /** This application as the connection's service provider. */
  sp: SamlServiceProvider;
  /** The connection's identity provider. */
  idp: SamlIdentityProvider;
  /** Which element the IdP's signature must cover: the assertion, the whole response, or both. */
  signatureOn: "assertion" | "response" | "both";
  /** Whether a response that answers no request of this browser (IdP-initiated) is accepted. */
  allowIdpInitiated: boolean;
  /** How far (seconds) the IdP's clock may be off: applied to NotBefore and NotOnOrAfter. */
  clockSkewSeconds: number;
}

/** What a valid SAML response proves, read from the element its signature covers. */
export interface SamlAssertion {
  /** The subject's NameID (one text node, no comment). */
  nameId: string;
  /** The NameID's Format attribute, when the IdP sends one. */
  nameIdFormat: string | undefined;
  /** The assertion's Issuer (equal to the connection's IdP entity id). */
  issuer: string;
  /** The assertion's ID (remembered until it expires, so that it is accepted once). */
  assertionId: string;
  /** The AuthnStatement's SessionIndex, for a later single logout. */
  sessionIndex: string | undefined;
  /** The request this response answers; `undefined` for an IdP-initiated response. */
  inResponseTo: string | undefined;
  /** The attribute statement: each attribute's name with all its values, in document order. */
  attributes: Record<string, string[]>;
  /** The assertion's NotOnOrAfter (the earliest of its Conditions' and its subject confirmation's), in seconds. */
  expiresAt: number;
}

/** Why a SAML response was refused (declared with the error, `types/errors.ts`). */
export type { SamlRejectionReason } from "../../../types/errors.js";
