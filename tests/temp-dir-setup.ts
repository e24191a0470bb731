import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.ts';

// Every test file leaves the system temp folder as it found it.
afterAll(() => {
  removeTempDirs();
});
