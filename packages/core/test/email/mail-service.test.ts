/**
 * The HTTP mail services (`email/mail-service.ts`) and the shared sign-in mail (`email/template.tsx`),
 * driven directly: each provider's `sendVerificationRequest` against one local node:http server that keeps
 * every request exactly as it arrived (no database, no `Auth()`; the full sign-in through each service is
 * `email-services.test.ts`). The exact request each service gets, the failures an operator sees in the
 * logs, and the escaping of the link and host in the mail are the behaviour stated here.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  apiUrl,
  MAIL_SERVICE_TIMEOUT_MS,
  type MailService,
  MailServiceError,
  mailServiceProvider,
  parseAddress,
  sendThroughService,
} from "../../src/email/mail-service.js";
import { verificationMail } from "../../src/email/template.js";
import Mailgun from "../../src/providers/mailgun.js";
import Postmark from "../../src/providers/postmark.js";
import Resend from "../../src/providers/resend.js";
import SendGrid from "../../src/providers/sendgrid.js";
import type { EmailConfig, SendVerificationRequestParams } from "../../src/providers/types.js";
import type { Theme } from "../../src/types/config.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";

const apiKey = "key-0123456789";
const LINK = "https://app.example.com/auth/callback/x?token=t&email=a%40b.c";

/** A request as the service received it. */
interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

let server: NodeServer;
const received: Received[] = [];
/** The answer of the fake service to the next requests. */
let answer: () => Response = () => new Response(null, { status: 200 });

beforeAll(async () => {
  server = await startNodeServer(
    async (request) => {
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      for (const [name, value] of request.headers)
        if (!["host", "connection", "content-length", "accept-encoding", "accept-language", "sec-fetch-mode", "user-agent"].includes(name))
          headers[name] = value;
      received.push({ method: request.method, path: `${url.pathname}${url.search}`, headers, body: await request.text() });
      return answer();
    },
    { host: "127.0.0.1", basePath: "" },
  );
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  received.length = 0;
  answer = () => new Response(null, { status: 200 });
  vi.restoreAllMocks();
});

function params(provider: EmailConfig, overrides: Partial<SendVerificationRequestParams> = {}): SendVerificationRequestParams {
  return {
    identifier: "ada@example.com",
    url: LINK,
    expires: new Date(Date.now() + 60_000),
    provider,
    token: "t",
    theme: {},
    request: new Request("https://app.example.com/auth/signin/x"),
    ...overrides,
  };
}

const mail = verificationMail({ url: LINK, host: "app.example.com", theme: {} });

