/**
 * Fetching a client's metadata document (features/authorization-server/client-document.ts) from a real
 * local HTTPS server (a self-signed certificate made with openssl at test time): what it fetches, and every
 * way a client-id URL could make the server reach its own network (private addresses, a second resolution,
 * redirects) or hang on it (size, time).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ClientDocumentFetchOptions,
  checkClientIdUrl,
  clientDocuments,
  fetchClientDocument,
  isPublicAddress,
} from "../../src/features/authorization-server/client-document.js";
import { OAuthError } from "../../src/features/authorization-server/oauth-error.js";

const HOST = "client.example";
let cert = "";
let server: Server;
let port = 0;
/** What the server saw: connections, and each request's path, Host and TLS server name. */
let connections = 0;
let requests: Array<{ path: string; host: string | undefined; servername: string | false }> = [];

function documentOf(path: string, size?: number): string {
  const base = { client_id: `https://${HOST}:${port}${path}`, client_name: "App", pad: "" };
  if (size === undefined) return JSON.stringify(base);
  return JSON.stringify({ ...base, pad: "x".repeat(size - JSON.stringify(base).length) });
}

const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  "/client.json": (_, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(documentOf("/client.json"));
  },
  "/charset.json": (_, response) => {
    response.writeHead(200, { "content-type": "Application/JSON; charset=utf-8" }).end(documentOf("/charset.json"));
  },
  "/vendor.json": (_, response) => {
    response.writeHead(200, { "content-type": "application/vnd.example.client+json" }).end(documentOf("/vendor.json"));
  },
  "/query.json": (request, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ url: request.url }));
  },
  "/redirect": (_, response) => {
    response.writeHead(302, { location: `https://${HOST}:${port}/client.json` }).end();
  },
  "/moved": (_, response) => {
    response.writeHead(301, { location: `https://${HOST}:${port}/client.json`, "content-type": "application/json" }).end("{}");
  },
  "/missing": (_, response) => {
    response.writeHead(404, { "content-type": "application/json" }).end("{}");
  },
  "/empty": (_, response) => {
    response.writeHead(204).end();
  },
  "/html": (_, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end(documentOf("/html"));
  },
  "/text-json": (_, response) => {
    response.writeHead(200, { "content-type": "text/json" }).end(documentOf("/text-json"));
  },
  "/json-prefix": (_, response) => {
    response.writeHead(200, { "content-type": "application/jsonx" }).end(documentOf("/json-prefix"));
  },
  "/no-type": (_, response) => {
    response.removeHeader("content-type");
    response.writeHead(200).end(documentOf("/no-type"));
  },
  "/not-json": (_, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end("{client_id:");
  },
  "/latin1": (_, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(Buffer.from([0x22, 0xe9, 0x22]));
  },
  "/declared-large": (_, response) => {
    // Says 100000 bytes, sends a few, then stalls: only the declared length can refuse it before the timeout.
    response.writeHead(200, { "content-type": "application/json", "content-length": "100000" });
    response.write('{"client_id":');
  },
  "/slow": () => {
    // Never answers.
  },
  "/slow-body": (_, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.write('{"client_id":');
    // The rest never comes.
  },
};

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), "authlib-cimd-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-subj",
        `/CN=${HOST}`,
        "-addext",
        `subjectAltName=DNS:${HOST},IP:127.0.0.1`,
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    cert = readFileSync(join(dir, "cert.pem"), "utf8");
    const key = readFileSync(join(dir, "key.pem"), "utf8");
    server = createServer({ key, cert }, (request, response) => {
      const url = new URL(request.url ?? "/", "https://x");
      requests.push({
        path: url.pathname,
        host: request.headers.host,
        servername: (request.socket as unknown as { servername: string | false }).servername,
      });
      const sized = /^\/size\/(\d+)(-chunked)?$/.exec(url.pathname);
      if (sized) {
        const body = documentOf(url.pathname, Number(sized[1]));
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (!sized[2]) headers["content-length"] = String(Buffer.byteLength(body));
        response.writeHead(200, headers);
        if (sized[2]) for (let i = 0; i < body.length; i += 512) response.write(body.slice(i, i + 512));
        response.end(sized[2] ? undefined : body);
        return;
      }
      const route = routes[url.pathname];
      if (route) route(request, response);
      else response.writeHead(404).end();
    });
    server.on("connection", () => connections++);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return new Promise<void>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      port = (server.address() as AddressInfo).port;
      resolve();
    }),
  );
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  connections = 0;
  requests = [];
});

