/**
 * The checks of a SAML assertion (`features/sso/saml/assertion-checks.ts`), made directly on parsed,
 * unsigned assertions (the signature is response.ts's and signature.ts's business, stated with xmlsec1 in
 * the other files of this folder): the times and their window with the skew, the Issuer, the audience,
 * the bearer confirmation, the NameID, the attributes and the SessionIndex. Each refusal is a
 * `SamlResponseRejected` with its reason. Fast: no signature (mutation group `sso-saml`).
 */
import { describe, expect, it } from "vitest";
import { SamlResponseRejected } from "../../../src/errors.js";
import {
  bearerConfirmation,
  checkConditions,
  checkIssuer,
  checkWindow,
  instantOf,
  readAttributes,
  readNameId,
  readSessionIndex,
  subjectOf,
} from "../../../src/features/sso/saml/assertion-checks.js";
import { parseStrictXml, SAML_NS } from "../../../src/features/sso/saml/dom.js";
import type { SamlConnectionSettings } from "../../../src/features/sso/saml/types.js";
import { assertionXml, type ResponseShape } from "../../helpers/saml-signing.js";
import { ACS_URL, IDP_ENTITY, MINUTE, NOW, REQUEST_ID, SP_ENTITY, shape } from "./fixture.js";

const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
const SKEW = 60_000;

const settings: SamlConnectionSettings = {
  connectionId: "conn_1",
  sp: { entityId: SP_ENTITY, acsUrl: ACS_URL },
  idp: { entityId: IDP_ENTITY, ssoUrl: "https://idp.corp.example/saml2/sso", certificates: [] },
  signatureOn: "assertion",
  allowIdpInitiated: false,
  clockSkewSeconds: 60,
};

/** The parsed assertion of the fixture's shape (`change` replaces fields), its XML changed by `edit`. */
function assertion(change: Partial<ResponseShape> = {}, edit: (xml: string) => string = (xml) => xml): Element {
  return parseStrictXml(edit(assertionXml(shape(change), false))).documentElement;
}

/** An element `<saml:X …attributes>inner</saml:X>`. */
function element(inner = "", attributes = ""): Element {
  return parseStrictXml(`<saml:X xmlns:saml="${SAML_NS}"${attributes}>${inner}</saml:X>`).documentElement;
}

/** The reason `run` was refused with (fails when it was not refused with SamlResponseRejected). */
function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SamlResponseRejected);
    return (error as SamlResponseRejected).reason;
  }
  throw new Error("not refused");
}

describe("instantOf: an xs:dateTime attribute", () => {
  const at = (value: string) => instantOf(element("", ` T="${value}"`), "T");

  it("is undefined when absent, else its instant in ms, in UTC, with a fraction, or with an offset", () => {
    expect(instantOf(element(), "T")).toBeUndefined();
    expect(at("2026-12-07T06:00:00Z")).toBe(NOW);
    expect(at("2026-12-07T06:00:00.250Z")).toBe(NOW + 250);
    expect(at("2026-12-07T07:00:00+01:00")).toBe(NOW);
    expect(at("2026-12-07T05:30:00-00:30")).toBe(NOW);
  });

  it("is malformed when it is not a full date and time with its zone, or not a real date", () => {
    for (const value of [
      "yesterday",
      "",
      "2026-12-07",
      "2026-12-07T06:00:00",
      "2026-12-07 06:00:00Z",
      "x2026-12-07T06:00:00Z",
      "2026-12-07T06:00:00Zx",
      "2026-12-07T06:00:00.Z",
      "2026-12-07T06:00:00+0100",
      "2026-13-45T06:00:00Z",
    ])
      expect(
        reasonOf(() => at(value)),
        value,
      ).toBe("malformed");
  });
});

describe("checkWindow: a window open at now, give or take the skew", () => {
  it("is open without bounds, and up to the skew before NotBefore and after NotOnOrAfter", () => {
    expect(() => checkWindow(undefined, undefined, NOW, 0)).not.toThrow();
    expect(() => checkWindow(NOW + SKEW, NOW + SKEW + 1, NOW, SKEW)).not.toThrow();
    expect(() => checkWindow(NOW, NOW + 1, NOW, 0)).not.toThrow();
    expect(() => checkWindow(undefined, NOW - SKEW + 1, NOW, SKEW)).not.toThrow();
  });

  it("is not yet valid a millisecond before NotBefore minus the skew", () => {
    expect(reasonOf(() => checkWindow(NOW + SKEW + 1, undefined, NOW, SKEW))).toBe("notYetValid");
    expect(reasonOf(() => checkWindow(NOW + 1, undefined, NOW, 0))).toBe("notYetValid");
  });

  it("is expired from NotOnOrAfter plus the skew on", () => {
    expect(reasonOf(() => checkWindow(undefined, NOW - SKEW, NOW, SKEW))).toBe("expired");
    expect(reasonOf(() => checkWindow(undefined, NOW, NOW, 0))).toBe("expired");
    expect(reasonOf(() => checkWindow(NOW - MINUTE, NOW - SKEW - 1, NOW, SKEW))).toBe("expired");
  });
});

