/**
 * Test fixture: SimpleSAMLphp (Debian's `simplesamlphp` 1.19 package, /usr/share/simplesamlphp) as a SAML 2.0
 * identity provider, served by PHP's built-in server on 127.0.0.1 (a free port), with users and one SP.
 *
 * ```ts
 * const idp = await startSimpleSamlPhp({
 *   sp: { entityId: "https://app.example/sp", acsUrl: "http://localhost:3000/auth/saml/acs" },
 *   users: [{ username: "ada", password: "pw", attributes: { email: ["ada@example.com"], groups: ["a", "b"] } }],
 * });
 * // idp.ssoUrl takes HTTP-Redirect AuthnRequests; idp.certificatePem is what the SP trusts
 * await idp.stop();
 * ```
 *
 * Everything lives in a temp dir that `stop()` removes: `config/config.php` (found through
 * `SIMPLESAMLPHP_CONFIG_DIR`), `config/authsources.php` (an `exampleauth:UserPass` source),
 * `metadata/saml20-idp-hosted.php` and `metadata/saml20-sp-remote.php`, a fresh key and certificate, and the
 * session, temp, data and log dirs. Nothing under /usr/share or /etc is touched. The PHP files only
 * `json_decode` JSON files written beside them, so no test value is ever spliced into PHP source.
 *
 * Needs PHP's DOM extension (Debian's `php-xml`), which the simplesamlphp package does not depend on: without
 * it every message fails with `Class "DOMDocument" not found` (.ci/run installs it).
 *
 * Gotchas of this version, handled in the temp config:
 * - The Debian config.php names /etc and /var paths, syslog and a root-only secrets file; ours replaces it
 *   whole (absolute `metadatadir`, `certdir`, `datadir`, `tempdir`, `loggingdir`, a random `secretsalt`).
 * - `baseurlpath` is the full `http://127.0.0.1:<port>/`: the built-in server serves the `www` dir at `/`,
 *   not under Debian's `simplesamlphp/` alias.
 * - The session and language cookies default to `Secure` (and `SameSite=None`), which a browser drops on
 *   plain http; ours are not secure and `SameSite=Lax` (the ACS is another port of the same site).
 * - `exampleauth` is disabled by default (`default-disable`); `module.enable` turns it on, and
 *   `enable.saml20-idp` the IdP.
 * - PHP sessions (`store.type` phpsession) are saved in the temp dir, not /var/lib/php/sessions.
 * - The IdP-wide authproc filters of Debian's config (consent, attribute maps) are not loaded: the SP gets
 *   the user's attributes as they are, named as in `users`, with the `basic` name format.
 * - Its error pages answer HTTP 200, so start-up waits for a metadata document, not for any 200 answer.
 * - The NameID comes from a hidden attribute (`saml:AttributeNameID`) that a `core:PHP` filter then removes,
 *   so it is the user's `nameId` (default the username) in the chosen format, not a hash of it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createSigningIdentity,
  freeLoopbackPort,
  PERSISTENT_NAMEID,
  type SamlServiceProvider,
  type SamlTestUser,
  type TestSamlIdp,
} from "./saml-fixture.js";

/** Where the Debian package keeps the PHP application; its `www` dir is the built-in server's docroot. */
const SIMPLESAMLPHP_HOME = "/usr/share/simplesamlphp";

/** The attribute that carries the NameID value to `saml:AttributeNameID`; removed before the assertion is built. */
const NAMEID_ATTRIBUTE = "authlib-fixture-nameid";

/** Options of {@link startSimpleSamlPhp}. */
export interface SimpleSamlPhpOptions {
  sp: SamlServiceProvider;
  users: SamlTestUser[];
  /** Sign the assertion (`saml20.sign.assertion`). Default true. */
  signAssertion?: boolean;
  /** Sign the response (`saml20.sign.response`). Default true. */
  signResponse?: boolean;
  /** The NameID format. Default persistent. */
  nameIdFormat?: string;
}

/** SimpleSAMLphp did not start, or was given options it cannot represent. */
export class SimpleSamlPhpStartError extends Error {
  override name = "SimpleSamlPhpStartError";
}

