import { build } from "esbuild";
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
const root = "/work/main";
const dir = mkdtempSync(join(root, ".bb-"));
writeFileSync(join(dir, "entry.mjs"), `export { Auth } from "${root}/packages/core/src/index.ts";`);
const r = await build({ entryPoints: [join(dir,"entry.mjs")], bundle: true, write: false, minify: true, format: "esm", platform: "neutral", mainFields: ["module","main"], conditions: ["worker","browser","import","default"], tsconfig: join(root,"packages/core/tsconfig.json"), splitting: true, outdir: join(dir,"out"), metafile: true, logLevel: "silent", absWorkingDir: root });
rmSync(dir,{recursive:true});
const ins = r.metafile.inputs;
// BFS over static imports from entry to find path to target
const target = process.argv[2];
const start = Object.keys(ins).find(k=>k.endsWith("entry.mjs"));
const prev = new Map([[start,null]]); const q=[start];
while(q.length){ const k=q.shift(); for (const imp of ins[k]?.imports ?? []) { if (imp.kind!=="import-statement") continue; if(!prev.has(imp.path)){prev.set(imp.path,k); q.push(imp.path);} } }
let k = Object.keys(ins).find(x=>x.includes(target)); const chain=[]; while(k){chain.push(k); k=prev.get(k);} console.log(chain.reverse().join("\n -> "));
