/**
 * The signature step (`saml/signature.ts`) by its own refusals: a connection without an IdP certificate, a
 * signature node-saml refuses (its words, with node-saml's error as the cause), and the guards after it:
 * the Response's covered XML that is missing or not readable, and a signature that covers another element
 * than the one the step reads (the wrapping class of attacks). The guards run on XML given directly, and on
 * a stand-in for node-saml's `getVerifiedXml`: node-saml refuses those shapes first in the real flow.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SamlResponseRejected } from "../../../src/errors.js";
import { SAML_NS, SAMLP_NS } from "../../../src/features/sso/saml/dom.js";
import { readEnvelope } from "../../../src/features/sso/saml/envelope.js";
import type { NodeSamlLibrary } from "../../../src/features/sso/saml/library.js";
import { verifiedResponse, verifiedRoot } from "../../../src/features/sso/saml/signature.js";
import { assertionXml, responseXml } from "../../helpers/saml-signing.js";
import { connection, type Keys, makeKeys, shape, validateShape } from "./fixture.js";

let keys: Keys;
beforeAll(() => {
  keys = makeKeys();
});
afterAll(() => keys.workspace.remove());

/** What `promise` was refused with (fails the test when it was not a SamlResponseRejected). */
async function refused(promise: Promise<unknown> | (() => unknown)): Promise<SamlResponseRejected> {
  const outcome =
    typeof promise === "function"
      ? (() => {
          try {
            promise();
            return new Error("accepted");
          } catch (error) {
            return error;
          }
        })()
      : await promise.then(
          () => new Error("accepted"),
          (error: unknown) => error,
        );
  expect(outcome).toBeInstanceOf(SamlResponseRejected);
  return outcome as SamlResponseRejected;
}

/** The error an AuthError was given as its cause (kept as `{ err }`). */
const causeOf = (error: SamlResponseRejected) => (error.cause as { err?: unknown } | undefined)?.err;

/** node-saml's `getVerifiedXml` standing in as `answer` says (the rest of the library is not used). */
const library = (answer: () => string | null) => ({ getVerifiedXml: answer }) as unknown as NodeSamlLibrary;

describe("verifySignatures", () => {
  it("a connection without an IdP certificate is refused before node-saml is asked, saying so", async () => {
    const error = await refused(
      validateShape(keys, shape(), "assertion", { settings: connection(keys, { idp: { ...connection(keys).idp, certificates: [] } }) }),
    );
    expect([error.reason, error.message]).toEqual([
      "signature",
      "The SAML connection has no IdP certificate: add the IdP's metadata again.",
    ]);
    expect(causeOf(error)).toBeUndefined();
  });

  it("a signature node-saml refuses: reason signature, in the step's words, with node-saml's error as the cause", async () => {
    const error = await refused(validateShape(keys, shape(), "assertion", {}, keys.stranger));
    expect([error.reason, error.message]).toEqual(["signature", "The SAML response's signature is not valid for this connection."]);
    expect(causeOf(error)).toBeInstanceOf(Error);
  });
});

describe("the Response as its signature covers it", () => {
  const envelope = () => {
    const fields = shape();
    return readEnvelope(responseXml(fields, assertionXml(fields, false), false));
  };

  it("is the covered Response element", () => {
    const covered = '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r"/>';
    const root = verifiedResponse(
      library(() => covered),
      connection(keys),
      envelope(),
    );
    expect([root.namespaceURI, root.localName]).toEqual([SAMLP_NS, "Response"]);
  });

  it("node-saml's failure is the step's refusal, with the cause", async () => {
    const failure = new Error("invalid signature");
    const error = await refused(() =>
      verifiedResponse(
        library(() => {
          throw failure;
        }),
        connection(keys),
        envelope(),
      ),
    );
    expect([error.reason, error.message, causeOf(error)]).toEqual([
      "signature",
      "The SAML response's signature is not valid for this connection.",
      failure,
    ]);
  });

  it("no covered XML (a Response not signed by the connection's IdP) is refused", async () => {
    const error = await refused(() =>
      verifiedResponse(
        library(() => null),
        connection(keys),
        envelope(),
      ),
    );
    expect([error.reason, error.message]).toEqual(["signature", "The SAML response is not signed by this connection's IdP."]);
  });
});

describe("the element a signature covers", () => {
  it("is returned when it is the one expected", () => {
    const root = verifiedRoot('<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a"/>', SAML_NS, "Assertion");
    expect([root.namespaceURI, root.localName, root.getAttribute("ID")]).toEqual([SAML_NS, "Assertion", "_a"]);
  });

  it("another element (a signature over the Response read as the assertion, or a stranger's element) is refused", async () => {
    for (const [xml, expected] of [
      ['<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>', "Assertion"],
      ['<x:Assertion xmlns:x="urn:example:not-saml"/>', "Assertion"],
      ['<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"/>', "Response"],
    ] as const) {
      const namespace = expected === "Assertion" ? SAML_NS : SAMLP_NS;
      const error = await refused(() => verifiedRoot(xml, namespace, expected));
      expect([error.reason, error.message]).toEqual(["signature", `The SAML signature does not cover a ${expected}.`]);
    }
  });

  it("covered XML that cannot be read (a DTD) is refused, with the parser's refusal as the cause", async () => {
    const error = await refused(() =>
      verifiedRoot('<!DOCTYPE x><saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"/>', SAML_NS, "Assertion"),
    );
    expect([error.reason, error.message]).toEqual(["signature", "The SAML signature covers XML that cannot be read."]);
    expect(causeOf(error)).toBeInstanceOf(Error);
  });
});
