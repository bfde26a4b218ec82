import type { Component } from 'svelte';
import type { ScreenId, ScreenParams } from '../../../shared/app/routes.ts';
import type { AppState } from '../stores/app-state.svelte.ts';
import ResourceSection from '../resources/ResourceSection.svelte';
import ActivityScreen from './activity/ActivityScreen.svelte';
import DriftScreen from './drift/DriftScreen.svelte';
import SessionsScreen from './sessions/SessionsScreen.svelte';
import SettingsScreen from './settings/SettingsScreen.svelte';
import SnapshotsScreen from './snapshots/SnapshotsScreen.svelte';
import SshScreen from './ssh/SshScreen.svelte';

/** What the window hands the screen its address names: a screen takes the parts it needs. */
export type ScreenProps<S extends ScreenId> = {
  readonly app: AppState;
  readonly screen: S;
  readonly path: readonly string[];
  readonly params: ScreenParams<S>;
};

/**
 * The component of each screen shared/app/routes.ts declares: a screen declared there and missing
 * here (or the other way round) is a type error. The account's lists are resource sections,
 * their kinds found by screen in renderer/src/resources/kinds/kind-list.ts.
 */
export const SCREEN_VIEWS: { readonly [S in ScreenId]: Component<ScreenProps<S>> } = {
  sessions: SessionsScreen,
  edges: ResourceSection,
  backends: ResourceSection,
  credentials: ResourceSection,
  ssh: SshScreen,
  'ip-policies': ResourceSection,
  'agent-ingresses': ResourceSection,
  'abuse-reports': ResourceSection,
  snapshots: SnapshotsScreen,
  drift: DriftScreen,
  activity: ActivityScreen,
  settings: SettingsScreen,
};
