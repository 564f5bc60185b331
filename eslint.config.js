import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', 'test-output/**', 'data/**', 'bench/.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // An unhandled promise in an async server is a crash or a lost error.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true }],
    },
  },
  {
    // Pages are written on a hijacked reply (src/server/http/send.ts), where @fastify/cookie's
    // onSend hook never runs: a cookie it keeps aside would be lost.
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'reply', property: 'setCookie', message: 'Use setCookie from src/server/http/cookies.ts: it sets the header at once.' },
        { object: 'reply', property: 'clearCookie', message: 'Use clearCookie from src/server/http/cookies.ts: it sets the header at once.' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
);
