import { locationNames, servesRecord } from '../checks/index.ts';
import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import type { ResourceIo } from './resource-io.ts';

/** What `followLocation` judges: the answer to a create, the id it made and the rule that asks for a Location. */
export interface FollowLocationOptions {
  rule: string;
  res: HttpResponse;
  id: unknown;
  /** The record, as failures name it (`the event`). */
  what: string;
  /** The test goes on when a check fails (it fails at its end). */
  soft?: boolean;
}

/** A create's Location header names the new record, and followed (once it is visible), serves it. */
export async function followLocation(t: RuleContext, io: ResourceIo, o: FollowLocationOptions): Promise<void> {
  const { rule, res, id, what, soft } = o;
  locationNames(t, { rule, res, id, what, soft });
  const path = io.servicePath(t, res.headers.location);
  const located = path
    ? await io.eventually(
        () => io.send(t, { method: 'GET', path }),
        (r) => r.status !== 404,
      )
    : undefined;
  servesRecord(t, { rule, res: located?.value, link: `Location ${res.headers.location ?? '(none)'}`, id, what, soft });
}
