import { everyScreenPassesAxe } from './support-accessibility.ts';

everyScreenPassesAxe({ width: 800, height: 600 });
