/**
 * web_search inside a real turn: createAgent with the search tools as `extraTools`. The main model sees
 * the tool and, after calling it, only the sub-agent's short report; the sub-agent's prompt, queries,
 * snippets and pages never reach the main model's requests. The report is stored with the turn, emitted,
 * and listed by `sightline sessions show`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { userText } from '../../src/shared/messages.js';
import { createSearchTools } from '../../src/main/agent/search/create-search-tools.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import { startAgentHarness, finishCall, toolCall, type AgentHarness } from '../helpers/agent-harness.js';
import { runSightline } from '../helpers/cli-io.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { extractedPages, page, searchResults, startFakeTavilyServer, type FakeTavilyServer } from '../helpers/fake-tavily-server.js';

const RELEASES = 'https://nodejs.org/en/about/previous-releases';
const TODAY = new Date('2025-06-14T12:00:00Z');

let harness: AgentHarness | undefined;
let researchModel: FakeOpenAiServer | undefined;
let tavily: FakeTavilyServer | undefined;
afterEach(async () => {
  await harness?.close();
  await researchModel?.close();
  await tavily?.close();
  harness = researchModel = tavily = undefined;
});

/** The main agent and the sub-agent think with models on separate fake servers, so their requests are told apart. */
async function startWithSearch(): Promise<{ harness: AgentHarness; researchModel: FakeOpenAiServer; tavily: FakeTavilyServer }> {
  researchModel = await startFakeOpenAiServer();
  tavily = await startFakeTavilyServer();
  const config = {
    ...DEFAULT_CONFIG,
    model: { ...DEFAULT_CONFIG.model, baseUrl: researchModel.baseUrl, apiKey: 'sk-test-research', maxRetries: 0 },
    search: { ...DEFAULT_CONFIG.search, tavilyApiKey: 'tvly-test-abcdef0123456789' },
  };
  const extraTools = createSearchTools(config, {
    model: createModelAdapter(config.model),
    now: () => TODAY,
    tavilyBaseUrl: tavily.baseUrl,
    sleep: async () => {},
  });
  harness = await startAgentHarness({ extra: { extraTools } });
  return { harness, researchModel, tavily };
}

describe('web_search through createAgent', () => {
  it('gives the main model only the report, stores it with the turn and shows it in sessions show', async () => {
    const { harness, researchModel, tavily } = await startWithSearch();
    harness.server.script([
      toolCall('web_search', { question: 'Which Node.js version is the current LTS?' }, 'I need to look this up.'),
      finishCall('Node 22 is the LTS.'),
    ]);
    researchModel.script([
      toolCall('search', { query: 'node lts version' }, 'SUB-AGENT-THOUGHT'),
      toolCall('extract', { urls: [RELEASES] }),
      toolCall('report', { answer: 'Node.js 22 is the active LTS.', confidence: 0.9, sources: [RELEASES] }),
    ]);
    tavily.scriptSearch([searchResults([page('Node.js Releases', RELEASES, 'SNIPPET-MARKER')])]);
    tavily.scriptExtract([extractedPages({ [RELEASES]: 'PAGE-BODY-MARKER' })]);

    const outcome = await harness.agent.runTurn({ request: userText('Install the current Node LTS') });

    expect(outcome).toMatchObject({ status: 'finished', summary: 'Node 22 is the LTS.' });
    expect(researchModel.remainingReplies()).toBe(0);

    // The main model was offered web_search and, after calling it, saw the report and nothing else of the search.
    const mainRequests = harness.server.requests.map((request) => request.rawBody);
    expect(mainRequests).toHaveLength(2);
    const firstTools = (harness.server.requests[0]?.body as { tools: { function: { name: string } }[] }).tools;
    expect(firstTools.map((tool) => tool.function.name)).toContain('web_search');
    expect(mainRequests[1]).toContain('Answer (confidence 0.90): Node.js 22 is the active LTS.');
    expect(mainRequests[1]).toContain(RELEASES);
    for (const inner of ['SUB-AGENT-THOUGHT', 'SNIPPET-MARKER', 'PAGE-BODY-MARKER', 'node lts version', 'web research helper', '"report"']) {
      for (const body of mainRequests) expect(body).not.toContain(inner);
    }
    // …while the sub-agent's own requests held its conversation.
    expect(researchModel.requests.at(-1)?.rawBody).toContain('PAGE-BODY-MARKER');

    const reports = harness.storage.searchReports.listByTurn(outcome.turnId);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ answer: 'Node.js 22 is the active LTS.', iterations: 1, queries: ['node lts version June 2025'] });
    expect(harness.events.filter((event) => event.type === 'search-report')).toEqual([
      expect.objectContaining({ reportId: reports[0]?.id, confidence: 0.9, sources: [{ title: 'Node.js Releases', url: RELEASES }] }),
    ]);
    const step = harness.events.find((event) => event.type === 'step' && event.tool === 'web_search');
    expect(step).toMatchObject({ ok: true });

    const shown = await runSightline(['sessions', 'show', outcome.sessionId], { SIGHTLINE_HOME: harness.home.root });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain('Search reports:');
    expect(shown.stdout).toContain(`${reports[0]?.id}: Which Node.js version is the current LTS?`);
    expect(shown.stdout).toContain('answer: Node.js 22 is the active LTS.');
    expect(shown.stdout).toMatch(/confidence 0\.90 after 1 search, \d+\.\d s/);
    expect(shown.stdout).toContain(`- Node.js Releases — ${RELEASES}`);
  });

  it('is not offered to the main model without a Tavily key', async () => {
    harness = await startAgentHarness({
      extra: { extraTools: createSearchTools(DEFAULT_CONFIG, { model: createModelAdapter({ ...DEFAULT_CONFIG.model, apiKey: 'sk-x' }) }) },
    });
    harness.server.script([finishCall('Nothing to do.')]);
    await harness.agent.runTurn({ request: userText('Nothing') });
    const tools = (harness.server.requests[0]?.body as { tools: { function: { name: string } }[] }).tools;
    expect(tools.map((tool) => tool.function.name)).not.toContain('web_search');
  });
});
