// @ts-check
import js from "@eslint/js";
import {createNodeResolver, importX} from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/**
 * The collector's floors, bottom to top (docs/architecture.md): a file may import its own floor and the
 * floors below it, never one above. The root files of floor 0 are the effects and the small shared types
 * every floor needs (the redactor, the CLI error, the plain-text HTTP effect).
 */
const collectorFloors = [
  ["collector/effects.ts", "collector/httpText.ts", "collector/cliError.ts", "collector/redact.ts"],
  ["collector/http"],
  ["collector/request", "collector/load"],
  [
    "collector/telemetry",
    "collector/env",
    "collector/writer",
    "collector/bundle",
    "collector/config",
    "collector/fake",
    "collector/launch",
    "collector/workload"
  ],
  ["collector/cases"],
  ["collector/run", "collector/merge", "collector/k8s"],
  ["collector/experiment"],
  ["collector/commands"],
  ["collector/cli.ts"]
];
const floorName = (paths) => paths.map((p) => p.replace(/^collector\//, "")).join(", ");
/** One zone per floor: its files may not import any floor above it. */
const floorZones = collectorFloors.slice(0, -1).map((floor, i) => ({
  target: floor.map((p) => `./${p}`),
  from: collectorFloors
    .slice(i + 1)
    .flat()
    .map((p) => `./${p}`),
  message: `collector floors run one way (effects < http < request, load < telemetry, env, writer, bundle, config, fake, launch, workload < cases < run, merge, k8s < experiment < commands < cli): ${floorName(floor)} may not import a floor above it.`
}));

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
  ["schema", ["ingest", "derive", "metrics", "workload", "accumulate", "gates", "report", "analyze"]],
  ["ingest", ["metrics", "workload", "accumulate", "gates", "report", "analyze"]],
  ["derive", ["metrics", "workload", "accumulate", "gates", "report", "analyze"]],
  ["metrics", ["workload", "accumulate", "gates", "report", "analyze"]],
  ["workload", ["accumulate", "gates", "report", "analyze"]],
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
              // src/io/hash.ts is the one sha256 (a leaf of node:crypto and node:fs) shared with src/io and scripts
              regex: "src/(?!analysis/(schema|stats|redact|util)/|io/hash\\.ts$)",
              message:
                "the collector captures raw evidence: import only src/analysis/schema/**, stats/**, redact/** and util/**, and src/io/hash.ts (analysis belongs to collector/cli.ts and collector/commands/**)."
            }
          ]
        }
      ]
    }
  },
  {
    // Size (docs/architecture.md): a file of one concept stays under 400 lines, a function under 80; a longer
    // function says why in its disable comment (`// eslint-disable-next-line max-lines-per-function -- reason`).
    // test/structure.test.ts holds the 400 lines for .astro files too, which ESLint does not parse here.
    files: ["src/**/*.ts", "collector/**/*.ts", "scripts/**/*.ts"],
    rules: {
      "max-lines": ["error", {max: 400, skipBlankLines: false, skipComments: false}],
      "max-lines-per-function": ["error", {max: 80, skipBlankLines: true, skipComments: true}]
    }
  },
  // issue 12: collector floors
  {
    files: ["collector/**/*.ts"],
    plugins: {"import-x": importX},
    settings: {
      "import-x/resolver-next": [createNodeResolver({extensions: [".ts", ".js", ".d.ts"]})],
      // no-cycle parses the imported files too: with TypeScript's parser, or it sees no imports in them
      "import-x/parsers": {"@typescript-eslint/parser": [".ts"]},
      "import-x/extensions": [".ts", ".js"]
    },
    rules: {
      "import-x/no-cycle": ["error", {ignoreExternal: true}],
      "import-x/no-restricted-paths": ["error", {zones: floorZones}]
    }
  },
  {
    // The site (docs/architecture.md, "Site"): the loaders and src/io are its only file-system code, and
    // src/site/buildOptions.ts its only reader of the environment. test/site/layout.test.ts checks the
    // arrows between the site's rooms, .astro files included; test/site/lint.test.ts proves these bite.
    files: ["src/site/**/*.ts", "src/i18n/**/*.ts", "src/islands/**/*.ts", "src/charts/**/*.ts"],
    ignores: ["src/site/buildOptions.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        {name: "process", message: "the site reads its build options through src/site/buildOptions.ts only."}
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(node:)?(fs|fs/promises|child_process|net|http|https)$",
              message: "the site's I/O lives in src/loaders (and src/io): pass data in."
            }
          ]
        }
      ]
    }
  }
);