const at = (path: string, host = HOST) => `https://${host}:${port}${path}`;
/** A resolver that answers `addresses`, counting its calls. */
function resolver(...answers: string[][]) {
  const calls: string[] = [];
  const lookup = async (host: string) => {
    calls.push(host);
    return answers[Math.min(calls.length, answers.length) - 1] ?? [];
  };
  return { lookup, calls };
}
const local = (extra: ClientDocumentFetchOptions = {}): ClientDocumentFetchOptions => ({
  allowPrivateAddresses: true,
  lookup: async () => ["127.0.0.1"],
  ca: cert,
  ...extra,
});

async function refusal(promise: Promise<unknown>): Promise<OAuthError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OAuthError);
  expect((error as OAuthError).code).toBe("invalid_client");
  return error as OAuthError;
}

describe("fetchClientDocument: a document it fetches", () => {
  it("fetches and parses the JSON, at the resolved address, with the host as SNI and Host", async () => {
    const { lookup, calls } = resolver(["127.0.0.1"]);
    const document = await fetchClientDocument(at("/client.json"), { allowPrivateAddresses: true, lookup, ca: cert });
    expect(document).toEqual({ client_id: at("/client.json"), client_name: "App", pad: "" });
    expect(calls).toEqual([HOST]);
    expect(requests).toEqual([{ path: "/client.json", host: `${HOST}:${port}`, servername: HOST }]);
  });

  it.each([["/charset.json"], ["/vendor.json"]])("accepts the JSON content type of %s", async (path) => {
    expect(await fetchClientDocument(at(path), local())).toMatchObject({ client_id: at(path) });
  });

  it("sends the query", async () => {
    expect(await fetchClientDocument(at("/query.json?v=2"), local())).toEqual({ url: "/query.json?v=2" });
  });

  it("connects to an IP host without resolving it", async () => {
    const { lookup, calls } = resolver(["10.9.9.9"]);
    const document = await fetchClientDocument(at("/client.json", "127.0.0.1"), { allowPrivateAddresses: true, lookup, ca: cert });
    expect(document).toMatchObject({ client_name: "App" });
    expect(calls).toEqual([]);
    expect(requests[0]?.host).toBe(`127.0.0.1:${port}`);
  });

  it("accepts a document of exactly maxBytes, with or without a length", async () => {
    expect(await fetchClientDocument(at("/size/5120"), local())).toMatchObject({ client_name: "App" });
    expect(await fetchClientDocument(at("/size/5120-chunked"), local())).toMatchObject({ client_name: "App" });
    expect(await fetchClientDocument(at("/size/300"), local({ maxBytes: 300 }))).toMatchObject({ client_name: "App" });
  });
});

describe("fetchClientDocument: one resolution (DNS rebinding)", () => {
  it("resolves once: a second answer of 127.0.0.1 is never asked for nor used", async () => {
    // The first answer is public (and unreachable here); a fetch that resolved again would reach the server.
    const { lookup, calls } = resolver(["93.184.215.14"], ["127.0.0.1"]);
    await refusal(fetchClientDocument(at("/client.json"), { lookup, ca: cert, timeout: 1000 }));
    expect(calls).toEqual([HOST]);
    expect(connections).toBe(0);
    expect(requests).toEqual([]);
  });

  it("connects to the first checked address, not a later answer", async () => {
    const { lookup, calls } = resolver(["127.0.0.1"], ["192.0.2.1"]);
    expect(await fetchClientDocument(at("/client.json"), { allowPrivateAddresses: true, lookup, ca: cert })).toMatchObject({
      client_name: "App",
    });
    expect(calls).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });
});

