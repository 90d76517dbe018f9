/**
 * What a failed `npm start` test needs to be understood later: the tail of what the service printed
 * (kept whole in DATA_DIR/logs/npm-start.log by `launch`), of the embedded servers' logs, and what
 * the Temporal server says of the given workflows, with DATA_DIR kept for a closer look.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolBinaryPath } from '../../src/tools/ensure-go-tool';
import { TEMPORAL_CLI } from '../../src/tools/tool-versions';

export const SERVICE_OUTPUT_FILE = 'npm-start.log';

function tail(file: string, lines: number): string {
  if (!existsSync(file)) return `(no ${file})`;
  return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

function temporal(address: string, args: string[]): string {
  try {
    return execFileSync(toolBinaryPath(TEMPORAL_CLI), [...args, '--address', address], { encoding: 'utf8', timeout: 15_000, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    return `(temporal ${args.join(' ')} failed: ${(error as Error).message.slice(0, 500)})`;
  }
}

/** A workflow's state (pending task, activities, children) and its last events, one line each. */
function workflowState(address: string, id: string): string {
  const described = temporal(address, ['workflow', 'describe', '-w', id, '-o', 'json']);
  const shown = temporal(address, ['workflow', 'show', '-w', id, '-o', 'json']);
  const lines: string[] = [];
  try {
    const d = JSON.parse(described) as Record<string, unknown> & { workflowExecutionInfo?: { status?: string; historyLength?: string } };
    lines.push(`status ${d.workflowExecutionInfo?.status}, history ${d.workflowExecutionInfo?.historyLength} events`);
    lines.push(`pending workflow task: ${JSON.stringify(d.pendingWorkflowTask ?? null)}`);
    for (const a of (d.pendingActivities ?? []) as Record<string, unknown>[]) {
      lines.push(`pending activity: ${JSON.stringify({ ...a, heartbeatDetails: undefined, lastFailure: (a.lastFailure as { message?: string } | undefined)?.message })}`);
    }
    for (const c of (d.pendingChildren ?? []) as unknown[]) lines.push(`pending child: ${JSON.stringify(c)}`);
  } catch {
    lines.push(described.slice(0, 2000));
  }
  try {
    const events = (JSON.parse(shown) as { events: Record<string, unknown>[] }).events;
    for (const e of events.slice(-40)) {
      const attributes = Object.entries(e).find(([k]) => k.endsWith('Attributes'))?.[1] as Record<string, unknown> | undefined;
      const detail = attributes ? JSON.stringify(attributes, (k, v: unknown) => (k === 'input' || k === 'details' || k === 'result' || k === 'header' ? undefined : v)).slice(0, 300) : '';
      lines.push(`${String(e.eventId)} ${String(e.eventTime)} ${String(e.eventType)} ${detail}`);
    }
  } catch {
    lines.push(shown.slice(0, 2000));
  }
  return lines.join('\n');
}

export function serviceDiagnostics(dataDir: string, temporalAddress: string, workflowIds: string[]): string {
  const logs = join(dataDir, 'logs');
  return [
    `DATA_DIR kept: ${dataDir}`,
    `--- last lines of ${join(logs, SERVICE_OUTPUT_FILE)}`,
    tail(join(logs, SERVICE_OUTPUT_FILE), 150),
    '--- temporal.log',
    tail(join(logs, 'temporal.log'), 40),
    '--- ferretdb.log',
    tail(join(logs, 'ferretdb.log'), 20),
    ...workflowIds.flatMap((id) => [`--- workflow ${id}`, workflowState(temporalAddress, id)]),
  ].join('\n');
}
