export * from "./cases.ts";
export * from "./config.ts";
export * from "./manifest.ts";
export * from "./primitives.ts";
export * from "./records.ts";
export * from "./ids.ts";
export * from "./versions.ts";
export * from "./experiment.ts";
