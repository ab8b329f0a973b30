import {stringify} from "yaml";

import {redactArgs} from "../../src/analysis/redact/args.ts";
import type {RunConfig} from "../../src/analysis/schema/config.ts";
import {formatProblem, parseConfigText, type ConfigProblem} from "../../src/analysis/schema/configText.ts";
import {redactionMark, type Redactor} from "../redact.ts";

export {formatProblem, type ConfigProblem};

/** Thrown for a config that does not parse or validate; carries every problem with its position. */
export class ConfigError extends Error {
  readonly problems: ConfigProblem[];
  constructor(problems: ConfigProblem[]) {
    super(problems.map(formatProblem).join("\n"));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/** A check the schema cannot make (it needs data the caller reads): each problem's key path and message. */
export type ConfigCheck = (config: RunConfig) => {path: (string | number)[]; message: string}[];

/**
 * Parses and validates a run config from YAML text; every problem carries file:line:column and the key path.
 * `check` adds the caller's own checks (e.g. ids against the hardware catalogue), located the same way.
 */
export function parseRunConfig(text: string, file: string, check?: ConfigCheck): RunConfig {
  const {config, problems, locate} = parseConfigText(text, file);
  if (config === null) throw new ConfigError(problems);
  // where requests go must be an http(s) URL: "not a url" or file:///… is a config error, not "unreachable"
  const urls: ConfigProblem[] = [];
  for (const key of ["base_url", "metrics_url"] as const) {
    const u = config.target[key];
    if (u === undefined) continue;
    const why = urlProblem(u);
    if (why !== null) urls.push({file, ...locate(["target", key]), path: `target.${key}`, message: why});
  }
  if (urls.length > 0) throw new ConfigError(urls);
  const more = check?.(config) ?? [];
  if (more.length > 0)
    throw new ConfigError(more.map((p) => ({file, ...locate(p.path), path: p.path.join("."), message: p.message})));
  return config;
}

/** Why a target URL cannot be used, or null. */
function urlProblem(u: string): string | null {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return `expected an http:// or https:// URL, got ${JSON.stringify(u)}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `expected an http:// or https:// URL, got the ${url.protocol.slice(0, -1)} scheme in ${JSON.stringify(u)}`;
  if (url.hostname === "") return `expected a host in ${JSON.stringify(u)}`;
  return null;
}

/**
 * The config as written into a bundle (`config.resolved.yaml`): every default filled in, header values
 * replaced by redaction marks, URLs stripped of userinfo and query tokens. Re-parses with RunConfigSpec.
 */
export function resolvedConfigYaml(config: RunConfig, redact: Redactor): string {
  const safe: RunConfig = {
    ...config,
    target: {
      ...config.target,
      base_url: redact.url(config.target.base_url),
      ...(config.target.metrics_url === undefined ? {} : {metrics_url: redact.url(config.target.metrics_url)}),
      headers: Object.fromEntries(Object.entries(config.target.headers).map(([k, v]) => [k, redactionMark(v)])),
      ...(config.target.launch_args === undefined ? {} : {launch_args: redactArgs(config.target.launch_args)})
    }
  };
  const text = stringify(redact.value(safe), {lineWidth: 0});
  return `# resolved by inferscope: every default filled in, secrets redacted\n${text}`;
}
