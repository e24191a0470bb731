import { parseRunConfigJson, readRunConfig, validateRunConfig, type RunConfig } from '../suites/engine/run-config.ts';

/**
 * The environment variable that may hold the run configuration itself (its JSON), for containers
 * and CI where a secret is handed over as a variable rather than a file.
 */
export const CONFIG_ENV = 'CONFORMANCE_CONFIG';

/** A run configuration and where it came from (the file, or the variable), for messages. */
export interface ConfigSource {
  config: RunConfig;
  origin: string;
}

/**
 * The run configuration from `--config FILE`, else from CONFORMANCE_CONFIG; undefined when neither is
 * given. `target` (`--target`) replaces the configuration's before it is validated, so a configuration
 * kept in a secret may leave `target` out.
 */
export function loadRunConfig(
  file: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  target?: string,
): ConfigSource | undefined {
  if (file) return { config: readRunConfig(file, target), origin: file };
  const text = env[CONFIG_ENV];
  if (text === undefined || text.trim() === '') return undefined;
  // The variable holds the configuration itself, not a file's name.
  let parsed = parseRunConfigJson(text, `${CONFIG_ENV} (the run configuration itself)`);
  if (target !== undefined && parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
    parsed = { ...parsed, target };
  return {
    config: validateRunConfig(parsed, target !== undefined ? `${CONFIG_ENV} with --target` : CONFIG_ENV),
    origin: CONFIG_ENV,
  };
}
