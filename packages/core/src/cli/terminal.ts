/**
 * Where the command line writes, and whether it may colour: only when stdout is a terminal and
 * `NO_COLOR` is unset (https://no-color.org), so pipes, files and CI logs get plain text.
 *
 * @module cli/terminal
 */

/** The command line's view of its process: output streams, environment, working directory, colour. */
export interface Terminal {
  /** Writes to stdout. */
  out(text: string): void;
  /** Writes to stderr. */
  err(text: string): void;
  /** The environment variables. */
  env: Readonly<Record<string, string | undefined>>;
  /** The working directory: relative paths (`.env`, `--config`) are resolved against it. */
  cwd: string;
  /** Whether output may carry ANSI colours. */
  colour: boolean;
}

/** True when output may be coloured: a TTY, and `NO_COLOR` unset or empty. */
export function colourAllowed(isTTY: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "");
}

/** The terminal of this process. */
export function processTerminal(): Terminal {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    colour: colourAllowed(process.stdout.isTTY, process.env),
  };
}

const STYLES = { red: 31, yellow: 33, green: 32, bold: 1, dim: 2 } as const;

/** `text` in `style` when the terminal allows colour, else `text` unchanged. */
export function paint(terminal: Pick<Terminal, "colour">, style: keyof typeof STYLES, text: string): string {
  return terminal.colour ? `\u001b[${STYLES[style]}m${text}\u001b[0m` : text;
}