/** A PHP file that reads its array from the JSON file beside it (into `$config` or `$metadata`). */
function phpReadingJson(variable: "config" | "metadata", jsonFile: string, extra = ""): string {
  return `<?php\n$${variable} = json_decode(file_get_contents(__DIR__ . '/${jsonFile}'), true, 512, JSON_THROW_ON_ERROR);\n${extra}`;
}

function mainConfig(dir: string, url: string): Record<string, unknown> {
  const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("hex");
  return {
    baseurlpath: `${url}/`,
    certdir: join(dir, "cert"),
    loggingdir: join(dir, "log"),
    datadir: join(dir, "data"),
    tempdir: join(dir, "tmp"),
    metadatadir: join(dir, "metadata"),
    secretsalt: random(),
    "auth.adminpassword": random(),
    technicalcontact_name: "authlib tests",
    technicalcontact_email: "tests@example.com",
    timezone: "UTC",
    "enable.saml20-idp": true,
    "module.enable": { exampleauth: true, core: true, saml: true },
    "admin.protectmetadata": false,
    "admin.checkforupdates": false,
    // Errors show on the IdP's page (where a failing test's diagnosis reads them), never mailed.
    showerrors: true,
    errorreporting: false,
    production: true,
    "logging.handler": "file",
    "logging.logfile": "simplesamlphp.log",
    "store.type": "phpsession",
    "session.phpsession.savepath": join(dir, "sessions"),
    "session.cookie.secure": false,
    "session.cookie.samesite": "Lax",
    "language.cookie.secure": false,
    "language.cookie.samesite": "Lax",
    "metadata.sources": [{ type: "flatfile" }],
  };
}

function authSources(users: SamlTestUser[]): Record<string, unknown> {
  const source: Record<string, unknown> = { 0: "exampleauth:UserPass" };
  for (const user of users) {
    if (user.username.includes(":") || user.username === "") {
      throw new SimpleSamlPhpStartError(
        `username ${JSON.stringify(user.username)}: exampleauth:UserPass needs a non-empty name without ":"`,
      );
    }
    source[`${user.username}:${user.password}`] = { ...user.attributes, [NAMEID_ATTRIBUTE]: [user.nameId ?? user.username] };
  }
  return { users: source };
}

