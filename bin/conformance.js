#!/usr/bin/env node
// Launcher: runs the TypeScript CLI through tsx, so no build step is needed after `npm ci`.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
