import type { ESLint } from 'eslint';

export const FLOOR: number;
export const NOT_A_BOUND: RegExp;
export const ALLOWLIST: readonly (({ argumentOf: string } | { member: string } | { comparedWith: string }) & {
  reason: string;
})[];
export function servicesOf(file: string, services: readonly string[]): readonly string[];
export function boundValues(o?: { near?: boolean }): Map<string, Map<number, string[]>>;
declare const plugin: ESLint.Plugin;
export default plugin;