describe("checkIssuer", () => {
  const issuers = (...names: string[]) => element(names.map((name) => `<saml:Issuer>${name}</saml:Issuer>`).join(""));

  it("accepts the connection's IdP as the one Issuer (its text trimmed)", () => {
    expect(() => checkIssuer(issuers(IDP_ENTITY), settings, true)).not.toThrow();
    expect(() => checkIssuer(issuers(`\n  ${IDP_ENTITY}  `), settings, true)).not.toThrow();
  });

  it("accepts no Issuer only where it is optional (the Response's)", () => {
    expect(() => checkIssuer(issuers(), settings, false)).not.toThrow();
    expect(reasonOf(() => checkIssuer(issuers(), settings, true))).toBe("issuer");
  });

  it("refuses another issuer, two Issuers, one split by a comment, or one of another namespace", () => {
    expect(reasonOf(() => checkIssuer(issuers("https://evil-idp.example"), settings, false))).toBe("issuer");
    expect(reasonOf(() => checkIssuer(issuers(IDP_ENTITY, IDP_ENTITY), settings, false))).toBe("issuer");
    expect(reasonOf(() => checkIssuer(issuers("https://idp.corp.example<!-- -->/saml2/idp"), settings, true))).toBe("issuer");
    expect(() => checkIssuer(element(`<x:Issuer xmlns:x="urn:evil">https://evil.example</x:Issuer>`), settings, false)).not.toThrow();
    expect(reasonOf(() => checkIssuer(element(`<x:Issuer xmlns:x="urn:evil">${IDP_ENTITY}</x:Issuer>`), settings, true))).toBe("issuer");
  });
});

