import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

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
// A processor is a one-file adapter from a job to a use case in app/.server/<domain>/: what two
// processors share is domain work (there) or worker plumbing (workers/outcome-adapter.ts, and
// errors.ts and registry.ts beside the processors), never another processor.
const OTHER_PROCESSORS = {
  regex: "^\\./(?!(errors|registry)$)[^/]+$",
  message:
    "Processors never import processors: move the shared work to app/.server/<domain>/ (or plumbing to workers/).",
};
const TESTS = ["**/*.test.ts", "**/*.test.tsx"];
// A file matched by several of these takes the last one's patterns (flat config replaces a rule's
// options): app/.server's entries list every pattern that applies to them.
const boundaries = [
  { files: ["app/**/*.{ts,tsx}", "workers/**/*.ts", "server/**/*.ts"], ignores: TESTS, patterns: [SANDBOX_OR_TEST] },
  { files: ["app/.server/**/*.{ts,tsx}"], ignores: TESTS, patterns: [SANDBOX_OR_TEST, WORKERS] },
  { files: ["app/.server/**/*.test.{ts,tsx}"], patterns: [WORKERS] },
  { files: ["workers/processors/**/*.ts"], ignores: TESTS, patterns: [SANDBOX_OR_TEST, OTHER_PROCESSORS] },
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
