// @ts-check
import {fileURLToPath} from "node:url";

import {defineConfig} from "astro/config";

import {copyEvidence} from "./src/lib/copyEvidence.ts";

// The site is fully static; every number is computed at build time from evidence/.
// BASE_PATH lets GitHub Pages serve it under /<repo>/ (e.g. BASE_PATH=/inferscope/).
const base = process.env.BASE_PATH ?? "/";
// `inferscope report` builds a single standalone page: no raw-file copies then.
const standalone = Boolean(process.env.INFERSCOPE_STANDALONE);

export default defineConfig({
  output: "static",
  base,
  site: process.env.SITE_URL,
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
