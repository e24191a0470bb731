import { answerOf, finding, type ResponseCheck } from './response-check.ts';

const HAL_TYPE = 'application/hal+json';

/** Event management "Responses: application/hal+json": every 200, 201 and 202 with a body. */
export const emHalJson: ResponseCheck = {
  name: 'em-hal-json',
  title: 'event management success is application/hal+json',
  severity: 'medium',
  rules: ['event-management/general/hal-json-responses'],
  check(x) {
    if (x.service !== 'event-management' || ![200, 201, 202].includes(x.status) || !x.text.trim()) return [];
    return [
      finding(
        'event-management/general/hal-json-responses',
        x.contentType === HAL_TYPE,
        'success not sent as application/hal+json',
        `Content-Type ${HAL_TYPE}`,
        () => answerOf(x, 80),
      ),
    ];
  },
};