describe("the sign-in mail (template)", () => {
  it("is exactly this subject, text and HTML", () => {
    expect(mail.subject).toBe("Sign in to app.example.com");
    expect(mail.text).toBe(
      `Sign in to app.example.com\n${LINK}\n\nIf you did not request this email you can safely ignore it. The link works once.\n`,
    );
    expect(mail.html).toBe(
      '<!doctype html><html lang="en" dir="ltr"><body dir="ltr" style="background:#f9f9f9;margin:0;padding:24px;font-family:Helvetica,Arial,sans-serif">' +
        '<table width="100%" cellpadding="0" cellspacing="0" role="presentation" style="max-width:600px;margin:auto;background:#fff;border-radius:10px">' +
        '<tr><td align="center" style="padding:24px 16px 8px;font-size:22px;color:#444">Sign in to <strong>app.example.com</strong></td></tr>' +
        '<tr><td align="center" style="padding:16px"><a href="https://app.example.com/auth/callback/x?token=t&amp;email=a%40b.c" target="_blank" rel="noreferrer" ' +
        'style="background:#346df1;color:#ffffff;text-decoration:none;border-radius:5px;padding:10px 20px;display:inline-block;font-weight:bold;font-size:18px">Sign in</a></td></tr>' +
        '<tr><td align="center" style="padding:0 16px 24px;font-size:15px;color:#444">If you did not request this email you can safely ignore it. The link works once.</td></tr>' +
        "</table></body></html>",
    );
  });

  it("with a code: the code under the button (HTML) and in a note (text), and the note says both work once", () => {
    const coded = verificationMail({ url: LINK, host: "app.example.com", theme: {}, code: "042917" });
    expect(coded.subject).toBe("Sign in to app.example.com");
    expect(coded.text).toBe(
      `Sign in to app.example.com\n${LINK}\n\nOr type this code in the browser where you asked to sign in: 042917\n\n` +
        "If you did not request this email you can safely ignore it. The link and code work once.\n",
    );
    expect(coded.html).toContain(
      '<tr><td align="center" style="padding:0 16px 16px;font-size:28px;letter-spacing:6px;font-family:monospace;color:#222">042917</td></tr>',
    );
    expect(coded.html.indexOf("042917")).toBeGreaterThan(coded.html.indexOf(">Sign in</a>"));
  });

  it("escapes the link and the host in the HTML", () => {
    const hostile = verificationMail({
      url: "https://app.example.com/cb?x=\"><script>alert(1)</script>&y='",
      host: "<img src=x onerror=alert(1)>",
      theme: {},
    });
    expect(hostile.html).not.toContain("<script>");
    expect(hostile.html).not.toContain("<img");
    expect(hostile.html).toContain('href="https://app.example.com/cb?x=&quot;>&lt;script>alert(1)&lt;/script>&amp;y=\'"');
    expect(hostile.html).toContain("Sign in to <strong>&lt;img src=x onerror=alert(1)></strong>");
    expect(hostile.subject).toBe("Sign in to <img src=x onerror=alert(1)>");
  });

  const styleOf = (theme: Theme) =>
    /style="(background:[^;]*;color:[^;]*);text-decoration/.exec(verificationMail({ url: LINK, host: "h", theme }).html)?.[1];

  it.each<[string, Theme, string]>([
    ["the default colours", {}, "background:#346df1;color:#ffffff"],
    ["a hex brand colour and a named button colour", { brandColor: "#ff0000", buttonText: "black" }, "background:#ff0000;color:black"],
    ["three and eight hex digits, any case", { brandColor: "#AbC", buttonText: "#0011223F" }, "background:#AbC;color:#0011223F"],
    [
      "named colours of 3 and 20 letters, any case",
      { brandColor: "Red", buttonText: "abcdefghijabcdefghij" },
      "background:Red;color:abcdefghijabcdefghij",
    ],
    [
      "CSS injected after a colour",
      { brandColor: "red;background:url(https://evil.example)", buttonText: "#fff;x:y" },
      "background:#346df1;color:#ffffff",
    ],
    ["text before a colour", { brandColor: "x;#fff", buttonText: " red" }, "background:#346df1;color:#ffffff"],
    ["too short or too long", { brandColor: "#12", buttonText: "#123456789" }, "background:#346df1;color:#ffffff"],
    ["names of 2 and 21 letters", { brandColor: "ab", buttonText: "abcdefghijabcdefghijk" }, "background:#346df1;color:#ffffff"],
    ["a hex colour without #, or not hex", { brandColor: "#ggg", buttonText: "12345" }, "background:#346df1;color:#ffffff"],
    ["empty colours", { brandColor: "", buttonText: "" }, "background:#346df1;color:#ffffff"],
  ])("button colours: %s", (_, theme, style) => {
    expect(styleOf(theme)).toBe(style);
  });
});

