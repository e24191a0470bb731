/**
 * The shape of Event Management's error answers, as its document gives it, for the suite's checks
 * and the passive checks of recorded traffic alike: "Error body: array of objects with `logref`
 * (uuid) and `message` (string)", sent as application/vnd.error+json.
 */
export const EM_ERROR_MEDIA_TYPE = 'application/vnd.error+json';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a parsed body is Event Management's documented error body: a non-empty array of {logref uuid, message}. */
export function isEmErrorBody(json: unknown): boolean {
  const items = Array.isArray(json) ? (json as unknown[]) : [];
  return (
    items.length > 0 &&
    items.every((e) => {
      if (!e || typeof e !== 'object') return false;
      const { logref, message } = e as Record<string, unknown>;
      return typeof logref === 'string' && UUID.test(logref) && typeof message === 'string';
    })
  );
}
