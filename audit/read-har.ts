import { readFileSync } from 'node:fs';
import type { Har } from '../suites/engine/har.ts';

/** What is wrong with a value that should be a HAR 1.2 log (empty: nothing). */
export function harStructureErrors(value: unknown): string[] {
  const errors: string[] = [];
  const log = (value as { log?: Record<string, unknown> } | null)?.log;
  if (!log || typeof log !== 'object') return ['no "log" object'];
  if (typeof log.version !== 'string') errors.push('log.version is not a string');
  const creator = log.creator as Record<string, unknown> | undefined;
  if (!creator || typeof creator.name !== 'string' || typeof creator.version !== 'string')
    errors.push('log.creator lacks name or version');
  if (!Array.isArray(log.entries)) return [...errors, 'log.entries is not an array'];
  (log.entries as Array<Record<string, unknown>>).forEach((e, i) => {
    const at = `log.entries[${i}]`;
    if (typeof e.startedDateTime !== 'string' || Number.isNaN(Date.parse(e.startedDateTime)))
      errors.push(`${at}.startedDateTime is not an ISO 8601 date`);
    if (typeof e.time !== 'number') errors.push(`${at}.time is not a number`);
    const req = e.request as Record<string, unknown> | undefined;
    const res = e.response as Record<string, unknown> | undefined;
    if (!req || typeof req.method !== 'string' || typeof req.url !== 'string')
      errors.push(`${at}.request lacks method or url`);
    else {
      for (const k of ['cookies', 'headers', 'queryString'])
        if (!Array.isArray(req[k])) errors.push(`${at}.request.${k} is not an array`);
      for (const k of ['headersSize', 'bodySize'])
        if (typeof req[k] !== 'number') errors.push(`${at}.request.${k} is not a number`);
      if (typeof req.httpVersion !== 'string') errors.push(`${at}.request.httpVersion is not a string`);
    }
    if (!res || typeof res.status !== 'number') errors.push(`${at}.response lacks status`);
    else {
      for (const k of ['cookies', 'headers'])
        if (!Array.isArray(res[k])) errors.push(`${at}.response.${k} is not an array`);
      const content = res.content as Record<string, unknown> | undefined;
      if (!content || typeof content.size !== 'number' || typeof content.mimeType !== 'string')
        errors.push(`${at}.response.content lacks size or mimeType`);
      for (const k of ['statusText', 'httpVersion', 'redirectURL'])
        if (typeof res[k] !== 'string') errors.push(`${at}.response.${k} is not a string`);
      for (const k of ['headersSize', 'bodySize'])
        if (typeof res[k] !== 'number') errors.push(`${at}.response.${k} is not a number`);
    }
    if (!e.cache || typeof e.cache !== 'object') errors.push(`${at}.cache is not an object`);
    const t = e.timings as Record<string, unknown> | undefined;
    if (!t || !['send', 'wait', 'receive'].every((k) => typeof t[k] === 'number'))
      errors.push(`${at}.timings lacks send, wait or receive`);
  });
  return errors;
}

/** Reads a HAR file; throws an Error naming the file and the first problems when it is not HAR. */
export function readHar(file: string): Har {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: not a readable JSON file (${(e as Error).message})`, { cause: e });
  }
  const errors = harStructureErrors(value);
  if (errors.length) throw new Error(`${file}: not a HAR 1.2 log: ${errors.slice(0, 3).join('; ')}`);
  return value as Har;
}
