// Prints .env.example from the one list of variables (src/config/env-spec.ts) and the ones only
// docker-compose.yml asks for: `npx tsx scripts/print-env-example.ts > .env.example`.
import { ENV_SPEC, VarSpec } from '../src/config/env-spec';

const COMPOSE_ONLY: [string, string][] = [['GRAFANA_ADMIN_PASSWORD', 'Grafana admin password (secret)']];

const lines = [
  '# Every variable the API, the worker and npm start read (src/config/env-spec.ts), with its default;',
  '# empty means unset. Copy to .env for docker compose, which also reads the ones at the end.',
  '',
];
for (const [name, spec] of Object.entries(ENV_SPEC) as [string, VarSpec<unknown>][]) {
  lines.push(`# ${spec.description}${spec.secret ? ' (secret)' : ''}`, `${name}=${spec.default === undefined ? '' : String(spec.default)}`);
}
lines.push('', '# docker compose only');
for (const [name, description] of COMPOSE_ONLY) lines.push(`# ${description}`, `${name}=`);
process.stdout.write(`${lines.join('\n')}\n`);