describe("fetchClientDocument: which address", () => {
  it("connects to the first of several addresses", async () => {
    // 192.0.2.1 (documentation, unreachable) second: a fetch that used it would time out.
    const { lookup } = resolver(["127.0.0.1", "192.0.2.1"]);
    const document = await fetchClientDocument(at("/client.json"), { allowPrivateAddresses: true, lookup, ca: cert, timeout: 1500 });
    expect(document).toMatchObject({ client_name: "App" });
    expect(requests).toHaveLength(1);
  });
});

describe("fetchClientDocument: private addresses", () => {
  it.each([
    ["127.0.0.1"],
    ["127.255.255.254"],
    ["10.0.0.1"],
    ["172.16.0.1"],
    ["192.168.1.1"],
    ["::1"],
    ["::ffff:127.0.0.1"],
    ["::ffff:7f00:1"],
    ["169.254.169.254"],
    ["100.64.0.1"],
    ["0.0.0.0"],
    ["::"],
    ["fe80::1"],
    ["fd00::1"],
    ["224.0.0.1"],
    ["ff02::1"],
    ["64:ff9b::7f00:1"],
  ])("refuses a host that resolves to %s, before any connection", async (address) => {
    const { lookup, calls } = resolver([address]);
    const error = await refusal(fetchClientDocument(at("/client.json"), { lookup, ca: cert }));
    expect(error.description).toContain(`non-public address (${address})`);
    expect(calls).toHaveLength(1);
    expect(connections).toBe(0);
  });

  it("refuses a host with one private address among public ones, wherever it is", async () => {
    for (const answer of [
      ["93.184.215.14", "127.0.0.1"],
      ["127.0.0.1", "93.184.215.14"],
    ]) {
      const error = await refusal(fetchClientDocument(at("/client.json"), { lookup: async () => answer, ca: cert }));
      expect(error.description).toContain("non-public address (127.0.0.1)");
    }
    expect(connections).toBe(0);
  });

  it.each([["127.0.0.1"], ["[::1]"], ["10.0.0.1"], ["169.254.169.254"]])("refuses the IP host %s without resolving", async (host) => {
    const { lookup, calls } = resolver(["93.184.215.14"]);
    const error = await refusal(fetchClientDocument(`https://${host}:${port}/client.json`, { lookup, ca: cert }));
    expect(error.description).toMatch(/non-public address/);
    expect(calls).toEqual([]);
    expect(connections).toBe(0);
  });

  it.each([[[]], [["not-an-address"]], [["127.0.0.1 "]]])("refuses a resolution to %j", async (answer) => {
    const error = await refusal(
      fetchClientDocument(at("/client.json"), { allowPrivateAddresses: true, lookup: async () => answer, ca: cert }),
    );
    expect(error.description).toMatch(/does not resolve|resolves to no address/);
    expect(connections).toBe(0);
  });

  it("refuses a host whose resolution fails", async () => {
    const lookup = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    const error = await refusal(fetchClientDocument(at("/client.json"), { lookup }));
    expect(error.description).toMatch(/does not resolve/);
  });

  it("resolves with the system's resolver by default (localhost is loopback)", async () => {
    const error = await refusal(fetchClientDocument(at("/client.json", "localhost"), { ca: cert }));
    expect(error.description).toMatch(/non-public address \((127\.0\.0\.1|::1)\)/);
    expect(connections).toBe(0);
  });
});

