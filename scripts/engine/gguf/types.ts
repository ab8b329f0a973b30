/** GGUF types and shapes: the pure module is the collector's (collector/env/gguf/types.ts), shared from there. */
export * from "../../../collector/env/gguf/types.ts";
