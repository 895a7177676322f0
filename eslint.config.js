import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { visitorPathFiles } from './scripts/visitor-path.js';

// Lint zones come from the folder list, so a new feature is fenced in the moment it exists.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'coverage', '.data', 'test-results', 'src/lib/database.types.ts'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    settings: { 'import-x/resolver': { typescript: true, node: true } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'import-x/no-cycle': 'error',
      // Toasts go through lib/toast.ts, which loads react-hot-toast with the first one.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'react-hot-toast', message: "Use `toast` from '@/lib/toast'.", allowTypeImports: true }] },
      ],
      // One-way imports (bulletproof-react): shared code -> features -> app; features never import each other.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((f) => ({
              target: `./src/features/${f}`,
              from: './src/features',
              except: [`./${f}`],
              message: 'A feature never imports another feature; move what both need into shared code.',
            })),
            {
              target: ['./src/components', './src/lib', './src/config', './src/hooks'],
              from: ['./src/features', './src/app'],
              message: 'Shared code must not import features or the app.',
            },
            { target: './src/features', from: './src/app', message: 'Features must not import the app layer.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/lib/toast.ts', 'src/components/ui/toaster.tsx'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    // The visitor path (decisions 0013 and 0014): what a visitor's
    // /, /schedule and /membership load before the app starts. No supabase-js client (the schedule
    // reads with one fetch, lib/public-api.ts; member code loads it on demand through
    // lib/supabase-loader.ts) and no zod (valibot, about 1 KB). Types may still be imported.
    // Derived from the route table (scripts/visitor-path.js): a new visitor page is covered the
    // moment router.tsx marks it, and so is every file its screen imports.
    files: visitorPathFiles(),
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'react-hot-toast', message: "Use `toast` from '@/lib/toast'.", allowTypeImports: true },
            {
              name: '@/lib/supabase',
              message: 'The visitor path loads no supabase-js: use lib/public-api.ts, or lib/supabase-loader.ts on demand.',
              allowTypeImports: true,
            },
            {
              name: '@supabase/supabase-js',
              message: 'The visitor path loads no supabase-js: use lib/public-api.ts.',
              allowTypeImports: true,
            },
            {
              name: '@/lib/query-keys',
              message: "Every feature's keys: import the feature's own from lib/keys (e.g. '@/lib/keys/classes').",
              allowTypeImports: true,
            },
            { name: 'zod', message: 'The visitor path validates with valibot (decision 0013).', allowTypeImports: true },
            { name: 'zod/mini', message: 'The visitor path validates with valibot (decision 0013).', allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'src/testing/**', 'tests/**', 'bench/**', 'scripts/**', 'supabase/**', 'netlify/**'],
    rules: {
      'react-refresh/only-export-components': 'off',
      '@typescript-eslint/no-restricted-imports': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Playwright fixtures hand their value to `use()` (not React's) and declare no needs with `{}`.
    files: ['tests/e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off', 'no-empty-pattern': 'off' },
  },
  { files: ['**/*.js'], extends: [tseslint.configs.disableTypeChecked] },
);
