import { randomUUID } from 'node:crypto';
import type { RuleContext } from '../engine/rule-test.ts';
import { cleanupAfterFile } from '../engine/rule-test.ts';
import { entity } from './em-client.ts';
import { createEventsInBulk, createType, field } from './em-resources.ts';

/** A custom event type of the suite with events whose values the suite knows exactly. */
export interface Dataset {
  typeId: string;
  /** The events as created, newest first. */
  events: Array<Record<string, any>>;
}

export const DATASET_SIZE = 45;
export const GROUPS = ['a', 'b', 'c'];

/**
 * One dataset per file, created by the first test that needs it and deleted after the file:
 * a type with filterable n (INTEGER), grp (STRING), flag (BOOLEAN), seen (TIMESTAMP), a non-filterable note, and
 * 45 events one minute apart within the last hours, spread over three entities.
 */
export function fileDataset(label: string): (t: RuleContext) => Promise<Dataset> {
  const scope = `em-dataset-${label}`;
  cleanupAfterFile(scope);
  let pending: Promise<Dataset | string> | undefined;
  return async (t) => {
    // Every test that reads the dataset needs what its first reader needed to write it.
    t.need('fixtures.eventManagement.entityIds');
    pending ??= (async () => {
      const type = await createType(
        t,
        {
          fields: [
            field('n', 'INTEGER', { filterable: true }),
            field('grp', 'STRING', { filterable: true }),
            field('flag', 'BOOLEAN', { filterable: true }),
            field('seen', 'TIMESTAMP', { filterable: true }),
            field('note', 'STRING'),
          ],
        },
        { fileScope: scope },
      );
      const base = Date.now() - 3 * 3_600_000 + Math.floor(Math.random() * 1000);
      const inputs = Array.from({ length: DATASET_SIZE }, (_, i) => ({
        typeId: type.id,
        correlationId: randomUUID(),
        entityId: entity(t, i % 3),
        timestamp: new Date(base + i * 60_000 + (i % 7) * 11).toISOString(),
        n: i,
        grp: GROUPS[i % 3],
        flag: i % 2 === 0,
        seen: new Date(base + i * 60_000 + 30_000).toISOString(),
        note: `note ${i}`,
      }));
      const created = await createEventsInBulk(t, inputs);
      return { typeId: type.id as string, events: created.reverse() };
    })().catch((e: unknown) => `the dataset could not be created: ${(e as Error).message}`);
    const d = await pending;
    if (typeof d === 'string') return t.skip(d);
    return d;
  };
}
