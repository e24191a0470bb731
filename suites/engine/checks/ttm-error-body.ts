import {
  answerOf,
  finding,
  servicePath,
  type CheckedExchange,
  type Finding,
  type ResponseCheck,
} from './response-check.ts';

const CODE_FORM = /^platform\.core\.[^.\s]+\.[^.\s]+$/;

/** The operations the document gives the Errors body: POST /oauthTokens and GET /userTenants. */
function withErrorsBody(x: CheckedExchange): boolean {
  const path = servicePath(x);
  return (x.method === 'POST' && path === '/oauthTokens') || (x.method === 'GET' && path === '/userTenants');
}

/** The items of an Errors body (`{"errors": [...]}`), or undefined when the body is not one. */
export function errorItems(json: unknown): Array<Record<string, unknown>> | undefined {
  const errors = (json as { errors?: unknown } | null | undefined)?.errors;
  return Array.isArray(errors) ? (errors as Array<Record<string, unknown>>) : undefined;
}

/**
 * Token manager errors of POST /oauthTokens and GET /userTenants: "Error body: Errors (errors[]
 * with code, logref, message)" on a 400, an application/json body;
 * every code the service sends, whatever the status, has the "form platform.core.<area>.<name>";
 * every logref is a non-empty string ("logref (string, logging correlation ID)").
 */
export const ttmErrorBody: ResponseCheck = {
  name: 'ttm-error-body',
  title: 'token manager error body, code form and logref',
  severity: 'high',
  rules: [
    'technical-token-manager/errors/body-shape',
    'technical-token-manager/errors/code-form',
    'technical-token-manager/errors/logref',
  ],
  check(x) {
    if (x.service !== 'technical-token-manager' || x.status < 400 || x.truncated || !withErrorsBody(x)) return [];
    const items = errorItems(x.json) ?? [];
    const out: Finding[] = [];
    if (x.status === 400) {
      out.push(
        finding(
          'technical-token-manager/errors/body-shape',
          x.contentType === 'application/json' &&
            items.length > 0 &&
            items.every((e) => !!e && ['code', 'logref', 'message'].every((k) => typeof e[k] === 'string')),
          'error body is not {"errors": [{code, logref, message}]}',
          'application/json {"errors": [{"code": string, "logref": string, "message": string}, …]}',
          () => answerOf(x, 300),
        ),
      );
    }
    // An item that is no object is the body shape's failure (on a 400); code and logref are read from objects only.
    for (const e of items.filter((i) => typeof i === 'object' && i !== null && !Array.isArray(i))) {
      if (e.code !== undefined)
        out.push(
          finding(
            'technical-token-manager/errors/code-form',
            typeof e.code === 'string' && CODE_FORM.test(e.code),
            `error code of a ${x.status} not of the form platform.core.<area>.<name>`,
            'platform.core.<area>.<name>',
            () => JSON.stringify(e.code),
          ),
        );
      if ('logref' in e)
        out.push(
          finding(
            'technical-token-manager/errors/logref',
            typeof e.logref === 'string' && e.logref.trim() !== '',
            'logref is not a non-empty string',
            'a non-empty logref',
            () => JSON.stringify(e.logref),
          ),
        );
    }
    return out;
  },
};
