/**
 * Reads a section of packages/qwik/README.md as the consumer tests use it: its `npm install` line and its
 * set-up files, so the docs are what the tests run.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const README = join(resolve(import.meta.dirname, ".."), "packages/qwik/README.md");

/** The text of the README's section under `## <heading>`, up to the next `## `. */
export function readmeSection(heading: string): string {
  const readme = readFileSync(README, "utf8");
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`packages/qwik/README.md has no '## ${heading}' section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Every ts/tsx block of the section whose first line is `// src/<path>`: the file's path and its text. */
export function sectionFiles(section: string): { path: string; text: string }[] {
  const files: { path: string; text: string }[] = [];
  for (const [, body] of section.matchAll(/```tsx?\n([\s\S]*?)```/g)) {
    const first = body.split("\n", 1)[0].match(/^\/\/ (src\/\S+)$/);
    if (first) files.push({ path: first[1], text: body });
  }
  return files;
}

/** The words after `npm install` in the section's install line (`-D @authlib/qwik …`). */
export function sectionInstall(section: string): string[] {
  const line = section.match(/^npm install (.+)$/m);
  if (!line) throw new Error("the README section has no `npm install` line");
  return line[1].trim().split(/\s+/);
}
