/**
 * Responses made by an IdP library we did not write (npm `samlp`, Auth0's, over `saml`/xml-crypto) are
 * accepted, and its signatures are held to the same rules: the request id our sign-in request returned is
 * the one the response must answer, an assertion is used once, and its signature only counts for the
 * element it covers. (The browser sign-ins through SimpleSAMLphp and samlp over HTTP are the feature's.)
 */
import { promisify } from "node:util";
// @ts-expect-error: samlp ships no types
import samlp from "samlp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { samlSignInRequest } from "../../../src/features/sso/saml/request.js";
import { validateSamlResponse } from "../../../src/features/sso/saml/response.js";
import type { SamlConnectionSettings } from "../../../src/features/sso/saml/types.js";
import { makeTestKey, type SigningWorkspace, signingWorkspace, type TestKey } from "../../helpers/saml-signing.js";
import { rejection, replayCache } from "./fixture.js";

const SP_ENTITY = "https://app.example/sso/saml/conn_samlp/metadata";
const ACS_URL = "https://app.example/sso/saml/conn_samlp/acs";
const IDP_ENTITY = "urn:samlp-idp.test";

let workspace: SigningWorkspace;
let key: TestKey;
beforeAll(() => {
  workspace = signingWorkspace();
  key = makeTestKey(workspace, "samlp-idp");
});
afterAll(() => workspace.remove());

const settings = (signatureOn: SamlConnectionSettings["signatureOn"] = "assertion"): SamlConnectionSettings => ({
  connectionId: "conn_samlp",
  sp: { entityId: SP_ENTITY, acsUrl: ACS_URL },
  idp: { entityId: IDP_ENTITY, ssoUrl: "https://samlp-idp.test/sso", certificates: [key.certPem] },
  signatureOn,
  allowIdpInitiated: false,
  clockSkewSeconds: 60,
});

const user = { id: "ada@corp.example", emails: [{ value: "ada@corp.example" }], displayName: "Ada Lovelace", name: { givenName: "Ada" } };

/** samlp's response to a request, signed as told: the base64 field a browser would POST. */
async function samlpResponse(inResponseTo: string, sign: { assertion: boolean; response: boolean }): Promise<string> {
  const getSamlResponse = promisify(samlp.getSamlResponse) as (config: object, profile: object) => Promise<string>;
  const xml = await getSamlResponse(
    {
      issuer: IDP_ENTITY,
      cert: key.certPem,
      key: key.keyPem,
      audience: SP_ENTITY,
      recipient: ACS_URL,
      destination: ACS_URL,
      inResponseTo,
      signatureAlgorithm: "rsa-sha256",
      digestAlgorithm: "sha256",
      signAssertion: sign.assertion,
      signResponse: sign.response,
      lifetimeInSeconds: 300,
      sessionIndex: "_samlp-session",
    },
    user,
  );
  return Buffer.from(xml, "utf8").toString("base64");
}

describe("responses from samlp (an IdP library we did not write)", () => {
  it("a signed assertion answering our sign-in request is accepted, with its attributes", async () => {
    const { requestId } = await samlSignInRequest(settings(), { relayState: "rs_samlp" });
    const samlResponse = await samlpResponse(requestId, { assertion: true, response: false });
    const cache = replayCache();
    const proven = await validateSamlResponse(settings(), {
      samlResponse,
      expectedRequestId: requestId,
      rememberAssertion: cache.rememberAssertion,
    });
    expect(proven.nameId).toBe("ada@corp.example");
    expect(proven.issuer).toBe(IDP_ENTITY);
    expect(proven.inResponseTo).toBe(requestId);
    expect(proven.sessionIndex).toBe("_samlp-session");
    expect(proven.attributes["http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"]).toEqual(["ada@corp.example"]);
    expect(
      await rejection(
        validateSamlResponse(settings(), { samlResponse, expectedRequestId: requestId, rememberAssertion: cache.rememberAssertion }),
      ),
    ).toBe("replayed");
  });

  it("a signed response is accepted where the connection wants the response signed, and refused where it wants the assertion", async () => {
    const { requestId } = await samlSignInRequest(settings(), { relayState: "rs_samlp" });
    const samlResponse = await samlpResponse(requestId, { assertion: false, response: true });
    const input = { samlResponse, expectedRequestId: requestId };
    const proven = await validateSamlResponse(settings("response"), { ...input, rememberAssertion: replayCache().rememberAssertion });
    expect(proven.nameId).toBe("ada@corp.example");
    expect(
      await rejection(validateSamlResponse(settings("assertion"), { ...input, rememberAssertion: replayCache().rememberAssertion })),
    ).toBe("signature");
  });

  it("an answer to another browser's request is refused", async () => {
    const mine = await samlSignInRequest(settings(), { relayState: "rs_mine" });
    const theirs = await samlSignInRequest(settings(), { relayState: "rs_theirs" });
    const samlResponse = await samlpResponse(theirs.requestId, { assertion: true, response: true });
    const input = { samlResponse, expectedRequestId: mine.requestId, rememberAssertion: replayCache().rememberAssertion };
    expect(await rejection(validateSamlResponse(settings("both"), input))).toBe("inResponseTo");
  });
});
