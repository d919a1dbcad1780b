/**
 * The floors of the house, read from the source text: no import circle in core or the hosted-db adapter,
 * and the modules that declare only types (`types.ts`, the `*-types.ts`, `adapters.ts`, …: those whose
 * JavaScript is empty) stand on the ground floor and import only each other, so a type never drags a
 * runtime module (or a circle) in.
 *
 * The parser is a few regular expressions over each file's text, not the TypeScript compiler: imports
 * here are one statement per line start (Biome formats them so). It must find every relative import of
 * the fixture below and resolve every one it finds to a file, so a drift of the format fails loudly.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repository = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const roots = ["packages/core/src", "packages/hosted-db-adapter/src"];

/** `import … from "x"`, `import type … from "x"`, `export … from "x"`, `export type … from "x"` (one or many lines). */
const STATIC_IMPORT =
  /^[ \t]*(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?|[\w$]+)\s*from\s*["']([^"']+)["']/gm;
/** `import "x"` for its side effects. */
const BARE_IMPORT = /^[ \t]*import\s*["']([^"']+)["']/gm;
/** `import("x")`: a lazily loaded module, or a type query `typeof import("x")`; a dependency either way. */
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The module specifiers `source` imports or re-exports from, in order of appearance per kind. */
function specifiers(source: string): string[] {
  return [STATIC_IMPORT, BARE_IMPORT, DYNAMIC_IMPORT].flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1] as string));
}

/** The file a relative specifier names: `./x.js` is `x.ts` or `x.tsx` (NodeNext: no index lookup); others are packages. */
function resolveSpecifier(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = join(dirname(from), specifier);
  const stem = target.replace(/\.js$/, "");
  const found = [`${stem}.ts`, `${stem}.tsx`].find((candidate) => files.has(candidate));
  if (!found && !/\.(json|css)$/.test(specifier)) throw new Error(`${from}: cannot resolve ${specifier}`);
  return found;
}

function sourceFiles(root: string): string[] {
  return readdirSync(join(repository, root), { recursive: true, encoding: "utf8" })
    .filter((path) => /\.tsx?$/.test(path) && !path.endsWith(".d.ts"))
    .map((path) => join(root, path).split("\\").join("/"));
}

/** Each file's text and the files it imports (repository-relative paths). */
function importGraph(roots: string[]): { text: Map<string, string>; imports: Map<string, string[]> } {
  const files = roots.flatMap(sourceFiles);
  const known = new Set(files);
  const text = new Map(files.map((file) => [file, readFileSync(join(repository, file), "utf8")]));
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(text.get(file) as string).flatMap((s) => resolveSpecifier(file, s, known) ?? []);
    imports.set(file, [...new Set(targets)]);
  }
  return { text, imports };
}

/** The strongly connected components with more than one file, or a file importing itself (Tarjan). */
function circles(imports: ReadonlyMap<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of imports.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || imports.get(file)?.includes(file)) found.push(component.sort());
    }
  };
  for (const file of imports.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** True when the module emits no JavaScript: only types, interfaces, `declare`s and type-only imports. */
function declaresOnlyTypes(file: string, source: string): boolean {
  const { outputText } = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      jsx: ts.JsxEmit.Preserve,
      removeComments: true,
    },
  });
  return outputText.replace(/\/\/# sourceMappingURL=.*$/m, "").trim() === "export {};";
}

/**
 * The type-declaration modules the design names; every other module that declares only types (found by
 * its empty output) stands on the same floor and follows the same rule.
 */
const namedTypeModules = [
  "packages/core/src/types/adapter-capabilities.ts",
  "packages/core/src/types/adapters.ts",
  "packages/core/src/types/base.ts",
  "packages/core/src/types/errors.ts",
  "packages/core/src/types/internal.ts",
  "packages/core/src/types/jwt.ts",
  "packages/core/src/types/providers.ts",
  "packages/core/src/providers/types.ts",
  "packages/core/src/types/rate-limit.ts",
  "packages/core/src/types/config.ts",
  "packages/hosted-db-adapter/src/command-types.ts",
];

const { text, imports } = importGraph(roots);

describe("the import parser", () => {
  it("finds every form of import in a fixture, and ignores comments and strings that are not statements", () => {
    const fixture = [
      "/**",
      ' * import { Auth } from "./in-a-comment.js";',
      " */",
      'import { a } from "./a.js";',
      'import type { B } from "./b.js";',
      "import {",
      "  c,",
      "  type C,",
      '} from "./c.js";',
      'import d, { e } from "./d.js";',
      'import * as f from "./f.js";',
      'export { g } from "./g.js";',
      'export type * from "./h.js";',
      'export * from "./i.js";',
      'import "./j.js";',
      'const k = () => import("./k.js");',
      'type L = typeof import("./l.js");',
      'const text = "from \\"./not-an-import.js\\"";',
      'import { parse } from "cookie";',
    ].join("\n");
    expect(specifiers(fixture).sort()).toEqual(
      ["./a.js", "./b.js", "./c.js", "./d.js", "./f.js", "./g.js", "./h.js", "./i.js", "./j.js", "./k.js", "./l.js", "cookie"].sort(),
    );
  });

  it("reads both packages: hundreds of files, and the imports it knows to be there", () => {
    expect(imports.size).toBeGreaterThan(200);
    expect(imports.get("packages/core/src/jwt.ts")).toContain("packages/core/src/errors.ts");
    expect(imports.get("packages/core/src/pages/index.ts")).toContain("packages/core/src/pages/signin.tsx");
    expect(imports.get("packages/hosted-db-adapter/src/cli.ts")).toContain("packages/hosted-db-adapter/src/db-commands.ts");
  });
});

