import { fixtureKeys, schemaNodeAt, shapeOf } from '../suites/engine/run-config.ts';

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
