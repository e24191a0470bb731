import { describe, expect, it } from 'vitest';
import { listOperations, loadContract } from './contract.ts';
import { SERVICES } from './services.ts';
import {
  bodyListBound,
  contractBound,
  contractNode,
  judgedScopes,
  operationIds,
  operationScopes,
  parameterBound,
} from './facts.ts';

describe('contract facts', () => {
  it('reads a bound or a numeric default at a pointer, through $refs', () => {
    expect(contractBound('event-management', '#/components/schemas/EventType/properties/ttl', 'maximum')).toBe(1825);
    expect(contractBound('event-management', '#/components/schemas/EventType/properties/ttl', 'default')).toBe(35);
    expect(contractBound('event-management', '#/components/schemas/Field/properties/values/items', 'maxLength')).toBe(
      36,
    );
    expect(contractNode('event-management', '#/components/schemas/EventType/properties/name').type).toBe('string');
  });

  it("reads a parameter's bounds and default by operation and name, through a $ref'd parameter", () => {
    expect(parameterBound('event-management', 'queryEvents', 'size', 'maximum')).toBe(500);
    expect(parameterBound('event-management', 'queryEvents', 'size', 'default')).toBe(20);
    expect(parameterBound('event-management', 'queryEventTypes', 'size', 'maximum')).toBe(100);
    expect(parameterBound('technical-token-manager', 'getUserTenantsByHost', 'size', 'default')).toBe(500);
  });

  it('reads the count bounds of a list in a request body', () => {
    expect(bodyListBound('event-management', 'createCreateEventsJob', 'maxItems', 'events')).toBe(50);
    expect(bodyListBound('technical-token-manager', 'getOauthTokens', 'maxItems', 'userTenantIds')).toBe(5);
  });

  it("reads an operation's scopes in the order its security lists them", () => {
    expect(operationScopes('event-management', 'createDeleteEventsJob')).toEqual(['em.d', 'em.dej.c', 'em.et.r']);
    expect(operationScopes('notification', 'updateCertificate')).toEqual(['nose.se', 'nose.ac']);
    expect(operationScopes('technical-token-manager', 'getToken')).toEqual([]);
    expect(() => operationScopes('notification', 'noSuchOperation')).toThrow(/no operation/);
  });

  it('lists every operation of a contract', async () => {
    for (const service of SERVICES)
      expect(operationIds(service).sort()).toEqual(
        listOperations(await loadContract(service))
          .map((o) => o.operationId)
          .sort(),
      );
  });

  it("names the scopes an event management scope rule judges: the first listed and a job's own create scope", () => {
    expect(judgedScopes('createEvent')).toEqual(['em.c']);
    expect(judgedScopes('createDeleteEventsJob')).toEqual(['em.d', 'em.dej.c']);
    expect(judgedScopes('getCreateEventsJob')).toEqual(['em.cej.r']);
  });

  it('names what it cannot find', () => {
    expect(() => contractNode('event-management', '#/components/schemas/Nope')).toThrow(/has no #\/components/);
    expect(() =>
      contractBound('event-management', '#/components/schemas/EventType/properties/name', 'maximum'),
    ).toThrow(/no maximum/);
    expect(() => parameterBound('event-management', 'queryEvents', 'nope', 'maximum')).toThrow(/no parameter nope/);
    expect(() => parameterBound('event-management', 'noSuchOperation', 'size', 'maximum')).toThrow(/no operation/);
    expect(() => bodyListBound('event-management', 'createCreateEventsJob', 'maxItems')).toThrow(/no maxItems/);
  });
});
