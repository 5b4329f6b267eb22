/**
 * A page served on 127.0.0.1 whose script POSTs to /value each value a field takes: the page itself tells the test
 * what landed in its password field (the browser password tests). Start it once for a file with `useReportingPage`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface ReportingPage {
  /** http://127.0.0.1:<port>, inside a test. */
  readonly origin: string;
  /** What the page reported, in order. */
  readonly reportedValues: readonly string[];
  /** Forgets what was reported (before each test). */
  reset(): void;
  /** Waits (up to 5 s) until the page has reported the value. */
  fieldValueBecomes(value: string): Promise<void>;
}

export function useReportingPage(page: string): ReportingPage {
  let server: Server | undefined;
  let origin: string | undefined;
  let reported: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.method === 'POST' && request.url === '/value') {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          reported.push(body);
          response.end();
        });
        return;
      }
      response.setHeader('content-type', 'text/html');
      response.end(page);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  return {
    get origin() {
      if (origin === undefined) throw new Error('the reporting page is only served inside a test');
      return origin;
    },
    get reportedValues() {
      return reported;
    },
    reset: () => {
      reported = [];
    },
    fieldValueBecomes: async (value) => {
      const deadline = Date.now() + 5000;
      while (!reported.includes(value)) {
        if (Date.now() > deadline) throw new Error(`the field never held "${value}"; it reported ${JSON.stringify(reported)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
