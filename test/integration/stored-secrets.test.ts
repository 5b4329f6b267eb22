/**
 * Issue 17, findings 6 and 7: a model that echoes a configured secret (the model key, Tavily's, an MCP
 * server's env secret) into its thought, a typed action or its summary gets `[redacted]` stored, in
 * every table, not the secret; the same single redactor keeps an MCP server's env secret out of the app's
 * warnings and its URL token out of `config show`.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRunAssembler, type RunHandlers } from '../../src/main/app/app-run-assembler.js';
import { runCli } from '../../src/main/cli/program.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { REDACTED } from '../../src/shared/secret-redaction.js';
import { computerCall, toolCall } from '../helpers/agent-harness.js';
import { captureIo, runSightline } from '../helpers/cli-io.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { everythingStored } from '../helpers/raw-database.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { openHomeStorage } from '../helpers/seed.js';

const MODEL_KEY = 'sk-test-echoed-key-0123456789';
const TAVILY_KEY = 'tvly-echoed-secret-0042';
const MCP_ENV_SECRET = 'mcp-env-secret-0042';
const URL_TOKEN = 'url-token-secret-0042';
const SECRETS = [MODEL_KEY, TAVILY_KEY, MCP_ENV_SECRET];

/** A server that fails at start and says its token on stderr, as a verbose one might. */
const TALKATIVE_BROKEN_SERVER = {
  command: process.execPath,
  args: ['-e', "process.stderr.write('cannot log in with ' + process.env.SERVICE_TOKEN + '\\n'); process.exit(1)"],
  env: { SERVICE_TOKEN: MCP_ENV_SECRET },
};

const environment = useRunEnvironment('sightline-stored-secrets');

describe('redact before storing', () => {
  it('stores [redacted] where the model echoed a configured secret: thought, typed text, tool call, summary', async () => {
    writeFileSync(environment.home.configFile, JSON.stringify({ mcp: { servers: { talkative: TALKATIVE_BROKEN_SERVER } } }));
    environment.model.script([
      computerCall({ action: 'click', x: 100, y: 100 }, `My key is ${MODEL_KEY}, and Tavily's ${TAVILY_KEY}.`),
      computerCall({ action: 'type', text: `key=${MODEL_KEY}` }, 'Typing it.'),
      toolCall('finish', { summary: `Done with ${MODEL_KEY}, ${TAVILY_KEY} and ${MCP_ENV_SECRET}.`, success: true }, `Also ${MCP_ENV_SECRET}.`),
    ]);
    const io = captureIo({ OPENAI_API_KEY: MODEL_KEY, TAVILY_API_KEY: TAVILY_KEY });
    const exitCode = await runCli(
      ['--home', environment.home.root, 'run', 'Fill in the form', '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl],
      io,
    );
    expect(exitCode, io.output.stderr).toBe(0);
    expect(io.output.stderr).toContain('MCP server "talkative" did not start');

    const stored = everythingStored(environment.home.databaseFile);
    for (const secret of SECRETS) {
      expect(stored).not.toContain(secret);
      expect(io.output.stdout + io.output.stderr).not.toContain(secret);
    }
    const storage = openHomeStorage(environment.home);
    try {
      const [session] = storage.sessions.list();
      const steps = storage.steps.listBySession(session!.id);
      expect(steps.map((step) => step.thought)).toEqual([
        `My key is ${REDACTED}, and Tavily's ${REDACTED}.`,
        'Typing it.',
        `Also ${REDACTED}.`,
      ]);
      expect(steps[1]?.action).toEqual({ action: 'type', text: `key=${REDACTED}` });
      const assistantText = storage.messages
        .listBySession(session!.id)
        .filter((message) => message.message.role === 'assistant')
        .map((message) => JSON.stringify(message.message));
      expect(assistantText.join('\n')).toContain(`key=${REDACTED}`);
      expect(io.output.stdout).toBe(`Done with ${REDACTED}, ${REDACTED} and ${REDACTED}.\n`);
    } finally {
      storage.close();
    }
  });
});

describe('the same redactor elsewhere', () => {
  it("keeps an MCP server's env secret out of the app's warnings", async () => {
    const config = ConfigSchema.parse({ model: { apiKey: MODEL_KEY }, mcp: { servers: { talkative: TALKATIVE_BROKEN_SERVER } } });
    const warnings: string[] = [];
    const storage = openHomeStorage(environment.home);
    try {
      const assemble = createRunAssembler({
        storage,
        home: environment.home.root,
        config: { ...config, model: { ...config.model, baseUrl: environment.model.baseUrl } },
        operatorFactory: async () => new FakeOperator(),
        onWarning: (message) => warnings.push(message),
        watchSettling: false,
      });
      const handlers: RunHandlers = { confirm: async () => false, askUser: async () => undefined, onEvent: () => {}, beforeStep: async () => {} };
      const run = await assemble({}, handlers);
      await run.close();
    } finally {
      storage.close();
    }
    expect(warnings.join('\n')).toContain(`cannot log in with ${REDACTED}`);
    expect(warnings.join('\n')).not.toContain(MCP_ENV_SECRET);
  });

  it("shows an MCP server's URL token and env secret as redacted in config show, text and --json", async () => {
    writeFileSync(
      environment.home.configFile,
      JSON.stringify({ mcp: { servers: { talkative: TALKATIVE_BROKEN_SERVER, remote: { url: `https://mcp.example.com/mcp?token=${URL_TOKEN}&team=blue` } } } }),
    );
    for (const flags of [[], ['--json']]) {
      const shown = await runSightline(['--home', environment.home.root, 'config', 'show', ...flags]);
      expect(shown.exitCode, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('mcp.example.com/mcp?token=');
      expect(shown.stdout).toContain('team=blue');
      expect(shown.stdout).not.toContain(URL_TOKEN);
      expect(shown.stdout).not.toContain(MCP_ENV_SECRET);
    }
  });
});