function spRemote(options: SimpleSamlPhpOptions): Record<string, unknown> {
  const format = options.nameIdFormat ?? PERSISTENT_NAMEID;
  const sp: Record<string, unknown> = {
    AssertionConsumerService: [{ Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST", Location: options.sp.acsUrl, index: 0 }],
    NameIDFormat: format,
    "saml20.sign.assertion": options.signAssertion ?? true,
    "saml20.sign.response": options.signResponse ?? true,
    "attributes.NameFormat": "urn:oasis:names:tc:SAML:2.0:attrname-format:basic",
    authproc: [
      { class: "saml:AttributeNameID", attribute: NAMEID_ATTRIBUTE, Format: format },
      { class: "core:PHP", code: `unset($attributes['${NAMEID_ATTRIBUTE}']);` },
    ],
  };
  if (options.sp.certificatePem) {
    sp.certData = options.sp.certificatePem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, "");
    sp["validate.authnrequest"] = true;
  }
  return { [options.sp.entityId]: sp };
}

/** Writes the whole configuration for an IdP at `url` into `dir`; answers the IdP's entity id and certificate. */
async function writeConfiguration(
  dir: string,
  url: string,
  options: SimpleSamlPhpOptions,
): Promise<{ entityId: string; certificatePem: string }> {
  for (const sub of ["config", "metadata", "cert", "log", "data", "tmp", "sessions"]) await mkdir(join(dir, sub), { recursive: true });
  const identity = await createSigningIdentity("SimpleSAMLphp test IdP");
  await writeFile(join(dir, "cert", "idp.key"), identity.privateKeyPem, { mode: 0o600 });
  await writeFile(join(dir, "cert", "idp.crt"), identity.certificatePem);
  const entityId = `${url}/saml2/idp/metadata.php`;
  const hosted = { [entityId]: { host: "__DEFAULT__", privatekey: "idp.key", certificate: "idp.crt", auth: "users" } };
  const files: Array<[string, string]> = [
    ["config/config.json", JSON.stringify(mainConfig(dir, url))],
    // The log level is a PHP constant, so it is the one line set in PHP rather than JSON.
    ["config/config.php", phpReadingJson("config", "config.json", "$config['logging.level'] = SimpleSAML\\Logger::WARNING;\n")],
    ["config/authsources.json", JSON.stringify(authSources(options.users))],
    ["config/authsources.php", phpReadingJson("config", "authsources.json")],
    ["metadata/saml20-idp-hosted.json", JSON.stringify(hosted)],
    ["metadata/saml20-idp-hosted.php", phpReadingJson("metadata", "saml20-idp-hosted.json")],
    ["metadata/saml20-sp-remote.json", JSON.stringify(spRemote(options))],
    ["metadata/saml20-sp-remote.php", phpReadingJson("metadata", "saml20-sp-remote.json")],
  ];
  for (const [name, content] of files) await writeFile(join(dir, name), content);
  return { entityId, certificatePem: identity.certificatePem };
}

/** The last lines a process wrote (the built-in server logs each request), for a start-up failure's message. */
function outputTail(child: ChildProcess): () => string {
  let tail = "";
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return () => tail;
}

/** Kills `child` (TERM, then KILL if it lingers) and resolves once it has exited. */
function killAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * Polls the metadata URL until SimpleSAMLphp answers it (the configuration loaded and the IdP is on), or
 * the process exits (e.g. the port was taken), or 20 s pass. Answers the metadata document, or undefined
 * when the process exited.
 */
async function waitForMetadata(child: ChildProcess, metadataUrl: string, tail: () => string): Promise<string | undefined> {
  const exited = new Promise<undefined>((resolve) => child.once("exit", () => resolve(undefined)));
  const deadline = Date.now() + 20_000;
  let last = "";
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return undefined;
    try {
      const response = await fetch(metadataUrl);
      const body = await response.text();
      // An error page can name EntityDescriptor too: the document must begin with one.
      if (response.ok && /^\s*(<\?xml[^>]*>\s*)?<(\w+:)?EntityDescriptor\b/.test(body)) return body;
      last = `HTTP ${response.status}: ${body.slice(0, 2000)}`;
    } catch (error) {
      last = String(error);
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  throw new SimpleSamlPhpStartError(`SimpleSAMLphp did not serve its metadata in 20 s. Last answer: ${last}\nServer output: ${tail()}`);
}

/** Children still running, killed if the test process exits without calling `stop()` (no orphan php). */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Starts SimpleSAMLphp as an IdP for `options.sp`. See the module comment. */
export async function startSimpleSamlPhp(options: SimpleSamlPhpOptions): Promise<TestSamlIdp> {
  const dir = await mkdtemp(join(tmpdir(), "authlib-simplesamlphp-"));
  try {
    // A port can be taken between probing it and PHP binding it: then PHP exits and we try another.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const port = await freeLoopbackPort();
      const url = `http://127.0.0.1:${port}`;
      const { entityId, certificatePem } = await writeConfiguration(dir, url, options);
      const child = spawn("php", ["-S", `127.0.0.1:${port}`, "-t", join(SIMPLESAMLPHP_HOME, "www")], {
        env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: join(dir, "config") },
        stdio: ["ignore", "pipe", "pipe"],
      });
      running.add(child);
      child.once("exit", () => running.delete(child));
      const tail = outputTail(child);
      let metadataXml: string | undefined;
      try {
        metadataXml = await waitForMetadata(child, `${url}/saml2/idp/metadata.php`, tail);
      } catch (error) {
        await killAndWait(child);
        throw error;
      }
      if (metadataXml === undefined) {
        if (attempt === 3) throw new SimpleSamlPhpStartError(`php -S exited on start: ${tail()}`);
        continue;
      }
      let stopped: Promise<void> | undefined;
      return {
        url,
        entityId,
        ssoUrl: `${url}/saml2/idp/SSOService.php`,
        // SimpleSAMLphp's own IdP-first entry: SSOService.php names the SP with `spentityid`.
        idpInitiatedUrl: `${url}/saml2/idp/SSOService.php?spentityid=${encodeURIComponent(options.sp.entityId)}`,
        metadataXml,
        certificatePem,
        stop() {
          stopped ??= killAndWait(child).then(() => rm(dir, { recursive: true, force: true }));
          return stopped;
        },
      };
    }
    throw new SimpleSamlPhpStartError("php -S could not bind a loopback port");
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
