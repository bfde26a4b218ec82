import { defineCommand, YES_OPTION } from './command.ts';
import {
  AGENT_DETAILS,
  SELECTION_DETAILS,
  SELECTION_OPTIONS,
  selectionRefusal,
} from './fleet-options.ts';

/**
 * `burrow restart` and `burrow stop`: the same command but for the action, on one AGENT or on
 * every agent the selection options pick.
 */
export function agentActionCommand(
  action: 'restart' | 'stop',
  help: { readonly summary: string; readonly examples: readonly string[] },
) {
  return defineCommand({
    ...help,
    details: `${AGENT_DETAILS} ${SELECTION_DETAILS}`,
    args: ['[AGENT]'],
    options: { ...SELECTION_OPTIONS, yes: YES_OPTION },
    refusal: (values) => selectionRefusal(values),
    run: async ({ args: [agent], values, options, io }) => {
      const [{ agentOrSelection }, { actionCommand }] = await Promise.all([
        import('./fleet.ts'),
        import('./session-actions.ts'),
      ]);
      const asked = { ...options, yes: values.yes };
      return agentOrSelection(action, agent, values, asked, io, (one) =>
        actionCommand(action, one, asked, io),
      );
    },
  });
}
