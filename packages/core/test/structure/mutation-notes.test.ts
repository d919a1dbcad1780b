/**
 * The equivalent-mutant notes of the mutation tooling (scripts/mutation/equivalent-mutants.mjs) match the
 * source: every anchor is still there exactly once, every inline note's short comment is there, the
 * product's source keeps only short `Stryker disable` comments that point at a note, and the ignorer
 * plugin Stryker runs with (scripts/mutation/equivalent-ignorer.mjs) ignores exactly the mutants the notes
 * name (checked with Stryker's own instrumenter, no mutation run).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Instrumenter } from "@stryker-mutator/instrumenter";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a JavaScript module of the tooling, without types
import { anchorLine, equivalentMutantsIgnorer, locateNoteFile, repositoryRoot } from "../../../../scripts/mutation/equivalent-ignorer.mjs";
// @ts-expect-error: a JavaScript module of the tooling, without types
import { equivalentMutants } from "../../../../scripts/mutation/equivalent-mutants.mjs";

interface Note {
  file: string;
  anchor?: string;
  inline?: true;
  key?: string;
  mutators: string[];
  reason: string;
}

const notes = equivalentMutants as Note[];
const MAX_INLINE_COMMENTS = 15;

const read = (file: string) => readFileSync(join(repositoryRoot, file), "utf8");

/** Every `Stryker disable` comment in the packages' sources, as `file:line text`. */
function disableComments(): Array<{ where: string; text: string }> {
  const found: Array<{ where: string; text: string }> = [];
  for (const pkg of readdirSync(join(repositoryRoot, "packages"))) {
    let files: string[];
    try {
      files = readdirSync(join(repositoryRoot, "packages", pkg, "src"), { recursive: true, encoding: "utf8" });
    } catch {
      continue;
    }
    for (const file of files.filter((f) => /\.[cm]?[jt]sx?$/.test(f))) {
      const path = `packages/${pkg}/src/${file}`;
      read(path)
        .split("\n")
        .forEach((text, index) => {
          if (text.includes("Stryker disable")) found.push({ where: `${path}:${index + 1}`, text });
        });
    }
  }
  return found;
}

describe("equivalent-mutant notes", () => {
  it("each note names a file that exists, its mutators and a one-line reason", () => {
    for (const note of notes) {
      expect(locateNoteFile(note.file), note.file).toBeDefined();
      expect(note.mutators.length, note.file).toBeGreaterThan(0);
      expect(note.reason.trim(), note.file).not.toBe("");
      expect(note.reason, note.file).not.toMatch(/\n|\*\//);
      expect(
        note.anchor !== undefined ? !note.inline : note.inline === true && !!note.key,
        `${note.file}: an anchor, or inline with a key`,
      ).toBe(true);
    }
  });

  it("each anchor occurs exactly once in its file", () => {
    const stale: string[] = [];
    for (const note of notes.filter((n) => n.anchor !== undefined)) {
      const file = locateNoteFile(note.file) as string;
      try {
        anchorLine(read(file), note.anchor as string, file);
      } catch (error) {
        stale.push((error as Error).message);
      }
    }
    expect(stale).toEqual([]);
  });

  it("each inline note's short comment is in its file once, naming its mutators", () => {
    for (const note of notes.filter((n) => n.inline)) {
      const lines = read(locateNoteFile(note.file) as string)
        .split("\n")
        .filter((line) => line.includes(`(see mutation notes: ${note.key})`));
      expect(lines, note.key).toHaveLength(1);
      expect(lines[0], note.key).toContain(
        `Stryker disable ${/next-line/.test(lines[0] as string) ? "next-line " : ""}${note.mutators.join(",")}:`,
      );
    }
  });

  it(`keeps at most ${MAX_INLINE_COMMENTS} Stryker comments in the source, each short and pointing at a note`, () => {
    const comments = disableComments();
    expect(comments.length).toBeLessThanOrEqual(MAX_INLINE_COMMENTS);
    const keys = new Set(notes.filter((n) => n.inline).map((n) => n.key));
    for (const { where, text } of comments) {
      const key = /\(see mutation notes: ([a-z0-9-]+)\)/.exec(text)?.[1];
      expect(
        key !== undefined && keys.has(key),
        `${where}: a Stryker comment points at a note of scripts/mutation/equivalent-mutants.mjs`,
      ).toBe(true);
    }
  });

  it("the ignorer ignores exactly the mutants the notes name, with their reasons", async () => {
    const logger = {
      debug() {},
      info() {},
      trace() {},
      warn(message: string) {
        throw new Error(message);
      },
      error(message: string) {
        throw new Error(message);
      },
      fatal() {},
      isTraceEnabled: () => false,
      isDebugEnabled: () => false,
      isInfoEnabled: () => false,
      isWarnEnabled: () => true,
      isErrorEnabled: () => true,
      isFatalEnabled: () => true,
    };
    const instrumenter = new Instrumenter(logger as never);
    const anchored = notes.filter((n) => n.anchor !== undefined);
    const files = [...new Set(anchored.map((n) => locateNoteFile(n.file) as string))];
    const instrument = async (ignorers: unknown[]) =>
      (
        await instrumenter.instrument(
          files.map((file) => ({ name: join(repositoryRoot, file), mutate: true, content: read(file) })),
          { plugins: null, excludedMutations: [], ignorers: ignorers as never, noHeader: true },
        )
      ).mutants;
    const without = await instrument([]);
    const withNotes = await instrument([equivalentMutantsIgnorer]);
    expect(withNotes.map((m) => m.id)).toEqual(without.map((m) => m.id));

    const newlyIgnored = withNotes.filter((m, i) => m.status === "Ignored" && without[i]?.status !== "Ignored");
    const expected = new Set<string>();
    for (const note of anchored) {
      const file = locateNoteFile(note.file) as string;
      const line = anchorLine(read(file), note.anchor as string, file);
      const hits = without.filter(
        (m) =>
          m.fileName === join(repositoryRoot, file) &&
          m.location.start.line + 1 === line &&
          m.status !== "Ignored" &&
          (note.mutators.includes("all") || note.mutators.includes(m.mutatorName)),
      );
      expect(hits.length, `${file}:${line} ${note.mutators.join(",")}: the note ignores no mutant (stale?)`).toBeGreaterThan(0);
      for (const hit of hits) {
        expected.add(hit.id);
        const ignored = withNotes.find((m) => m.id === hit.id);
        expect(ignored?.statusReason, `${file}:${line} ${hit.mutatorName}`).toBe(note.reason);
      }
    }
    expect(newlyIgnored.map((m) => m.id).sort()).toEqual([...expected].sort());
  });
});
