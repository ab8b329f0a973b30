import {delimiter, resolve} from "node:path";

import {describe, expect, it} from "vitest";

import {buildOptions, buildOptionsEnv, withBuildOptions} from "../../src/site/buildOptions.ts";

describe("build options", () => {
  it("default to the whole evidence folder, the root base path and the full site", () => {
    expect(buildOptions({})).toEqual({
      evidenceDir: resolve("evidence"),
      bundles: null,
      standalone: null,
      hardwareDir: resolve("configs/hardware"),
      pricesFile: null,
      base: "/",
      siteUrl: undefined
    });
  });

  it("carry the hardware folder the CLI passes, and read the build's own price file", () => {
    const env = buildOptionsEnv({hardwareDir: "/pkg/configs/hardware"});
    expect(env.INFERSCOPE_HARDWARE).toBe("/pkg/configs/hardware");
    expect(buildOptions({...env, INFERSCOPE_PRICES: "mine.yaml"})).toMatchObject({
      hardwareDir: "/pkg/configs/hardware",
      pricesFile: resolve("mine.yaml")
    });
  });

  it("read exact bundles, a standalone language and the base path from the variables the writer sets", () => {
    const env = buildOptionsEnv({bundles: ["/a", "b"], standalone: "zh", base: "/inferscope/"});
    expect(env.INFERSCOPE_BUNDLES).toBe(`/a${delimiter}b`);
    const o = buildOptions(env);
    expect(o.bundles).toEqual(["/a", resolve("b")]);
    expect(o.standalone).toEqual({lang: "zh"});
    expect(o.base).toBe("/inferscope/");
  });

  it("read an unknown standalone language as English", () => {
    expect(buildOptions({INFERSCOPE_STANDALONE: "fr"}).standalone).toEqual({lang: "en"});
  });

  it("are set only while the build runs, and the environment is restored even when it fails", async () => {
    const env: Record<string, string | undefined> = {BASE_PATH: "/before/"};
    const seen = await withBuildOptions(
      {bundles: ["/x"], standalone: "en", base: "/"},
      async () => buildOptions(env),
      env
    );
    expect(seen.bundles).toEqual(["/x"]);
    expect(seen.base).toBe("/");
    expect(env).toEqual({BASE_PATH: "/before/"});
    await expect(withBuildOptions({standalone: "zh"}, () => Promise.reject(new Error("boom")), env)).rejects.toThrow(
      "boom"
    );
    expect(env).toEqual({BASE_PATH: "/before/"});
  });
});
