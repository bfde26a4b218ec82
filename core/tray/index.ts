/** The tray: its menu as data (model.ts) and the service both shells use (service.ts). */
export * from './model.ts';
export * from './service.ts';
