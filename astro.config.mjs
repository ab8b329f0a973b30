// @ts-check
import {defineConfig} from "astro/config";

// The site is fully static; every number is computed at build time from evidence/.
// BASE_PATH lets GitHub Pages serve it under /<repo>/.
const base = process.env.BASE_PATH ?? "/";

export default defineConfig({
  output: "static",
  base,
  site: process.env.SITE_URL,
  trailingSlash: "ignore",
  build: {format: "directory"},
  i18n: {
    locales: ["en", "zh"],
    defaultLocale: "en",
    routing: {prefixDefaultLocale: false}
  },
  vite: {
    build: {assetsInlineLimit: 0}
  }
});
