/** What is wrong with a HAR 1.2 file's structure (empty when it is a HAR log of entries). */
export function harProblems(content: Buffer): string[] {
  let har: unknown;
  try {
    har = JSON.parse(content.toString('utf8'));
  } catch (e) {
    return [`not JSON (${(e as Error).message})`];
  }
  const log = (har as { log?: { version?: unknown; entries?: unknown } } | null)?.log;
  if (!log || typeof log !== 'object') return ['no log object'];
  const problems: string[] = [];
  if (log.version !== '1.2') problems.push(`log.version is ${JSON.stringify(log.version)}, not "1.2"`);
  if (!Array.isArray(log.entries)) return [...problems, 'log.entries is not a list'];
  const bad = (log.entries as unknown[]).findIndex((e) => {
    const x = e as { request?: { method?: unknown; url?: unknown }; response?: { status?: unknown } } | null;
    return (
      !x ||
      typeof x.request?.method !== 'string' ||
      typeof x.request?.url !== 'string' ||
      typeof x.response?.status !== 'number'
    );
  });
  if (bad >= 0) problems.push(`entry ${bad} has no request method and URL or no response status`);
  return problems;
}
