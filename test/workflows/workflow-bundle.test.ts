/**
 * The prebuilt workflow bundle (src/temporal/workflow-bundle.ts): `npm run build` bundles the
 * workflows once, and a worker uses that bundle only while every file it was built from is
 * unchanged; otherwise it bundles at start and says why.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NativeConnection, Worker } from '@temporalio/worker';
import { workflowCodeFor, writeWorkflowBundle } from '../../src/temporal/workflow-bundle';
import { connectTemporal } from '../../src/temporal/connect';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';

describe('the prebuilt workflow bundle', () => {
  // A workflow of its own in a folder of its own, so the test can change its inputs; inside the
  // project, where webpack finds @temporalio/workflow.
  const cache = join(__dirname, '..', '..', 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'predex-bundle-'));
  const workflows = join(dir, 'workflows.js');
  const helper = join(dir, 'greeting.js');
  const codePath = join(dir, 'out', 'workflow-bundle.js');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    writeFileSync(helper, "exports.greeting = (name) => `hello ${name}`;\n");
    writeFileSync(workflows, "const { greeting } = require('./greeting');\nexports.greets = async (name) => greeting(name);\n");
    mkdirSync(join(dir, 'out'));
    await writeWorkflowBundle(workflows, codePath);
  }, 60_000);

  it('when every input is unchanged, then the worker gets the prebuilt bundle, which runs the workflow', async () => {
    const code = workflowCodeFor(workflows, codePath);
    expect(code).toEqual({ prebuilt: true, workflowBundle: { codePath } });
    const manifest = JSON.parse(readFileSync(`${codePath}.manifest.json`, 'utf8')) as { inputs: Record<string, string> };
    expect(Object.keys(manifest.inputs)).toEqual(expect.arrayContaining(['../workflows.js', '../greeting.js']));

    const taskQueue = uniqueTaskQueue('bundle');
    const connection = await NativeConnection.connect({ address: testTemporalAddress() });
    const temporal = await connectTemporal(testTemporalAddress(), 'default');
    try {
      const worker = await Worker.create({ connection, taskQueue, workflowBundle: { codePath }, shutdownGraceTime: '200ms' });
      const answer = await worker.runUntil(
        temporal.client.workflow.execute('greets', { taskQueue, workflowId: `${taskQueue}-wf`, args: ['bundle'] }),
      );
      expect(answer).toBe('hello bundle');
    } finally {
      await temporal.close();
      await connection.close();
    }
  }, 60_000);

  it('when a file the bundle was built from changed, then the worker bundles at start and names the file', () => {
    const saved = join(dir, 'greeting.saved');
    copyFileSync(helper, saved);
    try {
      writeFileSync(helper, "exports.greeting = (name) => `goodbye ${name}`;\n");
      const code = workflowCodeFor(workflows, codePath);
      expect(code).toEqual({ prebuilt: false, workflowsPath: workflows, reason: `${helper} changed since the bundle was built` });
    } finally {
      copyFileSync(saved, helper);
    }
    expect(workflowCodeFor(workflows, codePath).prebuilt).toBe(true);
  });

  it('when an input is gone, the manifest is missing, or the bundle is of other workflows, then the worker bundles at start', () => {
    const saved = join(dir, 'greeting.saved');
    copyFileSync(helper, saved);
    unlinkSync(helper);
    try {
      expect(workflowCodeFor(workflows, codePath)).toMatchObject({ prebuilt: false, reason: `${helper}, an input of the prebuilt bundle, is gone` });
    } finally {
      copyFileSync(saved, helper);
    }
    expect(workflowCodeFor(join(dir, 'other.js'), codePath)).toMatchObject({ prebuilt: false, reason: expect.stringContaining('was not built from') });
    const manifest = `${codePath}.manifest.json`;
    const text = readFileSync(manifest, 'utf8');
    unlinkSync(manifest);
    try {
      expect(workflowCodeFor(workflows, codePath)).toMatchObject({ prebuilt: false, reason: expect.stringContaining('no prebuilt bundle') });
    } finally {
      writeFileSync(manifest, text);
    }
  });
});
