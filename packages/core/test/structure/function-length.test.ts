/**
 * No function in the packages' sources is longer than 60 lines (the measure of
 * `scripts/long-functions.mjs`: from a function's first token to its end, both lines counted). The
 * allow-list names the functions still being split; it can only shrink: a name on it whose function is
 * gone or short again fails the test too, so the entry is removed with the split.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const MAX_LINES = 60;
const root = resolve(import.meta.dirname, "../../../..");
const sourceRoots = ["packages/core/src", "packages/qwik/src", "packages/hosted-db-adapter/src"];

/** Functions allowed over the limit for now, by name. Remove a name when its function is split. */
const ALLOWED_LONG = new Set<string>([]);

interface LongFunction {
  name: string;
  where: string;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts") && !/\.generated\.tsx?$/.test(file))
    .map((file) => join(dir, file));
}

function longFunctions(path: string): LongFunction[] {
  const text = readFileSync(path, "utf8");
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = file.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      const name = (node as ts.FunctionLikeDeclaration).name?.getText(file) ?? "(anonymous)";
      if (lines > MAX_LINES) found.push({ name, where: `${relative(root, path)}:${first + 1}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("function length", () => {
  const long = sourceRoots.flatMap((dir) => sourceFiles(join(root, dir))).flatMap(longFunctions);

  it(`has no function over ${MAX_LINES} lines outside the allow-list`, () => {
    const offenders = long.filter((fn) => !ALLOWED_LONG.has(fn.name)).map((fn) => `${fn.where} ${fn.name} (${fn.lines} lines)`);
    expect(offenders).toEqual([]);
  });

  it("allows only functions that are still long (remove a name once its function is split)", () => {
    const stillLong = new Set(long.map((fn) => fn.name));
    expect([...ALLOWED_LONG].filter((name) => !stillLong.has(name))).toEqual([]);
  });
});
