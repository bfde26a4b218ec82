import { agentActionCommand } from '../agent-command.ts';

export default agentActionCommand('stop', {
  summary: 'stop an agent, or every agent the selection options pick (asks first unless --yes)',
  examples: [
    'burrow stop laptop',
    'burrow stop laptop --yes --json',
    'burrow stop --state lost --yes',
  ],
});
