// @ts-check
import {fileURLToPath} from "node:url";

import {defineConfig} from "astro/config";

import {copyEvidence} from "./src/loaders/copyEvidence.ts";
import {buildOptions} from "./src/site/buildOptions.ts";

// The site is fully static; every number is computed at build time from evidence/.
// The options come from src/site/buildOptions.ts, their one reader: the base path lets GitHub Pages serve
// the site under /<repo>/ (BASE_PATH=/inferscope/); `inferscope report` builds a single standalone page,
// with no raw-file copies then.
const options = buildOptions();
const base = options.base;
const standalone = options.standalone !== null;

export default defineConfig({
  output: "static",
  base,
  site: options.siteUrl,
  trailingSlash: "ignore",
  build: {format: "directory", inlineStylesheets: "always"},
  i18n: {
    locales: ["en", "zh"],
    defaultLocale: "en",
    routing: {prefixDefaultLocale: false}
  },
  vite: {
    build: {assetsInlineLimit: 0}
  },
  integrations: [
    {
      name: "inferscope-evidence-files",
      hooks: {
        "astro:build:done": ({dir, logger}) => {
          if (standalone) return;
          const {files} = copyEvidence(fileURLToPath(dir));
          logger.info(`copied ${files} raw evidence files under evidence/`);
        }
      }
    }
  ]
});
