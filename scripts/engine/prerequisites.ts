/**
 * The build tools of `llama-server` (issue 18): what is missing, and — as root with apt-get, as `.ci/run`
 * does — installing them, saying so. `INFERSCOPE_NO_APT=1` forbids the install (the demo then falls back to
 * node-llama-cpp's prebuilt engine).
 */
import {exec, which} from "./exec.ts";

export const APT_PACKAGES = ["cmake", "g++", "ninja-build", "git"] as const;

/** The tools `llama-server`'s build needs and PATH lacks. */
export function missingPrerequisites(path: string = process.env.PATH ?? ""): string[] {
  const missing: string[] = [];
  if (!which("cmake", path)) missing.push("cmake");
  if (!which(process.env.CXX ?? "c++", path) && !which("g++", path)) missing.push("g++");
  if (!which("ninja", path)) missing.push("ninja");
  if (!which("git", path)) missing.push("git");
  return missing;
}

export interface EnsurePrerequisites {
  log: (line: string) => void;
  /** Default: this process runs as root. */
  isRoot?: boolean;
  env?: NodeJS.ProcessEnv;
}

/**
 * The tools still missing after trying to install them: none when they were there or apt-get installed
 * them (as root, unless INFERSCOPE_NO_APT=1); otherwise the list, and the caller falls back.
 */
export async function ensurePrerequisites(o: EnsurePrerequisites): Promise<string[]> {
  const env = o.env ?? process.env;
  const path = env.PATH ?? "";
  const missing = missingPrerequisites(path);
  if (missing.length === 0) return [];
  const root = o.isRoot ?? process.getuid?.() === 0;
  const apt = which("apt-get", path);
  if (!root || apt === undefined || env.INFERSCOPE_NO_APT === "1") {
    o.log(
      `missing build tools: ${missing.join(", ")} (${!root ? "not root" : apt === undefined ? "no apt-get" : "INFERSCOPE_NO_APT=1"}: not installing them)`
    );
    return missing;
  }
  o.log(
    `missing build tools: ${missing.join(", ")}; installing them as root with apt-get, as .ci/run does: apt-get install -y --no-install-recommends ${APT_PACKAGES.join(" ")}`
  );
  const childEnv = {...env, DEBIAN_FRONTEND: "noninteractive"};
  const update = await exec(apt, ["update", "-qq"], {env: childEnv});
  const install =
    update.code === 0
      ? await exec(apt, ["install", "-y", "-qq", "--no-install-recommends", ...APT_PACKAGES], {env: childEnv})
      : update;
  if (install.code !== 0)
    o.log(`apt-get failed (exit ${install.code}): ${(install.stderr || install.stdout).trim().slice(-300)}`);
  return missingPrerequisites(path);
}
