// What only a seam reads is not mutated: the description of where a value is (`at`) handed to a
// seam whose reference value passes the value through (`unchanged`), what a notification
// refusal is about (`about(error, what)`) and which rule's refusal a check asks for
// (`refuses(seams, rule, …)`, in every service). With no variant on, nothing reads them, so a mutant of
// them changes no answer: only fault variants and the alternate profile do.
import { EVENT_MANAGEMENT_SEAMS } from '../fixtures/reference/event-management/seams.ts';
import { NOTIFICATION_SEAMS } from '../fixtures/reference/notification/seams.ts';
import { unchanged } from '../fixtures/reference/shared/seams.ts';
import { TOKEN_MANAGER_SEAMS } from '../fixtures/reference/technical-token-manager/seams.ts';
import { folderOf, type NodePathLike } from './message-text.ts';

/** Per service folder, the seams whose reference value is `unchanged`. */
export const PASS_THROUGH_SEAMS: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries({
    'technical-token-manager': TOKEN_MANAGER_SEAMS,
    notification: NOTIFICATION_SEAMS,
    'event-management': EVENT_MANAGEMENT_SEAMS,
  }).map(([folder, seams]) => [
    folder,
    new Set(
      Object.entries(seams as unknown as Record<string, unknown>).flatMap(([k, v]) => (v === unchanged ? [k] : [])),
    ),
  ]),
);

/** Per service folder, functions whose arguments from a position on only seams read. */
const SEAM_ONLY_ARGUMENTS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'technical-token-manager': { refuses: 1 },
  notification: { about: 1, refuses: 1 },
  'event-management': { refuses: 1 },
};

type Node = { type?: string; name?: string; property?: Node; object?: Node; callee?: Node; value?: string };

/** Whether an expression is a deployment's seams: `seams`, `this.seams`, `ctx.seams.notification`, `notificationSeams(reply)`. */
function isSeams(node: Node | undefined): boolean {
  if (!node) return false;
  if (node.type === 'Identifier') return /seams$/i.test(node.name ?? '');
  if (node.type === 'MemberExpression')
    return (
      node.property?.name === 'seams' ||
      ((node.property?.name === 'notification' || node.property?.type === 'StringLiteral') && isSeams(node.object))
    );
  if (node.type === 'CallExpression') return /Seams$/.test(node.callee?.name ?? '');
  return false;
}

export const seamArgumentIgnorer = {
  shouldIgnore(path: NodePathLike): string | undefined {
    if (path.listKey !== 'arguments' || typeof path.key !== 'number') return undefined;
    const folder = folderOf(path.hub?.file?.opts?.filename) ?? '';
    const call = path.parentPath?.node as Node | undefined;
    if (call?.type !== 'CallExpression') return undefined;
    const callee = call.callee;
    const from = callee?.type === 'Identifier' ? SEAM_ONLY_ARGUMENTS[folder]?.[callee.name ?? ''] : undefined;
    if (from !== undefined && path.key >= from) return 'read by seams only (what a refusal is about, or whose it is)';
    if (
      path.key >= 1 &&
      callee?.type === 'MemberExpression' &&
      PASS_THROUGH_SEAMS[folder]?.has(callee.property?.name ?? '') &&
      isSeams(callee.object)
    )
      return 'read by seams only (where a value is, for a seam the reference passes through)';
    return undefined;
  },
};
