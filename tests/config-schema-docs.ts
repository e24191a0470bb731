import { RUN_CONFIG_SCHEMA, schemaNodeAt, shapeOf, type SchemaNode } from '../suites/engine/run-config.ts';

/** Every fixture key the schema holds, as the table of docs/configuration.md names it (`eventManagement.entityIds`, `subTenantIds`). */
export function fixtureKeys(): string[] {
  const fixtures = RUN_CONFIG_SCHEMA.properties!.fixtures;
  return Object.entries(fixtures.properties ?? {}).flatMap(([group, node]: [string, SchemaNode]) =>
    node.type === 'object' && node.properties ? Object.keys(node.properties).map((k) => `${group}.${k}`) : [group],
  );
}

/** The fixture table of docs/configuration.md, rendered from the schema: key, shape, what it names and which rules need it. */
export function fixtureTable(indent = ''): string {
  const rows = fixtureKeys().map((key) => {
    const node = schemaNodeAt(`fixtures.${key}`)!;
    return `| \`${key}\` | ${shapeOf(node)} | ${node.description ?? ''} |`;
  });
  return ['| key | shape | what it names, and which rules need it |', '|---|---|---|', ...rows]
    .map((l) => `${indent}${l}`)
    .join('\n');
}
