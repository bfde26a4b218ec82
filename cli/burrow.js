#!/usr/bin/env node
// package.json's `bin`: Burrow's sources are TypeScript, run through tsx as its scripts are.
import { register } from 'tsx/esm/api';

register();
await import('./bin.ts');
