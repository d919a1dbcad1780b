/**
 * Makes SAML responses for tests the way a hostile or broken IdP could: test keys and certificates from the
 * openssl CLI, Response/Assertion XML from a shape (each field replaceable, so a test changes one thing), and
 * signatures from Debian's `xmlsec1` (a tool we did not write), so that the corpus holds shapes a SAML
 * library would refuse to produce (wrapped, duplicated, commented). The signed text can then be edited by
 * the test (moving the signed element, inserting a comment) and `xmlsec1Verifies` tells whether the
 * signature still holds.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SAMLP = "urn:oasis:names:tc:SAML:2.0:protocol";
export const SAML = "urn:oasis:names:tc:SAML:2.0:assertion";
const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";
const ID_ATTRS = ["--id-attr:ID", `${SAMLP}:Response`, "--id-attr:ID", `${SAML}:Assertion`];

/** A scratch folder for keys and the files xmlsec1 reads and writes; `remove()` in afterAll. */
export interface SigningWorkspace {
  dir: string;
  remove(): void;
}

/** A new scratch folder. */
export function signingWorkspace(): SigningWorkspace {
  const dir = mkdtempSync(join(tmpdir(), "authlib-saml-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A test key pair: RSA-2048 private key and self-signed certificate, as PEM text and as files. */
export interface TestKey {
  keyPem: string;
  certPem: string;
  keyFile: string;
  certFile: string;
}

/** Makes an RSA-2048 key and a self-signed certificate with the openssl CLI. */
export function makeTestKey(workspace: SigningWorkspace, name: string): TestKey {
  const keyFile = join(workspace.dir, `${name}.key.pem`);
  const certFile = join(workspace.dir, `${name}.cert.pem`);
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "2"].concat([
      "-subj",
      `/CN=${name}`,
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ]),
    { stdio: "pipe" },
  );
  return { keyPem: readFileSync(keyFile, "utf8"), certPem: readFileSync(certFile, "utf8"), keyFile, certFile };
}

/** An xs:dateTime for an instant in ms. */
export function instant(ms: number): string {
  return new Date(ms).toISOString();
}

/** Escapes text for XML. */
export function escapeXml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Every field of a test response; `null` leaves an optional part out. */
export interface ResponseShape {
  responseId: string;
  assertionId: string;
  /** The Response's Issuer (`null`: none). */
  responseIssuer: string | null;
  /** The Assertion's Issuer. */
  issuer: string;
  destination: string | null;
  /** The Response's InResponseTo. */
  inResponseTo: string | null;
  /** The SubjectConfirmationData's InResponseTo. */
  confirmationInResponseTo: string | null;
  /** The NameID element's content, as raw XML (so a test can put a comment in it). */
  nameIdXml: string;
  nameIdFormat: string | null;
  audiences: string[];
  recipient: string;
  issueInstant: number;
  notBefore: number | null;
  notOnOrAfter: number | null;
  confirmationNotOnOrAfter: number | null;
  sessionIndex: string | null;
  attributes: Record<string, string[]>;
  statusCode: string;
}

/** The XML Signature template xmlsec1 fills in: RSA-SHA256, exclusive C14N, enveloped, over `#id`. */
export function signatureTemplate(id: string): string {
  return (
    '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo>' +
    '<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>' +
    '<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>' +
    `<ds:Reference URI="#${id}"><ds:Transforms>` +
    '<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>' +
    '<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></ds:Transforms>' +
    '<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/></ds:Reference>' +
    "</ds:SignedInfo><ds:SignatureValue/><ds:KeyInfo><ds:X509Data/></ds:KeyInfo></ds:Signature>"
  );
}

const optionalAttribute = (name: string, value: string | null) => (value === null ? "" : ` ${name}="${escapeXml(value)}"`);
const optionalInstant = (name: string, value: number | null) => optionalAttribute(name, value === null ? null : instant(value));

function subjectXml(shape: ResponseShape): string {
  return (
    `<saml:Subject><saml:NameID${optionalAttribute("Format", shape.nameIdFormat)}>${shape.nameIdXml}</saml:NameID>` +
    '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData' +
    `${optionalAttribute("InResponseTo", shape.confirmationInResponseTo)}` +
    `${optionalInstant("NotOnOrAfter", shape.confirmationNotOnOrAfter)} Recipient="${escapeXml(shape.recipient)}"/>` +
    "</saml:SubjectConfirmation></saml:Subject>"
  );
}

function attributesXml(attributes: Record<string, string[]>): string {
  const entries = Object.entries(attributes);
  if (entries.length === 0) return "";
  const body = entries
    .map(([name, values]) => {
      const valueXml = values.map((value) => `<saml:AttributeValue>${escapeXml(value)}</saml:AttributeValue>`).join("");
      return `<saml:Attribute Name="${escapeXml(name)}">${valueXml}</saml:Attribute>`;
    })
    .join("");
  return `<saml:AttributeStatement>${body}</saml:AttributeStatement>`;
}

/** The Assertion element (with its own namespace declaration), with a signature template when `signed`. */
export function assertionXml(shape: ResponseShape, signed: boolean): string {
  const audiences = shape.audiences.map((audience) => `<saml:Audience>${escapeXml(audience)}</saml:Audience>`).join("");
  const authn =
    shape.sessionIndex === null
      ? ""
      : `<saml:AuthnStatement AuthnInstant="${instant(shape.issueInstant)}" SessionIndex="${escapeXml(shape.sessionIndex)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;
  return (
    `<saml:Assertion xmlns:saml="${SAML}" ID="${shape.assertionId}" Version="2.0" IssueInstant="${instant(shape.issueInstant)}">` +
    `<saml:Issuer>${escapeXml(shape.issuer)}</saml:Issuer>${signed ? signatureTemplate(shape.assertionId) : ""}` +
    subjectXml(shape) +
    `<saml:Conditions${optionalInstant("NotBefore", shape.notBefore)}${optionalInstant("NotOnOrAfter", shape.notOnOrAfter)}>` +
    `${audiences.length > 0 ? `<saml:AudienceRestriction>${audiences}</saml:AudienceRestriction>` : ""}</saml:Conditions>` +
    `${authn}${attributesXml(shape.attributes)}</saml:Assertion>`
  );
}

/** The Response element around `assertion` (any XML), with a signature template when `signed`. */
export function responseXml(shape: ResponseShape, assertion: string, signed: boolean): string {
  const issuer = shape.responseIssuer === null ? "" : `<saml:Issuer>${escapeXml(shape.responseIssuer)}</saml:Issuer>`;
  return (
    `<samlp:Response xmlns:samlp="${SAMLP}" xmlns:saml="${SAML}" ID="${shape.responseId}" Version="2.0" IssueInstant="${instant(shape.issueInstant)}"` +
    `${optionalAttribute("Destination", shape.destination)}${optionalAttribute("InResponseTo", shape.inResponseTo)}>` +
    `${issuer}${signed ? signatureTemplate(shape.responseId) : ""}` +
    `<samlp:Status><samlp:StatusCode Value="${escapeXml(shape.statusCode)}"/></samlp:Status>${assertion}</samlp:Response>`
  );
}

/**
 * Signs the first signature template of `xml` with xmlsec1 (`--sign`, the key and its certificate into
 * KeyInfo), IDs of Response and Assertion declared. Returns the signed XML without its XML declaration.
 */
export function xmlsec1Sign(workspace: SigningWorkspace, xml: string, key: TestKey): string {
  const input = join(workspace.dir, `in-${process.pid}-${Math.random().toString(36).slice(2)}.xml`);
  const output = `${input}.signed`;
  writeFileSync(input, xml);
  execFileSync("xmlsec1", ["--sign", "--privkey-pem", `${key.keyFile},${key.certFile}`, ...ID_ATTRS, "--output", output, input], {
    stdio: "pipe",
  });
  const signed = readFileSync(output, "utf8").replace(/^<\?xml[^>]*\?>\s*/, "");
  rmSync(input);
  rmSync(output);
  return signed.trimEnd();
}

/** Whether xmlsec1 verifies the first signature of `xml` with this certificate (to show a tampered text still verifies). */
export function xmlsec1Verifies(workspace: SigningWorkspace, xml: string, key: TestKey): boolean {
  const input = join(workspace.dir, `verify-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(input, xml);
  try {
    execFileSync("xmlsec1", ["--verify", "--pubkey-cert-pem", key.certFile, ...ID_ATTRS, input], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(input);
  }
}

/** Which elements a test response is signed on. */
export type Signing = "assertion" | "response" | "both" | "none";

/**
 * A complete response, signed per `signing` with `key`: the assertion is signed on its own first, then
 * placed in the Response, which is signed around it.
 */
export function signedResponse(workspace: SigningWorkspace, shape: ResponseShape, key: TestKey, signing: Signing): string {
  const signAssertion = signing === "assertion" || signing === "both";
  const signResponse = signing === "response" || signing === "both";
  let assertion = assertionXml(shape, signAssertion);
  if (signAssertion) assertion = xmlsec1Sign(workspace, assertion, key);
  const response = responseXml(shape, assertion, signResponse);
  return signResponse ? xmlsec1Sign(workspace, response, key) : response;
}

/** The base64 form field a browser would POST. */
export function toFormField(xml: string): string {
  return Buffer.from(xml, "utf8").toString("base64");
}

export { SUCCESS as STATUS_SUCCESS };
