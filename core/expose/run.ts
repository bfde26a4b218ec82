import type { ExposeProgress, ExposeResult } from '../../shared/app/ipc/expose.ts';
import { ipcErrorOf } from '../ipc/dispatch.ts';
import type { ExposeApi, PlannedExpose } from './plan.ts';

/** What one step made, and how to take it back. */
type Made = { readonly id: string; readonly what: string; readonly undo: () => Promise<unknown> };

/**
 * Creates what the plan says, in dependency order (the backend, the edge, its route pointing at
 * both, then the credential), telling each step as it goes. When a step fails, what this run
 * made is deleted again in reverse order, and the answer names what failed and anything that
 * could not be deleted; nothing that existed before the run is touched.
 */
export async function runExpose(
  api: ExposeApi,
  plan: PlannedExpose,
  onProgress: (progress: ExposeProgress) => void,
): Promise<ExposeResult> {
  const { bodies, steps } = plan;
  const name = bodies.backend.description ?? '';
  const made: Made[] = [];
  const tell = (step: number, state: ExposeProgress['state'], words: string) =>
    onProgress({ step, total: steps.length, words, state });

  const makers = [
    async (): Promise<Made> => {
      const backend = await api.tunnelGroupBackends.create(bodies.backend);
      return {
        id: backend.id,
        what: `the tunnel group backend '${name}' (${backend.id})`,
        undo: () => api.tunnelGroupBackends.delete(backend.id),
      };
    },
    async (): Promise<Made> => {
      const edge = await api.httpsEdges.create(bodies.edge);
      return {
        id: edge.id,
        what: `the HTTPS edge on ${bodies.edge.hostports?.join(', ')} (${edge.id})`,
        undo: () => api.httpsEdges.delete(edge.id),
      };
    },
    async (): Promise<Made> => {
      const [backend, edge] = made;
      const route = await api.httpsEdgeRoutes.create(edge?.id ?? '', {
        ...bodies.route,
        backend: { backend_id: backend?.id ?? '' },
      });
      return {
        id: route.id,
        what: `the route ${route.match} of that edge (${route.id})`,
        undo: () => api.httpsEdgeRoutes.delete(route.edge_id, route.id),
      };
    },
    async (): Promise<Made & { token: string }> => {
      const credential = await api.credentials.create(bodies.credential);
      return {
        id: credential.id,
        token: credential.token,
        what: `the credential '${credential.description}' (${credential.id})`,
        undo: () => api.credentials.delete(credential.id),
      };
    },
  ];

  let token: string | null = null;
  for (const [index, step] of steps.entries()) {
    const maker = makers[index];
    if (!maker) break;
    tell(index, 'creating', step.words);
    try {
      const result = await maker();
      if ('token' in result && typeof result.token === 'string') token = result.token;
      made.push(result);
      tell(index, 'created', step.words);
    } catch (error) {
      tell(index, 'failed', step.words);
      const leftBehind = await undo(made, tell);
      return { outcome: 'failed', step: step.words, ...ipcErrorOf(error), leftBehind };
    }
  }
  const [backend, edge, route, created] = made;
  const existing = plan.credential.kind === 'existing' ? plan.credential : undefined;
  return {
    outcome: 'created',
    url: plan.url,
    binds: bodies.binds,
    backendId: backend?.id ?? '',
    edgeId: edge?.id ?? '',
    routeId: route?.id ?? '',
    credential: existing
      ? { id: existing.id, name: existing.name, token: null }
      : { id: created?.id ?? '', name: bodies.credential.description ?? '', token },
  };
}

/** Deletes what was made, newest first; answers what stayed, in words. */
async function undo(
  made: readonly Made[],
  tell: (step: number, state: ExposeProgress['state'], words: string) => void,
): Promise<string[]> {
  const left: string[] = [];
  for (let index = made.length - 1; index >= 0; index--) {
    const item = made[index];
    if (!item) continue;
    tell(index, 'undoing', `Delete ${item.what}`);
    try {
      await item.undo();
      tell(index, 'undone', `Deleted ${item.what}`);
    } catch (error) {
      left.push(`${item.what}: ${ipcErrorOf(error).message}`);
      tell(index, 'left', `Could not delete ${item.what}`);
    }
  }
  return left;
}
