/**
 * A database that exercises every part of the timeline UI: sessions of different sizes and states; a
 * compacted turn whose screenshots are folded into captioned placeholders with their pixels in cold
 * storage (one of them purged by the retention sweep); a turn with a search sub-agent report, an
 * ephemeral injection, an error, a refused action, an unchanged screen and a crop_image call; token reports
 * on every request; and a long session of thousands of steps for the windowed list.
 *
 * Screenshots are real PNGs rendered from SVG (a small settings app), so the UI's test screenshots look
 * like what a person would see. The compaction engine's own work is imitated through the repositories:
 * zones, captions, archive to cold storage, markCompacted.
 */
import sharp from 'sharp';
import type { ComputerAction, StepAction, ToolArguments } from '../../src/shared/actions.js';
import type { ImageRecord, SessionRecord, Storage, TurnRecord } from '../../src/main/storage/index.js';

export interface SeededTimeline {
  /** The session with every kind of step. */
  showcase: SessionRecord;
  compactedTurn: TurnRecord;
  detailTurn: TurnRecord;
  /** Folded into a placeholder, pixels in cold storage: loads on click. */
  coldImage: ImageRecord;
  /** Folded, then deleted by the retention sweep: shows "unavailable". */
  purgedImage: ImageRecord;
  /** The session with `longSteps` steps. */
  long: SessionRecord;
  others: SessionRecord[];
}

export interface SeedTimelineOptions {
  /** Steps of the long session (default 1500). */
  longSteps?: number;
  /** Screenshot size (default 1280×800). */
  width?: number;
  height?: number;
}

/** A moving clock for storage, so rows carry realistic, increasing times. Pass it to openHomeStorage. */
export class SeedClock {
  private time: number;
  private realTime = false;
  constructor(start = Date.now() - 3 * 60 * 60 * 1000) {
    this.time = start;
  }
  readonly now = (): Date => new Date(this.realTime ? Date.now() : this.time);
  /** After seeding: rows written by a live run carry the real time. */
  followRealTime(): void {
    this.realTime = true;
  }
  advance(milliseconds: number): void {
    this.time += milliseconds;
  }
  set(time: number): void {
    this.time = time;
  }
  get value(): number {
    return this.time;
  }
}

interface ScreenOptions {
  width: number;
  height: number;
  page: string;
  /** Text in the invite field. */
  typed?: string;
  dialog?: string;
  highlightRow?: number;
  toast?: string;
}

