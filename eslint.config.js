// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** Globals that bring I/O or a wall clock into code that must stay pure. */
const impureGlobals = [
  {name: "process", message: "src/analysis is pure: pass values in from the edge."},
  {name: "Date", message: "src/analysis is pure: no wall clock; take times from the evidence."},
  {name: "performance", message: "src/analysis is pure: no clock."},
  {name: "console", message: "src/analysis is pure: return issues instead of logging."},
  {name: "fetch", message: "src/analysis is pure: no network."},
  {name: "setTimeout", message: "src/analysis is pure: no timers."},
  {name: "setInterval", message: "src/analysis is pure: no timers."},
  {name: "require", message: "src/analysis is pure: ESM imports only."}
];

/** What keeps src/analysis pure (no I/O, no edges); every src/analysis lint block repeats it. */
const ANALYSIS_PURE = [
  {
    regex: "^(node:|fs$|path$|os$|child_process$|http$|https$|net$|crypto$|worker_threads$|url$)",
    message: "src/analysis is pure: no Node built-ins (I/O belongs at the edges)."
  },
  {regex: "(^|/)collector/", message: "src/analysis never imports the collector."},
  {regex: "(^|/)(pages|components|charts|loaders|i18n)/", message: "imports flow one way: analysis ← site."}
];

/** Each floor of the analysis core and the floors above it, which it may not import. */
const ANALYSIS_FLOORS = [
  ["schema", ["ingest", "derive", "metrics", "accumulate", "gates", "report", "analyze"]],
  ["ingest", ["metrics", "accumulate", "gates", "report", "analyze"]],
  ["derive", ["metrics", "accumulate", "gates", "report", "analyze"]],
  ["metrics", ["accumulate", "gates", "report", "analyze"]],
  ["accumulate", ["gates", "report", "analyze"]],
  ["gates", ["report", "analyze"]],
  ["report", ["analyze"]]
];

export default tseslint.config(
  {
    ignores: [
      "dist/",
      ".astro/",
      "node_modules/",
      "test/output/",
      "test/fixtures/",
      "evidence/",
      "public/",
      "tmp/",
      ".demo/",
      ".scratch/",
      "reports/"
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.js", "**/*.mjs"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        setImmediate: "readonly",
        TextDecoder: "readonly",
        TextEncoder: "readonly",
        AbortController: "readonly",
        structuredClone: "readonly",
        queueMicrotask: "readonly",
        performance: "readonly",
        fetch: "readonly",
        document: "readonly",
        window: "readonly",
        localStorage: "readonly",
        HTMLElement: "readonly",
        HTMLInputElement: "readonly",
        HTMLSelectElement: "readonly"
      }
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", {fixStyle: "inline-type-imports"}],
      "@typescript-eslint/no-unused-vars": ["error", {argsIgnorePattern: "^_", varsIgnorePattern: "^_"}],
      "no-console": "off",
      eqeqeq: ["error", "always", {null: "ignore"}]
    }
  },
  {
    files: ["src/**/*.ts", "scripts/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name=/^(max|min)$/] > SpreadElement",
          message:
            "Math.max/min(...xs) passes every element as an argument and overflows the stack beyond ~120k: use max/min of d3-array."
        }
      ]
    }
  },
  {
    files: ["src/analysis/**/*.ts", "collector/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name=/^(max|min)$/] > SpreadElement",
          message:
            "Math.max/min(...xs) passes every element as an argument and overflows the stack beyond ~120k: use max/min of d3-array."
        },
        {
          selector: "CallExpression[callee.property.name='push'] > SpreadElement",
          message:
            "push(...xs) passes every element as an argument and overflows the stack beyond ~120k: use appendAll (src/analysis/util/append.ts) or a loop."
        }
      ]
    }
  },
  {
    files: ["src/analysis/**/*.ts"],
    rules: {
      "no-console": "error",
      "no-restricted-globals": ["error", ...impureGlobals],
      "no-restricted-imports": [
        "error",
        {
          patterns: ANALYSIS_PURE
        }
      ]
    }
  },
  // The floors of the analysis core, bottom to top: schema (with the leaves stats, util) < ingest, derive <
  // metrics < accumulate < gates < report < analyze.ts. A floor never imports one above it.
  ...ANALYSIS_FLOORS.map(([dir, above]) => ({
    files: [`src/analysis/${dir}/**/*.ts`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...ANALYSIS_PURE,
            {
              regex: `^\\.\\./(${above.join("|")})(/|\\.ts$)`,
              message: `imports flow one way in src/analysis: ${dir}/ is below ${above.join(", ")} (docs/architecture.md).`
            }
          ]
        }
      ]
    }
  })),
  {
    files: ["collector/**/*.ts"],
    ignores: ["collector/cli.ts", "collector/commands/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "src/(?!analysis/(schema|stats|redact)/)",
              message:
                "the collector captures raw evidence: import only src/analysis/schema/**, stats/** and redact/** (analysis belongs to collector/cli.ts and collector/commands/**)."
            }
          ]
        }
      ]
    }
  }
);
