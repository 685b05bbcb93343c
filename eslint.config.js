// ESLint: the recommended rules, plus the type-aware ones that catch real bugs (promises nobody
// awaits or that land where a callback returns void; `any` leaking out of parsed input).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What a browser page script may use without importing it (src/ui is served as-is to browsers). */
const BROWSER = Object.fromEntries(
  ['window', 'document', 'fetch', 'location', 'history', 'localStorage', 'sessionStorage', 'console', 'setTimeout', 'clearTimeout',
    'setInterval', 'clearInterval', 'requestAnimationFrame', 'URL', 'URLSearchParams', 'Intl', 'HTMLElement', 'Event', 'CustomEvent',
    'AbortController', 'navigator', 'matchMedia', 'getComputedStyle', 'SVGElement', 'devicePixelRatio', 'ResizeObserver',
    'SwaggerUIBundle'].map((g) => [g, 'readonly']),
);
/** What the Node scripts in .mjs files use without importing it. */
const NODE = Object.fromEntries(['process', 'console', 'URL', 'Buffer'].map((g) => [g, 'readonly']));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/artifacts/**', 'src/client/openapi-types.ts', 'src/harness/validators.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      // A leading underscore names a value kept on purpose: a destructured field left out of a rest copy, a positional parameter.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // A closure may read a binding assigned later (a store that refers to itself once built).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Control characters are matched on purpose: escaping for terminals, XML and JSON.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests and benchmarks read answers as parsed JSON (`any`) and check them with assertions and against the documented
    // response schemas (test/helpers); typing each body by hand would restate those schemas.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript (browser pages, the worker boot file, this file) is outside the TypeScript project.
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  { files: ['src/ui/**/*.js'], languageOptions: { globals: BROWSER } },
  { files: ['**/*.mjs', 'eslint.config.js'], languageOptions: { globals: NODE } },
);
