import { cleanup } from '@testing-library/svelte';
import { afterEach } from 'vitest';

// Each test mounts into the same page; unmount what it left so tests never see each other.
afterEach(() => cleanup());
