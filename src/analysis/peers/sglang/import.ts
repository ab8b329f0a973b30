import type {Doc, ImportedRun, Result} from "../shared/types.ts";
import {importVllmLike} from "../vllm/import.ts";

/** SGLang runs map to records exactly as vLLM's do; the flavour sets the token source and the notes. */
export const importSglang = (docs: readonly Doc[]): Result<ImportedRun> => importVllmLike("sglang", docs);
