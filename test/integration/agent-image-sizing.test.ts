/**
 * A model that names points in pixels of its own smart-resized image (UI-TARS-1.5, Qwen2.5-VL) is shown
 * every screenshot already at that size: the system prompt states it, the request carries it, and a point
 * the model names in it lands where it should through the one coordinate mapping, HiDPI included. The
 * sizing is the profile's, whatever the dialect, so the function-tools dialect drives these turns.
 */
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { activeZoneShape } from '../../src/main/context/active-zone-shape.js';
import { modelImageSize } from '../../src/main/context/model-image-size.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { chatMessages, computerCall, finishCall, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The sizes of the images in request `index`, decoded from what was sent. */
async function sentImageSizes(index: number): Promise<Array<[number | undefined, number | undefined]>> {
  const urls = chatMessages(harness!.server, index).flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as Array<{ type?: string; image_url?: { url?: string } }>).flatMap((part) =>
          part.type === 'image_url' && part.image_url?.url !== undefined ? [part.image_url.url] : [],
        )
      : [],
  );
  return Promise.all(
    urls.map(async (url) => {
      const metadata = await sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).metadata();
      return [metadata.width, metadata.height] as [number | undefined, number | undefined];
    }),
  );
}

describe('screenshots for models that resize images themselves', () => {
  it.each([
    ['ui-tars-1.5-7b', 'UI-TARS-1.5'],
    ['Qwen/Qwen2.5-VL-7B-Instruct', 'Qwen2.5-VL'],
  ])('%s (%s) is shown a HiDPI 1440x900 display as 1288x812, and its centre click lands on the centre', async (model) => {
    harness = await startAgentHarness({
      operator: { screen: { width: 1440, height: 900 }, scaleFactor: 2 },
      config: { model: { name: model, dialect: 'function-tools' } },
    });
    harness.server.script([computerCall({ action: 'click', x: 644, y: 406 }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Click the middle') });

    expect(outcome.status).toBe('finished');
    const system = chatMessages(harness.server, 0)[0]!;
    expect(system.content).toContain('Screenshots are 1288x812 pixels.');
    expect(await sentImageSizes(0)).toEqual([[1288, 812]]);
    // The first screen is a reduced view in the second request (issue 15): a smaller copy, resized by the same rule.
    const profile = resolveModelProfile(model);
    const reduced = modelImageSize(1440, 900, activeZoneShape(profile, 1280).reducedImageEdge, profile.imageSizing);
    expect(reduced.width).toBeLessThan(1288 / 2);
    expect(await sentImageSizes(1)).toEqual([[reduced.width, reduced.height], [1288, 812]]);
    expect(harness.operator.executed[0]!.screen).toEqual([{ x: 720, y: 450 }]);
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.screenshotView).toEqual({ imageWidth: 1288, imageHeight: 812, coordinateSpace: 'pixels' });
  });

  it('shows other models the fitted size, as before', async () => {
    harness = await startAgentHarness({ operator: { screen: { width: 1440, height: 900 }, scaleFactor: 2 } });
    harness.server.script([computerCall({ action: 'click', x: 640, y: 400 }), finishCall()]);
    await harness.agent.runTurn({ request: userText('Click the middle') });
    expect(chatMessages(harness.server, 0)[0]!.content).toContain('Screenshots are 1280x800 pixels.');
    expect(await sentImageSizes(0)).toEqual([[1280, 800]]);
    expect(harness.operator.executed[0]!.screen).toEqual([{ x: 720, y: 450 }]);
  });
});
