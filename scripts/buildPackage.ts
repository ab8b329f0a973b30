/**
 * `npm pack` (prepack / postpack, issue 17): builds the CLI and analyzer into one ES module,
 * dist/collector/cli.mjs (esbuild; dependencies stay imports, resolved from the installed package's own
 * node_modules), and pins the consumers' dependency tree with npm-shrinkwrap.json, a copy of
 * package-lock.json (npm installs a dependency's shrinkwrap as written, so the versions and overrides this
 * project is tested with are the ones a consumer gets; dev-only packages are skipped). `--clean` removes
 * the shrinkwrap again after packing, so that the checkout keeps using package-lock.json.
 *
 * The bundle sits two folders deep, like the sources it is built from (collector/commands, src/io), so
 * their `new URL("../../…", import.meta.url)` paths (package.json, configs/hardware) still reach the
 * package root.
 */
import {copyFileSync, existsSync, rmSync} from "node:fs";
import {fileURLToPath} from "node:url";

import {build} from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const shrinkwrap = `${root}/npm-shrinkwrap.json`;

if (process.argv.includes("--clean")) {
  if (existsSync(shrinkwrap)) rmSync(shrinkwrap);
} else {
  rmSync(`${root}/dist/collector`, {recursive: true, force: true});
  await build({
    entryPoints: [`${root}/collector/cli.ts`],
    outfile: `${root}/dist/collector/cli.mjs`,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22.12",
    packages: "external",
    sourcemap: false,
    legalComments: "none",
    logLevel: "warning"
  });
  copyFileSync(`${root}/package-lock.json`, shrinkwrap);
  process.stdout.write("built dist/collector/cli.mjs; pinned the dependencies in npm-shrinkwrap.json\n");
}
