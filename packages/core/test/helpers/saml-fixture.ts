/**
 * What the SAML identity-provider fixtures share (SimpleSAMLphp in `simplesamlphp.ts`, npm `samlp` in
 * `samlp-idp.ts`): the service provider they are told about, a test user, the running IdP's shape, and a
 * fresh signing key and self-signed certificate per IdP (openssl).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/** The service provider an IdP fixture answers: its entity id and where responses are posted. */
export interface SamlServiceProvider {
  /** The SP's entity id; AuthnRequests must name it as their `Issuer`, assertions name it as audience. */
  entityId: string;
  /** The SP's Assertion Consumer Service URL (HTTP-POST binding). */
  acsUrl: string;
  /**
   * The SP's signing certificate (PEM). When given, SimpleSAMLphp requires signed AuthnRequests from
   * this SP (`validate.authnrequest`) and checks them with it.
   */
  certificatePem?: string;
}

/** A user who can sign in at an IdP fixture. */
export interface SamlTestUser {
  /** The login name typed at the IdP (no `:`, which SimpleSAMLphp's `exampleauth:UserPass` splits on). */
  username: string;
  password: string;
  /** The SAML NameID sent for this user; default the username. */
  nameId?: string;
  /** SAML attributes by name, each with its values (several values make a multi-valued attribute). */
  attributes: Record<string, string[]>;
}

/** A running IdP fixture. */
export interface TestSamlIdp {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The IdP's entity id (the `Issuer` of its responses). */
  entityId: string;
  /** The SingleSignOnService URL (HTTP-Redirect binding): where an SP sends the browser with `SAMLRequest`. */
  ssoUrl: string;
  /**
   * Starts an IdP-initiated (unsolicited) sign-in to the SP: a browser sent here signs in and is posted a
   * response with no `InResponseTo`. Add `RelayState` to the query to have it sent along.
   */
  idpInitiatedUrl: string;
  /** The IdP's metadata document as the IdP serves it. */
  metadataXml: string;
  /** The IdP's signing certificate (PEM): what an SP trusts. */
  certificatePem: string;
  /** Stops the IdP and removes everything it wrote. Safe to call twice. */
  stop(): Promise<void>;
}

/** The NameID format the fixtures use unless told otherwise: a stable, opaque identifier per user. */
export const PERSISTENT_NAMEID = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";

/** A private key (PKCS#8 PEM) and its self-signed certificate (PEM). */
export interface SigningIdentity {
  privateKeyPem: string;
  certificatePem: string;
}

const run = promisify(execFile);

/**
 * A fresh RSA-2048 key and a self-signed SHA-256 certificate for `commonName`, valid for two days, made by
 * the openssl CLI. (`@peculiar/x509` would do in process, but its CommonJS build, which vitest loads here,
 * needs a `reflect-metadata` polyfill that the tests do not install.)
 */
export async function createSigningIdentity(commonName: string): Promise<SigningIdentity> {
  const dir = await mkdtemp(join(tmpdir(), "authlib-saml-key-"));
  try {
    const keyFile = join(dir, "key.pem");
    const certificateFile = join(dir, "cert.pem");
    await run(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-sha256", "-nodes", "-days", "2"].concat([
        "-subj",
        `/CN=${commonName}`,
        "-keyout",
        keyFile,
        "-out",
        certificateFile,
      ]),
    );
    return { privateKeyPem: await readFile(keyFile, "utf8"), certificatePem: await readFile(certificateFile, "utf8") };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The base64 body of a PEM certificate without armour or line breaks, as metadata's `X509Certificate` holds it. */
export function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
}

/** A TCP port on 127.0.0.1 that was free a moment ago (the caller retries if another process takes it first). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