const escapeXml = (text: string) => text.replace(/[<>&"]/g, (character) => `&#${character.charCodeAt(0)};`);

/** A screenshot of a small "Acme Workspace" settings app, drawn as SVG and rendered to PNG. */
export async function drawScreen(options: ScreenOptions): Promise<Buffer> {
  const { width, height } = options;
  const members = ['Dana Whitfield · Owner', 'Sam Okafor · Admin', 'Lee Tanaka · Editor', 'Priya Raman · Viewer', 'Jon Alvarez · Editor'];
  const rows = members
    .map((member, index) => {
      const y = 300 + index * 56;
      const fill = options.highlightRow === index ? '#eef4ff' : '#ffffff';
      return `<rect x="300" y="${y}" width="${width - 360}" height="48" rx="6" fill="${fill}" stroke="#e4e7ec"/>
        <circle cx="330" cy="${y + 24}" r="14" fill="#c7d7fe"/>
        <text x="356" y="${y + 29}" font-size="16" fill="#1d2939">${escapeXml(member)}</text>
        <rect x="${width - 170}" y="${y + 12}" width="88" height="24" rx="4" fill="#f2f4f7"/>
        <text x="${width - 156}" y="${y + 29}" font-size="13" fill="#475467">Manage</text>`;
    })
    .join('');
  const dialog =
    options.dialog === undefined
      ? ''
      : `<rect width="${width}" height="${height}" fill="#0c111d" opacity="0.45"/>
         <rect x="${width / 2 - 220}" y="${height / 2 - 110}" width="440" height="220" rx="12" fill="#ffffff"/>
         <text x="${width / 2 - 190}" y="${height / 2 - 60}" font-size="20" font-weight="bold" fill="#101828">${escapeXml(options.dialog)}</text>
         <text x="${width / 2 - 190}" y="${height / 2 - 24}" font-size="15" fill="#475467">This cannot be undone.</text>
         <rect x="${width / 2 + 40}" y="${height / 2 + 40}" width="150" height="40" rx="6" fill="#d92d20"/>
         <text x="${width / 2 + 80}" y="${height / 2 + 66}" font-size="15" fill="#ffffff">Confirm</text>`;
  const toast =
    options.toast === undefined
      ? ''
      : `<rect x="${width - 400}" y="${height - 90}" width="360" height="52" rx="8" fill="#12b76a"/>
         <text x="${width - 380}" y="${height - 58}" font-size="16" fill="#ffffff">${escapeXml(options.toast)}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans, Liberation Sans, sans-serif">
    <rect width="${width}" height="${height}" fill="#f9fafb"/>
    <rect width="${width}" height="56" fill="#ffffff" stroke="#e4e7ec"/>
    <rect x="20" y="16" width="24" height="24" rx="6" fill="#444ce7"/>
    <text x="56" y="35" font-size="18" font-weight="bold" fill="#101828">Acme Workspace</text>
    <rect x="${width - 300}" y="12" width="260" height="32" rx="6" fill="#f2f4f7"/>
    <text x="${width - 288}" y="33" font-size="14" fill="#98a2b3">Search…</text>
    <rect x="0" y="56" width="260" height="${height - 56}" fill="#ffffff" stroke="#e4e7ec"/>
    ${['Overview', 'Projects', 'Team', 'Billing', 'Settings']
      .map(
        (item, index) =>
          `<rect x="12" y="${80 + index * 44}" width="236" height="36" rx="6" fill="${item === options.page ? '#eef4ff' : '#ffffff'}"/>
           <text x="28" y="${103 + index * 44}" font-size="15" fill="${item === options.page ? '#3538cd' : '#344054'}">${item}</text>`,
      )
      .join('')}
    <text x="300" y="110" font-size="26" font-weight="bold" fill="#101828">${escapeXml(options.page)}</text>
    <text x="300" y="140" font-size="15" fill="#667085">Manage who can see and edit this workspace.</text>
    <rect x="300" y="170" width="${width - 560}" height="44" rx="6" fill="#ffffff" stroke="${options.typed ? '#444ce7' : '#d0d5dd'}"/>
    <text x="316" y="198" font-size="16" fill="${options.typed ? '#101828' : '#98a2b3'}">${escapeXml(options.typed ?? 'name@company.com')}</text>
    <rect x="${width - 240}" y="170" width="180" height="44" rx="6" fill="#444ce7"/>
    <text x="${width - 210}" y="198" font-size="16" fill="#ffffff">Send invite</text>
    <text x="300" y="270" font-size="14" font-weight="bold" fill="#475467">MEMBERS</text>
    ${rows}
    ${toast}
    ${dialog}
  </svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toBuffer();
}

/** Token cost of one request: the folded history keeps `sent` flat while keep-everything grows. */
function tokenReport(requestIndex: number, folded: number) {
  const imagesSent = Math.min(requestIndex + 1, 4);
  return {
    sentTokens: 2400 + imagesSent * 1105 + requestIndex * 60,
    keepEverythingTokens: 2400 + (requestIndex + 1) * 1105 + requestIndex * 60,
    imagesSent,
    imagesFolded: folded,
  };
}

interface StepSpec {
  action: StepAction;
  thought: string;
  screen?: ScreenOptions;
  /** Reuse this image as the step's screenshot instead of drawing a new one. */
  reuse?: ImageRecord;
  result?: unknown;
  error?: string;
  dedupOf?: ImageRecord;
}

export async function seedTimeline(storage: Storage, clock: SeedClock, options: SeedTimelineOptions = {}): Promise<SeededTimeline> {
  const width = options.width ?? 1280;
  const height = options.height ?? 800;
  const screen = (page: string, extra: Partial<ScreenOptions> = {}): ScreenOptions => ({ width, height, page, ...extra });
  let requestIndex = 0;

  const putScreen = async (sessionId: string, turnId: string, spec: ScreenOptions): Promise<ImageRecord> =>
    storage.images.put({ sessionId, turnId, bytes: await drawScreen(spec), mime: 'image/png', width: spec.width, height: spec.height, source: 'browser' });

  const addSteps = async (session: SessionRecord, turn: TurnRecord, specs: StepSpec[]): Promise<ImageRecord[]> => {
    const images: ImageRecord[] = [];
    for (const spec of specs) {
      clock.advance(4000 + (requestIndex % 5) * 900);
      const image = spec.reuse ?? (spec.screen ? await putScreen(session.id, turn.id, spec.screen) : undefined);
      if (image !== undefined && spec.reuse === undefined) images.push(image);
      storage.steps.append({
        sessionId: session.id,
        turnId: turn.id,
        action: spec.action,
        thought: spec.thought,
        screenshotImageId: image?.id ?? null,
        screenshotView: image === undefined ? null : { imageWidth: image.width, imageHeight: image.height, coordinateSpace: 'pixels' },
        dedupOfImageId: spec.dedupOf?.id ?? null,
        result: spec.result ?? { ok: spec.error === undefined },
        error: spec.error ?? null,
        latencyMs: 1200 + (requestIndex % 7) * 310,
        inputTokens: tokenReport(requestIndex, 0).sentTokens,
        outputTokens: 90 + (requestIndex % 4) * 25,
        tokenReport: tokenReport(requestIndex, Math.max(0, requestIndex - 3)),
      });
      requestIndex += 1;
    }
    return images;
  };

  // ---- the showcase session ----------------------------------------------------------------------------
  const showcase = storage.sessions.create({ title: 'Invite Alex to the Acme workspace', operator: 'browser', model: 'gpt-4.1' });
  let compactedTurn = storage.turns.start({ sessionId: showcase.id, userRequest: 'Open the team settings of the Acme workspace and find the invite form' });
  const firstImages = await addSteps(showcase, compactedTurn, [
    { action: { action: 'click', x: 120, y: 190 }, thought: 'The workspace overview is open. The Team page should list members and invitations; I will open it from the sidebar.', screen: screen('Overview') },
    { action: { action: 'scroll', x: 700, y: 500, scroll_x: 0, scroll_y: 3 }, thought: 'The Team page is open. I will scroll to see the full member list before inviting anyone.', screen: screen('Team') },
    { action: { action: 'move', x: 1100, y: 424 }, thought: 'Lee Tanaka is an editor; the Manage button opens their role. Not needed for the invite, moving on.', screen: screen('Team', { highlightRow: 2 }) },
    { action: { action: 'click', x: 520, y: 192 }, thought: 'The invite field is at the top of the page. I will click into it to type the address.', screen: screen('Team', { highlightRow: 3 }) },
    { action: { tool: 'finish', arguments: { summary: 'Found the invite form on the Team page.' } }, thought: 'The invite form is focused and ready. This turn only had to find it.', screen: screen('Team', { typed: '' }) },
  ]);
  compactedTurn = storage.turns.end(compactedTurn.id, 'finished');

  // Compaction: the first and last frames stay as anchors (compact zone), the others fold into captioned
  // placeholders with their pixels in cold storage. One of them was offloaded long ago and is purged.
  const [anchorFirst, coldImage, purgedImage, coldOther, anchorLast] = firstImages;
  if (!anchorFirst || !coldImage || !purgedImage || !coldOther || !anchorLast) throw new Error('the compacted turn needs five screenshots');
  storage.images.setZone(anchorFirst.id, 'compact');
  storage.images.setZone(anchorLast.id, 'compact');
  storage.images.setCaption(coldImage.id, 'Team page, member list with five people; invite field empty at the top.');
  storage.images.setCaption(purgedImage.id, 'Team page with Lee Tanaka highlighted; Manage buttons on each row.');
  storage.images.setCaption(coldOther.id, 'Team page, Priya Raman row highlighted, cursor near the invite field.');
  const resume = clock.value;
  clock.set(resume - 40 * 24 * 60 * 60 * 1000);
  await storage.images.archive(purgedImage.id);
  clock.set(resume);
  await storage.images.archive(coldImage.id);
  await storage.images.archive(coldOther.id);
  await storage.images.sweepRetention({ olderThanDays: 30, now: new Date(resume) });
  compactedTurn = storage.turns.markCompacted(compactedTurn.id, 'Found the invite form on the Team page of the Acme workspace.');

  clock.advance(60_000);
  let detailTurn = storage.turns.start({ sessionId: showcase.id, userRequest: 'Invite alex@example.com as a viewer, and check what a viewer can do first' });
  storage.injections.record({ sessionId: showcase.id, turnId: detailTurn.id, type: 'note', contentLength: 1240 });
  storage.injections.record({ sessionId: showcase.id, turnId: detailTurn.id, type: 'document', contentLength: 18_400 });
  const searchQuestion = 'What can a viewer do in an Acme workspace?';
  const typedScreen = await putScreen(showcase.id, detailTurn.id, screen('Team', { typed: 'alex@example.com' }));
  const detailImages = await addSteps(showcase, detailTurn, [
    {
      action: { tool: 'web_search', arguments: { query: searchQuestion } },
      thought: 'Before inviting, the user wants to know what a viewer may do. I will ask the search sub-agent.',
      screen: screen('Team'),
    },
    { action: { action: 'type', text: 'alex@example.com' }, thought: 'Viewers can read but not edit. Typing the address into the invite field.', screen: screen('Team') },
    {
      action: { tool: 'crop_image', arguments: { crops: { [typedScreen.id]: [290, 160, 990, 224] } } },
      thought: 'Zooming into the invite field to check the address was typed correctly.',
      reuse: typedScreen,
    },
    {
      action: { action: 'click', x: 1130, y: 192 },
      thought: 'The address is right. Clicking "Send invite".',
      reuse: typedScreen,
      dedupOf: typedScreen,
      result: { ok: true, unchanged: true },
    },
    {
      action: { action: 'key', keys: 'ctrl+shift+Delete' },
      thought: 'The page did not react. I will clear the browser data and retry.',
      reuse: typedScreen,
      error: 'the user refused this action: it clears browsing data. Nothing was done; do not try to get around the refusal.',
      result: { ok: false, refused: true },
    },
    {
      action: { action: 'click', x: 2400, y: 192 },
      thought: 'Trying the button once more, slightly to the right.',
      screen: screen('Team', { typed: 'alex@example.com', dialog: 'Invite as viewer?' }),
      error: 'The point (2400, 192) is outside the screenshot (1280×800).',
      result: { ok: false },
    },
    { action: { action: 'click', x: 755, y: 466 }, thought: 'A confirmation dialog is open. Confirming the invite.', screen: screen('Team', { typed: 'alex@example.com', dialog: 'Invite as viewer?' }) },
    {
      action: { tool: 'finish', arguments: { summary: 'Invited alex@example.com as a viewer.' } },
      thought: 'The toast confirms the invitation was sent.',
      screen: screen('Team', { toast: 'Invitation sent to alex@example.com' }),
    },
  ]);
  storage.images.setErrorFrame(detailImages[4]?.id ?? typedScreen.id, true);
  storage.searchReports.add({
    sessionId: showcase.id,
    turnId: detailTurn.id,
    question: searchQuestion,
    queries: ['acme workspace viewer role permissions', 'acme viewer vs editor'],
    sources: [
      { title: 'Roles and permissions · Acme Help Center', url: 'https://help.acme.example/roles' },
      { title: 'Inviting people to a workspace', url: 'https://help.acme.example/invite' },
      { title: 'Viewer seats are free', url: 'https://acme.example/blog/viewer-seats' },
    ],
    answer:
      'Viewers can open every project and comment, but cannot edit content, invite others or change settings. Viewer seats are free and do not count against the plan.',
    confidence: 0.86,
    iterations: 2,
    durationMs: 8400,
  });
  detailTurn = storage.turns.end(detailTurn.id, 'finished');

  // ---- other sessions ----------------------------------------------------------------------------------
  const others: SessionRecord[] = [];
  const small = async (title: string, request: string, status: 'finished' | 'failed' | 'stopped', steps: number): Promise<SessionRecord> => {
    clock.advance(5 * 60_000);
    const session = storage.sessions.create({ title, operator: 'desktop', model: 'gpt-4.1-mini' });
    const turn = storage.turns.start({ sessionId: session.id, userRequest: request });
    await addSteps(
      session,
      turn,
      Array.from({ length: steps }, (_, index) => ({
        action: { action: 'click', x: 140 + index * 10, y: 100 + index * 44 } as ComputerAction,
        thought: `Opening the ${['Overview', 'Projects', 'Team', 'Billing', 'Settings'][index % 5]} page.`,
        screen: screen(['Overview', 'Projects', 'Team', 'Billing', 'Settings'][index % 5] ?? 'Overview'),
      })),
    );
    storage.turns.end(turn.id, status);
    others.push(session);
    return session;
  };
  await small('Export the Q3 billing report as PDF', 'Export the Q3 billing report as a PDF to Downloads', 'finished', 3);
  await small('Rename the Atlas project', 'Rename the Atlas project to Atlas 2', 'failed', 2);

  // ---- the long session: thousands of steps over a few shared images --------------------------------------
  clock.advance(10 * 60_000);
  const long = storage.sessions.create({ title: 'Triage the support inbox', operator: 'desktop', model: 'gpt-4.1' });
  const longSteps = options.longSteps ?? 1500;
  const turnsOfLong = 3;
  const pages = ['Overview', 'Projects', 'Team', 'Billing', 'Settings'];
  for (let turnIndex = 0; turnIndex < turnsOfLong; turnIndex += 1) {
    const turn = storage.turns.start({ sessionId: long.id, userRequest: `Triage the support inbox, batch ${turnIndex + 1} of ${turnsOfLong}` });
    const shared: ImageRecord[] = [];
    for (const page of pages) shared.push(await putScreen(long.id, turn.id, screen(page)));
    const count = Math.floor(longSteps / turnsOfLong) + (turnIndex < longSteps % turnsOfLong ? 1 : 0);
    storage.transaction(() => {
      for (let index = 0; index < count; index += 1) {
        clock.advance(2500);
        storage.steps.append({
          sessionId: long.id,
          turnId: turn.id,
          action: { action: 'click', x: 300 + (index % 40) * 20, y: 300 + (index % 5) * 56 },
          thought: `Message ${index + 1}: reading it and choosing a label.`,
          screenshotImageId: shared[index % shared.length]?.id ?? null,
          result: { ok: true },
          latencyMs: 900 + (index % 9) * 120,
          inputTokens: 4000,
          outputTokens: 80,
          tokenReport: tokenReport(index % 40, index % 40),
        });
      }
    });
    storage.turns.end(turn.id, 'finished');
  }

  return { showcase, compactedTurn, detailTurn, coldImage: storage.images.get(coldImage.id) ?? coldImage, purgedImage: storage.images.get(purgedImage.id) ?? purgedImage, long, others };
}

// ---- a session a flow ran (issue 25) --------------------------------------------------------------------

/** An answer's reason written to break out of a page, as a hostile page could get a model to write it. */
export const HOSTILE_REASON = '</script><img src=x onerror=alert(1)>';
/** Markup inside an extracted value: shown as JSON text, never as HTML. */
export const HOSTILE_VALUE_TEXT = '<b onmouseover=alert(2)>Owner</b>';

export interface SeededFlowSession {
  session: SessionRecord;
  /** In order: do, assert (passed), extract, if (false), assert (failed, with HOSTILE_REASON), wait_for (met). */
  turns: TurnRecord[];
  /** The passed assertion's first evidence frame: from the `do` turn, folded to cold storage. */
  coldEvidence: ImageRecord;
  /** The frame every later answer names. */
  membersFrame: ImageRecord;
  /** The extracted value. */
  extracted: unknown;
}

/**
 * A session `sightline flow` ran: named for its flow, each turn marked with its step's kind, and the
 * answers of the assert, extract, if and wait_for steps with their reasons and evidence frames, stored as the
 * answer tool stores them (turns.end with the answer). One evidence frame is in cold storage, and one failed
 * assertion's reason is markup meant to run in the page.
 */
export async function seedFlowSession(storage: Storage, clock: SeedClock, options: { width?: number; height?: number } = {}): Promise<SeededFlowSession> {
  const width = options.width ?? 1280;
  const height = options.height ?? 800;
  clock.advance(15 * 60_000);
  const session = storage.sessions.create({ title: 'Flow team-smoke', operator: 'browser', model: 'gpt-4.1', flowName: 'team-smoke' });
  const put = async (turnId: string, page: string, extra: Partial<ScreenOptions> = {}): Promise<ImageRecord> =>
    storage.images.put({ sessionId: session.id, turnId, bytes: await drawScreen({ width, height, page, ...extra }), mime: 'image/png', width, height, source: 'browser' });
  const step = (turnId: string, image: ImageRecord, action: StepAction, thought: string) => {
    clock.advance(3000);
    storage.steps.append({
      sessionId: session.id,
      turnId,
      action,
      thought,
      screenshotImageId: image.id,
      screenshotView: { imageWidth: image.width, imageHeight: image.height, coordinateSpace: 'pixels' },
      result: { ok: true },
      latencyMs: 1400,
      inputTokens: 3200,
      outputTokens: 70,
    });
  };

  const turns: TurnRecord[] = [];
  const doTurn = storage.turns.start({ sessionId: session.id, userRequest: 'Open the Team page', stepKind: 'do' });
  const overview = await put(doTurn.id, 'Overview');
  step(doTurn.id, overview, { action: 'click', x: 120, y: 190 }, 'The Team page is in the sidebar.');
  const team = await put(doTurn.id, 'Team');
  step(doTurn.id, team, { tool: 'finish', arguments: { summary: 'The Team page is open.' } }, 'The Team page is open.');
  turns.push(storage.turns.end(doTurn.id, 'finished'));

  /** A turn that asked a question, its answer named frames: `evidence` is given the turn's own frame. */
  const answerTurn = async (
    kind: 'assert' | 'extract' | 'if' | 'wait_for',
    request: string,
    answer: { kind: 'verdict' | 'value' | 'until'; value: ToolArguments; reason: string; evidence: (own: ImageRecord) => string[] },
    screen: Partial<ScreenOptions> = {},
  ): Promise<ImageRecord> => {
    clock.advance(20_000);
    const turn = storage.turns.start({ sessionId: session.id, userRequest: request, stepKind: kind });
    const frame = await put(turn.id, 'Team', screen);
    const field = answer.kind === 'value' ? 'value' : 'verdict';
    const evidence = answer.evidence(frame);
    step(turn.id, frame, { tool: 'answer', arguments: { [field]: answer.value, reason: answer.reason, evidence } }, answer.reason);
    turns.push(storage.turns.end(turn.id, 'finished', { kind: answer.kind, value: answer.value, reason: answer.reason, evidence }));
    return frame;
  };

  // The passed assertion names the do turn's first frame (folded to cold storage below) beside its own.
  const membersFrame = await answerTurn(
    'assert',
    'The member list shows five people',
    { kind: 'verdict', value: true, reason: 'Five member rows are listed, from Dana Whitfield to Jon Alvarez.', evidence: (own) => [overview.id, own.id] },
    { highlightRow: 0 },
  );
  const extracted = {
    owner: 'Dana Whitfield',
    members: [
      { name: 'Dana Whitfield', role: 'Owner' },
      { name: 'Sam Okafor', role: 'Admin' },
      { name: 'Lee Tanaka', role: 'Editor' },
      { name: 'Priya Raman', role: 'Viewer' },
      { name: 'Jon Alvarez', role: 'Editor' },
    ],
    badge: HOSTILE_VALUE_TEXT,
  };
  const named = () => [membersFrame.id];
  await answerTurn('extract', 'The members and their roles', { kind: 'value', value: extracted, reason: 'Read from the member list.', evidence: named });
  await answerTurn('if', 'An invite dialog is open', { kind: 'verdict', value: false, reason: 'No dialog is open; the member list is in view.', evidence: named });
  await answerTurn('assert', 'The Billing page is open', { kind: 'verdict', value: false, reason: HOSTILE_REASON, evidence: named });
  await answerTurn('wait_for', 'The invite field is shown', { kind: 'until', value: true, reason: 'The invite field is at the top of the page.', evidence: (own) => [own.id] });

  await storage.images.archive(overview.id);
  return { session: storage.sessions.get(session.id) ?? session, turns, coldEvidence: storage.images.get(overview.id) ?? overview, membersFrame, extracted };
}
