/**
 * Writes the client's REST types from the OpenAPI document the server serves, with
 * openapi-typescript, so the client and the routes share one source of shapes.
 *
 *   npx tsx scripts/generate-client-types.ts          # writes src/client/generated/openapi.ts
 *   npx tsx scripts/generate-client-types.ts --check  # exits 1 when the committed file is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from '../src/api/openapi/openapi-document';

const TARGET = join(__dirname, '..', 'src', 'client', 'generated', 'openapi.ts');
const HEADER = '// Generated from /v1/openapi.json by scripts/generate-client-types.ts: do not edit.\n';

async function main(): Promise<void> {
  const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Parameters<typeof openapiTS>[0];
  const text = HEADER + astToString(await openapiTS(document, { alphabetize: true }));
  if (process.argv.includes('--check')) {
    const current = readFileSync(TARGET, 'utf8');
    if (current !== text) {
      process.stderr.write(`${TARGET} is stale: run npx tsx scripts/generate-client-types.ts\n`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(TARGET, text);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
