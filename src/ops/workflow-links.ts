/** A workflow run as the order timeline names it, with its page in the Temporal Web UI. */
export interface WorkflowRef {
  workflow_id: string;
  run_id: string | null;
  type: string | null;
  /** Temporal's execution status (RUNNING, COMPLETED, ...); null when the run was not found. */
  status: string | null;
  url: string;
}

/**
 * The UI page of a run (its event history), or when the run is unknown, the UI's list of the
 * workflow's runs.
 */
export function workflowLink(uiUrl: string, namespace: string, workflowId: string, runId: string | null, type: string | null, status: string | null): WorkflowRef {
  const base = `${uiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows`;
  const url = runId
    ? `${base}/${encodeURIComponent(workflowId)}/${encodeURIComponent(runId)}/history`
    : `${base}?query=${encodeURIComponent(`WorkflowId="${workflowId}"`)}`;
  return { workflow_id: workflowId, run_id: runId, type, status, url };
}

/** The UI's base URL: `TEMPORAL_UI_URL`, or the embedded dev server's UI. */
export function temporalUiUrlOf(config: { TEMPORAL_UI_URL?: string; HOST: string; TEMPORAL_UI_PORT: number }): string {
  return config.TEMPORAL_UI_URL ?? `http://${config.HOST}:${config.TEMPORAL_UI_PORT}`;
}
