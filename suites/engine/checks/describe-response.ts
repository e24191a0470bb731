import type { HttpResponse } from '../http-client.ts';
import { redactText } from '../redact.ts';

/** A short one-line description of a response for Expected/Received messages. */
export function describeResponse(res: HttpResponse, bodyChars = 300): string {
  const body = res.text.length > bodyChars ? `${res.text.slice(0, bodyChars)}…` : res.text;
  return redactText(
    `HTTP ${res.status}${res.contentType ? ` ${res.contentType}` : ''}${body ? ` ${body.replace(/\s+/g, ' ')}` : ''}`,
  );
}
