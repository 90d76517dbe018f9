import { ENV_SPEC, EnvSpec, VarSpec } from './env-spec';

type ValueOf<S> = S extends VarSpec<infer T> ? T : never;
type HasDefault<S> = S extends { default: unknown } ? true : false;

/** Parsed configuration: variables with a default are always present, others may be undefined. */
export type Config = {
  [K in keyof EnvSpec]: HasDefault<EnvSpec[K]> extends true ? ValueOf<EnvSpec[K]> : ValueOf<EnvSpec[K]> | undefined;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates every variable at once, so that a bad deployment learns all its mistakes
 * in one boot. Empty strings count as unset. Secret values never appear in messages.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(ENV_SPEC) as [string, VarSpec<unknown>][]) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      config[name] = spec.default;
      continue;
    }
    try {
      config[name] = spec.parse(raw);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      problems.push(spec.secret ? `${name} ${why}` : `${name}=${JSON.stringify(raw)} ${why}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config as Config;
}

/** The API process's configuration: every variable but the operator key (only the worker signs). */
export type ApiConfig = Omit<Config, 'OPERATOR_PRIVATE_KEY'>;

/** `loadConfig` for the API process: OPERATOR_PRIVATE_KEY is neither read nor kept, whatever the environment holds. */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const unkeyed = { ...env };
  delete unkeyed.OPERATOR_PRIVATE_KEY;
  const config: Partial<Config> = loadConfig(unkeyed);
  delete config.OPERATOR_PRIVATE_KEY;
  return config as ApiConfig;
}
