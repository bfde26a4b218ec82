import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatchIpc } from '../../../../core/ipc/dispatch.ts';
import { electronDialogs } from '../../../../electron/dialogs.ts';
import type {
  ApplyOutcome,
  ExportResult,
  OpenedSnapshot,
  OpenFileResult,
  PlannedSnapshot,
} from '../../../../shared/app/ipc/snapshots.ts';
import { standInDialog } from '../../../support/electron-stand-in.ts';
import { startAccount, type Sandbox } from '../api/support.ts';
import { startApp, type TestApp } from '../profiles/support.ts';
import { noSecretService } from '../../../support/secret-service.ts';
import { seededAccountForFile } from './seed.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';

/*
 * The Snapshots room of the contract as the window calls it: core on a real keychain, two
 * profiles on two real sandboxes, the file written where the shell's save dialog said.
 */

const SECRETS = ['webhook-s3cret', 'gh-s3cret', 'oidc-s3cret'];
const source = seededAccountForFile('window-source');
const cleanup = cleanupAfterAll();

const call = (app: TestApp, name: string, ...args: unknown[]) =>
  dispatchIpc(app.burrow.implementation, name, args);

async function value<T>(app: TestApp, name: string, ...args: unknown[]): Promise<T> {
  const reply = await call(app, name, ...args);
  if (!reply.ok) throw new Error(`${name}: ${JSON.stringify(reply.error)}`);
  return reply.value as T;
}

/** The window's `snapshots.export` of a profile. */
const exportOf = (app: TestApp, profileId: string, to: 'file' | 'document', withSecrets = false) =>
  value<ExportResult>(app, 'snapshots.export', { profileId, withSecrets, to });

async function addProfile(app: TestApp, name: string, sandbox: Sandbox): Promise<string> {
  const added = await value<{ id: string }>(app, 'profiles.add', {
    name,
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
  });
  cleanup.push(() => app.secrets.delete(added.id));
  return added.id;
}

/** An app with the seeded account as "Prod" and an empty one as "Staging". */
async function twoProfiles(savePath?: string) {
  const dialogs = electronDialogs(standInDialog({ saveFile: savePath }), () => undefined);
  const app = await startApp(savePath === undefined ? {} : { dialogs });
  const { sandbox: empty, api } = await startAccount(`window-target-${cleanup.length}`, cleanup);
  const prod = await addProfile(app, 'Prod', source.sandbox);
  const staging = await addProfile(app, 'Staging', empty);
  return { app, prod, staging, api, target: empty };
}

