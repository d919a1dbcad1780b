/**
 * A SAML response is bound to the browser that started the sign-in and used once (issue 49): its
 * InResponseTo must be this browser's request id, an IdP-initiated response is refused unless the
 * connection allows it, and a second use of an assertion id (on any instance: the cache is the feature's
 * shared store) is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedResponse, toFormField } from "../../helpers/saml-signing.js";
import { connection, type Keys, makeKeys, REQUEST_ID, rejection, replayCache, shape, validate, validateShape } from "./fixture.js";

let keys: Keys;
beforeAll(() => {
  keys = makeKeys();
});
afterAll(() => keys.workspace.remove());

const unsolicited = () => shape({ inResponseTo: null, confirmationInResponseTo: null });

describe("InResponseTo binds the response to this browser's request", () => {
  it("an answer to another request is refused", async () => {
    const other = shape({ inResponseTo: "_another-request", confirmationInResponseTo: "_another-request" });
    expect(await rejection(validateShape(keys, other, "assertion"))).toBe("inResponseTo");
  });

  it("an answer to a request while this browser started none is refused", async () => {
    expect(await rejection(validateShape(keys, shape(), "assertion", { expectedRequestId: undefined }))).toBe("inResponseTo");
  });

  it("a response whose envelope and signed assertion name different requests is refused", async () => {
    expect(await rejection(validateShape(keys, shape({ inResponseTo: "_another-request" }), "assertion"))).toBe("inResponseTo");
  });

  it("an InResponseTo only on the unsigned envelope is not a binding", async () => {
    const envelopeOnly = shape({ confirmationInResponseTo: null });
    expect(await rejection(validateShape(keys, envelopeOnly, "assertion"))).toBe("inResponseTo");
    const settings = connection(keys, { allowIdpInitiated: true });
    expect(await rejection(validateShape(keys, envelopeOnly, "assertion", { settings, expectedRequestId: undefined }))).toBe(
      "inResponseTo",
    );
  });

  it("an InResponseTo on the signed response binds it", async () => {
    const settings = connection(keys, { signatureOn: "response" });
    const proven = await validateShape(keys, shape({ confirmationInResponseTo: null }), "response", { settings });
    expect(proven.inResponseTo).toBe(REQUEST_ID);
  });
});

describe("IdP-initiated responses", () => {
  it("are refused while the connection does not allow them", async () => {
    expect(await rejection(validateShape(keys, unsolicited(), "assertion", { expectedRequestId: undefined }))).toBe("idpInitiated");
  });

  it("are refused when this browser is waiting for the answer to its own request", async () => {
    const settings = connection(keys, { allowIdpInitiated: true });
    expect(await rejection(validateShape(keys, unsolicited(), "assertion", { settings }))).toBe("inResponseTo");
  });
});

describe("an assertion is accepted once", () => {
  it("a replayed assertion is refused (the shared cache says it was seen)", async () => {
    const cache = replayCache();
    const field = toFormField(signedResponse(keys.workspace, shape(), keys.idp, "assertion"));
    expect((await validate(keys, field, { cache })).nameId).toBe("ada@corp.example");
    expect(await rejection(validate(keys, field, { cache }))).toBe("replayed");
  });

  it("the same assertion replayed on a second instance sharing the cache is refused", async () => {
    const shared = replayCache();
    const first = { cache: { seen: shared.seen, rememberAssertion: shared.rememberAssertion } };
    const second = { cache: { seen: shared.seen, rememberAssertion: (id: string, until: number) => shared.rememberAssertion(id, until) } };
    const field = toFormField(signedResponse(keys.workspace, shape(), keys.idp, "assertion"));
    await validate(keys, field, first);
    expect(await rejection(validate(keys, field, second))).toBe("replayed");
  });

  it("a refused response does not use up its assertion id", async () => {
    const cache = replayCache();
    const responseShape = shape();
    const field = toFormField(signedResponse(keys.workspace, responseShape, keys.idp, "assertion"));
    expect(await rejection(validate(keys, field, { cache, expectedRequestId: "_not-this-one" }))).toBe("inResponseTo");
    expect(cache.seen.has(responseShape.assertionId)).toBe(false);
    expect((await validate(keys, field, { cache })).assertionId).toBe(responseShape.assertionId);
  });
});
