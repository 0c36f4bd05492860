import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', 'data', 'web/dist', 'web/dist.*', 'bench/out', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.cjs', 'web/*.cjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
    },
  },
  { files: ['web/**/*.{ts,tsx}'], plugins: { 'react-hooks': reactHooks }, rules: reactHooks.configs.recommended.rules },
  // The house's size rules for runtime code (docs/development.md): data tables and tests aside.
  {
    files: ['service/**/*.ts', 'web/src/**/*.{ts,tsx}', 'scripts/**/*.ts', 'bench/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'service/test/**', 'scripts/fixtures/profiles.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 120 }],
      'max-lines': ['error', { max: 450 }],
    },
  },
  { files: ['*.js', '*.cjs', 'web/*.cjs'], ...tseslint.configs.disableTypeChecked },
);
