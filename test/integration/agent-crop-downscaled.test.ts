/**
 * A crop drawn on a downscaled screen returns the right region, end to end: the real agent loop, model
 * adapter and `openai` client against the fake server, a HiDPI screen (1280×800 at scale factor 2, frames of
 * 2560×1600) with a button on it, shown to the model at 1280×800. The model reads the screenshot's id from
 * its request and boxes the button as it saw it; the crop it gets back is the button's region of the
 * original at full resolution, and the step records the box where it really was. The same for a model
 * that names points 0–1000 (Qwen3-VL).
 */
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import type { Frame } from '../../src/main/perception/frame.js';
import type { Step } from '../../src/shared/app-api.js';
import { cropBoxesOf } from '../../src/renderer/src/timeline/crop-boxes.js';
import { chatMessages, contentText, finishCall, startAgentHarness, toolCall, type AgentHarness } from '../helpers/agent-harness.js';
import type { RecordedRequest } from '../helpers/fake-openai-server.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { qwenNativeReply } from '../helpers/qwen-model-replies.js';

const SCREEN = { width: 1280, height: 800 };
const SCALE_FACTOR = 2;
/** The button, in frame pixels (right and bottom exclusive): (500, 300)–(700, 350) in the 1280×800 copy. */
const BUTTON = { left: 1000, top: 600, right: 1400, bottom: 700 };
const BUTTON_COLOUR = [200, 30, 40] as const;

/** The fake screen with a red button painted on every frame. */
class ScreenWithButton extends FakeOperator {
  override async capture(): Promise<Frame> {
    const frame = await super.capture();
    for (let y = BUTTON.top; y < BUTTON.bottom; y += 1) {
      for (let x = BUTTON.left; x < BUTTON.right; x += 1) frame.rgba.set(BUTTON_COLOUR, (y * frame.width + x) * 4);
    }
    return frame;
  }
}

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(model: string): Promise<AgentHarness> {
  const operator = new ScreenWithButton({ screen: SCREEN, scaleFactor: SCALE_FACTOR });
  return startAgentHarness({ operator: { screen: SCREEN, scaleFactor: SCALE_FACTOR }, config: { model: { name: model } }, extra: { operator } });
}

/** The id of the first screenshot a request shows, as the model reads it (`<img_…>` before the image; the system prompt's is an example). */
function firstScreenshotId(request: RecordedRequest): string {
  const messages = (request.body as { messages: unknown[] }).messages.slice(1);
  const found = /<(img_[0-9a-f]{12})>/.exec(JSON.stringify(messages));
  if (found?.[1] === undefined) throw new Error('the request shows no screenshot');
  return found[1];
}

/** The turn's crop: its size and how many of its pixels are the button's. */
async function turnCrop(turnId: string) {
  const crops = harness!.storage.images.listByTurn(turnId).filter((image) => image.source === 'crop');
  expect(crops).toHaveLength(1);
  const read = await harness!.storage.images.read(crops[0]!.id);
  if (read.status !== 'ok') throw new Error('the crop is unavailable');
  const { data, info } = await sharp(read.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let buttonPixels = 0;
  for (let offset = 0; offset < data.length; offset += 3) {
    if (data[offset] === BUTTON_COLOUR[0] && data[offset + 1] === BUTTON_COLOUR[1] && data[offset + 2] === BUTTON_COLOUR[2]) buttonPixels += 1;
  }
  return { id: crops[0]!.id, width: info.width, height: info.height, buttonPixels };
}

/** The turn's crop_image step as the timeline reads it. */
function timelineBoxes(turnId: string) {
  const step = harness!.storage.steps.listByTurn(turnId).find((candidate) => 'tool' in candidate.action && candidate.action.tool === 'crop_image');
  if (step === undefined || !('tool' in step.action)) throw new Error('no crop_image step');
  return cropBoxesOf({ id: step.id, tool: step.action.tool, toolArguments: step.action.arguments as Step['toolArguments'], result: step.result as Step['result'] });
}

describe('a crop drawn on a downscaled screen, through the agent loop', () => {
  it('returns the button the model boxed on the 1280×800 copy of a 2560×1600 screen, at full resolution', async () => {
    harness = await start('gpt-4.1');
    let screenshotId = '';
    harness.server.script([
      (request) => {
        screenshotId = firstScreenshotId(request);
        return toolCall('crop_image', { crops: { [screenshotId]: [490, 290, 710, 360] } }, 'Zooming into the button.');
      },
      finishCall(),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Read the button') });

    expect(outcome.status).toBe('finished');
    expect(contentText(chatMessages(harness.server, 0)[0]!)).toContain('Screenshots are 1280x800 pixels.');
    const crop = await turnCrop(outcome.turnId);
    expect([crop.width, crop.height]).toEqual([440, 140]);
    expect(crop.buttonPixels).toBe((BUTTON.right - BUTTON.left) * (BUTTON.bottom - BUTTON.top));
    // The model is told where its box was read, and gets the crop's pixels in the next request.
    const next = JSON.stringify(harness.server.requests[1]!.body);
    expect(next).toContain(`${crop.id}: crop of ${screenshotId} (a screenshot from turn 1, 2560×1600 pixels) box [490, 290, 710, 360] in the 1280×800 image you were shown, [980, 580, 1420, 720] in its full-resolution pixels, 440×140 pixels.`);
    expect(next).toContain(`<${crop.id}>`);
    expect(timelineBoxes(outcome.turnId)).toEqual([expect.objectContaining({ imageId: screenshotId, x: 980, y: 580, width: 440, height: 140 })]);
  });

  it('reads the box in 0–1000 for Qwen3-VL, which names points that way', async () => {
    harness = await start('Qwen/Qwen3-VL-8B-Instruct');
    let screenshotId = '';
    harness.server.script([
      (request) => {
        screenshotId = firstScreenshotId(request);
        return toolCall('crop_image', { crops: { [screenshotId]: [385, 368, 552, 444] } }, 'Zooming into the button.');
      },
      qwenNativeReply({ action: 'terminate', status: 'success' }),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Read the button') });

    expect(outcome.status).toBe('finished');
    const crop = await turnCrop(outcome.turnId);
    expect([crop.width, crop.height]).toEqual([1414 - 985, 711 - 588]);
    expect(crop.buttonPixels).toBe((BUTTON.right - BUTTON.left) * (BUTTON.bottom - BUTTON.top));
    expect(JSON.stringify(harness.server.requests[1]!.body)).toContain('box [385, 368, 552, 444] in 0–1000 coordinates, [985, 588, 1414, 711] in its full-resolution pixels');
    const cropTool = (harness.server.requests[0]!.body as { tools: Array<{ function: { name: string; description: string } }> }).tools.find((tool) => tool.function.name === 'crop_image');
    expect(cropTool?.function.description).toContain('in 0–1000 coordinates on both axes of the image');
  });
});
