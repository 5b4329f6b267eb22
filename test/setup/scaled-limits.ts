/**
 * Setup file of the integration and end-to-end projects: the default limits of every test and hook there
 * (vitest.config.ts's 30 s and 60 s, written for an idle machine) scaled to this machine's load, from the one
 * place limits come from (test/helpers/time-limits.ts). A test with a limit of its own takes it from there too.
 */
import { vi } from 'vitest';
import { scaledLimit } from '../helpers/time-limits.js';

vi.setConfig({ testTimeout: scaledLimit(30_000), hookTimeout: scaledLimit(60_000) });