describe("no import circle", () => {
  it.each(roots)("%s has none (a type import counts: it ties the two files' floors together too)", (root) => {
    const inRoot = new Map([...imports].filter(([file]) => file.startsWith(`${root}/`)));
    expect(circles(inRoot)).toEqual([]);
  });
});

describe("the types floor", () => {
  const ground = new Set([...text].filter(([file, source]) => declaresOnlyTypes(file, source)).map(([file]) => file));

  it.each(namedTypeModules)("%s declares only types", (file) => {
    expect(text.has(file)).toBe(true);
    expect(ground.has(file)).toBe(true);
  });

  it("every module of the types folder (packages/core/src/types/) declares only types", () => {
    const folder = [...text.keys()].filter((file) => file.startsWith("packages/core/src/types/"));
    expect(folder.length).toBeGreaterThanOrEqual(namedTypeModules.filter((file) => file.includes("/src/types/")).length);
    expect(folder.filter((file) => !ground.has(file))).toEqual([]);
  });

  it("a module that declares only types imports only such modules (a runtime module would lift it off the ground)", () => {
    const climbing = [...ground].flatMap((file) =>
      (imports.get(file) ?? []).filter((to) => !ground.has(to)).map((to) => `${file} -> ${to}`),
    );
    expect(climbing).toEqual([]);
  });

  it("the check of emptiness tells a runtime module from a types-only one", () => {
    expect(
      declaresOnlyTypes("a.ts", 'import type { A } from "./a.js";\nexport interface B { a: A }\ndeclare const c: unique symbol;'),
    ).toBe(true);
    expect(declaresOnlyTypes("a.ts", "export const limit = 1;")).toBe(false);
    // A value import, even one only used as a type, stays in the output (verbatimModuleSyntax): not a types-only module.
    expect(declaresOnlyTypes("a.ts", 'import { A } from "./a.js";\nexport type B = A;')).toBe(false);
  });
});

/**
 * The folders of core (docs/architecture.md): a room is a folder under `src/` (each feature its own room,
 * `features/<name>/`), or a loose file at the top. Rooms import downwards only, so there is no circle
 * between rooms either; the kernel and the sign-in core reach a feature only through the feature list
 * (`kernel/features.ts`, which imports each feature's `feature.ts`); features do not import each other.
 */
describe("the folders of core", () => {
  const core = "packages/core/src/";
  const inCore = new Map(
    [...imports]
      .filter(([file]) => file.startsWith(core))
      .map(([file, to]) => [file.slice(core.length), to.filter((t) => t.startsWith(core)).map((t) => t.slice(core.length))]),
  );
  /** The room of a file: `features/<name>`, another top folder, or the loose file itself. */
  const roomOf = (file: string) => {
    const [first, second] = file.split("/");
    if (second === undefined) return file;
    return first === "features" && file.split("/").length > 2 ? `features/${second}` : (first as string);
  };
  const isFeature = (file: string) => /^features\/[^/]+\//.test(file);
  const arrows = [...inCore].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));

  it("has no circle between rooms (folders, each feature, loose files)", () => {
    const rooms = new Map<string, string[]>();
    for (const { from, to } of arrows) {
      const [a, b] = [roomOf(from), roomOf(to)];
      if (a !== b) rooms.set(a, [...new Set([...(rooms.get(a) ?? []), b])]);
    }
    expect(circles(rooms)).toEqual([]);
  });

  it("the kernel and the sign-in core reach features only through the feature list", () => {
    const reaching = arrows.filter(({ from, to }) => !isFeature(from) && isFeature(to));
    // The feature list reaches each feature's definition, and the values an app writes its configuration
    // with (`public.ts`), which load with the package even for a feature whose code loads on demand.
    const allowed = ({ from, to }: { from: string; to: string }) =>
      from === "kernel/features.ts" && (to.endsWith("/feature.ts") || to.endsWith("/public.ts"));
    expect(reaching.filter((arrow) => !allowed(arrow)).map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it("no feature imports another feature (but its `public.ts`: pure values an app configures with)", () => {
    const across = arrows.filter(
      ({ from, to }) => isFeature(from) && isFeature(to) && roomOf(from) !== roomOf(to) && !to.endsWith("/public.ts"),
    );
    expect(across.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it("keeps at most ten loose files at the top of src (the entry points and a few modules every floor uses)", () => {
    const loose = [...inCore.keys()].filter((file) => !file.includes("/"));
    expect(loose.length).toBeLessThanOrEqual(10);
  });

  it("types/ holds only modules that declare types", () => {
    const ground = new Set([...text].filter(([file, source]) => declaresOnlyTypes(file, source)).map(([file]) => file));
    const runtime = [...inCore.keys()].filter((file) => file.startsWith("types/") && !ground.has(`${core}${file}`));
    expect(runtime).toEqual([]);
  });
});
