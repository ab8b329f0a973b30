#!/usr/bin/env node
// The `inferscope` command (issue 17). In a checkout it runs the TypeScript source (Node strips the types);
// in an installed package, where Node refuses to strip types under node_modules and the source is not
// shipped, it runs the built bundle (`npm pack` builds it: scripts/buildPackage.ts). Plain JavaScript, so
// that an old Node gets a clear message instead of a syntax error.
import {existsSync} from "node:fs";
import {enableCompileCache} from "node:module";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `inferscope needs Node ≥ 22.12 (this is ${process.version}); in a checkout run it through npm (\`npx inferscope …\`) so the project's Node is used\n`
  );
  process.exitCode = 2;
} else {
  // V8's on-disk compile cache (Node ≥ 22.1; NODE_DISABLE_COMPILE_CACHE=1 turns it off): a checkout's CLI is a
  // few hundred TypeScript modules, stripped and compiled on every start (≈ 1.2 CPU-s before, ≈ 0.5 s cached,
  // measured in docs/client-benchmark.md). Keyed by each file's content, so an edited source is recompiled.
  enableCompileCache?.();
  const source = new URL("./cli.ts", import.meta.url);
  const entry = existsSync(source) ? source : new URL("../dist/collector/cli.mjs", import.meta.url);
  const {main} = await import(entry.href);
  const code = await main();
  // let stdout drain before exiting (piped output is asynchronous)
  process.stdout.write("", () => process.exit(code));
}
