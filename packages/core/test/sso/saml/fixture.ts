/**
 * The shared setting of the SAML response tests: one connection (SP and IdP), its IdP keys (current, next
 * in a rotation, and a stranger's), a well-formed shape every test changes one field of, and a replay
 * cache in memory standing for the feature's shared store.
 */
import { expect } from "vitest";
import { SamlResponseRejected } from "../../../src/errors.js";
import { validateSamlResponse } from "../../../src/features/sso/saml/response.js";
import type { SamlAssertion, SamlConnectionSettings } from "../../../src/features/sso/saml/types.js";
import {
  makeTestKey,
  type ResponseShape,
  type Signing,
  type SigningWorkspace,
  STATUS_SUCCESS,
  signedResponse,
  signingWorkspace,
  type TestKey,
  toFormField,
} from "../../helpers/saml-signing.js";

/** The tests' clock: every instant in a shape is relative to it, and `now` is passed to the validator. */
export const NOW = Date.UTC(2026, 11, 7, 6, 0, 0);
export const MINUTE = 60_000;
export const REQUEST_ID = "_request0123456789abcdef";

export const SP_ENTITY = "https://app.example/auth/sso/saml/conn_1/metadata";
export const ACS_URL = "https://app.example/auth/sso/saml/conn_1/acs";
export const IDP_ENTITY = "https://idp.corp.example/saml2/idp";

/** The keys of the tests. */
export interface Keys {
  workspace: SigningWorkspace;
  idp: TestKey;
  idpNext: TestKey;
  stranger: TestKey;
}

/** Makes the keys (in beforeAll; `workspace.remove()` in afterAll). */
export function makeKeys(): Keys {
  const workspace = signingWorkspace();
  return {
    workspace,
    idp: makeTestKey(workspace, "idp"),
    idpNext: makeTestKey(workspace, "idp-next"),
    stranger: makeTestKey(workspace, "stranger"),
  };
}

/** The connection's settings, with the IdP's current certificate. */
export function connection(keys: Keys, change: Partial<SamlConnectionSettings> = {}): SamlConnectionSettings {
  return {
    connectionId: "conn_1",
    sp: { entityId: SP_ENTITY, acsUrl: ACS_URL },
    idp: { entityId: IDP_ENTITY, ssoUrl: "https://idp.corp.example/saml2/sso", certificates: [keys.idp.certPem] },
    signatureOn: "assertion",
    allowIdpInitiated: false,
    clockSkewSeconds: 60,
    ...change,
  };
}

let counter = 0;

/** A well-formed answer to REQUEST_ID for this connection, with fresh ids; `change` replaces fields. */
export function shape(change: Partial<ResponseShape> = {}): ResponseShape {
  counter += 1;
  return {
    responseId: `_response${counter}`,
    assertionId: `_assertion${counter}`,
    responseIssuer: IDP_ENTITY,
    issuer: IDP_ENTITY,
    destination: ACS_URL,
    inResponseTo: REQUEST_ID,
    confirmationInResponseTo: REQUEST_ID,
    nameIdXml: "ada@corp.example",
    nameIdFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    audiences: [SP_ENTITY],
    recipient: ACS_URL,
    issueInstant: NOW - MINUTE,
    notBefore: NOW - 2 * MINUTE,
    notOnOrAfter: NOW + 5 * MINUTE,
    confirmationNotOnOrAfter: NOW + 5 * MINUTE,
    sessionIndex: "_session1",
    attributes: { email: ["ada@corp.example"] },
    statusCode: STATUS_SUCCESS,
    ...change,
  };
}

/** A replay cache in memory: what the feature backs with its shared store. */
export function replayCache() {
  const seen = new Map<string, number>();
  return {
    seen,
    rememberAssertion: async (id: string, keepUntil: number) => {
      if (seen.has(id)) return false;
      seen.set(id, keepUntil);
      return true;
    },
  };
}

/** Options of one validation. */
export interface Attempt {
  settings?: SamlConnectionSettings;
  expectedRequestId?: string | undefined;
  now?: number;
  cache?: ReturnType<typeof replayCache>;
}

/** Validates the base64 field for the connection at NOW, answering REQUEST_ID unless told otherwise. */
export function validate(keys: Keys, field: string, attempt: Attempt = {}): Promise<SamlAssertion> {
  const cache = attempt.cache ?? replayCache();
  return validateSamlResponse(attempt.settings ?? connection(keys), {
    samlResponse: field,
    expectedRequestId: "expectedRequestId" in attempt ? attempt.expectedRequestId : REQUEST_ID,
    rememberAssertion: cache.rememberAssertion,
    now: attempt.now ?? NOW,
  });
}

/** Signs a shape with a key (the IdP's by default) and validates it. */
export function validateShape(keys: Keys, responseShape: ResponseShape, signing: Signing, attempt: Attempt = {}, key?: TestKey) {
  return validate(keys, toFormField(signedResponse(keys.workspace, responseShape, key ?? keys.idp, signing)), attempt);
}

/** The reason a validation was refused with (fails the test when it was not refused with SamlResponseRejected). */
export async function rejection(promise: Promise<unknown>): Promise<string> {
  const outcome = await promise.then(
    () => new Error("the response was accepted"),
    (error: unknown) => error,
  );
  if (!(outcome instanceof SamlResponseRejected)) throw outcome;
  // Every refusal says what happened in words, and never quotes the assertion (no NameID, no attribute).
  expect(outcome.message).toMatch(/^The SAML |^A SAML |^Sign-ins |^This SAML |^Encrypted SAML |^The identity provider /);
  expect(outcome.message).not.toMatch(/@corp\.example|@evil/);
  expect(outcome.status).toBe(400);
  return outcome.reason;
}
