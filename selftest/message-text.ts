// The words of an error message are not mutated: the documents of event management and notification
// name an error's status and code, and its message only as a string, so a mutant of a message's
// wording changes no answer any rule speaks of. (The token manager's messages are left mutated:
// its error bodies are built from per-code templates.)

/** Minimal view of a babel node path, as Stryker's ignorers receive it. */
export interface NodePathLike {
  node: unknown;
  key?: string | number | null;
  listKey?: string;
  parentPath?: NodePathLike | null;
  hub?: { file?: { opts?: { filename?: string } } };
}

/**
 * Per service folder of the reference, the functions and error classes that take a message, and
 * the position of the message among their arguments.
 */
export const MESSAGE_ARGUMENTS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'event-management': {
    badRequest: 0,
    notFound: 0,
    conflict: 0,
    preconditionFailed: 0,
    EmError: 1,
    sendError: 2,
    failing: 2,
  },
  notification: {
    invalidParameter: 0,
    missingParameter: 0,
    invalidBody: 0,
    missingBody: 0,
    noMatch: 0,
    conflict: 0,
    duplicate: 0,
    notHeld: 3,
    NotificationError: 1,
    sendError: 2,
  },
};

/** The service folder of a reference file's path (`…/fixtures/reference/<folder>/…`). */
export function folderOf(filename: string | undefined): string | undefined {
  return filename?.split(/[\\/]/).find((_, i, parts) => parts[i - 1] === 'reference' && parts[i - 2] === 'fixtures');
}

/** The name a call or `new` calls: `f(…)`, `this.f(…)`, `x.f(…)`, `new F(…)`. */
function calleeName(node: unknown): string | undefined {
  const n = node as { type?: string; callee?: { type?: string; name?: string; property?: { name?: string } } };
  if (n?.type !== 'CallExpression' && n?.type !== 'NewExpression') return undefined;
  return n.callee?.type === 'Identifier' ? n.callee.name : n.callee?.property?.name;
}

/** Leaves out the message argument of an error (the whole expression: its text is all it makes). */
export const messageTextIgnorer = {
  shouldIgnore(path: NodePathLike): string | undefined {
    if (path.listKey !== 'arguments' || typeof path.key !== 'number') return undefined;
    const table = MESSAGE_ARGUMENTS[folderOf(path.hub?.file?.opts?.filename) ?? ''];
    const name = calleeName(path.parentPath?.node);
    if (!table || name === undefined || !Object.hasOwn(table, name)) return undefined;
    return table[name] === path.key ? 'the words of an error message' : undefined;
  },
};
