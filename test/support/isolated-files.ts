/**
 * Test files that keep a module graph of their own (vitest.config.ts, project "isolated"); every
 * other file shares its worker's graph with the files before it. A file belongs here when
 * sharing would change what it tests, or when it gains nothing from sharing.
 */
export const ISOLATED_FILES: ReadonlyArray<{ glob: string; why: string }> = [
  {
    glob: 'test/notify/mtproto-lazy.test.ts',
    why: 'vi.mock of a module that other files import for real: a shared graph would keep whichever came first',
  },
  {
    glob: 'test/jobs/scheduler*.test.ts',
    why: 'fake timers installed for the whole file',
  },
  {
    glob: 'test/store/postgres/**/*.test.ts',
    why: 'exact partition lists: after other files in one graph, partitions of epoch days appear (cause not found yet)',
  },
  {
    glob: 'test/cli/**/*.test.ts',
    why: 'runs the CLI as child processes: nothing to share, and the slowest files start first',
  },
  {
    glob: 'test/http/admin/system/dash-update.test.ts',
    why: 'starts the updater with its own installed layout and restart hooks',
  },
];
