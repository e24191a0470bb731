// The notification resources, each described once: what making one needs, how a test makes one,
// the key its requests name it by, a text its record shows, and how it is read. The per-resource
// tables (reads-by-id, updates-by-id, tenant-isolation) spread a description and add only what
// their rules ask of it.
import type { ConfigNeed } from '../engine/config-needs.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { getCategory } from './categories-support.ts';
import { listing } from './certificates-support.ts';
import { channelId, send } from './notification-client.ts';
import {
  createCategory,
  createCertificate,
  createGroup,
  createRecipient,
  createTemplateSet,
} from './notification-resources.ts';
import { getGroup } from './recipient-groups-support.ts';
import { getRecipient } from './recipients-support.ts';

/** A record the tenant holds: the key its requests name it by, and a text its record shows. */
export interface Held<K extends number | string = number> {
  key: K;
  shows: string;
}

/** One notification resource, as every per-resource table needs it. */
export interface ResourceDescription<K extends number | string = number> {
  /** How the document names it. */
  resource: string;
  /** What the run configuration must give to make one. */
  needs: ConfigNeed[];
  create(t: RuleContext): Promise<Held<K>>;
  /** Its read by key, or by any text in the key's place (a listing where the document gives no read by key). */
  read(t: RuleContext, key: K | string, as?: 'otherTenant'): Promise<HttpResponse>;
}

export const RECIPIENT: ResourceDescription = {
  resource: 'recipient',
  needs: ['fixtures.notification.addressTypes.email'],
  async create(t) {
    const r = await createRecipient(t);
    return { key: r.id, shows: r.name };
  },
  read: (t, id, as) => getRecipient(t, id, as),
};

export const RECIPIENT_GROUP: ResourceDescription = {
  resource: 'recipient group',
  needs: [],
  async create(t) {
    const g = await createGroup(t);
    return { key: g.id, shows: g.name };
  },
  read: (t, id, as) => getGroup(t, id, as),
};

export const TEMPLATE_SET: ResourceDescription = {
  resource: 'template set',
  needs: ['fixtures.notification.channels.email'],
  async create(t) {
    const s = await createTemplateSet(t, { channels: [channelId(t, 'email')] });
    return { key: s.id, shows: s.name };
  },
  read: (t, id, as) => send(t, { method: 'GET', path: `/template/templatesets/${id}` }, as),
};

export const CATEGORY: ResourceDescription = {
  resource: 'category',
  needs: [],
  async create(t) {
    const { id } = await createCategory(t);
    return { key: id, shows: String(id) };
  },
  read: (t, id, as) => getCategory(t, id, undefined, as),
};

export const CERTIFICATE: ResourceDescription<string> = {
  resource: 'stored certificate',
  needs: [],
  async create(t) {
    const emailid = await createCertificate(t);
    return { key: emailid, shows: emailid };
  },
  read: (t, _emailid, as) => listing(t, as),
};
