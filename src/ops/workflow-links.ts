/** A workflow run as the order timeline names it, with its page in the Temporal Web UI. */
export interface WorkflowRef {
  workflow_id: string;
  run_id: string | null;
  type: string | null;
  /** Temporal's execution status (RUNNING, COMPLETED, ...); null when the run was not found. */
  status: string | null;
  /** Null when there is no Temporal UI to link (an external Temporal and no TEMPORAL_UI_URL). */
  url: string | null;
}

/**
 * The UI page of a run (its event history), or when the run is unknown, the UI's list of the
 * workflow's runs; no page without a UI.
 */
export function workflowLink(uiUrl: string | undefined, namespace: string, workflowId: string, runId: string | null, type: string | null, status: string | null): WorkflowRef {
  if (!uiUrl) return { workflow_id: workflowId, run_id: runId, type, status, url: null };
  const base = `${uiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows`;
  const url = runId
    ? `${base}/${encodeURIComponent(workflowId)}/${encodeURIComponent(runId)}/history`
    : `${base}?query=${encodeURIComponent(`WorkflowId="${workflowId}"`)}`;
  return { workflow_id: workflowId, run_id: runId, type, status, url };
}
