import { describe, expect, it } from 'vitest';
import { listOperations, loadContract } from './contract.ts';
import { readOperationOf, readOperations } from './read-operations.ts';
import { SERVICE_INFO, SERVICES } from './services.ts';

describe('read operations', () => {
  it('are every GET of the contracts and exactly the documented reads that use POST', async () => {
    const posts = readOperations()
      .filter((o) => o.method === 'POST')
      .map((o) => o.operationId);
    expect(posts.sort()).toEqual(
      ['getOauthTokens', 'getToken', 'searchAuditStatus', 'searchRecipientGroups', 'searchRecipients'].sort(),
    );
    for (const service of SERVICES) {
      const gets = listOperations(await loadContract(service)).filter((o) => o.method === 'get');
      for (const op of gets)
        expect(readOperations().some((r) => r.operationId === op.operationId && r.service === service)).toBe(true);
    }
  });

  it('match a request by method and path, and nothing else', () => {
    const ttm = SERVICE_INFO['technical-token-manager'].basePath;
    expect(readOperationOf('post', `${ttm}/oauth/token`)).toBe('getToken');
    expect(readOperationOf('POST', `${ttm}/oauth/token/`)).toBe('getToken');
    expect(readOperationOf('POST', `${ttm}/oauth/tokens`)).toBeUndefined();
    expect(readOperationOf('PUT', `${ttm}/oauth/token`)).toBeUndefined();
    expect(readOperationOf('HEAD', '/anything')).toBe('HEAD');
    expect(readOperationOf('OPTIONS', '/anything')).toBeUndefined();
  });
});
