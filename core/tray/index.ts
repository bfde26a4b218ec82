/** The tray menu as data, from the monitor's snapshot and the profiles. */
export * from './menu.ts';
