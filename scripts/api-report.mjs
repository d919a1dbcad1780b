#!/usr/bin/env node
/**
 * The public API of each package, as a report checked in under `api/` (docs/compatibility.md).
 *
 * Read from the BUILT declarations (`npm run build` first) of every entry point in the package's
 * `exports`, through the TypeScript compiler API: each exported name, its kind, and its declaration as the
 * `.d.ts` states it (TSDoc removed). Types that a public declaration names but no entry point of the package
 * exports are listed too, so a change to them shows as well. No file path appears in a report: the source
 * files can move between folders and the report stays the same, as long as what users import does.
 *
 * `node scripts/api-report.mjs` (or `npm run api:report`) rewrites the reports; `--check` only compares them
 * (exit code 1 on a difference). `test/contract/api-report.test.ts` does the comparison in CI.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The packages whose API is promised, and the file of each report. */
export const PACKAGES = [
  { name: "@authlib/core", dir: "packages/core", report: "api/core.api.md" },
  { name: "@authlib/qwik", dir: "packages/qwik", report: "api/qwik.api.md" },
  { name: "@authlib/hosted-db-adapter", dir: "packages/hosted-db-adapter", report: "api/hosted-db-adapter.api.md" },
];

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** Code-point order, the same on every machine and locale. */
function byText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Every entry point of a package: its import specifier and the declaration file of its `types` condition.
 * A wildcard subpath (`./providers/*`) stands for each file a clean build puts there: the declaration
 * files whose source file exists (a moved source file's stale output in `dist/` is not an entry point).
 */
export function entryPoints(pkgDir) {
  const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  const entries = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const types = typeof target === "string" ? target : target.types;
    if (typeof types !== "string" || !types.endsWith(".d.ts")) continue;
    function specifier(suffix) {
      return subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2).replace("*", suffix)}`;
    }
    if (!subpath.includes("*")) {
      entries.push({ specifier: specifier(""), file: join(pkgDir, types) });
      continue;
    }
    const [before, after] = types.split("*");
    const folder = join(pkgDir, dirname(`${before}x`));
    const prefix = before.slice(before.lastIndexOf("/") + 1);
    const sourceFolder = folder.replace(`${sep}dist`, `${sep}src`);
    for (const file of readdirSync(folder).sort(byText)) {
      if (!file.startsWith(prefix) || !file.endsWith(after)) continue;
      const stem = file.slice(prefix.length, file.length - after.length);
      // The folder's index is already the entry point without the wildcard.
      if (stem === "index" || stem.includes("/")) continue;
      if (!existsSync(join(sourceFolder, `${stem}.ts`)) && !existsSync(join(sourceFolder, `${stem}.tsx`))) continue;
      entries.push({ specifier: specifier(stem), file: join(folder, file) });
    }
  }
  return entries.sort((a, b) => byText(a.specifier, b.specifier));
}

/** The declaration `node` as text, without `export`/`declare` and with `import("…").` qualifiers dropped. */
function declarationText(node) {
  let text;
  if (ts.isVariableDeclaration(node)) {
    const list = node.parent;
    const keyword = list.flags & ts.NodeFlags.Const ? "const" : list.flags & ts.NodeFlags.Let ? "let" : "var";
    text = `${keyword} ${printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile())};`;
  } else if (ts.isSourceFile(node)) {
    text = "(module)";
  } else {
    text = printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile());
  }
  return text
    .replace(/^(export\s+)?(default\s+)?(declare\s+)?/, "")
    .replace(/import\("(\.[^"]*)"\)\./g, "")
    .replace(/import\("(\.[^"]*)"\)/g, "import(<internal module>)")
    .trimEnd();
}

/**
 * The texts of a symbol's declarations: in source order within a file (overloads keep their order), files
 * in the order of their text (a name merged across files must not depend on where the files are).
 */
function declarationTexts(declarations) {
  const byFile = new Map();
  for (const declaration of declarations) {
    const file = declaration.getSourceFile().fileName;
    byFile.set(file, [...(byFile.get(file) ?? []), declarationText(declaration)]);
  }
  return [...byFile.values()].map((texts) => texts.join("\n")).sort(byText);
}

/** A symbol's kind in words: `class`, `interface`, `type`, `function`, `const`, `enum`, `namespace`, joined when one name is several. */
function kindOf(symbol) {
  const kinds = new Set();
  for (const declaration of symbol.declarations ?? []) {
    if (ts.isClassDeclaration(declaration)) kinds.add("class");
    else if (ts.isInterfaceDeclaration(declaration)) kinds.add("interface");
    else if (ts.isTypeAliasDeclaration(declaration)) kinds.add("type");
    else if (ts.isFunctionDeclaration(declaration)) kinds.add("function");
    else if (ts.isEnumDeclaration(declaration)) kinds.add("enum");
    else if (ts.isModuleDeclaration(declaration) || ts.isSourceFile(declaration)) kinds.add("namespace");
    else if (ts.isVariableDeclaration(declaration)) {
      const flags = declaration.parent.flags;
      kinds.add(flags & ts.NodeFlags.Const ? "const" : flags & ts.NodeFlags.Let ? "let" : "var");
    } else kinds.add(ts.SyntaxKind[declaration.kind]);
  }
  return [...kinds].sort(byText).join(" + ");
}

/** `, deprecated` when the declaration's TSDoc has `@deprecated` (a deprecation is a change of the API too). */
function deprecation(symbol) {
  const tagged = (symbol.declarations ?? []).some((declaration) =>
    ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === "deprecated"),
  );
  return tagged ? ", deprecated" : "";
}

/** A line naming each member (at any depth) whose TSDoc says `@deprecated`, for the lines under a declaration. */
function deprecatedMembers(declarations) {
  const found = [];
  function visit(node, path) {
    const name = node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;
    const here = name === undefined ? path : [...path, name];
    if (path.length > 0 && name !== undefined && ts.getJSDocTags(node).some((tag) => tag.tagName.text === "deprecated")) {
      found.push(here.join("."));
    }
    ts.forEachChild(node, (child) => visit(child, here));
  }
  for (const declaration of declarations) if (!ts.isSourceFile(declaration)) visit(declaration, []);
  return found.length === 0
    ? []
    : [
        `Deprecated: ${[...new Set(found)]
          .sort(byText)
          .map((member) => `\`${member}\``)
          .join(", ")}.`,
        "",
      ];
}

function resolveAlias(checker, symbol) {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** The report of one package (`dir` relative to the repository or absolute), as Markdown. */
export function apiReport(pkg) {
  const pkgDir = resolve(root, pkg.dir);
  const ownDir = realpathSync(pkgDir) + sep;
  const entries = entryPoints(pkgDir);
  for (const entry of entries) {
    if (!existsSync(entry.file))
      throw new Error(`${pkg.name} is not built (no ${relative(root, entry.file)}): run \`npm run build\` first.`);
  }
  const program = ts.createProgram(
    entries.map((entry) => entry.file),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
      types: ["node"],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  function isOwn(declaration) {
    const file = declaration.getSourceFile().fileName;
    return realpathSync(file).startsWith(ownDir) && !file.includes(`${sep}node_modules${sep}`);
  }

  const exported = new Set();
  const sections = [];
  const pending = [];
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${entry.specifier}: ${relative(root, entry.file)} is not a module.`);
    const lines = [];
    const names = checker.getExportsOfModule(moduleSymbol).sort((a, b) => byText(a.name, b.name));
    for (const name of names) {
      const target = resolveAlias(checker, name);
      exported.add(target);
      const declarations = target.declarations ?? [];
      const own = declarations.some(isOwn);
      // (The name it is declared under shows in its text; how it is exported, \`export default\` or
      // \`export { X as default }\`, directly or re-exported, is no part of the API.)
      lines.push(`### \`${name.name}\`: ${kindOf(target)}${deprecation(target)}`, "");
      if (!own && declarations.length > 0) {
        lines.push(`Re-exported from \`${packageNameOf(declarations[0].getSourceFile().fileName)}\`.`, "");
        continue;
      }
      lines.push("```ts", ...declarationTexts(declarations), "```", "", ...deprecatedMembers(declarations));
      pending.push(...declarations);
    }
    sections.push({ title: `## \`${entry.specifier}\``, lines });
  }

  // Types the public declarations name that no entry point exports: they are part of the API too.
  const reached = new Map();
  function visit(node) {
    let symbol;
    if (ts.isTypeReferenceNode(node)) symbol = checker.getSymbolAtLocation(node.typeName);
    else if (ts.isExpressionWithTypeArguments(node)) symbol = checker.getSymbolAtLocation(node.expression);
    else if (ts.isTypeQueryNode(node)) symbol = checker.getSymbolAtLocation(node.exprName);
    else if (ts.isImportTypeNode(node)) {
      const type = checker.getTypeFromTypeNode(node);
      symbol = type.aliasSymbol ?? type.getSymbol();
    }
    if (symbol) {
      const target = resolveAlias(checker, symbol);
      const declarations = target.declarations ?? [];
      if (
        !(target.flags & ts.SymbolFlags.TypeParameter) &&
        !exported.has(target) &&
        !reached.has(target) &&
        declarations.length > 0 &&
        declarations.every(isOwn) &&
        declarations.every((d) => !ts.isParameter(d) && !ts.isPropertySignature(d) && !ts.isPropertyDeclaration(d))
      ) {
        reached.set(target, declarations);
        pending.push(...declarations);
      }
    }
    ts.forEachChild(node, visit);
  }
  while (pending.length > 0) visit(pending.shift());
  const internal = [...reached.entries()]
    .map(([symbol, declarations]) => ({
      heading: `### \`${symbol.name}\`: ${kindOf(symbol)}${deprecation(symbol)}`,
      text: declarationTexts(declarations).join("\n"),
      declarations,
    }))
    .sort((a, b) => byText(a.heading, b.heading) || byText(a.text, b.text));

  const out = [
    `# API report: \`${pkg.name}\``,
    "",
    "<!-- Generated by `npm run api:report` from the built declarations; do not edit by hand. -->",
    "",
    "Every entry point of the package's `exports`, each exported name with its kind and declaration (TSDoc",
    "left out), sorted by name; then the types that those declarations name without any entry point exporting",
    "them. A change here is a change of the public API: see docs/compatibility.md.",
    "",
  ];
  for (const section of sections) out.push(section.title, "", ...section.lines);
  out.push("## Named by the API, exported by no entry point", "");
  if (internal.length === 0) out.push("(none)", "");
  for (const { heading, text, declarations } of internal)
    out.push(heading, "", "```ts", text, "```", "", ...deprecatedMembers(declarations));
  return `${out.join("\n").trimEnd()}\n`;
}

/** The name in the nearest `package.json` with one, above `file` (TypeScript's own `lib` files are `typescript`). */
function packageNameOf(file) {
  for (let folder = dirname(file); folder !== dirname(folder); folder = dirname(folder)) {
    const manifest = join(folder, "package.json");
    if (!existsSync(manifest)) continue;
    const { name } = JSON.parse(readFileSync(manifest, "utf8"));
    if (name) return name;
  }
  return "(unknown)";
}

/** Writes (or with `check`, compares) every report; returns the packages whose report differs. */
export function writeReports({ check = false } = {}) {
  const changed = [];
  for (const pkg of PACKAGES) {
    const file = join(root, pkg.report);
    const text = apiReport(pkg);
    const before = existsSync(file) ? readFileSync(file, "utf8") : undefined;
    if (before === text) continue;
    changed.push(pkg.name);
    if (!check) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
  }
  return changed;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const changed = writeReports({ check });
  if (check && changed.length > 0) {
    console.error(`The public API differs from api/*.api.md for ${changed.join(", ")}: run \`npm run api:report\` and review the change.`);
    process.exit(1);
  }
  console.log(changed.length === 0 ? "API reports are up to date." : `API reports ${check ? "differ" : "written"}: ${changed.join(", ")}`);
}
