import { build } from "esbuild";
import { join } from "node:path";
const root = process.cwd();
const src = join(root, "packages/core/src");
const r = await build({ stdin: { contents: `export { Auth } from ${JSON.stringify(join(src, "index.ts"))};export { default as GitHub } from ${JSON.stringify(join(src, "providers/github.ts"))};export { default as Credentials } from ${JSON.stringify(join(src, "providers/credentials.ts"))};`, resolveDir: root, loader: "js" },
  bundle: true, write: false, minify: true, format: "esm", platform: "neutral", mainFields: ["module", "main"], conditions: ["worker", "browser", "import", "default"], tsconfig: join(root, "packages/core/tsconfig.json"), splitting: true, outdir: "/tmp/x", metafile: true, logLevel: "silent", absWorkingDir: root });
for (const [k, o] of Object.entries(r.metafile.outputs)) for (const [i, v] of Object.entries(o.inputs)) console.log(k.replace(/-[A-Z0-9]+\.js$/, ""), i, v.bytesInOutput);
