/**
 * docs/getting-started.md as data: its code blocks by section, so the consumer test runs the guide's own
 * commands and writes the guide's own files instead of copies of them.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const GUIDE = resolve(import.meta.dirname, "../docs/getting-started.md");

/** The guide's sections the consumer test follows, by heading (guide.test.ts accounts for every other command). */
export const SECTIONS = {
  secret: "2. A secret",
  pages: "5. Pages",
  serverOnly: "Server-only objects: `src/server/`, created on first use",
  node: "A Node server",
  cloudflare: "Cloudflare Pages (workerd)",
} as const;

/** One fenced block of the guide, under the nearest `##`/`###` heading before it. */
export interface GuideBlock {
  /** The heading's text, e.g. `A Node server` or `1. An app and the packages`. */
  readonly section: string;
  /** The fence's language: `sh`, `ts`, `tsx`. */
  readonly lang: string;
  readonly text: string;
}

/** A file the guide tells the reader to write: a ts/tsx block whose first line is `// <path>` (and maybe `(<variant>)`). */
export interface GuideFile {
  readonly section: string;
  readonly path: string;
  /** What the parenthesis after the path says (`Cloudflare`), or undefined. */
  readonly variant: string | undefined;
  readonly text: string;
}

/** Every fenced block of the guide, in order. */
export function guideBlocks(text = readFileSync(GUIDE, "utf8")): GuideBlock[] {
  const blocks: GuideBlock[] = [];
  let section = "";
  let fence: { lang: string; lines: string[] } | undefined;
  for (const line of text.split("\n")) {
    if (fence) {
      if (line.startsWith("```")) {
        blocks.push({ section, lang: fence.lang, text: `${fence.lines.join("\n")}\n` });
        fence = undefined;
      } else fence.lines.push(line);
      continue;
    }
    const heading = line.match(/^#{2,3} (.+)$/);
    if (heading) section = heading[1].trim();
    const open = line.match(/^```(\w*)$/);
    if (open) fence = { lang: open[1], lines: [] };
  }
  if (fence) throw new Error("docs/getting-started.md has an unclosed code block");
  return blocks;
}

/** The shell commands of a section (its `sh` blocks, one command a line), in order. */
export function guideCommands(section: string, blocks = guideBlocks()): string[] {
  const commands = blocks
    .filter((block) => block.section === section && block.lang === "sh")
    .flatMap((block) => block.text.split("\n"))
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  if (commands.length === 0) throw new Error(`docs/getting-started.md has no commands under "${section}"`);
  return commands;
}

/** The files of the guide (ts/tsx blocks that begin with `// src/…` or another path), in order. */
export function guideFiles(blocks = guideBlocks()): GuideFile[] {
  const files: GuideFile[] = [];
  for (const block of blocks) {
    if (block.lang !== "ts" && block.lang !== "tsx") continue;
    const first = block.text.split("\n", 1)[0].match(/^\/\/ (src\/\S+)(?: \((.+)\))?$/);
    if (first) files.push({ section: block.section, path: first[1], variant: first[2], text: block.text });
  }
  return files;
}

/**
 * The guide's files for one way of running the app: every unqualified file, a later block of the same path
 * replacing an earlier one (step 7's `plugin@auth.ts` is step 4's grown up), then the files of `variant`.
 */
export function guideFilesFor(variant?: string, files = guideFiles()): Map<string, string> {
  const chosen = new Map<string, string>();
  for (const file of files) if (file.variant === undefined) chosen.set(file.path, file.text);
  for (const file of files) if (variant !== undefined && file.variant === variant) chosen.set(file.path, file.text);
  return chosen;
}
