/**
 * The words for a stored image: where its pixels are (its zone), where it came from, and why it may not be
 * shown. Storage's rows hold the zones and sources; the timeline adds `purged` to the zones it shows. The
 * migrations' CHECK constraints name the same words; test/integration/storage-vocabulary.test.ts keeps the
 * two in step.
 */

/**
 * The zones of ARCHITECTURE.md, as an image row stores them: whole in the request, folded to a placeholder,
 * or in cold storage. A row whose cold file the retention sweep deleted stays offloaded, with `purged_at` set.
 */
export const IMAGE_ZONES = ['active', 'compact', 'offloaded'] as const;
export type ImageZone = (typeof IMAGE_ZONES)[number];

/** The zone as the timeline shows it: an offloaded image whose file retention deleted is `purged`. */
export const TIMELINE_IMAGE_ZONES = [...IMAGE_ZONES, 'purged'] as const;
export type TimelineImageZone = (typeof TIMELINE_IMAGE_ZONES)[number];

/** Where an image came from: a screen capture (desktop or browser), a crop of another, the user, or a tool. */
export const IMAGE_SOURCES = ['screen', 'browser', 'crop', 'user', 'tool'] as const;
export type ImageSource = (typeof IMAGE_SOURCES)[number];

/**
 * How the session's next request carries an image (issue 16): whole, as a reduced view (a smaller copy), or
 * folded to a captioned placeholder (or, under keep-last, left out). The timeline draws an image whole when
 * the next request sends it whole or reduced, and otherwise says where its pixels are.
 */
export const NEXT_REQUEST_TREATMENTS = ['whole', 'reduced', 'folded'] as const;
export type NextRequestTreatment = (typeof NEXT_REQUEST_TREATMENTS)[number];

/** The images a person may pin (issue 16): screenshots, the frames the model acted on. */
export const PINNABLE_IMAGE_SOURCES = ['screen', 'browser'] as const satisfies readonly ImageSource[];

/**
 * The tool that brings an earlier image of the session back by id. A screenshot it returns is the past:
 * the request builder never takes it for the screen as it is now, whoever's computer tool is speaking.
 */
export const GET_HISTORY_IMAGE_TOOL_NAME = 'get_history_image';

/** Why storage cannot read an image: no such row, its file is gone or damaged, or retention deleted it. */
export const IMAGE_READ_FAILURES = ['not-found', 'missing', 'corrupt', 'purged'] as const;
export type ImageReadFailure = (typeof IMAGE_READ_FAILURES)[number];

/** Why the app API does not return an image: storage's reasons, or more bytes than the caller accepts. */
export const IMAGE_UNAVAILABLE_REASONS = [...IMAGE_READ_FAILURES, 'too-large'] as const;
export type ImageUnavailableReason = (typeof IMAGE_UNAVAILABLE_REASONS)[number];
