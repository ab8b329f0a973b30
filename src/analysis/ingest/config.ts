import {RunConfigSpec, type RunConfig} from "../schema/config.ts";
import {parseConfigText, type Locate} from "../schema/configText.ts";
import {issue, type Issue} from "../util/issues.ts";

/** Config used when a bundle has none (imports without one, broken bundles): all defaults. */
export const FALLBACK_CONFIG: RunConfig = RunConfigSpec.parse({
  target: {base_url: "unknown", model: "unknown"},
  load: {mode: "concurrency", values: [1]}
});

/**
 * A bundle's resolved config through the one run-config parser (schema/configText.ts, which the
 * collector's loader calls too): the config, or an issue per problem at its line and key path.
 */
export function parseConfig(text: string, file: string): {config: RunConfig | null; issues: Issue[]; locate: Locate} {
  const {config, problems, stage, locate} = parseConfigText(text, file);
  const code = stage === "yaml" ? "yaml" : "schema";
  return {
    config,
    locate,
    issues: problems.map((p) => issue("error", code, p.file, p.message, p.line, p.path === "" ? null : p.path))
  };
}
