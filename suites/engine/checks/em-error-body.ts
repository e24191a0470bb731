import { EM_ERROR_MEDIA_TYPE, isEmErrorBody } from '../../../contracts/error-bodies.ts';
import { answerOf, finding, type ResponseCheck } from './response-check.ts';

/**
 * Event management errors: "Error body: array of objects with logref (uuid) and message (string)"
 * and "for errors, application/vnd.error+json" (event-management.md). Every 4xx and 5xx the
 * service answers is judged but a 429, the throttle's answer (the throttling rules judge it).
 */
export const emErrorBody: ResponseCheck = {
  name: 'em-error-body',
  title: 'event management error body and content type',
  severity: 'high',
  rules: ['event-management/errors/error-body', 'event-management/errors/error-content-type'],
  check(x) {
    if (x.service !== 'event-management' || x.status < 400 || x.status === 429 || x.truncated) return [];
    const out = [];
    if (x.text.trim())
      out.push(
        finding(
          'event-management/errors/error-content-type',
          x.contentType === EM_ERROR_MEDIA_TYPE,
          'error not sent as application/vnd.error+json',
          `Content-Type ${EM_ERROR_MEDIA_TYPE}`,
          () => answerOf(x, 120),
        ),
      );
    out.push(
      finding(
        'event-management/errors/error-body',
        isEmErrorBody(x.json),
        'error body is not an array of {logref, message}',
        '[{"logref": uuid, "message": string}, …]',
        () => answerOf(x, 200),
      ),
    );
    return out;
  },
};
