// A real SMTP server (smtp-server) on 127.0.0.1 in a child process of its own, for the benches that send
// mail: the app's process then pays for sending a mail as it would with a mail server on another host,
// and its CPU time is the app's alone. The sink keeps only what a bench checks of each mail (envelope
// recipients, subject, size); it parses nothing else, so every mail costs it the same.
//   const sink = await startSmtpSink(); … sink.transport … await sink.take(); await sink.close();
import { fork } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Starts the sink in a child process and resolves when it listens. `transport` is the Nodemailer server
 * option for it; `take()` resolves the mails received since the last `take()` (in order of arrival), each
 * `{ to, subject, bytes }`. A mail is in the sink before the SMTP client hears it was accepted, so after a
 * request that sent one has been answered, the next `take()` holds it.
 */
export async function startSmtpSink() {
  const child = fork(fileURLToPath(import.meta.url), ["--child"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const pending = [];
  let listening;
  const ready = new Promise((resolve, reject) => {
    listening = resolve;
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the SMTP sink exited (${code}) before listening`)));
  });
  child.on("message", (message) => {
    if (message.type === "listening") listening(message.port);
    if (message.type === "mails") pending.shift()?.resolve(message.mails);
  });
  const port = await ready;
  child.removeAllListeners("exit");
  // A sink that dies later fails the takes that wait for it rather than leaving them hanging.
  child.once("exit", (code) => {
    for (const take of pending.splice(0)) take.reject(new Error(`the SMTP sink exited (${code})`));
  });
  return {
    port,
    transport: { host: "127.0.0.1", port, secure: false, ignoreTLS: true },
    take: () =>
      new Promise((resolve, reject) => {
        pending.push({ resolve, reject });
        child.send({ type: "take" });
      }),
    close: () =>
      new Promise((resolve) => {
        child.removeAllListeners("exit");
        child.once("exit", () => resolve());
        child.send({ type: "close" });
      }),
  };
}

/** The `Subject` header of a raw mail (unfolded), or `null`. */
function subjectOf(raw) {
  const headers = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
  return headers.match(/^subject: *(.*)$/im)?.[1].trim() ?? null;
}

async function runChild() {
  const { SMTPServer } = await import("smtp-server");
  let mails = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    disableReverseLookup: true,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on("data", (chunk) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        const to = session.envelope.rcptTo.map((r) => r.address);
        mails.push({ to, subject: subjectOf(raw.toString("latin1")), bytes: raw.length });
        callback();
      });
    },
  });
  server.listen(0, "127.0.0.1", () => process.send({ type: "listening", port: server.server.address().port }));
  process.on("message", (message) => {
    if (message.type === "take") {
      process.send({ type: "mails", mails });
      mails = [];
    }
    if (message.type === "close") server.close(() => process.exit(0));
  });
  // The parent is gone (killed, crashed): stop listening.
  process.on("disconnect", () => process.exit(0));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes("--child")) await runChild();
