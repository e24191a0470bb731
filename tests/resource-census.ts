import { SERVICE_INFO } from '../contracts/services.ts';

type Get = (path: string, init?: { method?: string; json?: unknown }) => Promise<unknown>;

function length(v: unknown): number {
  if (Array.isArray(v)) return v.length;
  if (v && typeof v === 'object') {
    for (const k of ['recipients', 'groups', 'items', 'content', 'templateSets', 'emailIds'])
      if (Array.isArray((v as Record<string, unknown>)[k]))
        return ((v as Record<string, unknown>)[k] as unknown[]).length;
  }
  return -1;
}

/**
 * What a tenant holds, counted through the public API of the reference deployment:
 * recipients, groups, categories, template sets, certificates, event types and events.
 */
export async function census(baseUrl: string, authorization: string): Promise<Record<string, number>> {
  const get: Get = async (path, init = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    });
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  };
  const n = SERVICE_INFO.notification.basePath;
  const em = SERVICE_INFO['event-management'].basePath;
  const page = async (path: string) =>
    ((await get(path)) as { page?: { totalElements?: number } })?.page?.totalElements ?? -1;
  const types = (await get(`${em}/eventTypes?size=100`)) as {
    _embedded?: { eventTypes?: Array<{ id: string }> };
    page?: { totalElements?: number };
  };
  let customEvents = 0;
  const window = encodeURIComponent(JSON.stringify({ timestamp: { after: '1970-01-01T00:00:00Z' } }));
  for (const t of types?._embedded?.eventTypes ?? []) {
    const filter = encodeURIComponent(JSON.stringify({ typeId: t.id, timestamp: { after: '1970-01-01T00:00:00Z' } }));
    customEvents += await page(`${em}/events?size=1&history=true&filter=${filter}`);
  }
  return {
    recipients: length(await get(`${n}/recipient/search`, { method: 'POST', json: { name: '' } })),
    groups: length(await get(`${n}/recipient/recipientgroup/search`, { method: 'POST', json: { name: '' } })),
    categories: length(await get(`${n}/communicationcategories/`)),
    templateSets: length(await get(`${n}/template/templatelistdetails`)),
    certificates: length(await get(`${n}/certificatestore/`)),
    bouncedEmails: length(await get(`${n}/communicationcategories/bouncedEmailIds`)),
    eventTypes: types?.page?.totalElements ?? -1,
    standardEvents: await page(`${em}/events?size=1&history=true&filter=${window}`),
    customEvents,
  };
}
