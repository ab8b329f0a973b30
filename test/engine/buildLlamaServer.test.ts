import {afterEach, describe, expect, it} from "vitest";

import {
  APT_PREREQUISITES,
  CMAKE_OPTIONS,
  buildKey,
  checkPrerequisites,
  cpuFlags,
  formatDuration
} from "../../scripts/engine/buildLlamaServer.ts";
import {LLAMA_CPP_COMMIT, cacheRoot, serverCacheDir} from "../../scripts/engine/paths.ts";

const savedPath = process.env.PATH;

afterEach(() => {
  process.env.PATH = savedPath;
});

describe("buildLlamaServer helpers", () => {
  it("keys the cache by llama.cpp commit, compiler version, arch and CPU flags", async () => {
    const {key, cpuFlagsHash} = await buildKey();
    expect(key).toMatch(/^80fb11a-(gcc|clang|cxx)[\d.]+-\w+-cpu[0-9a-f]{12}-r\d+$/);
    expect(key).toContain(cpuFlagsHash);
    expect(LLAMA_CPP_COMMIT.startsWith("80fb11a")).toBe(true);
    expect(cpuFlags().length).toBeGreaterThan(0);
    expect((await buildKey()).key).toBe(key);
  });

  it("names the Debian packages when build tools are missing", () => {
    process.env.PATH = "/nonexistent";
    expect(() => checkPrerequisites()).toThrow(
      `missing build prerequisites: cmake, g++, ninja, git; install them with: ${APT_PREREQUISITES}`
    );
  });

  it("builds a static, offline, UI-less server", () => {
    expect(CMAKE_OPTIONS).toEqual(
      expect.arrayContaining([
        "-DBUILD_SHARED_LIBS=OFF",
        "-DLLAMA_BUILD_UI=OFF",
        "-DLLAMA_USE_PREBUILT_UI=OFF",
        "-DLLAMA_OPENSSL=OFF",
        "-DGGML_NATIVE=ON"
      ])
    );
  });

  it("puts caches under XDG_CACHE_HOME and formats durations", () => {
    expect(cacheRoot({XDG_CACHE_HOME: "/x"})).toBe("/x/inferscope");
    expect(cacheRoot({INFERSCOPE_CACHE_DIR: "/y", XDG_CACHE_HOME: "/x"})).toBe("/y");
    expect(serverCacheDir({XDG_CACHE_HOME: "/x"})).toBe("/x/inferscope/llama-server");
    expect(formatDuration(5.26)).toBe("5.3s");
    expect(formatDuration(686)).toBe("11m26s");
  });
});
