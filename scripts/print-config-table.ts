// Prints the README's configuration table from the one list of variables (src/config/env-spec.ts).
import { ENV_SPEC, VarSpec } from '../src/config/env-spec';

const rows = (Object.entries(ENV_SPEC) as [string, VarSpec<unknown>][]).map(([name, spec]) => {
  const fallback = spec.default === undefined ? '(unset)' : `\`${String(spec.default)}\``;
  return `| \`${name}\` | ${fallback} | ${spec.description}${spec.secret ? ' (secret: never logged)' : ''} |`;
});
process.stdout.write(['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n') + '\n');
