import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import { housePlugin } from "./scripts/house.js";

// Import boundaries. The app, the workers and the web process are what production runs: they
// import neither the offline sandbox nor the tests (a test beside its behaviour may). The app's
// server code is shared with the workers, so it never reaches into them.
// Each pattern matches a relative climb (or a baseUrl path) to the top-level folder.
const SANDBOX_OR_TEST = {
  regex: "^(\\.{1,2}/)*(sandbox|test)(/|$)",
  message: "Production code never imports sandbox/ or test/ (only *.test.ts beside the behaviour may).",
};
const WORKERS = {
  regex: "^(\\.{1,2}/)*workers(/|$)",
  message: "app/.server is shared with the workers and never imports workers/.",
};
// The reviews service client is used through its entry (app/.server/reviews/index.ts, imported as
// "…/reviews"): the modules behind it are free to move, so nothing outside the folder names them.
// The client's own files and tests may.
const REVIEWS_INTERNALS = {
  regex: "(^|/)reviews/[^/]",
  message: 'Outside app/.server/reviews/, import the service client from its entry ("…/reviews").',
};
// A processor is a one-file adapter from a job to a use case in app/.server/<domain>/: what two
// processors share is domain work (there) or worker plumbing (workers/outcome-adapter.ts, and
// errors.ts and registry.ts beside the processors), never another processor.
const OTHER_PROCESSORS = {
  regex: "^\\./(?!(errors|registry)$)[^/]+$",
  message:
    "Processors never import processors: move the shared work to app/.server/<domain>/ (or plumbing to workers/).",
};
const TESTS = ["**/*.test.ts", "**/*.test.tsx"];
const REVIEWS_CLIENT = ["app/.server/reviews/**"];
// A file matched by several of these takes the last one's patterns (flat config replaces a rule's
// options): each entry lists every pattern that applies to its files.
const boundaries = [
  { files: ["**/*.{ts,tsx}"], ignores: REVIEWS_CLIENT, patterns: [REVIEWS_INTERNALS] },
  {
    files: ["app/**/*.{ts,tsx}", "workers/**/*.ts", "server/**/*.ts"],
    ignores: [...TESTS, ...REVIEWS_CLIENT],
    patterns: [SANDBOX_OR_TEST, REVIEWS_INTERNALS],
  },
  {
    files: ["app/.server/**/*.{ts,tsx}"],
    ignores: [...TESTS, ...REVIEWS_CLIENT],
    patterns: [SANDBOX_OR_TEST, WORKERS, REVIEWS_INTERNALS],
  },
  { files: ["app/.server/**/*.test.{ts,tsx}"], ignores: REVIEWS_CLIENT, patterns: [WORKERS, REVIEWS_INTERNALS] },
  { files: ["app/.server/reviews/**/*.{ts,tsx}"], ignores: TESTS, patterns: [SANDBOX_OR_TEST, WORKERS] },
  { files: ["app/.server/reviews/**/*.test.{ts,tsx}"], patterns: [WORKERS] },
  {
    files: ["workers/processors/**/*.ts"],
    ignores: TESTS,
    patterns: [SANDBOX_OR_TEST, REVIEWS_INTERNALS, OTHER_PROCESSORS],
  },
].map(({ files, ignores, patterns }) => ({
  files,
  ...(ignores ? { ignores } : {}),
  rules: { "no-restricted-imports": ["error", { patterns }] },
}));

export default tseslint.config(
  {
    ignores: ["build/**", "extensions/*/dist/**", "node_modules/**", "prisma/generated/**", ".cache/**", ".local/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/no-explicit-any": "error",
      "no-console": "off",
      // Prettier wraps code at 120; strings, template literals, URLs and regular expressions stay whole
      // (a sentence or a payload is read and searched as one).
      "max-len": [
        "error",
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  ...boundaries,
  {
    // The house of app/.server (scripts/house.js): each folder imported through its door (its
    // index.ts), floors imported downwards only, the browser-side app/admin/ not at all.
    files: ["app/**/*.{ts,tsx}", "workers/**/*.ts", "server/**/*.ts", "sandbox/**/*.{ts,tsx}"],
    plugins: { house: housePlugin },
    rules: { "house/rooms": "error" },
  },
  {
    // One file, one subject: product code past ~400 lines is split along its seams (tests, fixtures
    // and the offline sandbox may run longer). Blank lines and comments count: they are read too.
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "workers/**/*.ts", "extensions/**/*.{js,ts,tsx}"],
    ignores: [...TESTS, "**/*.testkit.ts", "**/*.test-helpers.ts"],
    rules: { "max-lines": ["error", { max: 400 }] },
  },
  {
    // The theme's scripts run as they are written in the shopper's browser: classic scripts, but
    // for the two loaded with import(). Hand-kept and byte-measured, so Prettier's 120 columns do
    // not apply to them; an empty catch is how they shrug off storage and network they may not use.
    files: ["extensions/*/assets/**/*.js"],
    languageOptions: { sourceType: "script", globals: globals.browser },
    rules: { "max-len": "off", "no-empty": ["error", { allowEmptyCatch: true }] },
  },
  {
    files: ["extensions/reviews-theme/assets/{rating-modal-product,reviews-votes}.js"],
    languageOptions: { sourceType: "module" },
  },
);
