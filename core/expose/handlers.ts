import type { exposeCalls, ExposeProgress } from '../../shared/app/ipc/expose.ts';
import type { ApiClient } from '../api/client.ts';
import type { HandlersOf } from '../ipc/handlers.ts';
import { planExpose } from './plan.ts';
import { runExpose } from './run.ts';
import { suggestHostport, usedHostports } from './suggest.ts';

export type ExposeHandlersOptions = {
  /** The active profile's client. */
  readonly client: () => Promise<ApiClient>;
  readonly onProgress: (progress: ExposeProgress) => void;
  /** The service is exposed: Burrow's own change, kept before the answer (not drift). */
  readonly onChanged?: () => Promise<void>;
};

/** The `expose.*` calls: each reads the account afresh, so a plan never runs stale. */
export function exposeHandlers({
  client,
  onProgress,
  onChanged,
}: ExposeHandlersOptions): HandlersOf<typeof exposeCalls> {
  return {
    'expose.suggest': async ({ name }) => ({
      hostport: suggestHostport(name, await usedHostports(await client())),
    }),
    'expose.plan': async (request) => {
      const { bodies: _, ...plan } = await planExpose(await client(), request);
      return plan;
    },
    'expose.run': async (request) => {
      const api = await client();
      const result = await runExpose(api, await planExpose(api, request), onProgress);
      await onChanged?.();
      return result;
    },
  };
}
