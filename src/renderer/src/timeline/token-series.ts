/**
 * The token chart's data: per request, what was sent and what keeping every image would have cost, and the
 * polylines that draw them in a fixed viewBox. A session of thousands of requests is reduced to at most
 * `maxPoints` buckets (each keeps its largest values, so peaks stay visible).
 */
import type { Step } from '../../../shared/app-api.js';

export interface TokenPoint {
  sent: number;
  keepEverything: number;
}

export function tokenSeries(steps: Iterable<Step | undefined>): TokenPoint[] {
  const points: TokenPoint[] = [];
  for (const step of steps) {
    const report = step?.tokenReport;
    if (report) points.push({ sent: report.sentTokens, keepEverything: report.keepEverythingTokens });
  }
  return points;
}

export function downsample(points: readonly TokenPoint[], maxPoints: number): TokenPoint[] {
  if (points.length <= maxPoints) return [...points];
  const buckets: TokenPoint[] = [];
  const size = points.length / maxPoints;
  for (let bucket = 0; bucket < maxPoints; bucket += 1) {
    const slice = points.slice(Math.floor(bucket * size), Math.floor((bucket + 1) * size));
    buckets.push({
      sent: Math.max(...slice.map((point) => point.sent)),
      keepEverything: Math.max(...slice.map((point) => point.keepEverything)),
    });
  }
  return buckets;
}

export interface ChartPaths {
  /** `points` attributes for SVG polylines, in a viewBox of width × height. */
  sent: string;
  keepEverything: string;
  /** The same sent line closed along the bottom, for a filled area. */
  sentArea: string;
  maximum: number;
}

export function chartPaths(points: readonly TokenPoint[], width: number, height: number): ChartPaths {
  const maximum = Math.max(1, ...points.map((point) => Math.max(point.sent, point.keepEverything)));
  const x = (index: number) => (points.length <= 1 ? width / 2 : (index / (points.length - 1)) * width);
  const y = (value: number) => height - (value / maximum) * height;
  const line = (pick: (point: TokenPoint) => number) =>
    points.map((point, index) => `${round(x(index))},${round(y(pick(point)))}`).join(' ');
  const sent = line((point) => point.sent);
  const sentArea = points.length === 0 ? '' : `${round(x(0))},${height} ${sent} ${round(x(points.length - 1))},${height}`;
  return { sent, keepEverything: line((point) => point.keepEverything), sentArea, maximum };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
