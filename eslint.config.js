// ESLint for the browser client (static/js: ES modules loaded as they are, no build step) and
// its unit tests (tests/js, run by node's own test runner). `make lint` and `make test` run it.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: [".venv/", "node_modules/", "staticfiles/", "var/", "test-artifacts/"] },
  js.configs.recommended,
  {
    files: ["**/*.js"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module" },
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
      "object-shorthand": "error",
      "no-throw-literal": "error",
      "no-implicit-coercion": ["error", { allow: ["!!"] }],
      "no-shadow": ["error", { builtinGlobals: false }],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      "no-console": "error",
      "no-alert": "error",
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
    },
  },
  {
    files: ["static/js/**/*.js"],
    languageOptions: { globals: globals.browser },
    rules: {
      // Globals of the browser that are easily used by mistake for a missing local.
      "no-restricted-globals": ["error", "event", "name", "status", "length", "close", "open",
        "parent", "top", "self", "origin"],
    },
  },
  {
    // The service worker runs in its own global scope (no page, no modules of the site).
    files: ["static/notifications-sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { globals: globals.node },
  },
];
