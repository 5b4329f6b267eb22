// Lint rules that catch real bugs (floating promises, unused code); style is left to the formatter's
// defaults. Type-aware rules use the two tsconfig projects, so the renderer is checked as web code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // test/fixtures/sdk-consumer is a project of its own: it imports the packed 'sightline', which only
  // test/e2e/sdk-package.test.ts installs, and is type-checked there with its own tsconfig.
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', 'test-artifacts/**', '.dependency-cruiser.cjs', '.dependency-cruiser-startup.cjs', 'test/fixtures/sdk-consumer/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // All SQL lives in src/main/storage (the layering check forbids importing better-sqlite3 elsewhere;
    // this catches a statement prepared on a connection that reached another layer some other way).
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/main/storage/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='prepare']",
          message: 'SQL lives in src/main/storage: give storage a named operation instead of preparing a statement here.',
        },
      ],
    },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['test/**/*', 'bench/**/*'],
    rules: { 'no-console': 'off' },
  },
);
