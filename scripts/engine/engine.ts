import {buildLlamaServer, cpuModel, findLlamaServer, type LlamaServerBinary} from "./buildLlamaServer.ts";
import {generateModel, PRESETS, type GeneratedModel, type PresetName} from "./generateModel.ts";
import {ensureFallbackAddon, FALLBACK_ENGINE} from "./fallback.ts";
import {LLAMA_CPP_COMMIT, NODE_LLAMA_CPP_VERSION} from "./paths.ts";
import {ensurePrerequisites} from "./prerequisites.ts";

export interface EnsureEngineOptions {
  /** Model preset; default "tiny". */
  preset?: PresetName;
  /** Model seed; default 1. */
  seed?: number;
  keepByteTokens?: boolean;
  /** false: only use a binary already on PATH or in the cache (throws if none). Default true: build if needed (~11 min). */
  build?: boolean;
  log?: (line: string) => void;
}

export interface Engine {
  binary: LlamaServerBinary;
  model: GeneratedModel;
  /** Flat provenance for reports and evidence bundles. */
  info: {
    engine: "llama.cpp llama-server" | typeof FALLBACK_ENGINE;
    binaryPath: string;
    binarySource: LlamaServerBinary["source"];
    version: string;
    llamaCppCommit: string;
    sourcePackage: string;
    cpuModel: string;
    preset: PresetName;
    shape: GeneratedModel["shape"];
    params: number;
    modelPath: string;
    modelSha256: string;
    modelBytes: number;
    seed: number;
    prng: string;
    keepByteTokens: boolean;
    note: string;
  };
}

export const RANDOM_WEIGHTS_NOTE =
  "model weights are random (seeded, untrained): generated text is gibberish; tokenization, chat templating, compute cost and streaming are real";

/** The model's half of an engine's provenance (the same for llama-server and the fallback). */
function modelInfo(preset: PresetName, model: GeneratedModel) {
  return {
    cpuModel: cpuModel(),
    preset,
    shape: model.shape,
    params: model.params,
    modelPath: model.path,
    modelSha256: model.sha256,
    modelBytes: model.bytes,
    seed: model.seed,
    prng: model.prng,
    keepByteTokens: model.keepByteTokens,
    note: RANDOM_WEIGHTS_NOTE
  };
}

/** Finds or builds llama-server and generates (or reuses) the model: everything the demo and real-engine tests need. */
export async function ensureEngine(options: EnsureEngineOptions = {}): Promise<Engine> {
  const preset = options.preset ?? "tiny";
  if (!(preset in PRESETS)) throw new Error(`unknown preset: ${preset} (known: ${Object.keys(PRESETS).join(", ")})`);
  const binary =
    options.build === false
      ? await findLlamaServer().then((b) => {
          if (!b)
            throw new Error(
              "no llama-server on PATH or in the cache; build it with: npx node scripts/engine/buildLlamaServer.ts"
            );
          return b;
        })
      : await buildLlamaServer({log: options.log});
  const model = await generateModel({preset, seed: options.seed ?? 1, keepByteTokens: options.keepByteTokens});
  return {
    binary,
    model,
    info: {
      engine: "llama.cpp llama-server",
      binaryPath: binary.path,
      binarySource: binary.source,
      version: binary.version,
      llamaCppCommit: binary.source === "path" ? binary.commit : LLAMA_CPP_COMMIT,
      sourcePackage:
        binary.source === "path" ? "PATH" : `node-llama-cpp@${NODE_LLAMA_CPP_VERSION} (llama/gitRelease.bundle)`,
      ...modelInfo(preset, model)
    }
  };
}

/**
 * The demo's engine on any machine (issue 18): llama-server from PATH or the cache; else built, after
 * installing the build tools as root with apt-get when they are missing; else — tools missing and not
 * installable — node-llama-cpp's prebuilt addon behind our small OpenAI-compatible server (`binary.source`
 * "fallback", `binary.path` the addon's folder), labelled as such. `fallback: false` keeps the old behaviour
 * (an error naming the packages).
 */
export async function ensureDemoEngine(
  options: EnsureEngineOptions & {fallback?: boolean; prerequisites?: {env?: NodeJS.ProcessEnv; isRoot?: boolean}}
): Promise<Engine> {
  const log = options.log ?? (() => undefined);
  if ((await findLlamaServer()) !== undefined) return ensureEngine(options);
  const missing = await ensurePrerequisites({log, ...options.prerequisites});
  if (missing.length === 0 || options.fallback === false) return ensureEngine(options);
  log(
    `falling back to ${FALLBACK_ENGINE}: 2–3× slower than llama-server, and every page that shows its numbers says so. For the compiled llama-server: apt-get install -y cmake g++ ninja-build git (as root), then run the demo again`
  );
  const addon = await ensureFallbackAddon(log);
  const preset = options.preset ?? "tiny";
  const model = await generateModel({preset, seed: options.seed ?? 1, keepByteTokens: options.keepByteTokens});
  return {
    binary: {
      path: addon,
      version: `node-llama-cpp ${NODE_LLAMA_CPP_VERSION}`,
      commit: "prebuilt",
      source: "fallback",
      key: "fallback"
    },
    model,
    info: {
      engine: FALLBACK_ENGINE,
      binaryPath: addon,
      binarySource: "fallback",
      version: `node-llama-cpp ${NODE_LLAMA_CPP_VERSION}`,
      llamaCppCommit: "prebuilt (node-llama-cpp's own llama.cpp build)",
      sourcePackage: `node-llama-cpp@${NODE_LLAMA_CPP_VERSION} (prebuilt addon)`,
      ...modelInfo(preset, model)
    }
  };
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const get = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  try {
    const engine = await ensureEngine({
      preset: (get("--preset") ?? "tiny") as PresetName,
      seed: Number(get("--seed") ?? "1"),
      keepByteTokens: argv.includes("--keep-byte-tokens") || process.env.KEEP_BYTE_TOKENS === "1",
      build: !argv.includes("--no-build")
    });
    console.log(JSON.stringify(engine.info, null, 2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
