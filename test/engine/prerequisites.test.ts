import {chmodSync, mkdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {ensurePrerequisites, missingPrerequisites} from "../../scripts/engine/prerequisites.ts";
import {tempDir} from "../collector/helpers.ts";

/**
 * Issue 18: the demo on a bare machine. The build tools are hidden from PATH (an empty folder); apt-get is a
 * script of this test that "installs" them as executables in its own folder and logs what it was asked.
 */
function fakeApt(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin, {recursive: true});
  const script = `#!/bin/sh
echo "$@" >> "${join(dir, "apt.log")}"
if [ "$1" = "install" ]; then
  for t in cmake g++ ninja git; do printf '#!/bin/sh\\nexit 0\\n' > "${bin}/$t"; /bin/chmod +x "${bin}/$t"; done
fi
exit 0
`;
  writeFileSync(join(bin, "apt-get"), script);
  chmodSync(join(bin, "apt-get"), 0o755);
  return bin;
}

describe("build tools of llama-server on a bare machine (issue 18)", () => {
  it("names every tool PATH lacks", () => {
    const t = tempDir();
    try {
      expect(missingPrerequisites(t.dir)).toEqual(["cmake", "g++", "ninja", "git"]);
    } finally {
      t.cleanup();
    }
  });

  it("as root with apt-get: installs them, saying so, and then none is missing", async () => {
    const t = tempDir();
    try {
      const bin = fakeApt(t.dir);
      const lines: string[] = [];
      const missing = await ensurePrerequisites({log: (l) => lines.push(l), isRoot: true, env: {PATH: bin}});
      expect(missing).toEqual([]);
      expect(lines[0]).toBe(
        "missing build tools: cmake, g++, ninja, git; installing them as root with apt-get, as .ci/run does: apt-get install -y --no-install-recommends cmake g++ ninja-build git"
      );
      expect(readFileSync(join(t.dir, "apt.log"), "utf8")).toBe(
        "update -qq\ninstall -y -qq --no-install-recommends cmake g++ ninja-build git\n"
      );
    } finally {
      t.cleanup();
    }
  });

  it("not root, or INFERSCOPE_NO_APT=1: installs nothing and returns what is missing (the demo falls back)", async () => {
    const t = tempDir();
    try {
      const bin = fakeApt(t.dir);
      const lines: string[] = [];
      expect(await ensurePrerequisites({log: (l) => lines.push(l), isRoot: false, env: {PATH: bin}})).toEqual([
        "cmake",
        "g++",
        "ninja",
        "git"
      ]);
      expect(lines).toEqual(["missing build tools: cmake, g++, ninja, git (not root: not installing them)"]);
      const noApt = await ensurePrerequisites({
        log: (l) => lines.push(l),
        isRoot: true,
        env: {PATH: bin, INFERSCOPE_NO_APT: "1"}
      });
      expect(noApt).toHaveLength(4);
      expect(lines[1]).toMatch(/\(INFERSCOPE_NO_APT=1: not installing them\)$/);
    } finally {
      t.cleanup();
    }
  });
});
