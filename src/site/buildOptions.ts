/**
 * The site's build options, read in one place. Astro evaluates astro.config.mjs and the pages in its own
 * module graph, so the options cross the `astro build` boundary as environment variables: this file is
 * the only reader (`buildOptions`) and the only writer (`withBuildOptions`, used by `inferscope report`).
 * `npm run build` and the site tests set the same variables on the command line.
 *
 *   INFERSCOPE_EVIDENCE    the evidence folder (default evidence/)
 *   INFERSCOPE_BUNDLES     exact bundle folders, path-delimiter separated (no groups.yaml then)
 *   INFERSCOPE_STANDALONE  en or zh: one self-contained report page in that language
 *   INFERSCOPE_HARDWARE    the hardware data folder (default configs/hardware: gpus, engines, prices .yaml)
 *   INFERSCOPE_PRICES      your own prices (a YAML file of `prices: [{gpu, kind, usd_per_gpu_hour}]`): they
 *                          override the shipped price table (configs/hardware/prices.yaml)
 *   BASE_PATH, SITE_URL    where the site is served (GitHub Pages: BASE_PATH=/<repo>/)
 */
import {delimiter, resolve} from "node:path";

const STANDALONE_LANGS = ["en", "zh"] as const;
export type StandaloneLang = (typeof STANDALONE_LANGS)[number];

export interface BuildOptions {
  /** The evidence folder, absolute. */
  evidenceDir: string;
  /** Exact bundle folders (absolute) instead of every bundle of the evidence folder; null: all of them. */
  bundles: string[] | null;
  /** `inferscope report`: one page in one language, inline CSS, no site links. */
  standalone: {lang: StandaloneLang} | null;
  /** The hardware data folder (absolute): GPU catalogue, engine matrix, price table. */
  hardwareDir: string;
  /** A price file that overrides the shipped table (absolute), or null. */
  pricesFile: string | null;
  base: string;
  siteUrl: string | undefined;
}

/** What `inferscope report` (or a test) sets; everything else keeps its default. */
export interface BuildOptionsSpec {
  bundles?: readonly string[];
  standalone?: StandaloneLang;
  base?: string;
  /** The hardware data folder (the CLI passes the shipped one: the user's working folder has none). */
  hardwareDir?: string;
}

type Env = Record<string, string | undefined>;

/** Reads the build options from the environment (the one reader). */
export function buildOptions(env: Env = process.env): BuildOptions {
  const bundles = env.INFERSCOPE_BUNDLES;
  const standalone = env.INFERSCOPE_STANDALONE;
  return {
    evidenceDir: resolve(env.INFERSCOPE_EVIDENCE ?? "evidence"),
    bundles: bundles
      ? bundles
          .split(delimiter)
          .filter(Boolean)
          .map((d) => resolve(d))
      : null,
    standalone: standalone ? {lang: STANDALONE_LANGS.find((l) => l === standalone) ?? "en"} : null,
    hardwareDir: resolve(env.INFERSCOPE_HARDWARE ?? "configs/hardware"),
    pricesFile: env.INFERSCOPE_PRICES ? resolve(env.INFERSCOPE_PRICES) : null,
    base: env.BASE_PATH ?? "/",
    siteUrl: env.SITE_URL
  };
}

/** The environment variables that carry `spec` (plus Astro's own: no telemetry, UTC). */
export function buildOptionsEnv(spec: BuildOptionsSpec): Record<string, string> {
  return {
    ...(spec.bundles ? {INFERSCOPE_BUNDLES: spec.bundles.join(delimiter)} : {}),
    ...(spec.standalone ? {INFERSCOPE_STANDALONE: spec.standalone} : {}),
    ...(spec.base === undefined ? {} : {BASE_PATH: spec.base}),
    ...(spec.hardwareDir === undefined ? {} : {INFERSCOPE_HARDWARE: spec.hardwareDir}),
    ASTRO_TELEMETRY_DISABLED: "1",
    TZ: "UTC"
  };
}

/**
 * Runs an in-process Astro build under `spec` (the one writer): sets the variables, and restores the
 * environment as it was afterwards, whether the build succeeded or not.
 */
export async function withBuildOptions<T>(spec: BuildOptionsSpec, run: () => Promise<T>, env: Env = process.env) {
  const vars = buildOptionsEnv(spec);
  const saved = new Map(Object.keys(vars).map((k) => [k, env[k]]));
  Object.assign(env, vars);
  try {
    return await run();
  } finally {
    for (const [k, v] of saved)
      if (v === undefined) delete env[k];
      else env[k] = v;
  }
}
