import { auditReport, judgeHar } from '../audit/judge-har.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import type { Har } from '../suites/engine/har.ts';

// Small valid inputs the untrusted-input tests start from: a HAR entry, a HAR, a report.

export const EM = '/api/eventmanagement/v3';

export function entry(url: string, status = 200, headers: Array<{ name: string; value: string }> = []) {
  return {
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 3,
    request: {
      method: 'GET',
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'authorization', value: 'Bearer [REDACTED]' }, ...headers],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'content-type', value: 'application/json' }],
      content: { size: 2, mimeType: 'application/json', text: '{}' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 2,
    },
    cache: {},
    timings: { send: 1, wait: 1, receive: 1 },
  };
}

export const validHar = (): Har =>
  ({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: [entry(`http://127.0.0.1:1${EM}/events`), entry(`http://127.0.0.1:1${EM}/eventTypes`, 404)],
    },
  }) as unknown as Har;

export function validReport(): ConformanceReport {
  const { report } = auditReport(judgeHar(validHar(), ['event-management']), {
    services: ['event-management'],
    target: 'http://127.0.0.1:1',
    startedAt: '2026-01-01T00:00:00.000Z',
    toolVersion: '0.1.0',
    reportFile: 'conformance-report.json',
    sources: ['x.har'],
  });
  return report;
}
