/**
 * The StrykerJS ignore-plugin `equivalent-mutants` (stryker.config.mjs `plugins` and `ignorers`): applies
 * the notes of ./equivalent-mutants.mjs, so the product's source needs no `// Stryker disable` comment
 * for them.
 *
 * A Stryker ignorer can only ignore whole nodes: every mutator of them and of everything inside. A note
 * names mutators on one line, as a `// Stryker disable next-line` comment does, so this ignorer never
 * ignores a node itself. When Stryker enters a file's Program node, it finds each note's line by its
 * anchor and gives the outermost nodes starting on that line the directive
 * `Stryker disable next-line <mutators>: <reason>` as a leading comment, the place a comment written above
 * the line would have. Stryker reads a node's directives as it enters it, before it makes the node's
 * mutants (and the ignorer is asked about the node in between: the comment is taken off again there, so
 * no mutant's code carries it). A `next-line` directive covers the mutants of every node that starts on
 * the line of the node carrying it: the same mutants, with the same reason, as the comment in the source
 * (packages/core/test/structure/mutation-notes.test.ts checks this with Stryker's instrumenter). A note whose anchor
 * is gone, or no longer unique, stops the run.
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { declareValuePlugin, PluginKind } from "@stryker-mutator/api/plugin";
import { equivalentMutants } from "./equivalent-mutants.mjs";

/** The repository's root. */
export const repositoryRoot = resolve(import.meta.dirname, "../..");

/**
 * Where a note's `file` is now (relative to the root, `/`-separated): the path itself, or else, when a
 * file was moved inside its package's `src`, the one file there with the same name. Undefined when there
 * is none or more than one.
 * @param {string} file
 * @returns {string | undefined}
 */
export function locateNoteFile(file) {
  if (existsSync(join(repositoryRoot, file))) return file;
  const srcRoot = file.split("/").slice(0, 3).join("/"); // packages/<name>/src
  if (!existsSync(join(repositoryRoot, srcRoot))) return undefined;
  const name = basename(file);
  const found = readdirSync(join(repositoryRoot, srcRoot), { recursive: true, encoding: "utf8" }).filter((f) => basename(f) === name);
  return found.length === 1 ? `${srcRoot}/${found[0].split(sep).join("/")}` : undefined;
}

/**
 * The 1-based number of the one line of `code` whose trimmed text is `anchor`; throws when there is not
 * exactly one.
 * @param {string} code
 * @param {string} anchor
 * @param {string} file for the message
 * @returns {number}
 */
export function anchorLine(code, anchor, file) {
  const lines = code.split("\n").flatMap((text, index) => (text.trim() === anchor ? [index + 1] : []));
  if (lines.length !== 1) {
    throw new Error(
      `scripts/mutation/equivalent-mutants.mjs: the anchor ${JSON.stringify(anchor)} occurs ${lines.length} times in ${file} (it must occur once): update or remove the note.`,
    );
  }
  return /** @type {number} */ (lines[0]);
}

/** The directive a note stands for (a block comment: a copy Stryker prints into a mutant cannot end a line early). */
function directive(note) {
  return `Stryker disable next-line ${note.mutators.join(",")}: ${note.reason}`;
}

/**
 * The outermost AST nodes under `node` that start on `line` (no ancestor of theirs starts there): Stryker
 * enters one of them before any other node that starts on the line.
 */
function outermostNodesOn(node, line, found = []) {
  if (node.loc?.start.line === line) {
    found.push(node);
    return found;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "loc" || key === "extra" || key.endsWith("Comments")) continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child && typeof child === "object" && typeof child.type === "string") outermostNodesOn(child, line, found);
    }
  }
  return found;
}

/** The leading comments a node had before a directive was added to it: put back once Stryker has read it. */
const originalComments = new WeakMap();

/** The notes applied by this ignorer (not the inline ones), by the file they are in now. */
export function notesByFile() {
  /** @type {Map<string, Array<{ anchor: string, mutators: string[], reason: string, file: string }>>} */
  const byFile = new Map();
  for (const note of equivalentMutants) {
    if (!("anchor" in note)) continue;
    const file = locateNoteFile(note.file);
    if (file === undefined) throw new Error(`scripts/mutation/equivalent-mutants.mjs: ${note.file} is gone: update or remove its notes.`);
    byFile.set(file, [...(byFile.get(file) ?? []), note]);
  }
  return byFile;
}

/** @type {ReturnType<typeof notesByFile> | undefined} */
let notesOfFiles;

/** @type {import("@stryker-mutator/api/ignore").Ignorer} */
export const equivalentMutantsIgnorer = {
  shouldIgnore(path) {
    // Stryker has read this node's directives; its mutants are made next, from the node as written.
    if (originalComments.has(path.node)) {
      path.node.leadingComments = originalComments.get(path.node);
      originalComments.delete(path.node);
    }
    if (!path.isProgram()) return undefined;
    const hub = /** @type {{ file?: { opts?: { filename?: string } }, getCode?: () => string }} */ (path.hub);
    const filename = hub?.file?.opts?.filename;
    if (!filename) return undefined;
    const file = relative(repositoryRoot, filename).split(sep).join("/");
    notesOfFiles ??= notesByFile();
    const notes = notesOfFiles.get(file);
    if (!notes) return undefined;
    const code = /** @type {() => string} */ (hub.getCode)();
    for (const note of notes) {
      const line = anchorLine(code, note.anchor, file);
      const at = { line, column: 0 };
      const comment = { type: "CommentBlock", value: ` ${directive(note)} `, loc: { start: at, end: at } };
      for (const node of outermostNodesOn(path.node, line)) {
        if (!originalComments.has(node)) originalComments.set(node, node.leadingComments);
        node.leadingComments = [...(node.leadingComments ?? []), comment];
      }
    }
    return undefined;
  },
};

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, "equivalent-mutants", equivalentMutantsIgnorer)];
