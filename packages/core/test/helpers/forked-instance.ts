/**
 * An authlib instance in a child process, for the tests of what instances share (the refresh lease, the
 * session registry). The child (`refresh-instance.ts`, `session-instance.ts`) runs under `tsx`, sends
 * `{ ready: true }` once its connections are open, answers each `{ id, … }` message with `{ id, … }`, and
 * closes its connections and exits on `{ close: true }`.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/** A running child instance. */
export interface ForkedInstance<Command extends object, Reply> {
  /** Sends `command` with a fresh id; resolves with the child's reply to it. */
  ask(command: Command): Promise<Reply>;
  /** Asks the child to close and waits for it to exit. */
  close(): Promise<void>;
}

/**
 * Starts `script` (a URL, resolved like an import) with only `env` (and PATH, HOME) in its environment,
 * and waits until it says it is ready.
 */
export async function forkInstance<Command extends object, Reply>(
  script: URL,
  env: Record<string, string>,
): Promise<ForkedInstance<Command, Reply>> {
  const child: ChildProcess = fork(fileURLToPath(script), [], {
    execArgv: ["--import", "tsx"],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, (reply: Reply) => void>();
  let nextId = 0;
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`instance exited with ${code} before it was ready`)));
    child.on("message", (message: { ready?: true; id?: number }) => {
      if (message.ready) resolve();
      else if (message.id !== undefined) pending.get(message.id)?.(message as Reply);
    });
  });
  child.removeAllListeners("exit");
  return {
    ask(command) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        child.send({ id, ...command });
      });
    },
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send({ close: true });
      await exited;
    },
  };
}
