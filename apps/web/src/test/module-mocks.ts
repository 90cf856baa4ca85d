import { vi } from 'vitest';
import { createFakeSocket } from './fake-socket';

// The stand-ins setup.ts puts in place of socket.io-client, lib/browser and the form delay. A worker
// runs its test files one after another in one module graph (vitest.config.ts `isolate: false`): the
// app's modules are imported once and keep the stand-in they got first, so every file's vi.mock
// hands out these same ones (this module, too, is imported once per worker), and a test that reads
// or changes a stand-in reaches the one the app calls.
export const io = vi.fn();
export const reloadPage = vi.fn();
export const goToUrl = vi.fn();
export const showOfflinePage = vi.fn();
export const waitBeforeSubmit = vi.fn<(delayMs?: number) => Promise<void>>();

// Before every test: each stand-in as a test first finds it, whatever an earlier test (of this
// file or another) made it do.
export const resetModuleMocks = () => {
  io.mockReset().mockImplementation(() => createFakeSocket());
  reloadPage.mockReset();
  goToUrl.mockReset();
  showOfflinePage.mockReset();
  waitBeforeSubmit.mockReset().mockResolvedValue(undefined);
};