describe("checkConditions", () => {
  it("answers the Conditions' NotOnOrAfter when every audience restriction names this SP and the window is open", () => {
    expect(checkConditions(assertion(), settings, NOW)).toBe(NOW + 5 * MINUTE);
    expect(checkConditions(assertion({ audiences: ["https://other.example", ` ${SP_ENTITY} `] }), settings, NOW)).toBe(NOW + 5 * MINUTE);
  });

  it("refuses no Conditions, two, no AudienceRestriction, or a restriction without this SP", () => {
    const conditions = /<saml:Conditions[\s\S]*<\/saml:Conditions>/;
    expect(
      reasonOf(() =>
        checkConditions(
          assertion({}, (xml) => xml.replace(conditions, "")),
          settings,
          NOW,
        ),
      ),
    ).toBe("audience");
    expect(
      reasonOf(() =>
        checkConditions(
          assertion({}, (xml) => xml.replace(conditions, "$&$&")),
          settings,
          NOW,
        ),
      ),
    ).toBe("audience");
    expect(reasonOf(() => checkConditions(assertion({ audiences: [] }), settings, NOW))).toBe("audience");
    expect(reasonOf(() => checkConditions(assertion({ audiences: ["https://other.example"] }), settings, NOW))).toBe("audience");
  });

  it("refuses when one of several restrictions does not name this SP (each must hold)", () => {
    const second = "<saml:AudienceRestriction><saml:Audience>https://other.example</saml:Audience></saml:AudienceRestriction>";
    const twice = assertion({}, (xml) => xml.replace("</saml:AudienceRestriction>", `</saml:AudienceRestriction>${second}`));
    expect(reasonOf(() => checkConditions(twice, settings, NOW))).toBe("audience");
  });

  it("checks the window with the connection's skew, in seconds", () => {
    expect(checkConditions(assertion({ notBefore: NOW + SKEW }), settings, NOW)).toBe(NOW + 5 * MINUTE);
    expect(reasonOf(() => checkConditions(assertion({ notBefore: NOW + SKEW + 1 }), settings, NOW))).toBe("notYetValid");
    expect(reasonOf(() => checkConditions(assertion({ notOnOrAfter: NOW - SKEW }), settings, NOW))).toBe("expired");
    expect(checkConditions(assertion({ notOnOrAfter: NOW - SKEW + 1 }), settings, NOW)).toBe(NOW - SKEW + 1);
    expect(reasonOf(() => checkConditions(assertion({ notBefore: NOW + 1 }), { ...settings, clockSkewSeconds: 0 }, NOW))).toBe(
      "notYetValid",
    );
  });

  it("refuses an unreadable time as malformed", () => {
    const unreadable = assertion({}, (xml) => xml.replace(/(<saml:Conditions[^>]*NotBefore=)"[^"]*"/, '$1"soon"'));
    expect(reasonOf(() => checkConditions(unreadable, settings, NOW))).toBe("malformed");
  });
});

describe("bearerConfirmation", () => {
  const confirmation = (data: string, method = BEARER) => `<saml:SubjectConfirmation Method="${method}">${data}</saml:SubjectConfirmation>`;
  const data = (attributes: string) => `<saml:SubjectConfirmationData${attributes}/>`;
  const subject = (...confirmations: string[]) => element(confirmations.join(""));
  const good = ` Recipient="${ACS_URL}" NotOnOrAfter="2026-12-07T06:05:00Z" InResponseTo="${REQUEST_ID}"`;

  it("answers the InResponseTo and NotOnOrAfter of the bearer confirmation that holds", () => {
    expect(bearerConfirmation(subject(confirmation(data(good))), settings, NOW)).toEqual({
      inResponseTo: REQUEST_ID,
      notOnOrAfter: NOW + 5 * MINUTE,
    });
    expect(bearerConfirmation(subject(confirmation(data(` Recipient="${ACS_URL}"`))), settings, NOW)).toEqual({
      inResponseTo: undefined,
      notOnOrAfter: undefined,
    });
  });

  it("finds a holding bearer confirmation after ones that do not hold, and skips other methods", () => {
    const other = confirmation(data(good), "urn:oasis:names:tc:SAML:2.0:cm:holder-of-key");
    const wrongRecipient = confirmation(data(' Recipient="https://evil.example/acs" InResponseTo="_evil"'));
    const holds = confirmation(data(` Recipient="${ACS_URL}" InResponseTo="_second"`));
    expect(bearerConfirmation(subject(other, wrongRecipient, holds), settings, NOW).inResponseTo).toBe("_second");
  });

  it("refuses a subject with no bearer confirmation (recipient)", () => {
    expect(reasonOf(() => bearerConfirmation(subject(), settings, NOW))).toBe("recipient");
    expect(() => bearerConfirmation(subject(), settings, NOW)).toThrow("The SAML assertion has no bearer subject confirmation.");
    const holderOfKey = confirmation(data(good), "urn:oasis:names:tc:SAML:2.0:cm:holder-of-key");
    expect(reasonOf(() => bearerConfirmation(subject(holderOfKey), settings, NOW))).toBe("recipient");
    expect(
      reasonOf(() => bearerConfirmation(subject(`<saml:SubjectConfirmation>${data(good)}</saml:SubjectConfirmation>`), settings, NOW)),
    ).toBe("recipient");
  });

  it("refuses a bearer confirmation without one data element, or with another recipient, or none", () => {
    expect(reasonOf(() => bearerConfirmation(subject(confirmation("")), settings, NOW))).toBe("recipient");
    expect(reasonOf(() => bearerConfirmation(subject(confirmation(data(good) + data(good))), settings, NOW))).toBe("recipient");
    expect(reasonOf(() => bearerConfirmation(subject(confirmation(data(' Recipient="https://evil.example/acs"'))), settings, NOW))).toBe(
      "recipient",
    );
    expect(reasonOf(() => bearerConfirmation(subject(confirmation(data(""))), settings, NOW))).toBe("recipient");
  });

  it("refuses a confirmation outside its window, with the skew; the first failure is the reason when none holds", () => {
    const expired = confirmation(data(` Recipient="${ACS_URL}" NotOnOrAfter="2026-12-07T05:59:00Z"`));
    const early = confirmation(data(` Recipient="${ACS_URL}" NotBefore="2026-12-07T06:01:00.001Z" NotOnOrAfter="2026-12-07T06:05:00Z"`));
    const wrongRecipient = confirmation(data(' Recipient="https://evil.example/acs"'));
    expect(reasonOf(() => bearerConfirmation(subject(expired), settings, NOW))).toBe("expired");
    expect(reasonOf(() => bearerConfirmation(subject(early), settings, NOW))).toBe("notYetValid");
    expect(reasonOf(() => bearerConfirmation(subject(expired, wrongRecipient), settings, NOW))).toBe("expired");
    expect(reasonOf(() => bearerConfirmation(subject(wrongRecipient, expired), settings, NOW))).toBe("recipient");
    const lastMoment = confirmation(data(` Recipient="${ACS_URL}" NotOnOrAfter="2026-12-07T05:59:00.001Z"`));
    expect(bearerConfirmation(subject(lastMoment), settings, NOW).notOnOrAfter).toBe(NOW - SKEW + 1);
  });

  it("refuses an unreadable time in the confirmation as malformed", () => {
    expect(
      reasonOf(() => bearerConfirmation(subject(confirmation(data(` Recipient="${ACS_URL}" NotOnOrAfter="later"`))), settings, NOW)),
    ).toBe("malformed");
  });
});

describe("readNameId and subjectOf", () => {
  const subjectWith = (inner: string) => element(inner);

  it("reads the one NameID's text (untrimmed) and its Format", () => {
    expect(readNameId(subjectOf(assertion()))).toEqual({
      nameId: "ada@corp.example",
      nameIdFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    });
    expect(readNameId(subjectWith("<saml:NameID> 00u-ada </saml:NameID>"))).toEqual({ nameId: " 00u-ada ", nameIdFormat: undefined });
  });

  it("refuses no NameID, two, an empty or blank one, one split by a comment or holding markup (nameId)", () => {
    for (const inner of [
      "",
      "<saml:NameID>a</saml:NameID><saml:NameID>b</saml:NameID>",
      "<saml:NameID/>",
      "<saml:NameID>  \n </saml:NameID>",
      "<saml:NameID>ada@corp.example<!-- -->.evil</saml:NameID>",
      "<saml:NameID><saml:X>ada</saml:X></saml:NameID>",
      `<x:NameID xmlns:x="urn:evil">ada</x:NameID>`,
    ])
      expect(
        reasonOf(() => readNameId(subjectWith(inner))),
        inner,
      ).toBe("nameId");
  });

  it("refuses an assertion without one Subject (malformed)", () => {
    const subjectElement = /<saml:Subject>[\s\S]*<\/saml:Subject>/;
    expect(reasonOf(() => subjectOf(assertion({}, (xml) => xml.replace(subjectElement, ""))))).toBe("malformed");
    expect(() => subjectOf(assertion({}, (xml) => xml.replace(subjectElement, "")))).toThrow("A SAML Assertion must have one Subject.");
    expect(reasonOf(() => subjectOf(assertion({}, (xml) => xml.replace(subjectElement, "$&$&"))))).toBe("malformed");
  });
});

describe("readAttributes", () => {
  const statement = (attributes: string) => `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>`;
  const attribute = (name: string | null, ...values: string[]) =>
    `<saml:Attribute${name === null ? "" : ` Name="${name}"`}>${values.map((v) => `<saml:AttributeValue>${v}</saml:AttributeValue>`).join("")}</saml:Attribute>`;
  const read = (inner: string) => readAttributes(element(inner));

  it("reads each attribute's text values, trimmed, in document order, across statements", () => {
    expect(readAttributes(assertion({ attributes: { email: ["ada@corp.example"], groups: ["Eng", "Ops"] } }))).toEqual({
      email: ["ada@corp.example"],
      groups: ["Eng", "Ops"],
    });
    expect(
      read(statement(attribute("groups", " Eng ", "Ops")) + statement(attribute("groups", "Sales") + attribute("email", "a@x"))),
    ).toEqual({
      groups: ["Eng", "Ops", "Sales"],
      email: ["a@x"],
    });
  });

  it("leaves out attributes without a name and values that hold markup; keeps an attribute without values", () => {
    expect(
      read(
        statement(attribute(null, "x") + attribute("", "y") + attribute("structured", "<saml:X>v</saml:X>", "plain") + attribute("none")),
      ),
    ).toEqual({
      structured: ["plain"],
      none: [],
    });
    expect(read("")).toEqual({});
  });

  it("reads attributes named like an object's own properties as any other, into a plain object", () => {
    const attributes = read(statement(attribute("constructor", "c") + attribute("__proto__", "p") + attribute("toString", "t")));
    expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
    expect(Object.entries(attributes)).toEqual([
      ["constructor", ["c"]],
      ["__proto__", ["p"]],
      ["toString", ["t"]],
    ]);
  });

  it("reads only the assertion's own statements and attributes", () => {
    const nested = `<saml:Other>${statement(attribute("hidden", "h"))}</saml:Other>`;
    expect(read(nested + statement(`<saml:Other>${attribute("deeper", "d")}</saml:Other>`))).toEqual({});
  });
});

describe("readSessionIndex", () => {
  it("is the first AuthnStatement's SessionIndex, or undefined", () => {
    expect(readSessionIndex(assertion())).toBe("_session1");
    expect(readSessionIndex(assertion({ sessionIndex: null }))).toBeUndefined();
    expect(readSessionIndex(element("<saml:AuthnStatement/>"))).toBeUndefined();
    expect(readSessionIndex(element('<saml:AuthnStatement SessionIndex="_first"/><saml:AuthnStatement SessionIndex="_second"/>'))).toBe(
      "_first",
    );
  });
});