describe("the request each service gets", () => {
  const at = () => server.origin;

  it("Resend: POST /emails, bearer key, JSON with the mail", async () => {
    const provider = Resend({ apiKey, from: "Demo <no-reply@demo.test>", baseUrl: `${at()}//` });
    await provider.sendVerificationRequest(params(provider));
    expect(received).toEqual([
      {
        method: "POST",
        path: "/emails",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "*/*" },
        body: JSON.stringify({
          from: "Demo <no-reply@demo.test>",
          to: ["ada@example.com"],
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
        }),
      },
    ]);
  });

  it("SendGrid: POST /v3/mail/send, bearer key, the sender split into address and name", async () => {
    const provider = SendGrid({ apiKey, from: '"Demo, Inc" <no-reply@demo.test>', baseUrl: at() });
    await provider.sendVerificationRequest(params(provider));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: "POST", path: "/v3/mail/send" });
    expect(received[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(JSON.parse(received[0]?.body ?? "")).toEqual({
      personalizations: [{ to: [{ email: "ada@example.com" }] }],
      from: { email: "no-reply@demo.test", name: "Demo, Inc" },
      subject: mail.subject,
      content: [
        { type: "text/plain", value: mail.text },
        { type: "text/html", value: mail.html },
      ],
    });
  });

  it("Postmark: POST /email with the server token", async () => {
    const provider = Postmark({ apiKey, baseUrl: at() });
    await provider.sendVerificationRequest(params(provider));
    expect(received[0]).toMatchObject({ method: "POST", path: "/email" });
    expect(received[0]?.headers["x-postmark-server-token"]).toBe(apiKey);
    expect(JSON.parse(received[0]?.body ?? "")).toEqual({
      From: "authlib <no-reply@localhost>",
      To: "ada@example.com",
      Subject: mail.subject,
      HtmlBody: mail.html,
      TextBody: mail.text,
      MessageStream: "outbound",
    });
  });

  it("Mailgun: POST a form to /v3/<domain>/messages with basic auth (the domain taken from `from`)", async () => {
    const provider = Mailgun({ apiKey, from: "no-reply@mg.demo.test", baseUrl: at() });
    await provider.sendVerificationRequest(params(provider));
    expect(received[0]).toMatchObject({ method: "POST", path: "/v3/mg.demo.test/messages" });
    expect(received[0]?.headers.authorization).toBe(`Basic ${btoa(`api:${apiKey}`)}`);
    expect(received[0]?.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(received[0]?.body))).toEqual({
      from: "no-reply@mg.demo.test",
      to: "ada@example.com",
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
  });

  it("the mail shows the host of the link, and the theme's colours", async () => {
    const provider = Resend({ apiKey, baseUrl: at() });
    await provider.sendVerificationRequest(
      params(provider, { url: "http://other.example:8080/auth/callback/resend?token=z", theme: { brandColor: "#123456" } }),
    );
    const body = JSON.parse(received[0]?.body ?? "") as { subject: string; html: string; text: string; from: string };
    expect(body.subject).toBe("Sign in to other.example:8080");
    expect(body.text).toContain("http://other.example:8080/auth/callback/resend?token=z\n");
    expect(body.html).toContain("background:#123456;");
    expect(body.from).toBe("authlib <no-reply@localhost>");
  });

  it("is bounded in time: the fetch carries a signal that aborts after MAIL_SERVICE_TIMEOUT_MS", async () => {
    const timeout = vi.spyOn(AbortSignal, "timeout");
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const provider = Resend({ apiKey, baseUrl: at() });
    await provider.sendVerificationRequest(params(provider));
    expect(MAIL_SERVICE_TIMEOUT_MS).toBe(10_000);
    expect(timeout).toHaveBeenCalledWith(10_000);
    expect(fetchSpy.mock.calls[0]?.[1]?.signal).toBe(timeout.mock.results[0]?.value);
  });
});

describe("failures an operator sees (MailServiceError, logged as the cause of EmailSignInError)", () => {
  const at = () => server.origin;
  const failure = async (provider: EmailConfig) => {
    try {
      await provider.sendVerificationRequest(params(provider));
    } catch (error) {
      return error as Error;
    }
    throw new Error("expected the send to fail");
  };

  it("no API key: named by the env variable, and nothing is sent", async () => {
    const error = await failure(Resend({ baseUrl: at() }));
    expect(error).toBeInstanceOf(MailServiceError);
    expect(error.name).toBe("MailServiceError");
    expect(error.message).toBe("The Resend provider has no API key: set AUTH_RESEND_KEY or `apiKey`.");
    expect((await failure(SendGrid({ id: "my-send-grid", baseUrl: at(), apiKey: "" }))).message).toBe(
      "The SendGrid provider has no API key: set AUTH_MY_SEND_GRID_KEY or `apiKey`.",
    );
    expect(received).toEqual([]);
  });

  it.each([400, 401, 500])("a refusal (HTTP %i) names the service and the status, never the key or the link", async (status) => {
    answer = () => new Response("nope", { status });
    const error = await failure(Postmark({ apiKey, baseUrl: at() }));
    expect(error).toBeInstanceOf(MailServiceError);
    expect(error.message).toBe(`Postmark refused the message (HTTP ${status}).`);
  });

  it("any 2xx is a success, with or without a body", async () => {
    for (const status of [200, 202, 204]) {
      answer = () => (status === 204 ? new Response(null, { status }) : Response.json({ id: "x" }, { status }));
      const provider = Postmark({ apiKey, baseUrl: at() });
      await expect(provider.sendVerificationRequest(params(provider))).resolves.toBeUndefined();
    }
  });

  it("an unreachable service: named, with the network error as its cause", async () => {
    const closed = await startNodeServer(() => new Response(null), { host: "127.0.0.1", basePath: "" });
    await closed.close();
    const error = await failure(Mailgun({ apiKey, domain: "d.test", baseUrl: closed.origin }));
    expect(error).toBeInstanceOf(MailServiceError);
    expect(error.message).toBe("Mailgun could not be reached.");
    expect(error.cause).toBeInstanceOf(TypeError);
  });
});

