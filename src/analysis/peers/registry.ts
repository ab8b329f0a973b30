import {AIPERF_EXPECTED, detectAiperf} from "./aiperf/format.ts";
import {importAiperf} from "./aiperf/import.ts";
import {compareAiperf} from "./aiperf/parity.ts";
import {detectGenaiPerf, GENAI_PERF_EXPECTED} from "./genaiPerf/format.ts";
import {importGenaiPerf} from "./genaiPerf/import.ts";
import {compareGenaiPerf} from "./genaiPerf/parity.ts";
import {detectGuidellm, GUIDELLM_EXPECTED} from "./guidellm/format.ts";
import {importGuidellm} from "./guidellm/import.ts";
import {compareGuidellm} from "./guidellm/parity.ts";
import {detectInferscopeV1, INFERSCOPE_V1_EXPECTED} from "./inferscopeV1/format.ts";
import {importInferscopeV1} from "./inferscopeV1/import.ts";
import {compareInferscopeV1} from "./inferscopeV1/parity.ts";
import {detectLlmd, LLMD_EXPECTED} from "./llmd/format.ts";
import {importLlmd} from "./llmd/import.ts";
import {compareLlmd} from "./llmd/parity.ts";
import {detectLlmperf, LLMPERF_EXPECTED} from "./llmperf/format.ts";
import {importLlmperf} from "./llmperf/import.ts";
import {compareLlmperf} from "./llmperf/parity.ts";
import {detectSglang, SGLANG_EXPECTED} from "./sglang/format.ts";
import {importSglang} from "./sglang/import.ts";
import {compareSglang} from "./sglang/parity.ts";
import {parseDocs} from "./shared/parse.ts";
import {redactedRun} from "./shared/redactRun.ts";
import {describeShape} from "./shared/shape.ts";
import {
  PEER_TOOLS,
  toolLabel,
  type Doc,
  type ImportedRun,
  type PeerFile,
  type PeerFormat,
  type PeerTool,
  type Result
} from "./shared/types.ts";
import {detectVllm, VLLM_EXPECTED} from "./vllm/format.ts";
import {importVllm} from "./vllm/import.ts";
import {compareVllm, vllmCaveats} from "./vllm/parity.ts";

/**
 * Every peer format, one entry per tool: how its files are recognised, imported and compared. The
 * importer and the source comparison both read this list; adding a tool is a folder and one entry.
 */
export const PEER_FORMATS: Readonly<Record<PeerTool, PeerFormat>> = {
  vllm: {
    tool: "vllm",
    expected: VLLM_EXPECTED,
    detect: detectVllm,
    import: importVllm,
    compare: compareVllm,
    caveats: vllmCaveats
  },
  sglang: {
    tool: "sglang",
    expected: SGLANG_EXPECTED,
    detect: detectSglang,
    import: importSglang,
    compare: compareSglang
  },
  "genai-perf": {
    tool: "genai-perf",
    expected: GENAI_PERF_EXPECTED,
    detect: detectGenaiPerf,
    import: importGenaiPerf,
    compare: compareGenaiPerf
  },
  aiperf: {
    tool: "aiperf",
    expected: AIPERF_EXPECTED,
    detect: detectAiperf,
    import: importAiperf,
    compare: compareAiperf
  },
  guidellm: {
    tool: "guidellm",
    expected: GUIDELLM_EXPECTED,
    detect: detectGuidellm,
    import: importGuidellm,
    compare: compareGuidellm
  },
  llmperf: {
    tool: "llmperf",
    expected: LLMPERF_EXPECTED,
    detect: detectLlmperf,
    import: importLlmperf,
    compare: compareLlmperf
  },
  "inferscope-v1": {
    tool: "inferscope-v1",
    expected: INFERSCOPE_V1_EXPECTED,
    detect: detectInferscopeV1,
    import: importInferscopeV1,
    compare: compareInferscopeV1
  },
  "llmd-report": {
    tool: "llmd-report",
    expected: LLMD_EXPECTED,
    detect: detectLlmd,
    import: importLlmd,
    compare: compareLlmd
  }
};

/**
 * Picks the tool by shape: the one format that recognises every file. When none does, the error lists
 * each file with the shapes that were expected; when several do, the user is asked to name the tool.
 */
export function detectTool(docs: readonly Doc[]): Result<PeerTool> {
  const claims = PEER_TOOLS.map((t) => PEER_FORMATS[t].detect(docs)).filter((c) => c !== null);
  const full = claims.filter((c) => docs.every((d) => c.files.includes(d.name)));
  if (full.length === 1) return {ok: true, value: full[0]!.tool};
  if (full.length > 1)
    return {
      ok: false,
      errors: [
        {
          file: docs.map((d) => d.name).join(", "),
          path: "$",
          expected: `one tool, but the files fit several (${full.map((c) => c.tool).join(", ")}): name it instead of auto`
        }
      ]
    };
  const unclaimed = docs.filter((d) => !claims.some((c) => c.files.includes(d.name)));
  if (unclaimed.length)
    return {
      ok: false,
      errors: unclaimed.map((d) => ({
        file: d.name,
        path: "$",
        expected: `a result file of ${PEER_TOOLS.join(", ")} (detected by shape, not by name; docs/importing.md shows each), got ${describeShape(d)}; name the tool instead of auto to see what its format lacks`
      }))
    };
  return {
    ok: false,
    errors: [
      {
        file: docs.map((d) => d.name).join(", "),
        path: "$",
        expected: `files of one tool, but they fit different tools (${claims.map((c) => `${c.tool}: ${c.files.join(", ")}`).join("; ")}): import them separately`
      }
    ]
  };
}

/**
 * Imports a peer tool's result files into InferScope records. Pure: the edge reads the files.
 * `tool` "auto" detects the format by shape.
 */
/**
 * A named tool whose importer accepted files that detection gives to another tool (vLLM and SGLang share one
 * shape, with different definitions of E2E and output tokens): imported as asked, with a note saying so.
 */
function withShapeNote(run: ImportedRun, docs: readonly Doc[]): ImportedRun {
  const d = detectTool(docs);
  if (!d.ok || d.value === run.tool) return run;
  const note = `imported as ${toolLabel(run.tool)} as named, but the files' shape is ${toolLabel(d.value)}'s (\`import auto\` would read them as ${d.value}): their definitions differ`;
  return {...run, notes: [...run.notes, note], warnings: [...(run.warnings ?? []), note]};
}

export function importPeer(tool: PeerTool | "auto", files: readonly PeerFile[]): Result<ImportedRun> {
  if (files.length === 0)
    return {ok: false, errors: [{file: "(none)", path: "$", expected: "at least one input file"}]};
  const parsed = parseDocs(files);
  if (!parsed.ok) return parsed;
  const docs = parsed.value;
  let chosen: PeerTool;
  if (tool === "auto") {
    const d = detectTool(docs);
    if (!d.ok) return d;
    chosen = d.value;
  } else chosen = tool;
  try {
    const r = PEER_FORMATS[chosen].import(docs);
    if (!r.ok) return r;
    return {ok: true, value: redactedRun(tool !== "auto" ? withShapeNote(r.value, docs) : r.value)};
  } catch (e) {
    // An importer that meets a shape it was not written for must not crash the command with a stack
    // trace: the user gets the files, the tool and where the importer stopped (and can report it).
    return {
      ok: false,
      errors: [
        {
          file: docs.map((d) => d.name).join(", "),
          path: "$",
          expected: `a ${chosen} result this importer can read; it stopped at: ${(e as Error)?.message ?? String(e)} (a shape or version it does not know yet: please report it with the file)`
        }
      ]
    };
  }
}