describe('snapshots in the window', () => {
  it('exports to the path the save dialog chose, 0600 with secrets; a document without one', async (ctx) => {
    ctx.skip(noSecretService !== undefined, noSecretService);
    const file = join(tmpdir(), `prod-${Date.now()}.json`);
    cleanup.push(() => rm(file, { force: true }));
    const { app, prod } = await twoProfiles(file);
    const saved = await value<ExportResult>(app, 'snapshots.export', {
      profileId: prod,
      withSecrets: true,
      to: 'file',
      requestId: 'exp1',
    });
    expect(saved).toMatchObject({ status: 'saved', path: file, containsSecrets: true });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    for (const secret of SECRETS) expect(await readFile(file, 'utf8')).toContain(secret);
    expect(app.events.some((e) => e.name === 'snapshots.progress')).toBe(true);

    // Browser mode: no dialog, so the text comes back for the window to offer as a download.
    const plain = await startApp();
    const id = await addProfile(plain, 'Prod', source.sandbox);
    const offered = await exportOf(plain, id, 'file');
    expect(offered).toMatchObject({ status: 'document', fileName: 'prod.json' });
    const text = offered.status === 'document' ? offered.text : '';
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it('opens the file the open dialog chose; cancelled, or in browser mode, it opens nothing', async (ctx) => {
    ctx.skip(noSecretService !== undefined, noSecretService);
    const plain = await startApp();
    const id = await addProfile(plain, 'Prod', source.sandbox);
    const exported = await exportOf(plain, id, 'document');
    const file = join(tmpdir(), `opened-${Date.now()}.json`);
    cleanup.push(() => rm(file, { force: true }));
    await writeFile(file, exported.status === 'document' ? exported.text : '');
    // Browser mode has no dialog: the window keeps its own file input.
    expect(await value<OpenFileResult>(plain, 'snapshots.openFile')).toEqual({
      status: 'unavailable',
      reason: 'Not available here: choose the file in the page',
    });

    const dialog = standInDialog({ openFile: file });
    const app = await startApp({ dialogs: electronDialogs(dialog, () => undefined) });
    const opened = await value<OpenFileResult>(app, 'snapshots.openFile');
    expect(opened).toMatchObject({
      status: 'opened',
      snapshot: { fileName: file.split('/').pop(), source: { profileName: 'Prod' } },
    });
    expect(dialog.calls).toEqual([
      [
        'open',
        undefined,
        {
          title: 'Open a snapshot',
          filters: [{ name: 'json', extensions: ['json'] }],
          properties: ['openFile'],
        },
      ],
    ]);
    const cancelled = await startApp({
      dialogs: electronDialogs(standInDialog({}), () => undefined),
    });
    expect(await value<OpenFileResult>(cancelled, 'snapshots.openFile')).toEqual({
      status: 'cancelled',
    });
  });

  it('refuses a bad file with an error naming what is wrong', async () => {
    const app = await startApp();
    expect(
      await call(app, 'snapshots.open', { fileName: 'x.json', text: '{"format":' }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'SNAPSHOT_NOT_JSON',
        field: 'text',
        message: expect.stringMatching(/^x\.json is not JSON/),
      },
    });
    const wrong = JSON.stringify({ format: 'burrow-snapshot', version: 2 });
    expect(await call(app, 'snapshots.open', { fileName: 'y.json', text: wrong })).toMatchObject({
      ok: false,
      error: {
        code: 'SNAPSHOT_INVALID',
        message: 'y.json: Not a Burrow snapshot: version Invalid input: expected 1',
      },
    });
    expect(await call(app, 'snapshots.open', { fileName: '', text: '{}' })).toMatchObject({
      ok: false,
      error: { code: 'IPC_BAD_ARGUMENTS', field: 'fileName' },
    });
    expect(
      await call(app, 'snapshots.plan', {
        source: { type: 'snapshot', snapshotId: 'nope' },
        targetProfileId: 'prf_nobody0001',
        prune: false,
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'PROFILE_NOT_FOUND' },
    });
  });

  it('opens a snapshot, plans it masked, applies with progress; the profiles then match', async (ctx) => {
    ctx.skip(noSecretService !== undefined, noSecretService);
    const { app, prod, staging } = await twoProfiles();
    const exported = await exportOf(app, prod, 'document', true);
    const text = exported.status === 'document' ? exported.text : '';
    const opened = await value<OpenedSnapshot>(app, 'snapshots.open', {
      fileName: 'prod.json',
      text,
    });
    expect(opened).toMatchObject({
      fileName: 'prod.json',
      containsSecrets: true,
      source: { profileName: 'Prod' },
    });

    const plan = await value<PlannedSnapshot>(app, 'snapshots.plan', {
      source: { type: 'snapshot', snapshotId: opened.snapshotId },
      targetProfileId: staging,
      prune: false,
    });
    expect(plan).toMatchObject({
      sourceLabel: 'prod.json',
      targetLabel: 'Staging',
      resumes: false,
      blockers: [],
    });
    expect(plan.counts.create).toBe(opened.resources);
    for (const secret of SECRETS) expect(JSON.stringify(plan)).not.toContain(secret);
    expect(JSON.stringify(plan)).toContain('********');

    const outcome = await value<ApplyOutcome>(app, 'snapshots.apply', {
      planId: plan.planId,
      requestId: 'apply1',
    });
    expect(outcome).toMatchObject({ ok: true, created: opened.resources, updated: 0, deleted: 0 });
    const progress = app.events.flatMap((e) =>
      e.name === 'snapshots.progress' && e.payload.requestId === 'apply1' ? [e.payload] : [],
    );
    expect(progress.at(-1)).toMatchObject({
      phase: 'applying',
      done: opened.resources,
      total: opened.resources,
      current: null,
    });
    // A plan is applied once: its id is gone after.
    expect(
      await call(app, 'snapshots.apply', { planId: plan.planId, requestId: 'apply2' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'SNAPSHOT_GONE' },
    });

    const again = await value<PlannedSnapshot>(app, 'snapshots.plan', {
      source: { type: 'profile', profileId: prod },
      targetProfileId: staging,
      prune: true,
    });
    expect(again.counts).toEqual({ create: 0, update: 0, delete: 0, unchanged: opened.resources });
    expect(again.sourceLabel).toBe('Prod');
  });

  it('a failed step: the API error, the step, and what was already done', async (ctx) => {
    ctx.skip(noSecretService !== undefined, noSecretService);
    const { app, prod, staging, api, target } = await twoProfiles();
    await api.httpResponseBackends.create({ description: 'maintenance', body: 'old' });
    const plan = await value<PlannedSnapshot>(app, 'snapshots.plan', {
      source: { type: 'profile', profileId: prod },
      targetProfileId: staging,
      prune: false,
    });
    const update = plan.steps.find((s) => s.action === 'update');
    expect(update).toMatchObject({ name: 'httpResponseBackend/maintenance' });
    // The service fails the update itself (a PATCH is never retried): the apply stops there.
    target.faults.add({
      kind: 'status',
      status: 500,
      method: 'PATCH',
      pathPrefix: '/backends/http_response',
      count: 1,
    });
    const outcome = await value<ApplyOutcome>(app, 'snapshots.apply', {
      planId: plan.planId,
      requestId: 'f1',
    });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'ERR_SERVICE_341' },
      step: { action: 'update', name: 'httpResponseBackend/maintenance' },
      cancelled: false,
    });
    expect(outcome.ok === false && outcome.done.length).toBeGreaterThan(0);
  });

  it('an account changed between the plan and the apply: told to plan again, nothing sent', async (ctx) => {
    ctx.skip(noSecretService !== undefined, noSecretService);
    const { app, prod, staging, api } = await twoProfiles();
    const maintenance = await api.httpResponseBackends.create({
      description: 'maintenance',
      body: 'old',
    });
    const plan = await value<PlannedSnapshot>(app, 'snapshots.plan', {
      source: { type: 'profile', profileId: prod },
      targetProfileId: staging,
      prune: false,
    });
    await api.httpResponseBackends.delete(maintenance.id);
    const before = (await api.ipPolicies.listAll()).length;
    const outcome = await value<ApplyOutcome>(app, 'snapshots.apply', {
      planId: plan.planId,
      requestId: 'f2',
    });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'SNAPSHOT_STALE', message: expect.stringMatching(/plan again/) },
      step: null,
    });
    expect((await api.ipPolicies.listAll()).length).toBe(before);
  });

  it('a cancelled apply says so; planned again, it is carried on and creates nothing twice', async (ctx) => {
    ctx.skip(noSecretService !== undefined, noSecretService);
    const { app, prod, staging } = await twoProfiles();
    const request = {
      source: { type: 'profile', profileId: prod },
      targetProfileId: staging,
      prune: false,
    };
    const plan = await value<PlannedSnapshot>(app, 'snapshots.plan', request);
    // Cancelled as the third step starts: two are done, the third never sent.
    let second: unknown;
    const stop = app.burrow.events.onEvent((event) => {
      // A second apply to the same profile while one runs would race its journal.
      if (event.name === 'snapshots.progress' && event.payload.phase === 'applying')
        second ??= call(app, 'snapshots.apply', { planId: plan.planId, requestId: 'c3' });
      if (
        event.name === 'snapshots.progress' &&
        event.payload.phase === 'applying' &&
        event.payload.done === 2
      )
        void call(app, 'snapshots.cancel', 'c1');
    });
    const cancelled = await value<ApplyOutcome>(app, 'snapshots.apply', {
      planId: plan.planId,
      requestId: 'c1',
    });
    stop();
    expect(await second).toMatchObject({
      ok: false,
      error: {
        code: 'SNAPSHOT_BUSY',
        message: expect.stringMatching(
          /^Another apply to Staging is running \(the Burrow window, pid \d+, since \d\d:\d\d:\d\d\)$/,
        ) as unknown,
      },
    });
    expect(cancelled).toMatchObject({ ok: false, cancelled: true, step: { action: 'create' } });
    expect(cancelled.ok === false && cancelled.done.length).toBe(2);

    const again = await value<PlannedSnapshot>(app, 'snapshots.plan', request);
    expect(again).toMatchObject({ resumes: true, counts: plan.counts });
    const carried = await value<ApplyOutcome>(app, 'snapshots.apply', {
      planId: again.planId,
      requestId: 'c2',
    });
    expect(carried).toMatchObject({ ok: true, resumed: true, created: plan.counts.create });
    const after = await value<PlannedSnapshot>(app, 'snapshots.plan', request);
    expect(after.counts).toMatchObject({ create: 0, update: 0, unchanged: plan.counts.create });
    expect(await call(app, 'snapshots.cancel', 'c2')).toEqual({ ok: true, value: false });
  });
});