describe("sendThroughService with a service of one's own", () => {
  it("sends what the service's request says, with the rendered mail and the provider's key", async () => {
    const seen: unknown[] = [];
    const service: MailService<EmailConfig & { baseUrl: string }> = {
      id: "custom",
      name: "Custom",
      baseUrl: server.origin,
      request: (outgoing, provider) => {
        seen.push({ outgoing, key: provider.apiKey });
        return { url: `${provider.baseUrl}/send`, headers: { "x-key": provider.apiKey }, body: "hello" };
      },
    };
    const provider = mailServiceProvider(service, { apiKey, from: "a@b.c" });
    await sendThroughService(service, params(provider));
    expect(seen).toEqual([{ outgoing: { to: "ada@example.com", from: "a@b.c", ...mail }, key: apiKey }]);
    expect(received).toEqual([
      {
        method: "POST",
        path: "/send",
        headers: { "x-key": apiKey, "content-type": "text/plain;charset=UTF-8", accept: "*/*" },
        body: "hello",
      },
    ]);
  });
});

describe("mailServiceProvider: the defaults of a service's provider", () => {
  const service: MailService<EmailConfig & { baseUrl: string }> = {
    id: "svc",
    name: "Svc",
    baseUrl: "https://api.svc.example",
    request: () => ({ url: "", headers: {}, body: "" }),
  };

  it("takes the id, name and base URL of the service, links valid 24 hours, type email", () => {
    const provider = mailServiceProvider(service, {});
    expect(provider).toMatchObject({ id: "svc", name: "Svc", type: "email", maxAge: 86_400, baseUrl: "https://api.svc.example" });
    expect(typeof provider.sendVerificationRequest).toBe("function");
  });

  it("options win over the defaults, except the type; an option set to undefined keeps its default", () => {
    const provider = mailServiceProvider(service, {
      id: "mine",
      name: "Mine",
      maxAge: 60,
      baseUrl: "http://127.0.0.1:1",
      type: "oauth",
    } as never);
    expect(provider).toMatchObject({ id: "mine", name: "Mine", type: "email", maxAge: 60, baseUrl: "http://127.0.0.1:1" });
    const kept = mailServiceProvider(service, { id: undefined, maxAge: undefined, baseUrl: undefined, from: "x@y.z" });
    expect(kept).toMatchObject({ id: "svc", maxAge: 86_400, baseUrl: "https://api.svc.example", from: "x@y.z" });
    expect(Object.keys(kept)).not.toContain(undefined);
    expect("apiKey" in mailServiceProvider(service, { apiKey: undefined })).toBe(false);
  });
});

describe("parseAddress and apiUrl", () => {
  it.each<[string, { email: string; name?: string }]>([
    ["Acme <no-reply@acme.test>", { email: "no-reply@acme.test", name: "Acme" }],
    ['  "Acme, Inc."   <  no-reply@acme.test  >  ', { email: "no-reply@acme.test", name: "Acme, Inc." }],
    ["<no-reply@acme.test>", { email: "no-reply@acme.test" }],
    ['"" <no-reply@acme.test>', { email: "no-reply@acme.test" }],
    ["  no-reply@acme.test  ", { email: "no-reply@acme.test" }],
    ["Acme <a@b> tail", { email: "Acme <a@b> tail" }],
    ["Acme <<a@b>>", { email: "Acme <<a@b>>" }],
    ['a"Acme"b <a@b>', { email: "a@b", name: 'a"Acme"b' }],
  ])("parseAddress(%j)", (address, parts) => {
    expect(parseAddress(address)).toStrictEqual(parts);
  });

  it("apiUrl drops the base URL's trailing slashes only", () => {
    expect(apiUrl("https://api.example", "/v3/x")).toBe("https://api.example/v3/x");
    expect(apiUrl("https://api.example///", "/v3/x")).toBe("https://api.example/v3/x");
    expect(apiUrl("https://api.example/prefix/", "/v3/x")).toBe("https://api.example/prefix/v3/x");
    expect(apiUrl("https://api.example//prefix", "/v3/x")).toBe("https://api.example//prefix/v3/x");
  });
});

describe("parseAddress, the edges", () => {
  it.each<[string, { email: string; name?: string }]>([
    ["<  no-reply@acme.test  >", { email: "no-reply@acme.test" }],
    ["Line one\nAcme <no-reply@acme.test>", { email: "Line one\nAcme <no-reply@acme.test>" }],
    ['a"Acme" <no-reply@acme.test>', { email: "no-reply@acme.test", name: 'a"Acme"' }],
    ['"Acme"b <no-reply@acme.test>', { email: "no-reply@acme.test", name: '"Acme"b' }],
  ])("parseAddress(%j): only a whole quoted name loses its quotes, only a whole line is parsed", (address, parts) => {
    expect(parseAddress(address)).toStrictEqual(parts);
  });
});
