import { agentActionCommand } from '../agent-command.ts';

export default agentActionCommand('restart', {
  summary: 'restart an agent, or every agent the selection options pick',
  examples: [
    'burrow restart build-box',
    'burrow restart build-box --profile Prod',
    "burrow restart --all-profiles --name 'build-*' --yes",
  ],
});
