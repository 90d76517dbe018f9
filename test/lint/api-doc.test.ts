import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../../src/api/openapi/openapi-document';
import { ERROR_TABLE } from '../../src/errors';

/** What an integrator relies on for one route, as docs/api.md states it and as the OpenAPI document does. */
interface RouteContract {
  tier: string;
  permission: string | null;
  success: number;
  query: string[];
  headers: string[];
  errors: string[];
}
type Contracts = Record<string, RouteContract>;

const apiDoc = readFileSync(join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');

/** Backticked names of a table cell, leaving out what parentheses explain. */
function names(cell: string | undefined): string[] {
  if (!cell) return [];
  return [...cell.replace(/\([^)]*\)/g, '').matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();
}

function contractsOfDoc(markdown: string): Contracts {
  const routes = markdown.split('\n## Routes\n')[1]?.split('\n## ')[0] ?? '';
  const contracts: Contracts = {};
  for (const section of routes.split('\n### ').slice(1)) {
    const [heading, ...lines] = section.split('\n');
    const rows = new Map<string, string>();
    for (const line of lines) {
      const row = /^\| (Tier|Query|Headers|Success|Errors) \| (.*) \|$/.exec(line);
      if (row) rows.set(row[1], row[2]);
    }
    const tier = /^(L[012]|PLATFORM)(?:, permission `(\w+)`)?$/.exec(rows.get('Tier') ?? '');
    contracts[heading.trim()] = {
      tier: tier?.[1] ?? '?',
      permission: tier?.[2] ?? null,
      success: Number(/^\d+/.exec(rows.get('Success') ?? '')?.[0]),
      query: names(rows.get('Query')),
      headers: names(rows.get('Headers')),
      errors: names(rows.get('Errors')),
    };
  }
  return contracts;
}

interface OpenApiOperation {
  'x-tier': string;
  'x-permission'?: string;
  parameters: { name: string; in: string }[];
  responses: Record<string, { description: string }>;
}

function contractsOfOpenApi(document: Record<string, unknown>): Contracts {
  const contracts: Contracts = {};
  const paths = document.paths as Record<string, Record<string, OpenApiOperation> & { servers?: { url: string }[] }>;
  for (const [path, { servers, ...operations }] of Object.entries(paths)) {
    const prefix = servers?.[0]?.url === '/' ? '' : '/v1';
    for (const [method, op] of Object.entries(operations)) {
      const statuses = Object.keys(op.responses).map(Number);
      contracts[`${method.toUpperCase()} ${prefix}${path}`] = {
        tier: op['x-tier'],
        permission: op['x-permission'] ?? null,
        success: Math.min(...statuses),
        query: op.parameters.filter((p) => p.in === 'query').map((p) => p.name).sort(),
        headers: op.parameters.filter((p) => p.in === 'header').map((p) => p.name).sort(),
        errors: statuses.filter((s) => s >= 400).flatMap((s) => op.responses[s].description.split(', ')).sort(),
      };
    }
  }
  return contracts;
}

/** `| \`CODE\` | status | yes/no | when |` rows of the error table. */
function errorTableOfDoc(markdown: string): Record<string, { status: number; retryable: boolean }> {
  const table: Record<string, { status: number; retryable: boolean }> = {};
  for (const m of markdown.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \| (yes|no) \|/gm)) {
    table[m[1]] = { status: Number(m[2]), retryable: m[3] === 'yes' };
  }
  return table;
}

describe('docs/api.md against the OpenAPI document the server serves', () => {
  const openApi = buildOpenApiDocument();

  it('when both are read, then they list the same routes with the same tier, permission, status, parameters and error codes', () => {
    expect(contractsOfDoc(apiDoc)).toEqual(contractsOfOpenApi(openApi));
  });

  it('when both are read, then the error table has every code of the envelope with its HTTP status and retryability', () => {
    const envelope = (openApi.components as { schemas: { ErrorEnvelope: { properties: { code: { enum: string[] } } } } }).schemas.ErrorEnvelope;
    const expected = Object.fromEntries(Object.entries(ERROR_TABLE).map(([code, e]) => [code, { status: e.status, retryable: e.retryable }]));
    expect(Object.keys(expected).sort()).toEqual([...envelope.properties.code.enum].sort());
    expect(errorTableOfDoc(apiDoc)).toEqual(expected);
  });

  it('when the page drops a route or misstates a code, then the comparison shows the difference', () => {
    const doctored = apiDoc
      .replace('### GET /v1/positions', '### GET /v1/holdings')
      .replace("| `RATE_LIMITED` | 429 | yes |", "| `RATE_LIMITED` | 503 | yes |");
    const doc = contractsOfDoc(doctored);
    expect(Object.keys(doc)).not.toContain('GET /v1/positions');
    expect(doc).not.toEqual(contractsOfOpenApi(openApi));
    expect(errorTableOfDoc(doctored).RATE_LIMITED.status).toBe(503);
  });
});