describe("fetchClientDocument: answers it refuses", () => {
  it.each([
    ["a 302 redirect", "/redirect", /redirect \(302\)/],
    ["a 301 redirect with a JSON body", "/moved", /redirect \(301\)/],
    ["a 404", "/missing", /answered 404/],
    ["a 204", "/empty", /answered 204/],
    ["HTML", "/html", /"text\/html", not JSON/],
    ["text/json", "/text-json", /"text\/json", not JSON/],
    ["application/jsonx", "/json-prefix", /not JSON/],
    ["no content type", "/no-type", /"no content type", not JSON/],
    ["a body that is not JSON", "/not-json", /not JSON/],
    ["a body that is not UTF-8", "/latin1", /not UTF-8/],
  ])("refuses %s", async (_, path, why) => {
    const error = await refusal(fetchClientDocument(at(path), local()));
    expect(error.description).toMatch(why);
  });

  it("follows no redirect: the target is never requested", async () => {
    await refusal(fetchClientDocument(at("/redirect"), local()));
    expect(requests.map((request) => request.path)).toEqual(["/redirect"]);
  });

  it.each([["/size/5121"], ["/size/5121-chunked"], ["/size/20000-chunked"]])("refuses %s (over the default 5120 bytes)", async (path) => {
    const error = await refusal(fetchClientDocument(at(path), local()));
    expect(error.description).toMatch(/larger than 5120 bytes/);
  });

  it("refuses a declared length over maxBytes at once, without waiting for the body", async () => {
    const started = Date.now();
    const error = await refusal(fetchClientDocument(at("/declared-large"), local({ timeout: 2000 })));
    expect(error.description).toMatch(/larger than 5120 bytes/);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("refuses a document over a smaller maxBytes", async () => {
    const error = await refusal(fetchClientDocument(at("/size/301-chunked"), local({ maxBytes: 300 })));
    expect(error.description).toMatch(/larger than 300 bytes/);
  });

  it.each([["/slow"], ["/slow-body"]])("gives up on %s after the timeout", async (path) => {
    const started = Date.now();
    const error = await refusal(fetchClientDocument(at(path), local({ timeout: 300 })));
    expect(error.description).toMatch(/took longer than 300 ms/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("counts the resolution in the timeout", async () => {
    const never = () => new Promise<string[]>(() => {});
    const started = Date.now();
    const error = await refusal(fetchClientDocument(at("/client.json"), { ...local({ timeout: 200 }), lookup: never }));
    expect(error.description).toMatch(/took longer than 200 ms to resolve/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("checks the certificate: a self-signed one is refused without ca", async () => {
    const error = await refusal(fetchClientDocument(at("/client.json"), local({ ca: undefined })));
    expect(error.description).toMatch(/could not be fetched/);
    expect(requests).toEqual([]);
  });

  it("checks the certificate against the URL's host, not the address", async () => {
    const error = await refusal(fetchClientDocument(at("/client.json", "other.example"), local()));
    expect(error.description).toMatch(/could not be fetched/);
    expect(requests).toEqual([]);
  });
});

describe("checkClientIdUrl", () => {
  it.each([
    ["https://app.example/client.json"],
    ["https://app.example:8443/oauth/client"],
    ["https://app.example/client?v=1"],
    ["https://app.example/a/b/"],
  ])("accepts %s", (url) => {
    expect(checkClientIdUrl(url).href).toBe(url);
  });

  it.each([
    ["http:", "http://app.example/client.json", /not an https: URL/],
    ["ftp:", "ftp://app.example/client.json", /not an https: URL/],
    ["a relative URL", "/client.json", /not a URL/],
    ["no path", "https://app.example", /no path/],
    ["the root path", "https://app.example/", /no path/],
    ["a fragment", "https://app.example/client.json#x", /fragment/],
    ["an empty fragment", "https://app.example/client.json#", /fragment/],
    ["a user", "https://user@app.example/client.json", /credentials/],
    ["a user and password", "https://user:pw@app.example/client.json", /credentials/],
    ["an empty userinfo", "https://@app.example/client.json", /credentials/],
    ["a user without slashes", "https:user@app.example/client.json", /credentials/],
    ["a password without slashes", "https::pw@app.example/client.json", /credentials/],
    ["a . segment", "https://app.example/./client.json", /\. or \.\. path segment/],
    ["a .. segment", "https://app.example/a/../client.json", /\. or \.\. path segment/],
    ["a %2e segment", "https://app.example/a/%2e/client.json", /\. or \.\. path segment/],
    ["a %2E%2e segment", "https://app.example/a/%2E%2e/client.json", /\. or \.\. path segment/],
    ["a .%2e segment", "https://app.example/a/.%2e/client.json", /\. or \.\. path segment/],
    ["a final ..", "https://app.example/a/..", /\. or \.\. path segment/],
    ["an upper-case host", "https://APP.example/client.json", /normal form/],
    ["the default port", "https://app.example:443/client.json", /normal form/],
    ["a space", "https://app.example/client .json", /normal form/],
    ["a backslash", "https://app.example\\client.json", /normal form/],
    ["2001 characters", `https://app.example/${"a".repeat(2001 - 20)}`, /longer than 2000/],
  ])("refuses %s", (_, url, why) => {
    let error: unknown;
    try {
      checkClientIdUrl(url);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).code).toBe("invalid_client");
    expect((error as OAuthError).description).toMatch(why);
  });

  it("refuses a non-string", () => {
    expect(() => checkClientIdUrl(42)).toThrow(/not a string/);
  });

  it("refuses http:// before resolving anything", async () => {
    const { lookup, calls } = resolver(["93.184.215.14"]);
    const error = await refusal(fetchClientDocument(`http://${HOST}:${port}/client.json`, { lookup, allowPrivateAddresses: true }));
    expect(error.description).toMatch(/not an https: URL/);
    expect(calls).toEqual([]);
    expect(connections).toBe(0);
  });
});

describe("isPublicAddress", () => {
  it.each([
    ["8.8.8.8"],
    ["93.184.215.14"],
    ["1.0.0.1"],
    ["9.255.255.255"],
    ["11.0.0.0"],
    ["100.63.255.255"],
    ["100.128.0.0"],
    ["126.255.255.255"],
    ["128.0.0.0"],
    ["169.253.255.255"],
    ["169.255.0.0"],
    ["172.15.255.255"],
    ["172.32.0.0"],
    ["192.167.255.255"],
    ["192.169.0.0"],
    ["198.17.255.255"],
    ["198.20.0.0"],
    ["223.255.255.255"],
    ["2606:4700:4700::1111"],
    ["2001:4860:4860::8888"],
    ["2001:4860:4860:0:0:0:0:8888"],
    ["2a00:1450:4001:80b::200e"],
    ["2001:200::1"],
    ["3ffe::1"],
  ])("%s is public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ["0.0.0.0", "unspecified"],
    ["0.255.255.255", "this network"],
    ["10.0.0.0", "private"],
    ["10.255.255.255", "private"],
    ["100.64.0.0", "CGNAT"],
    ["100.127.255.255", "CGNAT"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.255", "loopback"],
    ["169.254.0.0", "link-local"],
    ["169.254.169.254", "cloud metadata"],
    ["172.16.0.0", "private"],
    ["172.31.255.255", "private"],
    ["192.0.0.8", "IETF"],
    ["192.0.2.1", "documentation"],
    ["192.88.99.1", "6to4 relay"],
    ["192.168.0.0", "private"],
    ["192.168.255.255", "private"],
    ["198.18.0.0", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["198.51.100.1", "documentation"],
    ["203.0.113.1", "documentation"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.255", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback, in full"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:8.8.8.8", "IPv4-mapped (any)"],
    ["::FFFF:7F00:1", "IPv4-mapped, in hex"],
    ["::127.0.0.1", "IPv4-compatible"],
    ["64:ff9b::a00:1", "NAT64"],
    ["100::1", "discard"],
    ["fc00::1", "unique-local"],
    ["fdff:ffff::1", "unique-local"],
    ["fe80::1", "link-local"],
    ["febf::1", "link-local"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["2001::1", "Teredo"],
    ["2001:1ff::1", "IETF protocol assignments"],
    ["2001:db8::1", "documentation"],
    ["2002:7f00:1::1", "6to4"],
    ["3fff::1", "documentation (2024)"],
    ["4000::1", "outside 2000::/3"],
    ["1fff::1", "outside 2000::/3"],
  ])("%s is not public (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    [""],
    ["localhost"],
    ["127.1"],
    ["2130706433"],
    ["0x7f.0.0.1"],
    ["010.0.0.1"],
    ["08.8.8.8"],
    ["8.8.8.08"],
    ["8.8.8.256"],
    ["8.8.8.8.8"],
    ["8.8.8"],
    [" 8.8.8.8"],
    ["[2606:4700::1111]"],
    ["2606:4700::1111%eth0"],
    ["2606::4700::1111"],
    ["2606:4700:4700:0:0:0:0:1111:1"],
    ["2606:4700:4700:0:0:0:1111"],
    ["2606:4700:4700::11111"],
    ["2606:4700:4700::8.8.8"],
    ["2606:4700:4700:0:0:0:8.8.8.8:1"],
  ])("%j is no address, so not public", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe("clientDocuments (the cache)", () => {
  let clock = 1_000_000;
  const cached = (extra: Parameters<typeof clientDocuments>[0] = {}) => clientDocuments({ ...local(), now: () => clock, ...extra });
  const paths = () => requests.map((request) => request.path);

  it("fetches a URL once within cacheFor, and gives each caller its own copy", async () => {
    const fetchDocument = cached();
    const first = (await fetchDocument(at("/client.json"))) as Record<string, unknown>;
    first.client_name = "Changed";
    const second = (await fetchDocument(at("/client.json"))) as Record<string, unknown>;
    expect(second).toMatchObject({ client_name: "App" });
    second.client_name = "Changed again";
    expect(await fetchDocument(at("/client.json"))).toMatchObject({ client_name: "App" });
    expect(paths()).toEqual(["/client.json"]);
  });

  it("fetches again at cacheFor seconds, not a millisecond before", async () => {
    const fetchDocument = cached({ cacheFor: 60 });
    clock = 1_000_000;
    await fetchDocument(at("/client.json"));
    clock = 1_000_000 + 60_000 - 1;
    await fetchDocument(at("/client.json"));
    expect(paths()).toHaveLength(1);
    clock = 1_000_000 + 60_000;
    await fetchDocument(at("/client.json"));
    expect(paths()).toHaveLength(2);
  });

  it("keeps a document an hour by default", async () => {
    const fetchDocument = cached();
    clock = 5_000_000;
    await fetchDocument(at("/client.json"));
    clock = 5_000_000 + 3_600_000 - 1;
    await fetchDocument(at("/client.json"));
    expect(paths()).toHaveLength(1);
    clock = 5_000_000 + 3_600_000;
    await fetchDocument(at("/client.json"));
    expect(paths()).toHaveLength(2);
  });

  it("shares one fetch among concurrent requests for a URL", async () => {
    const fetchDocument = cached();
    const documents = await Promise.all([1, 2, 3].map(() => fetchDocument(at("/client.json"))));
    expect(documents.every((document) => (document as { client_name: string }).client_name === "App")).toBe(true);
    expect(documents[0]).not.toBe(documents[1]);
    expect(paths()).toEqual(["/client.json"]);
  });

  it("keeps no failure: the next request fetches again, and is refused again", async () => {
    const fetchDocument = cached();
    await refusal(fetchDocument(at("/missing")));
    await refusal(fetchDocument(at("/missing")));
    expect(paths()).toEqual(["/missing", "/missing"]);
  });

  it("keeps at most maxEntries URLs, dropping the oldest", async () => {
    const fetchDocument = cached({ maxEntries: 2 });
    await fetchDocument(at("/client.json"));
    await fetchDocument(at("/charset.json"));
    await fetchDocument(at("/vendor.json"));
    await fetchDocument(at("/charset.json"));
    await fetchDocument(at("/vendor.json"));
    expect(paths()).toEqual(["/client.json", "/charset.json", "/vendor.json"]);
    await fetchDocument(at("/client.json"));
    expect(paths()).toEqual(["/client.json", "/charset.json", "/vendor.json", "/client.json"]);
  });

  it("fetches with the options given (a private address refused without allowPrivateAddresses)", async () => {
    const fetchDocument = cached({ allowPrivateAddresses: false });
    const error = await refusal(fetchDocument(at("/client.json")));
    expect(error.description).toMatch(/non-public address/);
    expect(connections).toBe(0);
  });
});
