import { parseRunConfigJson, readRunConfig, validateRunConfig, type RunConfig } from '../suites/engine/run-config.ts';

/**
 * The environment variable that may hold the run configuration itself (its JSON), for containers
 * and CI where a secret is handed over as a variable rather than a file.
 */
export const CONFIG_ENV = 'CONFORMANCE_CONFIG';

/**
 * The environment variable that may name the target, as `--target` does: where a configuration
 * without `target` is sent, and where every reproduction line (curl, token, replay) sends a request.
 */
export const TARGET_ENV = 'CONFORMANCE_TARGET';

/** Where the target of a command came from: the user named each of them. */
export type TargetOrigin = '--target' | typeof TARGET_ENV | 'configuration';

/** A run configuration and where it came from (the file, or the variable), for messages. */
export interface ConfigSource {
  config: RunConfig;
  origin: string;
  /** Where its `target` came from. */
  targetFrom: TargetOrigin;
}

/** The target the command line or the environment names, and which of them named it. */
export function namedTarget(
  target: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { target: string; from: TargetOrigin } | undefined {
  if (target !== undefined) return { target, from: '--target' };
  const fromEnv = env[TARGET_ENV]?.trim();
  return fromEnv ? { target: fromEnv, from: TARGET_ENV } : undefined;
}

/**
 * The run configuration from `--config FILE`, else from CONFORMANCE_CONFIG; undefined when neither is
 * given. The target `--target` or CONFORMANCE_TARGET names replaces the configuration's before it is
 * validated, so a configuration kept in a secret may leave `target` out.
 */
export function loadRunConfig(
  file: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  targetOption?: string,
): ConfigSource | undefined {
  const named = namedTarget(targetOption, env);
  const target = named?.target;
  const targetFrom: TargetOrigin = named?.from ?? 'configuration';
  if (file) return { config: readRunConfig(file, target), origin: file, targetFrom };
  const text = env[CONFIG_ENV];
  if (text === undefined || text.trim() === '') return undefined;
  // The variable holds the configuration itself, not a file's name.
  let parsed = parseRunConfigJson(text, `${CONFIG_ENV} (the run configuration itself)`);
  if (target !== undefined && parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
    parsed = { ...parsed, target };
  return {
    config: validateRunConfig(parsed, target !== undefined ? `${CONFIG_ENV} with ${targetFrom}` : CONFIG_ENV),
    origin: CONFIG_ENV,
    targetFrom,
  };
}
