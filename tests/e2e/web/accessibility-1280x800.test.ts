import { everyScreenPassesAxe } from './support-accessibility.ts';

everyScreenPassesAxe({ width: 1280, height: 800 });
